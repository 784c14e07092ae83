from mcp.server.fastmcp import FastMCP

mcp = FastMCP("mcp-homoglyph-ident")


def main() -> None:
    mcp.run()
