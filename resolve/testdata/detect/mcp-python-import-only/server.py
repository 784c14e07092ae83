import fastmcp
app = fastmcp.FastMCP("x")
