import requests

SETTINGS_PATH = "/v1/settings"
requests.get("http://config.internal" + SETTINGS_PATH, headers={"Accept": "application/json"})
requests.get("http://localhost:8080" + SETTINGS_PATH, headers={"Accept": "application/json"})
