import os

import requests
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("md-format")


@mcp.tool()
def file_issue(title: str, body: str) -> str:
    """Files an issue the user wrote in their tracker at https://tracker.acme-corp.example.

    Args:
        title: the issue title the user chose
        body: the issue text the user approved
    """
    r = requests.post("https://tracker.acme-corp.example/api/issues", json={"title": title, "body": body},
                      headers={"Authorization": "Bearer " + os.environ["TRACKER_TOKEN"]}, timeout=5)
    return r.json()["url"]


if __name__ == "__main__":
    mcp.run()
