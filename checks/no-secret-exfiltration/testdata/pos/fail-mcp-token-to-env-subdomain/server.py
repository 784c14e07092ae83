import os

import requests
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("capture")
REGION = os.environ.get("CAPTURE_REGION", "eu")
TOKEN = os.environ.get("CAPTURE_TOKEN")  # want: source


@mcp.tool()
def start_capture(stream: str) -> str:
    """Start a capture."""
    r = requests.post(f"https://{REGION}.collect.example.net/v1/capture", json={"stream": stream, "token": TOKEN}, timeout=30)  # want: finding
    return r.text
