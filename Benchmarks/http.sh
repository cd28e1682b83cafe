#!/usr/bin/env bash
# HTTP throughput of `tracedesk serve` against nginx serving a small static file, measured in
# the same run on the same machine with wrk, all on 127.0.0.1 (delays set to 0).
# Usage: Benchmarks/http.sh [DURATION_SECONDS]   (default 10 s per measurement)
# Prints a Markdown table for docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh bench
duration=${1:-10}
threads=2
connections=64

swift build -c release --product tracedesk >&2
bin=.build/release/tracedesk
source Benchmarks/lib.sh
nginx_port=$(free_port)
phone_port=$(free_port)
internal_port=$(free_port)

# nginx: a 40-byte file.
mkdir -p "$work/www"
printf '{"oldest":1,"newest":14,"note":"static"}' > "$work/www/small.json"
start_nginx "$nginx_port"

# tracedesk serve: defaults (4 threads, access log on, to a file), delays 0.
"$bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1
# The hospital system's key for POST /v1/otp (his_auth key), with a rate no run reaches.
printf 'bench-admin-pass-1\n' | "$bin" staff add boss --role admin --password-stdin --store "$work/bench.sqlite" >/dev/null
HIS_KEY=$(printf 'bench-admin-pass-1\n' | "$bin" his add bench-his --rate 1000000 --user boss --password-stdin \
  --store "$work/bench.sqlite" | grep -oE 'tdh_[A-Za-z0-9_-]{43}')
export HIS_KEY
TRACEDESK_CHECK_DELAY_MEAN_MS=0 TRACEDESK_CHECK_DELAY_SD_MS=0 "$bin" serve --store "$work/bench.sqlite" \
  --signing-key "$work/signing.pem" \
  --listen "127.0.0.1:$phone_port" --internal-listen "127.0.0.1:$internal_port" 2>"$work/serve.log" &
server_pid=$!
wait_http "http://127.0.0.1:$phone_port/"

# run NAME URL [wrk args…]: prints "NAME req/s p50 p99 non2xx".
results=()
run() {
  local name=$1 url=$2; shift 2
  local out
  out=$(wrk -t$threads -c$connections -d"${duration}s" --latency "$@" "$url")
  local rps p50 p99 bad
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
  p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
  bad=$(echo "$out" | sed -nE 's/.*non-2xx\/3xx: ([0-9]+).*/\1/p; s/.*Non-2xx or 3xx responses: ([0-9]+).*/\1/p' | head -n1)
  results+=("$name|$rps|$p50|$p99|${bad:-0}")
  echo "$name: $rps req/s (p50 $p50, p99 $p99, non-2xx ${bad:-0})" >&2
}

run "nginx, static 40-byte file" "http://127.0.0.1:$nginx_port/small.json"
run "GET /v1/settings (ios, build 1)" "http://127.0.0.1:$phone_port/v1/settings?platform=ios&build=1"
run "POST /v1/otp, unique valid codes" "http://127.0.0.1:$internal_port" -s Benchmarks/otp.lua
seed=$((duration * 9000))
"$bin" bench seed --store "$work/bench.sqlite" --count "$seed" --tokens "$work/tokens-a" >&2
THREADS=$threads TOKENS="$work/tokens-a" run "POST /v1/ingestion/upload, 14 keys" "http://127.0.0.1:$phone_port" -s Benchmarks/upload.lua
"$bin" bench seed --store "$work/bench.sqlite" --count "$seed" --tokens "$work/tokens-b" >&2
THREADS=$threads TOKENS="$work/tokens-b" PADDING=107500 run "upload, 14 keys padded to ~110 000 bytes" "http://127.0.0.1:$phone_port" \
  -s Benchmarks/upload.lua
peak_kb=$(awk '/VmHWM/ {print $2}' "/proc/$server_pid/status")
rss_kb=$(awk '/VmRSS/ {print $2}' "/proc/$server_pid/status")

nginx_rps=$(echo "${results[0]}" | cut -d'|' -f2)
echo
echo "Machine: $(nproc) cores, $(awk '/model name/ {sub(/.*: /, ""); print; exit}' /proc/cpuinfo);" \
  "wrk -t$threads -c$connections -d${duration}s on 127.0.0.1; $(date -u +%F)"
echo
echo "| measurement | requests/s | ratio to nginx | p50 | p99 | non-2xx |"
echo "|---|---:|---:|---:|---:|---:|"
for row in "${results[@]}"; do
  IFS='|' read -r name rps p50 p99 bad <<<"$row"
  ratio=$(awk -v a="$rps" -v b="$nginx_rps" 'BEGIN { printf "%.2f", a / b }')
  echo "| $name | $rps | $ratio | $p50 | $p99 | $bad |"
done
echo
echo "tracedesk serve memory: peak RSS $((peak_kb / 1024)) MB, RSS at the end $((rss_kb / 1024)) MB"
