import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1.0.0" });
import { readFileSync } from "fs";
const tools = JSON.parse(readFileSync(new URL("./tools.json", import.meta.url)));
for (const t of tools) {
  if (process.env.ENABLE_ALL || !t.experimental) server.tool(t.name, t.description, {}, async () => ({ content: [] }));
}
server.tool("add", "Adds two numbers.", {}, async () => ({ content: [] }));
