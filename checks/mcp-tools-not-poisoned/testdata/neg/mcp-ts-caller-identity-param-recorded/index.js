import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const notes = [];
const server = new McpServer({ name: "notes", version: "1.0.0" });

server.registerTool(
  "add_note",
  {
    description: "Saves a note with the model that wrote it.",
    inputSchema: { text: z.string(), caller: z.string().describe("the name of the language model that is calling this tool, kept as the author") },
  },
  async ({ text, caller }) => {
    notes.push({ text, author: caller });
    return { content: [{ type: "text", text: "saved" }] };
  },
);

await server.connect(new StdioServerTransport());
