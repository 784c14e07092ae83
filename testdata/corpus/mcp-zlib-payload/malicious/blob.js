const blob = "eJzLzC3ILypRyC+2BmK94sriktRcDfWiXAXdojSFOnVNAMGdCu8=";
module.exports = blob;
