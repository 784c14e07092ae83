import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "x", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
server.tool("add", "Adds two numbers.", {}, async () => ({ content: [] }));
