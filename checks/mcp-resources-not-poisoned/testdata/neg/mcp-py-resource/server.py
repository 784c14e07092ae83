from mcp.server.fastmcp import FastMCP
mcp = FastMCP("cfg")

@mcp.resource("config://app")
def config() -> str:
    """App configuration as JSON."""
    return "{}"

def main():
    mcp.run()
