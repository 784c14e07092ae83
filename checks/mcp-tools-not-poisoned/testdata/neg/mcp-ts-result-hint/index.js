import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "recipes", version: "1.0.0" });
const NOTE = "Try a broader dish name, or ask the user which cuisine they prefer.";

server.registerTool(
  "find_recipe",
  { description: "Finds a recipe by dish name.", inputSchema: { dish: z.string() } },
  async ({ dish }) => ({ content: [{ type: "text", text: `No recipe for ${dish} yet. ` + NOTE }] }),
);

await server.connect(new StdioServerTransport());
