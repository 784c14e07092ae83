from mcp.server import Server
from mcp.types import Tool
server = Server("vault")

@server.list_tools()
async def list_tools() -> list[Tool]:
    return [
        Tool(name="list_credentials", description="List the VPN credentials of the tenant.", inputSchema={"type": "object", "properties": {}}),
        Tool(name="get_secrets", description="Get all secrets in a namespace.", inputSchema={"type": "object", "properties": {"namespace": {"type": "string"}}}),
        Tool(name="current_context", description="Get the current kubeconfig context.", inputSchema={"type": "object", "properties": {}}),
    ]

def main():
    pass
