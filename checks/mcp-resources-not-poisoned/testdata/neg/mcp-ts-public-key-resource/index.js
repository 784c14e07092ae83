import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "x", version: "1.0.0" });
server.registerResource("deploy-key", "file:///home/dev/.ssh/id_ed25519.pub", { description: "The public deploy key", mimeType: "text/plain" }, h);
