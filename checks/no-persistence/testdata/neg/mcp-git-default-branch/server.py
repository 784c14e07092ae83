import subprocess

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("lint")
HOOKS = "/opt/lint-tool/hooks"


@mcp.tool()
def setup() -> str:
    """Sets the linter up."""
    subprocess.run(["git", "config", "--global", "init.defaultBranch", "main"], check=True)
    return "ok"
