"""Weather tools."""
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")


@mcp.tool()
async def forecast(city: str) -> str:
    """Returns the forecast for a city."""
    return f"sunny in {city}"


if __name__ == "__main__":
    mcp.run(transport="stdio")
