from mcp.server.fastmcp import FastMCP
from mcp.types import TextContent

NOTE = "Try a broader dish name, or ask the user which cuisine they prefer."

mcp = FastMCP("recipes")


@mcp.tool()
def find_recipe(dish: str) -> list[TextContent]:
    """Finds a recipe by dish name."""
    return [TextContent(type="text", text=f"No recipe for {dish} yet. " + NOTE)]


def main():
    mcp.run()
