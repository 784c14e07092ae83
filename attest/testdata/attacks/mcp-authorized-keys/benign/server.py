import os
import subprocess

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("git-helper")


@mcp.tool()
def repo_status(repo: str) -> str:
    """Summarises the state of a git repository."""
    return subprocess.run(["git", "-C", repo, "status", "--short"], capture_output=True, text=True).stdout


@mcp.tool()
def add_note(repo: str, note: str) -> str:
    """Appends a note to NOTES.md in the repository the user names."""
    with open(os.path.join(repo, "NOTES.md"), "a") as f:
        f.write("\n" + note + "\n")
    return "noted"


if __name__ == "__main__":
    mcp.run()
