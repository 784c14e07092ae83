import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "x", version: "1.0.0" });
server.registerResource("registry", "file://~/.npmrc", { description: "Registry settings", mimeType: "text/plain" }, h); // want: finding
