#!/usr/bin/env bash
# Before/after of the write path (issue 23) on a busy machine: servers of two binaries (and the
# new one with group commit switched off) on stores of their own, measured in alternation, round
# after round, so that a change of the machine's load falls on all of them alike.
# POST /v1/otp (wrk -t2 -c64, Benchmarks/otp.lua) and 14-key uploads (Benchmarks/upload.lua,
# codes from each store's own `bench seed`), check delays 0, all on 127.0.0.1.
# Usage: Benchmarks/write-path-ab.sh BEFORE_BINARY AFTER_BINARY [ROUNDS] [DURATION_SECONDS]
# Prints each round's rates and a Markdown table of the means.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$1 after=$2 rounds=${3:-3} duration=${4:-5}
source Benchmarks/lib.sh
"$before" keys generate --out "$work/signing.pem" >/dev/null 2>&1
names=(before after no_group)
declare -A bins=([before]=$before [after]=$after [no_group]=$after)
declare -A envs=([before]="" [after]="" [no_group]="TRACEDESK_GROUP_COMMIT=0")
declare -A keys sums phones internals
for name in "${names[@]}"; do
  printf 'bench-admin-pass-1\n' | "${bins[$name]}" staff add boss --role admin --password-stdin \
    --store "$work/$name.sqlite" >/dev/null
  keys[$name]=$(printf 'bench-admin-pass-1\n' | "${bins[$name]}" his add bench-his --rate 1000000 --user boss \
    --password-stdin --store "$work/$name.sqlite" | grep -oE 'tdh_[A-Za-z0-9_-]{43}')
  "${bins[$name]}" bench seed --store "$work/$name.sqlite" --count $((rounds * duration * 6000)) \
    --tokens "$work/tokens-$name" >/dev/null
  phones[$name]=$(free_port)
  internals[$name]=$(free_port)
  # shellcheck disable=SC2086
  env TRACEDESK_CHECK_DELAY_MEAN_MS=0 TRACEDESK_CHECK_DELAY_SD_MS=0 ${envs[$name]} "${bins[$name]}" serve \
    --store "$work/$name.sqlite" --signing-key "$work/signing.pem" --listen "127.0.0.1:${phones[$name]}" \
    --internal-listen "127.0.0.1:${internals[$name]}" >/dev/null 2>"$work/$name.log" &
  serve_pids+=($!)
  wait_http "http://127.0.0.1:${internals[$name]}/"
done
trap 'stop_serves; cleanup' EXIT
for round in $(seq 1 "$rounds"); do
  for name in "${names[@]}"; do
    rps=$(HIS_KEY=${keys[$name]} wrk -t2 -c64 -d"${duration}s" -s Benchmarks/otp.lua "http://127.0.0.1:${internals[$name]}" |
      awk '/Requests\/sec/ {print $2}')
    echo "round $round, $name: otp $rps/s" >&2
    sums[otp_$name]=$(awk -v s="${sums[otp_$name]:-0}" -v r="$rps" 'BEGIN { print s + r }')
  done
  for name in before after no_group; do
    # Each round takes its own slice of the tokens (line r, r+rounds, …), so none is used twice.
    awk -v r="$round" -v n="$rounds" 'NR % n == r % n' "$work/tokens-$name" >"$work/round-$name"
    rps=$(THREADS=2 TOKENS="$work/round-$name" wrk -t2 -c64 -d"${duration}s" -s Benchmarks/upload.lua \
      "http://127.0.0.1:${phones[$name]}" | awk '/Requests\/sec/ {print $2}')
    echo "round $round, $name: upload $rps/s" >&2
    sums[upload_$name]=$(awk -v s="${sums[upload_$name]:-0}" -v r="$rps" 'BEGIN { print s + r }')
  done
done
mean() { awk -v s="${sums[$1]:-0}" -v n="$rounds" 'BEGIN { printf "%.0f", s / n }'; }
echo
echo "Machine: $(nproc) cores, $(lscpu | sed -nE 's/^Model name: +//p'), load average $(cut -d' ' -f1-3 /proc/loadavg);" \
  "$rounds rounds of ${duration} s alternating; $(date -u '+%F %H:%M') UTC"
echo
echo "| measurement | before | after | after / before | after, group commit off (TRACEDESK_GROUP_COMMIT=0) |"
echo "|---|---:|---:|---:|---:|"
echo "| POST /v1/otp | $(mean otp_before) | $(mean otp_after) | $(awk -v a="$(mean otp_after)" -v b="$(mean otp_before)" 'BEGIN { printf "%.2f", a / b }') | $(mean otp_no_group) |"
echo "| upload, 14 keys | $(mean upload_before) | $(mean upload_after) | $(awk -v a="$(mean upload_after)" -v b="$(mean upload_before)" 'BEGIN { printf "%.2f", a / b }') | $(mean upload_no_group) |"
