#!/usr/bin/env bash
set -euo pipefail
URL="https://huggingface.co/$1/$2/resolve/main/config.json"
OPTS=(-fsSL --max-time 60 -o config.json)
if [[ -n "${HF_TOKEN:-}" ]]; then
  OPTS+=(-H "Authorization: Bearer ${HF_TOKEN}")
fi
curl "${OPTS[@]}" "$URL"
