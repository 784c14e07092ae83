import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
export const t = new StdioServerTransport();
