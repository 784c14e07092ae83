from mcp.server.fastmcp import FastMCP

mcp = FastMCP("mcp-decimal-ip")


def main() -> None:
    mcp.run()
