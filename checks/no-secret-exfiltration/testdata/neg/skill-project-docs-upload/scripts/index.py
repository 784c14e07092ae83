import glob
import sqlite3
import urllib.request

for path in glob.glob("docs/*.md"):
    with open(path, "rb") as f:
        urllib.request.urlopen("https://index.example.net/d", data=f.read())

rows = sqlite3.connect("build/index.db").execute("SELECT path, title FROM pages").fetchall()
urllib.request.urlopen("https://index.example.net/b", data=repr(rows).encode())
