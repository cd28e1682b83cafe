#!/usr/bin/env bash
# What issue 18's checks cost, all together: upload and /v1/settings throughput of two
# `tracedesk serve`s in one run, the build before the issue (BASE) and this one (NEW), measured
# alternately (base, new, base, new…) with wrk on 127.0.0.1 (keep-alive connections, as phones
# and proxies use). NEW runs with every default on: the head gate, the guess limit, the stored
# codes' one-way keys, coalesced checks. Both get their codes from their own `bench seed`.
# Usage: Benchmarks/trust-cost.sh BASE_BIN NEW_BIN [DURATION_SECONDS] [ROUNDS]   (10 s, 3 rounds)
# Prints a Markdown table for docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh bench
base_bin=$(realpath "$1")
new_bin=$(realpath "$2")
duration=${3:-10}
rounds=${4:-3}
threads=2
connections=64

source Benchmarks/lib.sh
"$new_bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1

pids=()
stop_servers() { for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done; }
trap 'stop_servers; cleanup' EXIT

# start NAME BIN: a server on its own store, delays off; sets port_NAME.
start() {
  local name=$1 bin=$2 phone internal
  phone=$(free_port)
  internal=$(free_port)
  TRACEDESK_CHECK_DELAY_MEAN_MS=0 TRACEDESK_CHECK_DELAY_SD_MS=0 \
    "$bin" serve --store "$work/$name.sqlite" --signing-key "$work/signing.pem" \
    --listen "127.0.0.1:$phone" --internal-listen "127.0.0.1:$internal" 2>"$work/$name.log" &
  pids+=($!)
  wait_http "http://127.0.0.1:$phone/"
  printf -v "port_$name" '%s' "$phone"
}
start base "$base_bin"
start new "$new_bin"

measure() {
  local url=$1; shift
  wrk -t$threads -c$connections -d"${duration}s" "$@" "$url" | awk '/Requests\/sec/ {print $2}'
}

declare -A sums
seed=$((duration * 9000))
for round in $(seq 1 "$rounds"); do
  for name in base new; do
    port_var="port_$name"
    port=${!port_var}
    bin_var="${name}_bin"
    "${!bin_var}" bench seed --store "$work/$name.sqlite" --count "$seed" --tokens "$work/tokens-$name-$round" >&2
    rps=$(THREADS=$threads TOKENS="$work/tokens-$name-$round" measure "http://127.0.0.1:$port" -s Benchmarks/upload.lua)
    echo "round $round, $name: upload $rps req/s" >&2
    sums[upload_$name]=$(awk -v a="${sums[upload_$name]:-0}" -v b="$rps" 'BEGIN { print a + b }')
    rps=$(measure "http://127.0.0.1:$port/v1/settings?platform=ios&build=1")
    echo "round $round, $name: settings $rps req/s" >&2
    sums[settings_$name]=$(awk -v a="${sums[settings_$name]:-0}" -v b="$rps" 'BEGIN { print a + b }')
  done
done

echo
echo "Machine: $(nproc) cores, $(lscpu | sed -nE 's/^Model name: +//p');" \
  "wrk -t$threads -c$connections -d${duration}s on 127.0.0.1, $rounds rounds alternating; $(date -u +%F)"
echo
echo "| measurement | before issue 18, req/s | with its checks, req/s | ratio with/before |"
echo "|---|---:|---:|---:|"
for what in upload settings; do
  b=$(awk -v s="${sums[${what}_base]}" -v n="$rounds" 'BEGIN { printf "%.0f", s / n }')
  n=$(awk -v s="${sums[${what}_new]}" -v n="$rounds" 'BEGIN { printf "%.0f", s / n }')
  ratio=$(awk -v a="$n" -v b="$b" 'BEGIN { printf "%.3f", a / b }')
  label=$([ "$what" = upload ] && echo "POST /v1/ingestion/upload, 14 keys" || echo "GET /v1/settings (ios, build 1)")
  echo "| $label | $b | $n | $ratio |"
done
