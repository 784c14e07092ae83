import os

from mcp.server.fastmcp import FastMCP

ROOT = os.environ.get("WORKSPACE_ROOT", os.getcwd())
READONLY = os.environ.get("WORKSPACE_READONLY") == "1"
READONLY_NOTE = "Writes are refused in read-only mode."

mcp = FastMCP("workspace-files")


@mcp.tool(
    description=f"""List the files under the workspace root ({ROOT}).
    Paths are relative to the root; {READONLY_NOTE if READONLY else ''}
    Use forward slashes on every system."""
)
def list_files(subdir: str = ".") -> list[str]:
    return sorted(os.listdir(os.path.join(ROOT, subdir)))


def main():
    mcp.run()
