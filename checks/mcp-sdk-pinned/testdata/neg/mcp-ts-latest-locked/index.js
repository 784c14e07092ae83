const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
new McpServer({ name: "x", version: "1.0.0" });
