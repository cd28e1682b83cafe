#!/usr/bin/env bash
# The HTTP client's engine, measured (docs/benchmarks.md, "One HTTP client"): libcurl as
# DeskHTTPClient drives it against URLSession, in one run of one release build:
# (a) the connect timeout against a blackholed peer and the deadline against a silent one,
# (b) the time from a task's cancellation to its request's end, (c) small GETs per second.
# Usage: Benchmarks/http-client.sh [REQUESTS]   (default 2000 per engine, concurrency and round)
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/lib.sh
swift build -c release --product http-client-probe 2>&1 | grep -E 'error|Compiling|Build' | tail -3
port=$(free_port)
start_nginx "$port" "location = /small { return 200 'ok'; }"
wait_http "http://127.0.0.1:$port/small"
.build/release/http-client-probe "http://127.0.0.1:$port/small" "${1:-2000}"
