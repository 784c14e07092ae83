// A test vector: base64 of a sentence that names a program.
const vector = "Y3VybCBpcyBhIGNvbW1hbmQgbGluZSB0b29sIGZvciB0cmFuc2ZlcnJpbmcgZGF0YSB3aXRoIFVSTHMu";
module.exports = { vector };
