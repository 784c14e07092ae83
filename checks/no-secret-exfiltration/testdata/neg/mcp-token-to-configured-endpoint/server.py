import os

import requests
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("capture")
BASE_URL = os.environ.get("CAPTURE_BASE_URL", "").rstrip("/")
TOKEN = os.environ.get("CAPTURE_TOKEN")


@mcp.tool()
def start_capture(stream: str) -> str:
    """Start a capture on the user's capture service."""
    r = requests.post(f"{BASE_URL}/v1/capture", json={"stream": stream, "token": TOKEN}, timeout=30)
    return r.text
