#!/usr/bin/env bash
# Upload throughput: one `tracedesk serve` on SQLite against one and two on one PostgreSQL,
# same machine, same run, same load (wrk, 64 connections in all, 14-key uploads each with its
# own authorised code). PostgreSQL is a throwaway cluster with its durable defaults
# (fsync on, synchronous_commit on); SQLite runs as serve runs it (WAL, synchronous = NORMAL).
# Also reports PostgreSQL's commit and WAL-flush rates and where the CPU time went.
# Usage: Benchmarks/postgres.sh [SECONDS]   (default 10; everything on 127.0.0.1)
#   TRACEDESK_BIN=path  measure that binary instead of building .build/release/tracedesk
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh bench
duration=${1:-10}
connections=64

if [ -n "${TRACEDESK_BIN:-}" ]; then
  bin=$TRACEDESK_BIN
else
  swift build -c release --product tracedesk >&2
  bin=.build/release/tracedesk
fi
source Benchmarks/lib.sh
pgdir="$work/pg"
trap 'kill $(jobs -p) 2>/dev/null || true; scripts/postgres.sh stop "$pgdir" 2>/dev/null || true; rm -rf "$work"' EXIT
url=$(scripts/postgres.sh start "$pgdir" "$(free_port)")
"$bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1
export TRACEDESK_CHECK_DELAY_MEAN_MS=0 TRACEDESK_CHECK_DELAY_SD_MS=0 TRACEDESK_SIGNING_KEY_PATH="$work/signing.pem"
export TRACEDESK_ACCESS_LOG=false

# cpu_seconds PID…: user + system CPU seconds of these processes (and, for the postmaster, its children).
ticks=$(getconf CLK_TCK)
cpu_of() { awk -v t="$ticks" '{ print ($14 + $15) / t }' "/proc/$1/stat" 2>/dev/null || echo 0; }
postgres_cpu() { # the postmaster and its children (backends, WAL writer, checkpointer…)
  local total=0 pid postmaster
  postmaster=$(head -n1 "$pgdir/data/postmaster.pid")
  for pid in "$postmaster" $(pgrep -P "$postmaster" || true); do
    total=$(awk -v a="$total" -v b="$(cpu_of "$pid")" 'BEGIN { print a + b }')
  done
  echo "$total"
}
pg_counter() { psql "$url" -XAtq -c "$1"; }

# start_serve STORE: starts a server in this shell (so that the trap and wait know it); sets
# $started_pid and $started_port.
start_serve() {
  started_port=$(free_port)
  "$bin" serve --store "$1" --listen "127.0.0.1:$started_port" --internal-listen "127.0.0.1:$(free_port)" \
    2>>"$work/serve.log" &
  started_pid=$!
  wait_http "http://127.0.0.1:$started_port/"
}

results=()
# measure NAME STORE SERVERS: seeds codes, runs the load split over SERVERS servers on STORE.
measure() {
  local name=$1 store=$2 servers=$3
  local per=$((connections / servers)) pids=() ports=() i
  for ((i = 0; i < servers; i++)); do
    start_serve "$store"
    pids+=("$started_pid"); ports+=("$started_port")
    "$bin" bench seed --store "$store" --count $((duration * 4000 / servers + 2000)) --tokens "$work/tokens-$i" >/dev/null
  done
  local commits0 wal0 cpu0=() pg0 started ended
  if [ "$store" = "$url" ]; then
    commits0=$(pg_counter "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
    wal0=$(pg_counter "SELECT wal_sync FROM pg_stat_wal")
  fi
  pg0=$(postgres_cpu)
  for pid in "${pids[@]}"; do cpu0+=("$(cpu_of "$pid")"); done
  started=$(date +%s.%N)
  local loads=()
  for ((i = 0; i < servers; i++)); do
    THREADS=1 TOKENS="$work/tokens-$i" wrk -t1 -c"$per" -d"${duration}s" --latency -s Benchmarks/upload.lua \
      "http://127.0.0.1:${ports[$i]}" >"$work/wrk-$i" &
    loads+=($!)
  done
  wait "${loads[@]}"
  ended=$(date +%s.%N)
  local elapsed rps=0 bad=0 p50="" p99="" serve_cpu=0 pg_cpu commits="" wal=""
  elapsed=$(awk -v a="$started" -v b="$ended" 'BEGIN { print b - a }')
  for ((i = 0; i < servers; i++)); do
    rps=$(awk -v a="$rps" -v b="$(awk '/Requests\/sec/ {print $2}' "$work/wrk-$i")" 'BEGIN { print a + b }')
    bad=$((bad + $(sed -nE 's/.*non-2xx\/3xx: ([0-9]+).*/\1/p' "$work/wrk-$i" | head -n1)))
    p50="$p50$(awk '$1 == "50%" {print $2}' "$work/wrk-$i") "
    p99="$p99$(awk '$1 == "99%" {print $2}' "$work/wrk-$i") "
    serve_cpu=$(awk -v a="$serve_cpu" -v b="$(cpu_of "${pids[$i]}")" -v c="${cpu0[$i]}" 'BEGIN { print a + b - c }')
  done
  pg_cpu=$(awk -v a="$(postgres_cpu)" -v b="$pg0" 'BEGIN { print a - b }')
  if [ "$store" = "$url" ]; then
    commits=$(awk -v a="$(pg_counter "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")" \
      -v b="$commits0" -v t="$elapsed" 'BEGIN { printf "%.0f", (a - b) / t }')
    wal=$(awk -v a="$(pg_counter "SELECT wal_sync FROM pg_stat_wal")" -v b="$wal0" -v t="$elapsed" \
      'BEGIN { printf "%.0f", (a - b) / t }')
  fi
  results+=("$name|$rps|${p50% }|${p99% }|$bad|$serve_cpu|$pg_cpu|$elapsed|${commits:--}|${wal:--}")
  echo "$name: $rps uploads/s (non-2xx $bad)" >&2
  for pid in "${pids[@]}"; do kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; done
}

measure "SQLite, 1 server" "$work/bench.sqlite" 1
measure "PostgreSQL, 1 server" "$url" 1
measure "PostgreSQL, 2 servers" "$url" 2

echo
echo "Machine: $(nproc) cores, $(awk '/model name/ {sub(/.*: /, ""); print; exit}' /proc/cpuinfo);" \
  "PostgreSQL $(pg_counter 'SHOW server_version'); wrk, $connections connections in all, ${duration}s each," \
  "on 127.0.0.1; $(date -u +%F)"
echo
echo "| store, servers | uploads/s | ratio to SQLite | p50 | p99 | non-2xx | tracedesk CPU ms/upload | PostgreSQL CPU ms/upload | commits/s | WAL flushes/s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
base=$(echo "${results[0]}" | cut -d'|' -f2)
for row in "${results[@]}"; do
  IFS='|' read -r name rps p50 p99 bad serve_cpu pg_cpu elapsed commits wal <<<"$row"
  ratio=$(awk -v a="$rps" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
  uploads=$(awk -v r="$rps" -v t="$elapsed" 'BEGIN { print r * t }')
  per_serve=$(awk -v c="$serve_cpu" -v u="$uploads" 'BEGIN { printf "%.2f", c * 1000 / u }')
  per_pg=$(awk -v c="$pg_cpu" -v u="$uploads" 'BEGIN { printf "%.2f", c * 1000 / u }')
  echo "| $name | $rps | $ratio | $p50 | $p99 | $bad | $per_serve | $per_pg | $commits | $wal |"
done
