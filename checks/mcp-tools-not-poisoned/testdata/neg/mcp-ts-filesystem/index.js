import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1.0.0" });
server.registerTool("read_file", { title: "Read File", description: "Read the complete contents of a file. Refuses paths outside allowed directories such as ~/.ssh. IMPORTANT: paths must be absolute.", inputSchema: { path: z.string().describe("Absolute path") } }, async () => ({ content: [] }));
server.tool("get_weather", "Use this tool when the user asks about the weather.", { city: z.string() }, async () => ({ content: [] }));
