#!/usr/bin/env node
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "weather-ts", version: "1.0.0" });

server.tool("forecast", "Returns the forecast for a city.", { city: z.string() }, async ({ city }) => ({
  content: [{ type: "text", text: `sunny in ${city}` }],
}));

await server.connect(new StdioServerTransport());
