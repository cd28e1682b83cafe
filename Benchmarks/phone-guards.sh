#!/usr/bin/env bash
# What the guess limit of issue 18 (point 10a) costs: upload and /v1/settings throughput of two
# `tracedesk serve`s in one run, one with the limit (otp_guess_limit, the default 100) and one
# without it (otp_guess_limit 0), measured alternately (on, off, on, off) with wrk on 127.0.0.1.
# Both run this build, so both key codes by OtpHash.stored and coalesce checks: those cannot be
# switched off; the limit is what is compared.
# Usage: Benchmarks/phone-guards.sh [DURATION_SECONDS] [ROUNDS]   (default 10 s, 2 rounds)
# Prints a Markdown table for docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh bench
duration=${1:-10}
rounds=${2:-2}
threads=2
connections=64

swift build -c release --product tracedesk >&2
bin=.build/release/tracedesk
source Benchmarks/lib.sh
"$bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1

pids=()
stop_servers() { for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done; }
trap 'stop_servers; cleanup' EXIT

# start NAME LIMIT: a server with otp_guess_limit LIMIT on its own store; sets port_NAME.
start() {
  local name=$1 limit=$2 phone internal
  phone=$(free_port)
  internal=$(free_port)
  TRACEDESK_CHECK_DELAY_MEAN_MS=0 TRACEDESK_CHECK_DELAY_SD_MS=0 TRACEDESK_OTP_GUESS_LIMIT=$limit \
    "$bin" serve --store "$work/$name.sqlite" --signing-key "$work/signing.pem" \
    --listen "127.0.0.1:$phone" --internal-listen "127.0.0.1:$internal" 2>"$work/$name.log" &
  pids+=($!)
  wait_http "http://127.0.0.1:$phone/"
  printf -v "port_$name" '%s' "$phone"
}
start on 100
start off 0

# measure URL [wrk args…]: prints requests/s.
measure() {
  local url=$1; shift
  wrk -t$threads -c$connections -d"${duration}s" "$@" "$url" | awk '/Requests\/sec/ {print $2}'
}

declare -A sums
seed=$((duration * 9000))
for round in $(seq 1 "$rounds"); do
  for name in on off; do
    port_var="port_$name"
    port=${!port_var}
    "$bin" bench seed --store "$work/$name.sqlite" --count "$seed" --tokens "$work/tokens-$name-$round" >&2
    rps=$(THREADS=$threads TOKENS="$work/tokens-$name-$round" measure "http://127.0.0.1:$port" -s Benchmarks/upload.lua)
    echo "round $round, limit $name: upload $rps req/s" >&2
    sums[upload_$name]=$(awk -v a="${sums[upload_$name]:-0}" -v b="$rps" 'BEGIN { print a + b }')
    rps=$(measure "http://127.0.0.1:$port/v1/settings?platform=ios&build=1")
    echo "round $round, limit $name: settings $rps req/s" >&2
    sums[settings_$name]=$(awk -v a="${sums[settings_$name]:-0}" -v b="$rps" 'BEGIN { print a + b }')
  done
done

echo
echo "Machine: $(nproc) cores, $(lscpu | sed -nE 's/^Model name: +//p'), shared with other builds;" \
  "wrk -t$threads -c$connections -d${duration}s on 127.0.0.1, $rounds rounds alternating; $(date -u +%F)"
echo
echo "| measurement | with the guess limit, req/s | without, req/s | ratio with/without |"
echo "|---|---:|---:|---:|"
for what in upload settings; do
  on=$(awk -v s="${sums[${what}_on]}" -v n="$rounds" 'BEGIN { printf "%.0f", s / n }')
  off=$(awk -v s="${sums[${what}_off]}" -v n="$rounds" 'BEGIN { printf "%.0f", s / n }')
  ratio=$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.3f", a / b }')
  label=$([ "$what" = upload ] && echo "POST /v1/ingestion/upload, 14 keys" || echo "GET /v1/settings (ios, build 1)")
  echo "| $label | $on | $off | $ratio |"
done
