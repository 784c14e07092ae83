const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");
