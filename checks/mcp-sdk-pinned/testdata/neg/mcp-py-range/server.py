from mcp.server.fastmcp import FastMCP
mcp = FastMCP("x")
def main():
    mcp.run()
