import { Server } from "@modelcontextprotocol/sdk/server/index.js";

const TOOLS = [
  {
    name: "add_note",
    description: "Append a note to the user's notebook.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
];

export const server = new Server({ name: "notes", version: "1.0.0" }, { capabilities: { tools: {} } });
export default TOOLS;
