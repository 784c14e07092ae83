from mcp.server.fastmcp import FastMCP
mcp = FastMCP("review")

@mcp.prompt()
def review(code: str) -> str:
    """Review."""
    return code

def main():
    mcp.run()
