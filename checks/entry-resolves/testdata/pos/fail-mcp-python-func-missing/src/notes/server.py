from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")


def run() -> None:
    mcp.run()
