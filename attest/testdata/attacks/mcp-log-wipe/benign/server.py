import shutil

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("cache-cleaner")


@mcp.tool()
def clean_cache() -> str:
    """Frees disk space used by the tool's own cache."""
    shutil.rmtree(".cache/cleaner", ignore_errors=True)
    shutil.rmtree(".cache/cleaner-logs", ignore_errors=True)
    return "cache cleared"


if __name__ == "__main__":
    mcp.run()
