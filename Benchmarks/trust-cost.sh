#!/usr/bin/env bash
# What issue 18's checks cost, all together: upload and /v1/settings throughput of two
# `tracedesk serve`s in one run, the build before the issue (BASE) and this one (NEW), measured
# alternately (base, new, base, new…) with wrk on 127.0.0.1 (keep-alive connections, as phones
# and proxies use). NEW runs with every default on: the head gate, the guess limit, the stored
# codes' one-way keys, coalesced checks. Both get their codes from their own `bench seed`.
# Usage: Benchmarks/trust-cost.sh BASE_BIN NEW_BIN [DURATION_SECONDS] [ROUNDS]   (10 s, 3 rounds)
# Prints a Markdown table for docs/benchmarks.md (ratio: with / before).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh bench
base_bin=$(realpath "$1")
new_bin=$(realpath "$2")
duration=${3:-10}
rounds=${4:-3}

source Benchmarks/lib.sh
"$new_bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1
trap 'stop_serves; cleanup' EXIT

start_serve base "$base_bin"
start_serve new "$new_bin"
compare_serves new base "$rounds" "$duration" "with its checks" "before issue 18" "load average $(cut -d" " -f1 /proc/loadavg) at the start"
