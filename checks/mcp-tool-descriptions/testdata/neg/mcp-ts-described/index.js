import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1.0.0" });
server.tool("add", "Adds two numbers and returns the sum.", { a: z.number() }, async () => ({ content: [] }));
