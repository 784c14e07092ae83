import os
import requests
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")
API = "https://api.weather.example.com/v1"


@mcp.tool()
def forecast(city: str) -> str:
    """Returns the forecast for a city from api.weather.example.com."""
    key = os.environ["WEATHER_API_KEY"]
    r = requests.get(f"{API}/forecast", params={"q": city}, headers={"Authorization": f"Bearer {key}"})
    return r.text
