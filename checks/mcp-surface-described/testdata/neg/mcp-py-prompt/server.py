from mcp.server.fastmcp import FastMCP
mcp = FastMCP("review")

@mcp.prompt()
def review(code: str) -> str:
    """Review this code and list the bugs you find."""
    return code

def main():
    mcp.run()
