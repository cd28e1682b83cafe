#!/usr/bin/env bash
# What naming hospital systems costs on POST /v1/otp: the same load against two servers of one
# binary, his_auth key (an HIS client's key looked up and hashed on every request) and his_auth
# none (the old anonymous door), each on a store of its own, measured in one run, alternating.
# Usage: Benchmarks/his.sh [DURATION_SECONDS] [BINARY]   (default 10 s per measurement, the
# release build). Prints the req/s of each round and the ratio key / none.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10}
bin=${2:-}
if [ -z "$bin" ]; then
  swift build -c release --product tracedesk >&2
  bin=.build/release/tracedesk
fi
source Benchmarks/lib.sh
"$bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1

# serve MODE → starts a server on a store of its own; echoes "PID PORT".
serve() {
  local mode=$1 port
  port=$(free_port)
  TRACEDESK_HIS_AUTH=$mode TRACEDESK_CHECK_DELAY_MEAN_MS=0 TRACEDESK_CHECK_DELAY_SD_MS=0 \
    TRACEDESK_HIS_RATE_PER_MINUTE=1000000 "$bin" serve --store "$work/$mode.sqlite" \
    --signing-key "$work/signing.pem" --listen "127.0.0.1:$(free_port)" --internal-listen "127.0.0.1:$port" \
    2>"$work/$mode.log" &
  echo "$! $port"
}
printf 'bench-admin-pass-1\n' | "$bin" staff add boss --role admin --password-stdin --store "$work/key.sqlite" >/dev/null
HIS_KEY=$(printf 'bench-admin-pass-1\n' | "$bin" his add bench-his --user boss --password-stdin \
  --store "$work/key.sqlite" | grep -oE 'tdh_[A-Za-z0-9_-]{43}')
export HIS_KEY
read -r key_pid key_port < <(serve key)
read -r none_pid none_port < <(serve none)
server_pid=$key_pid
trap 'kill -TERM $key_pid $none_pid 2>/dev/null; cleanup' EXIT
wait_http "http://127.0.0.1:$key_port/"
wait_http "http://127.0.0.1:$none_port/"

# rps PORT → req/s; a run with any answer but 204 is not a measurement of this door.
rps() {
  local out bad
  out=$(wrk -t2 -c32 -d"${duration}s" -s Benchmarks/otp.lua "http://127.0.0.1:$1")
  bad=$(echo "$out" | sed -nE 's/^non-2xx\/3xx: ([0-9]+).*/\1/p')
  if [ "${bad:-0}" != 0 ]; then echo "$bad answers were not 204: $out" >&2; exit 1; fi
  echo "$out" | awk '/Requests\/sec/ {print $2}'
}
declare -a key_runs none_runs
for round in 1 2; do
  key_runs+=("$(rps "$key_port")")
  none_runs+=("$(rps "$none_port")")
  echo "round $round: key ${key_runs[-1]} req/s, none ${none_runs[-1]} req/s" >&2
done
key_sum=$(printf '%s\n' "${key_runs[@]}" | awk '{s+=$1} END {print s}')
none_sum=$(printf '%s\n' "${none_runs[@]}" | awk '{s+=$1} END {print s}')
echo "| his_auth | POST /v1/otp req/s (rounds) |"
echo "|---|---|"
echo "| none | ${none_runs[*]} |"
echo "| key | ${key_runs[*]} |"
awk -v k="$key_sum" -v n="$none_sum" 'BEGIN { printf "key / none: %.3f\n", k / n }'
