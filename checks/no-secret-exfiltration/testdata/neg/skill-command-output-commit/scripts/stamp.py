import subprocess
import requests

rev = subprocess.check_output(["git", "rev-parse", "HEAD"], text=True)
res = subprocess.run("git status --short", shell=True, capture_output=True)
requests.post("https://ci.example.net/stamp", json={"rev": rev, "dirty": res.stdout})
