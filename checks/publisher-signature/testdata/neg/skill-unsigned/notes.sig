not a bundle
