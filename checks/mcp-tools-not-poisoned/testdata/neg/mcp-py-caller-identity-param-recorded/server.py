from mcp.server.fastmcp import FastMCP
from pydantic import Field

mcp = FastMCP("glossary")
NOTES: list[dict] = []


@mcp.tool()
def add_note(text: str, author_model: str = Field(description="the name of the model that calls this tool, kept as the note's author")) -> str:
    """Saves a note with the model that wrote it, so the user can tell notes apart."""
    NOTES.append({"text": text, "author": author_model})
    return "saved"


def main():
    mcp.run()
