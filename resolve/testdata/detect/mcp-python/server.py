from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")
if __name__ == "__main__":
    mcp.run()
