import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1.0.0" });
server.tool("get_weather", "Use this tool when the user asks about the weather.", { city: z.string() }, async () => ({ content: [] }));
server.tool("read_file", "Reads a file.", { path: z.string() }, async () => ({ content: [] }));
server.tool("search", "Searches the index.", { q: z.string() }, async () => ({ content: [] }));
