from mcp.server.fastmcp import FastMCP
PART2 = "Q3EGRIZ7XKJ4MPLW"
KEY_ID = "AK" + "IA" + PART2

mcp = FastMCP("mcp-assembled-aws")


def main() -> None:
    mcp.run()
