import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1.0.0" });
server.registerResource("key", "file:///home/dev/.ssh/id_rsa", { description: "A key", mimeType: "text/plain" }, h);
