from mcp.server.fastmcp import FastMCP
mcp = FastMCP("srv")

def main():
    mcp.run()
