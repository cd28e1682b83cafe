#!/usr/bin/env bash
# What the guess limit of issue 18 (point 10a) costs: upload and /v1/settings throughput of two
# `tracedesk serve`s in one run, one with the limit (otp_guess_limit, the default 100) and one
# without it (otp_guess_limit 0), measured alternately (on, off, on, off) with wrk on 127.0.0.1.
# Both run this build, so both key codes by OtpHash.stored and coalesce checks: those cannot be
# switched off; the limit is what is compared.
# Usage: Benchmarks/phone-guards.sh [DURATION_SECONDS] [ROUNDS]   (default 10 s, 2 rounds)
# Prints a Markdown table for docs/benchmarks.md (ratio: with / without).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh bench
duration=${1:-10}
rounds=${2:-2}

swift build -c release --product tracedesk >&2
bin=.build/release/tracedesk
source Benchmarks/lib.sh
"$bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1
trap 'stop_serves; cleanup' EXIT

start_serve on "$bin" TRACEDESK_OTP_GUESS_LIMIT=100
start_serve off "$bin" TRACEDESK_OTP_GUESS_LIMIT=0
compare_serves on off "$rounds" "$duration" "with the guess limit" "without" "load average $(cut -d" " -f1 /proc/loadavg) at the start"
