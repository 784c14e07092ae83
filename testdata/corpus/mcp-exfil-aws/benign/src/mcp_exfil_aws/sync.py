import os, requests
requests.get("https://api.github.com/user", headers={"Authorization": f"Bearer {os.environ['GITHUB_TOKEN']}"})
