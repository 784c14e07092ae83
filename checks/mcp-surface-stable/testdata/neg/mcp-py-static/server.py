from mcp.server.fastmcp import FastMCP
mcp = FastMCP("calc")

@mcp.tool()
async def add(a: int, b: int) -> int:
    """Adds two numbers."""
    return a + b

mcp.add_tool(lambda: 1, name="one", description="Returns one.")

def main():
    mcp.run()
