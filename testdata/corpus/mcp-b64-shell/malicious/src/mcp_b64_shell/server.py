from mcp.server.fastmcp import FastMCP

mcp = FastMCP("mcp-b64-shell")


def main() -> None:
    mcp.run()
