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
declare -A ms kb
measure() { # key, label, args...
  local key=$1 label=$2; shift 2
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -o "$work/rss" -f '%M' "$work/attest" run --from "$work/list.txt" "$@" >/dev/null 2>&1 || true
  t1=$(date +%s%N)
  ms[$key]=$(( (t1 - t0) / 1000000 ))
  kb[$key]=$(tail -1 "$work/rss")
  awk -v l="$label" -v m="${ms[$key]}" -v n="$n" -v k="${kb[$key]}" 'BEGIN {printf "%-34s %8d ms  %7.1f artifacts/s  peak RSS %.1f MiB\n", l, m, n/(m/1000), k/1024}'
}
echo "$n artifacts from ${#samples[@]} distinct ($(du -sh "$work" | cut -f1)), $(nproc) cores, $(go version | cut -d' ' -f3)"
measure one "1 worker, no cache" --jobs 1 --no-cache
measure all "$(nproc) workers, no cache" --jobs "$(nproc)" --no-cache
measure fill "$(nproc) workers, filling the cache" --jobs "$(nproc)"
measure warm "$(nproc) workers, warm cache" --jobs "$(nproc)"
# The targets: both cores used (at most 0.6 of one worker's time), peak
# RSS under 100 MiB, a warm cache at least 20 times faster.
status=0
check() { if awk "BEGIN {exit !($2)}"; then echo "met:     $1"; else echo "NOT MET: $1"; status=1; fi; }
check "$(nproc) workers take $(awk -v a="${ms[all]}" -v b="${ms[one]}" 'BEGIN {printf "%.2f", a/b}') of one worker's time (at most 0.6)" "${ms[all]} <= 0.6 * ${ms[one]}"
check "peak RSS $(( ${kb[fill]} / 1024 )) MiB (under 100)" "${kb[fill]} < 100 * 1024 && ${kb[all]} < 100 * 1024"
check "the warm cache is $(awk -v a="${ms[all]}" -v b="${ms[warm]}" 'BEGIN {printf "%.0f", a/b}')x faster (at least 20)" "${ms[all]} >= 20 * ${ms[warm]}"
exit $status
