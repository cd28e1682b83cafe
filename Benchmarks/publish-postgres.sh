#!/usr/bin/env bash
# Publishing 100 000 keys on PostgreSQL (issue 23, point 3): a fresh database per run, seeded with
# `tracedesk bench keys`, then one `tracedesk chunks publish`, timed. Besides the wall time it
# counts the CPU of tracedesk and of every PostgreSQL process (the wall time alone says little on
# a shared machine), and, for the last run, the time PostgreSQL spent per statement
# (log_min_duration_statement = 0 on that database; parse, bind and execute added up).
# PostgreSQL is a throwaway cluster with its durable defaults (fsync on).
# Usage: Benchmarks/publish-postgres.sh [RUNS] [KEYS]   (default 3 runs of 100 000 keys)
#   TRACEDESK_BIN=path  measure that binary instead of building .build/release/tracedesk
#   PG_PORT=port        the throwaway cluster's port (default: a free one)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh bench
runs=${1:-3}
keys=${2:-100000}
if [ -n "${TRACEDESK_BIN:-}" ]; then
  bin=$TRACEDESK_BIN
else
  swift build -c release --product tracedesk >&2
  bin=.build/release/tracedesk
fi
source Benchmarks/lib.sh
pgdir="$work/pg"
trap 'scripts/postgres.sh stop "$pgdir" 2>/dev/null || true; rm -rf "$work"' EXIT
url=$(scripts/postgres.sh start "$pgdir" "${PG_PORT:-$(free_port)}")
base=${url%/postgres}
"$bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1

# pg_ticks: CPU ticks of the postmaster, of its children that ended (it reaps them) and of the
# children alive now.
pg_ticks() {
  local postmaster total child
  postmaster=$(head -n1 "$pgdir/data/postmaster.pid")
  total=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$postmaster/stat")
  for child in $(pgrep -P "$postmaster" || true); do
    total=$((total + $(awk '{ print $14 + $15 }' "/proc/$child/stat" 2>/dev/null || echo 0)))
  done
  echo "$total"
}
# settle: waits (at most 5 s) until only PostgreSQL's own background processes are left, so that
# the CPU of the publishing connection has been counted into the postmaster's.
settle() {
  local postmaster i
  postmaster=$(head -n1 "$pgdir/data/postmaster.pid")
  for i in $(seq 50); do
    [ "$(pgrep -c -P "$postmaster" || true)" -le 5 ] && return 0
    sleep 0.1
  done
}
ticks=$(getconf CLK_TCK)

echo "## Publishing $keys keys on PostgreSQL ($runs runs)"
echo
echo "| run | chunks | wall | tracedesk CPU | PostgreSQL CPU | load |"
echo "|---:|---:|---:|---:|---:|---:|"
for run in $(seq "$runs"); do
  db="publish_$run"
  psql "$url" -XAtq -c "CREATE DATABASE $db"
  "$bin" bench keys --store "$base/$db" --count "$keys" >/dev/null
  [ "$run" -eq "$runs" ] && psql "$base/$db" -XAtq -c "ALTER DATABASE $db SET log_min_duration_statement = 0"
  psql "$base/$db" -XAtq -c "CHECKPOINT"
  settle
  log_from=$(($(wc -l <"$pgdir/server.log") + 1))
  cpu0=$(pg_ticks)
  started=$(date +%s.%N)
  TIMEFORMAT='%U %S'
  { time "$bin" chunks publish --store "$base/$db" --signing-key "$work/signing.pem" \
    >"$work/publish.out" 2>"$work/publish.err"; } 2>"$work/time"
  ended=$(date +%s.%N)
  settle
  cpu1=$(pg_ticks)
  chunks=$(grep -c '^chunk ' "$work/publish.out" || true)
  printf '| %s | %s | %.3f s | %.3f s | %.3f s | %s |\n' "$run" "$chunks" \
    "$(awk -v a="$started" -v b="$ended" 'BEGIN { print b - a }')" \
    "$(awk '{ print $1 + $2 }' "$work/time")" \
    "$(awk -v a="$cpu0" -v b="$cpu1" -v t="$ticks" 'BEGIN { print (b - a) / t }')" \
    "$(cut -d' ' -f1 /proc/loadavg)"
done
echo
echo "Statements of the last run (PostgreSQL's time, parse + bind + execute):"
echo
echo "| ms | statement |"
echo "|---:|---|"
tail -n +"$log_from" "$pgdir/server.log" | grep 'duration:' |
  sed -E 's/.*duration: ([0-9.]+) ms +(statement|parse [^:]*|bind [^:]*|execute [^:]*): (.{0,70}).*/\1|\3/' |
  awk -F'|' '{ t[$2] += $1 } END { for (s in t) printf "| %.0f | `%s…` |\n", t[s], s }' | sort -t'|' -k2 -rn | head -n 8
echo
echo "Machine: $(nproc) cores, $(awk '/model name/ {sub(/.*: /, ""); print; exit}' /proc/cpuinfo);" \
  "PostgreSQL $(psql "$url" -XAtq -c 'SHOW server_version'); $(date -u +%F)"
