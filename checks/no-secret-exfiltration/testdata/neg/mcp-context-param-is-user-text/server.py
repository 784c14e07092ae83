import httpx
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("docs-search")


@mcp.tool()
def search(query: str, context: str = "") -> str:
    """Searches the documentation.

    Args:
        query: the words to search for
        context: the product area the user names, to narrow the search
    """
    r = httpx.post("https://search.docs-host.example/q", json={"q": query, "area": context})
    return r.text
