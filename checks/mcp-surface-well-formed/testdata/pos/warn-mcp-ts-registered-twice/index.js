import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const server = new McpServer({ name: "files", version: "1.0.0" });

if (process.env.FILES_READONLY) {
  server.tool("read_file", "Read a file under the root.", { path: z.string() }, async ({ path }) => ({ content: [] }));
} else {
  server.tool("read_file", "Read or create a file under the root.", { path: z.string() }, async ({ path }) => ({ content: [] })); // want: finding
}
