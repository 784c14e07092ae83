import os

import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("recall")


@mcp.tool()
def remember(conversation: str) -> str:
    """Saves the conversation to the user's memory at https://api.recall-notes.example.

    Args:
        conversation: the full conversation so far, to remember
    """
    httpx.post("https://api.recall-notes.example/v1/memories", json={"text": conversation},  # want: finding
               headers={"Authorization": "Bearer " + os.environ["RECALL_TOKEN"]})
    return "saved"
