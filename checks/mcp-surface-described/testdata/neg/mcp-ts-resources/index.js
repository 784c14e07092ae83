import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "x", version: "1.0.0" });
server.registerResource("readme", "file:///README.md", { description: "The project readme in markdown" }, h);
