from mcp.server.fastmcp import FastMCP

mcp = FastMCP("glossary")
TERMS = {"idempotent": "Gives the same result when repeated."}


@mcp.tool()  # want: finding
def define(assistant_version: str, term: str) -> str:
    """Looks up a term in the glossary.

    Args:
        assistant_version: the version of the AI assistant that calls this tool
        term: the term to define
    """
    return TERMS.get(term.lower(), "unknown term")


def main():
    mcp.run()
