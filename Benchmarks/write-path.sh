#!/usr/bin/env bash
# The write path against its limit (issue 23), in one run on this machine, all on 127.0.0.1:
#  (a) raw: the exact transactions of an authorisation (POST /v1/otp: the authorisation row, its
#      event, its audit entry) and of a 14-key upload, through SQLite's C API with no HTTP
#      (`tracedesk bench write-raw`: the store's own statement text, checked against a trace of
#      the store first), WAL and the store's pragmas, 1 thread, 4 threads with a connection each,
#      and 4 threads on one connection behind a mutex (how the store runs); a fresh file each;
#  (b) http: the same through `tracedesk serve` (wrk -t2 -c64, kept connections, check delays 0):
#      POST /v1/otp three times in a row on one fresh store (the rate as the store grows), then
#      POST /v1/ingestion/upload of 14 keys on another fresh store (codes from `bench seed`);
#  (c) Immuni's OTP service at $IMMUNI_OTP_URL (its POST /v1/otp, same load), when given;
# then the ratios. Every load is bounded by its duration; the servers stop at the end.
# Usage: Benchmarks/write-path.sh [DURATION_SECONDS] [BINARY]
#   (default 5 s per measurement; the release build, built first, unless BINARY is given;
#   SERVE_ENV="VAR=VALUE …" is the servers' environment too, e.g. TRACEDESK_GROUP_COMMIT=0)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh bench
duration=${1:-5}
bin=${2:-}
if [ -z "$bin" ]; then
  swift build -c release --product tracedesk >&2
  bin=.build/release/tracedesk
fi
source Benchmarks/lib.sh
"$bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1

declare -A rate
n=0
# raw NAME OP THREADS [--shared]: a fresh store file, the raw loop for $duration s.
raw() {
  local name=$1 op=$2 threads=$3 out
  shift 3
  n=$((n + 1))
  out=$("$bin" bench write-raw --store "$work/raw-$n.sqlite" --op "$op" --threads "$threads" "$@" \
    --seconds "$duration" --count $((duration * 40000)) --json)
  rate[$name]=$(echo "$out" | python3 -c 'import json, sys; print(json.load(sys.stdin)["rate"])')
  echo "$name: ${rate[$name]}/s ($out)" >&2
}
"$bin" bench write-raw --store "$work/raw-check.sqlite" --check-only >&2
raw raw_auth_1 authorization 1
raw raw_auth_4 authorization 4
raw raw_auth_4s authorization 4 --shared
raw raw_upload_1 upload 1
raw raw_upload_4 upload 4
raw raw_upload_4s upload 4 --shared

# serve NAME: a fresh store with an admin and an HIS client (its key in $HIS_KEY), and
# `tracedesk serve` on it; sets $port (internal listener, POST /v1/otp) and $phone.
serve() {
  local name=$1
  printf 'bench-admin-pass-1\n' | "$bin" staff add boss --role admin --password-stdin \
    --store "$work/$name.sqlite" >/dev/null
  HIS_KEY=$(printf 'bench-admin-pass-1\n' | "$bin" his add bench-his --rate 1000000 --user boss \
    --password-stdin --store "$work/$name.sqlite" | grep -oE 'tdh_[A-Za-z0-9_-]{43}')
  export HIS_KEY
  if [ -n "${SEED:-}" ]; then
    "$bin" bench seed --store "$work/$name.sqlite" --count "$SEED" --tokens "$work/tokens-$name" >&2
  fi
  phone=$(free_port)
  port=$(free_port)
  # shellcheck disable=SC2086
  env TRACEDESK_CHECK_DELAY_MEAN_MS=0 TRACEDESK_CHECK_DELAY_SD_MS=0 ${SERVE_ENV:-} "$bin" serve --store "$work/$name.sqlite" \
    --signing-key "$work/signing.pem" --listen "127.0.0.1:$phone" --internal-listen "127.0.0.1:$port" \
    2>"$work/$name.log" &
  server_pid=$!
  wait_http "http://127.0.0.1:$port/"
}
stop() {
  kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  server_pid=""
}
# load NAME URL [wrk args…]: wrk -t2 -c64; sets rate[NAME]; warns of any answer but 2xx.
load() {
  local name=$1 url=$2 out bad
  shift 2
  out=$(wrk -t2 -c64 -d"${duration}s" "$@" "$url")
  rate[$name]=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  bad=$(echo "$out" | sed -nE 's/^non-2xx\/3xx: ([0-9]+).*/\1/p')
  echo "$name: ${rate[$name]}/s, non-2xx ${bad:-0}" >&2
  if [ "${bad:-0}" != 0 ]; then echo "WARNING: $name: $bad answers were not 2xx" >&2; fi
}

serve otp
for run in 1 2 3; do load "http_otp_$run" "http://127.0.0.1:$port" -s Benchmarks/otp.lua; done
stop
SEED=$((duration * 12000)) serve upload
THREADS=2 TOKENS="$work/tokens-upload" load http_upload "http://127.0.0.1:$phone" -s Benchmarks/upload.lua
stop
if [ -n "${IMMUNI_OTP_URL:-}" ]; then
  load immuni_otp "$IMMUNI_OTP_URL" -s Benchmarks/otp.lua
else
  echo "Immuni's OTP service: skipped (set IMMUNI_OTP_URL=http://127.0.0.1:PORT to measure it)" >&2
fi

ratio() { awk -v a="${rate[$1]:-0}" -v b="${rate[$2]:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
echo
echo "Machine: $(nproc) cores, $(lscpu | sed -nE 's/^Model name: +//p'), load average $(cut -d' ' -f1-3 /proc/loadavg);" \
  "${duration} s per measurement; wrk -t2 -c64 on 127.0.0.1; $(date -u '+%F %H:%M') UTC${SERVE_ENV:+; servers with $SERVE_ENV}"
echo
echo "| measurement | per second |"
echo "|---|---:|"
echo "| raw authorisation, 1 thread | ${rate[raw_auth_1]} |"
echo "| raw authorisation, 4 threads, a connection each | ${rate[raw_auth_4]} |"
echo "| raw authorisation, 4 threads, one connection | ${rate[raw_auth_4s]} |"
echo "| raw 14-key upload, 1 thread | ${rate[raw_upload_1]} |"
echo "| raw 14-key upload, 4 threads, a connection each | ${rate[raw_upload_4]} |"
echo "| raw 14-key upload, 4 threads, one connection | ${rate[raw_upload_4s]} |"
echo "| HTTP POST /v1/otp, run 1 (fresh store) | ${rate[http_otp_1]} |"
echo "| HTTP POST /v1/otp, run 2 (same store) | ${rate[http_otp_2]} |"
echo "| HTTP POST /v1/otp, run 3 (same store) | ${rate[http_otp_3]} |"
echo "| HTTP upload, 14 keys (fresh store) | ${rate[http_upload]} |"
if [ -n "${IMMUNI_OTP_URL:-}" ]; then echo "| Immuni's OTP service, POST /v1/otp | ${rate[immuni_otp]} |"; fi
echo
echo "| ratio | value | goal |"
echo "|---|---:|---|"
echo "| HTTP otp run 1 / raw authorisation 1 thread | $(ratio http_otp_1 raw_auth_1) | ≥ 0.5 |"
echo "| HTTP otp run 3 / raw authorisation 1 thread | $(ratio http_otp_3 raw_auth_1) | |"
echo "| HTTP otp run 3 / run 1 (the store grown) | $(ratio http_otp_3 http_otp_1) | |"
echo "| HTTP otp run 1 / raw authorisation 4 threads | $(ratio http_otp_1 raw_auth_4) | |"
echo "| HTTP upload / raw upload 1 thread | $(ratio http_upload raw_upload_1) | ≥ 0.5 |"
echo "| HTTP upload / raw upload 4 threads | $(ratio http_upload raw_upload_4) | |"
if [ -n "${IMMUNI_OTP_URL:-}" ]; then
  echo "| HTTP otp run 1 / Immuni's OTP service | $(ratio http_otp_1 immuni_otp) | ≥ 10 |"
else
  echo "| HTTP otp / Immuni's OTP service | skipped: no IMMUNI_OTP_URL | ≥ 10 |"
fi
