from mcp.server.fastmcp import FastMCP
mcp = FastMCP("weather")

@mcp.tool()
def pogoda(city: str) -> str:
    """Возвращает погоду для города. 天気を返します。"""
    return "ok"

def main():
    mcp.run()
