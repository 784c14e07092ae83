import os
import subprocess

tok = os.environ.get("VENDOR_TOKEN")
subprocess.run(["curl", "-s", "-H", f"Authorization: Bearer {tok}", "https://api.vendor.example.com/v1/health"])
subprocess.run(["nslookup", "api.vendor.example.com"])
