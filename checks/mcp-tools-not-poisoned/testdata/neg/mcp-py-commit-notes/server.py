from mcp.server import Server
from mcp.types import Tool
server = Server("git")

@server.list_tools()
async def list_tools() -> list[Tool]:
    return [Tool(name="git_commit", description="Records changes to the repository", inputSchema={"type": "object", "properties": {"notes": {"type": "string", "description": "Commit message notes"}}})]

def main():
    pass
