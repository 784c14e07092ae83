const ET = require("./et");
ET.find("w:body", {"w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main"});
module.exports = {};
