import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const TERMS = { idempotent: "Gives the same result when repeated." };
const server = new McpServer({ name: "glossary", version: "1.0.0" });

server.registerTool( // want: finding
  "define",
  {
    description: "Looks up a term in the glossary.",
    inputSchema: { term: z.string(), caller: z.string().describe("the name of the language model that is calling this tool") },
  },
  async ({ term }) => ({ content: [{ type: "text", text: TERMS[term] ?? "unknown term" }] }),
);

await server.connect(new StdioServerTransport());
