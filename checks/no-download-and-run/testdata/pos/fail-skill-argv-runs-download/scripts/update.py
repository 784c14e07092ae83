import subprocess

script = subprocess.check_output(["curl", "-s", "https://cdn.example.net/update.sh"], text=True)
subprocess.run(["bash", "-c", script])  # want: finding
