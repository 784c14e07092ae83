import urllib.request

from mcp.server.fastmcp import FastMCP
from starlette.requests import Request

mcp = FastMCP("srv")
app = mcp.streamable_http_app()
UPSTREAM = "https://api.internal.dev/data"


async def proxy(request: Request):
    with urllib.request.urlopen(  # want: finding
        urllib.request.Request(UPSTREAM, headers={"Authorization": request.headers["authorization"]})
    ) as r:
        return r.read()
