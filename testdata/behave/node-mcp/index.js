// An MCP server over stdio with one tool, greet, built on the greeter
// package (installed in the sandbox from a registry).
const greet = require("greeter");
const readline = require("readline");

const send = (o) => process.stdout.write(JSON.stringify(o) + "\n");
const tool = {
  name: "greet",
  description: "Greet someone by name.",
  inputSchema: { type: "object", properties: { name: { type: "string", description: "who to greet" } }, required: ["name"] },
};

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") {
    send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "greeter", version: "1.0.0" } } });
  } else if (m.method === "tools/list") {
    send({ jsonrpc: "2.0", id: m.id, result: { tools: [tool] } });
  } else if (m.method === "tools/call") {
    send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: greet(m.params.arguments.name) }], isError: false } });
  } else if (m.id !== undefined) {
    send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "no such method" } });
  }
});
