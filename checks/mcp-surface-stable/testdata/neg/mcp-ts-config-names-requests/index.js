import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1.0.0" });
server.registerTool("crawl", { description: "Crawls a site.", inputSchema: { url: z.string(), requests: z.number() } }, async () => ({ content: [] }));
