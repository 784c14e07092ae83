from mcp.server import Server
from mcp.types import Tool
server = Server("time")

@server.list_tools()
async def list_tools() -> list[Tool]:
    return [Tool(name="get_current_time", description="Get current time in a specific timezone", inputSchema={"type": "object"})]

def main():
    pass
