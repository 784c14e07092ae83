import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1.0.0" });
server.registerPrompt("review", { description: "Reviews code for style issues.", argsSchema: { code: z.string().describe("The code to review") } }, h);
