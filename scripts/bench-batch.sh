#!/usr/bin/env bash
# Batch throughput: evaluates N artifacts with one worker and with one per
# CPU, without the cache, then again with a warm cache; prints wall time,
# artifacts/s and peak RSS. The artifacts are copies (each made distinct)
# of the directories under SOURCE, each an artifact (for example a
# checkout's skills/ and src/ directories), or of the bundled samples.
# Usage: scripts/bench-batch.sh [N] [SOURCE_DIR...]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100}
shift || true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CGO_ENABLED=0 go build -trimpath -o "$work/attest" ./cmd/attest
samples=()
if [ $# -eq 0 ]; then set -- testdata/samples; fi
for src in "$@"; do
  for d in "$src"/*/; do samples+=("${d%/}"); done
done
for i in $(seq 1 "$n"); do
  s=${samples[$(( (i - 1) % ${#samples[@]} ))]}
  cp -R "$s" "$work/a$i"
  printf '\n<!-- copy %d -->\n' "$i" >> "$work/a$i/README.md"
  echo "$work/a$i" >> "$work/list.txt"
done
export ATTEST_CACHE_DIR="$work/cache"
measure() { # label, args...
  local label=$1; shift
  local t0 t1 rss
  t0=$(date +%s%N)
  /usr/bin/time -o "$work/rss" -f '%M' "$work/attest" run --from "$work/list.txt" "$@" >/dev/null 2>&1 || true
  t1=$(date +%s%N)
  rss=$(tail -1 "$work/rss")
  awk -v l="$label" -v ns=$((t1 - t0)) -v n="$n" -v kb="$rss" 'BEGIN {printf "%-34s %8.0f ms  %7.1f artifacts/s  peak RSS %.1f MiB\n", l, ns/1e6, n/(ns/1e9), kb/1024}'
}
echo "$n artifacts from ${#samples[@]} distinct ($(du -sh "$work" | cut -f1)), $(nproc) cores, $(go version | cut -d' ' -f3)"
measure "1 worker, no cache" --jobs 1 --no-cache
measure "$(nproc) workers, no cache" --jobs "$(nproc)" --no-cache
measure "$(nproc) workers, filling the cache" --jobs "$(nproc)"
measure "$(nproc) workers, warm cache" --jobs "$(nproc)"
