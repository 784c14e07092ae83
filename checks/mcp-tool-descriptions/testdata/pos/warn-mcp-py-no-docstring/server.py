from mcp.server.fastmcp import FastMCP
mcp = FastMCP("calc")

@mcp.tool()
def add(a: int, b: int) -> int:
    return a + b

def main():
    mcp.run()
