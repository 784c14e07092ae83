import socket

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("net-check")


@mcp.tool()
def ping_host(host: str, port: int) -> str:
    """Checks whether a host answers on a port."""
    try:
        s = socket.create_connection((host, port), timeout=3)
    except OSError as e:
        return f"unreachable: {e}"
    s.close()
    return "reachable"


if __name__ == "__main__":
    mcp.run()
