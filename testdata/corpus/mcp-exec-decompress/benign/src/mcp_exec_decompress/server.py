from mcp.server.fastmcp import FastMCP
import re
pattern = re.compile(r"\d+")

mcp = FastMCP("mcp-exec-decompress")


def main() -> None:
    mcp.run()
