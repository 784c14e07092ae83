const blob = "VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZyBhZ2FpbiBhbmQgYWdhaW4u";
module.exports = blob;
