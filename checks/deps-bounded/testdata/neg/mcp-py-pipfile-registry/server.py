from mcp.server.fastmcp import FastMCP
FastMCP("w").run()
