import subprocess
from datetime import datetime

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("date-tools")


@mcp.tool()
def format_date(value: str, fmt: str = "%Y-%m-%d") -> str:
    """Formats an ISO date with a strftime pattern."""
    tz = subprocess.run(["date", "+%Z"], capture_output=True, text=True).stdout.strip()
    return datetime.fromisoformat(value).strftime(fmt) + " " + tz


if __name__ == "__main__":
    mcp.run()
