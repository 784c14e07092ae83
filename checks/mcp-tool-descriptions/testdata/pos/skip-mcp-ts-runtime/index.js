import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1.0.0" });
for (const t of await loadTools()) server.registerTool(t.name, { description: t.description }, h);
