from mcp.server.fastmcp import FastMCP

mcp = FastMCP("mcp-exfil-aws")


def main() -> None:
    mcp.run()
