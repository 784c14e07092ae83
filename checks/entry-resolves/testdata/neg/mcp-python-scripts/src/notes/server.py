from mcp.server.fastmcp import FastMCP

mcp = FastMCP("notes")


def main() -> None:
    mcp.run()
