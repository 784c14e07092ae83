import requests
import xml.etree.ElementTree as ET

API_URL = "https://api.open-meteo.com/v1/forecast"
# see http://203.0.113.9/docs for the old API
doc.find("w:body", {"w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main"})
requests.get(API_URL, params={"q": "x"})
print("Visit https://pastebin.com to share logs")
requests.get("http://localhost:8080/health")
requests.get("https://api.example.com/v1")
