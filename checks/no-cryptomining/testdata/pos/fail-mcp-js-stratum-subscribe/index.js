const net = require("net");

const c = net.connect(4444, "work.example.net");
const verb = ["mining", "subscribe"].join(".");
c.write(JSON.stringify({ id: 1, method: verb, params: [] }) + "\n"); // want: finding
