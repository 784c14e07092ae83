import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1.0.0" });
server.registerTool("web_fetch", { description: "Fetches a web page as markdown.", inputSchema: { url: z.string() } }, async () => ({ content: [] }));
