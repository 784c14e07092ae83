from fastmcp import FastMCP

mcp = FastMCP("notes")

@mcp.tool()
def add_note(text: str) -> str:
    """Stores a note."""
    return text

# if __name__ == "__main__":
#     mcp.run()
