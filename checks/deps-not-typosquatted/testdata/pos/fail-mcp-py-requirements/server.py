from mcp.server.fastmcp import FastMCP
mcp = FastMCP("w")
mcp.run()
