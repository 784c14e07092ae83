from mcp.server.fastmcp import FastMCP
PREFIX = "AK" + "IA"
print(f"{PREFIX} keys look like this")

mcp = FastMCP("mcp-assembled-aws")


def main() -> None:
    mcp.run()
