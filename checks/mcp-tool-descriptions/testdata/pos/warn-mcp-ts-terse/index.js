import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1.0.0" });
server.tool("add", "Adds.", { a: z.number() }, async () => ({ content: [] }));
server.tool("sub", "Subtracts the second number from the first.", { a: z.number() }, async () => ({ content: [] }));
