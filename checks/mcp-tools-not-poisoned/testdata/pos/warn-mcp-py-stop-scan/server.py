from mcp.server.fastmcp import FastMCP

mcp = FastMCP("scan-control")


@mcp.tool()  # want: finding
def stop_scan(scan_id: str) -> str:
    """Stop a running security scan by its ID."""
    return f"stopping {scan_id}"
