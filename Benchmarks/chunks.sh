#!/usr/bin/env bash
# TEK chunks: the publishing job, and chunk downloads against nginx serving the same zip files
# from disk, measured in the same run on the same machine (wrk on 127.0.0.1).
# Usage: Benchmarks/chunks.sh [DURATION_SECONDS] [RUNS]   (default 10 s per download measurement,
# 3 publishing runs). Prints Markdown for docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh bench
duration=${1:-10}
runs=${2:-3}
threads=2
connections=64

swift build -c release --product tracedesk >&2
bin=.build/release/tracedesk
source Benchmarks/lib.sh

echo "## Publishing 100 000 keys (tracedesk bench publish --keys 100000, $runs runs)"
echo
echo "| run | keys | chunks | publishing run (store + build) | building alone | ratio |"
echo "|---:|---:|---:|---:|---:|---:|"
for run in $(seq "$runs"); do
  out=$("$bin" bench publish --keys 100000 --json)
  python3 - "$run" "$out" <<'PY'
import json, sys
r = json.loads(sys.argv[2])
print(f"| {sys.argv[1]} | {r['keys']} | {r['chunks']} | {r['publish_s']:.3f} s | {r['build_only_s']:.3f} s | {r['ratio']:.2f} |")
PY
done
echo

nginx_port=$(free_port)
phone_port=$(free_port)
internal_port=$(free_port)

# Two chunks: a full one (10 000 keys) and a small one (500 keys).
"$bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1
"$bin" bench keys --store "$work/bench.sqlite" --count 10000 >&2
"$bin" chunks publish --store "$work/bench.sqlite" --signing-key "$work/signing.pem" >&2
"$bin" bench keys --store "$work/bench.sqlite" --count 500 >&2
"$bin" chunks publish --store "$work/bench.sqlite" --signing-key "$work/signing.pem" >&2

"$bin" serve --store "$work/bench.sqlite" --signing-key "$work/signing.pem" \
  --listen "127.0.0.1:$phone_port" --internal-listen "127.0.0.1:$internal_port" 2>"$work/serve.log" &
server_pid=$!
wait_http "http://127.0.0.1:$phone_port/"

# nginx serves the very bytes tracedesk serves, from disk (2 workers, sendfile, no access log).
mkdir -p "$work/www"
curl -s -o "$work/www/1.zip" "http://127.0.0.1:$phone_port/v1/keys/1"
curl -s -o "$work/www/2.zip" "http://127.0.0.1:$phone_port/v1/keys/2"
start_nginx "$nginx_port" 'add_header Cache-Control "public, max-age=1296000";'

results=()
run() {
  local name=$1 url=$2
  local out rps p50 p99 bad transfer
  out=$(wrk -t$threads -c$connections -d"${duration}s" --latency "$url")
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  transfer=$(echo "$out" | awk '/Transfer\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
  p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
  bad=$(echo "$out" | sed -nE 's/.*Non-2xx or 3xx responses: ([0-9]+).*/\1/p' | head -n1)
  results+=("$name|$rps|$transfer|$p50|$p99|${bad:-0}")
  echo "$name: $rps req/s" >&2
}
size1=$(stat -c %s "$work/www/1.zip")
size2=$(stat -c %s "$work/www/2.zip")
run "nginx, 10 000-key chunk from disk ($size1 B)" "http://127.0.0.1:$nginx_port/1.zip"
run "GET /v1/keys/1 (10 000 keys, $size1 B)" "http://127.0.0.1:$phone_port/v1/keys/1"
run "nginx, 500-key chunk from disk ($size2 B)" "http://127.0.0.1:$nginx_port/2.zip"
run "GET /v1/keys/2 (500 keys, $size2 B)" "http://127.0.0.1:$phone_port/v1/keys/2"
run "nginx, 500-key chunk (again, after)" "http://127.0.0.1:$nginx_port/2.zip"
peak_kb=$(awk '/VmHWM/ {print $2}' "/proc/$server_pid/status")

echo "## Downloading chunks"
echo
echo "Machine: $(nproc) cores, $(awk '/model name/ {sub(/.*: /, ""); print; exit}' /proc/cpuinfo);" \
  "wrk -t$threads -c$connections -d${duration}s on 127.0.0.1; $(date -u +%F)"
echo
echo "| measurement | requests/s | transfer/s | ratio to nginx (same file) | p50 | p99 | non-2xx |"
echo "|---|---:|---:|---:|---:|---:|---:|"
base=""
for row in "${results[@]}"; do
  IFS='|' read -r name rps transfer p50 p99 bad <<<"$row"
  if [[ $name == nginx* ]]; then
    base=$rps
    ratio="1.00"
  else
    ratio=$(awk -v a="$rps" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
  fi
  echo "| $name | $rps | $transfer | $ratio | $p50 | $p99 | $bad |"
done
echo
echo "tracedesk serve memory: peak RSS $((peak_kb / 1024)) MB"
