#!/usr/bin/env bash
# Real sign-ins under a sign-in flood (issue 18, point 2), for one or more tracedesk binaries in
# one run: each gets a fresh store with one admin, a server on loopback, and
# Benchmarks/signin-flood.py (24 threads of wrong sign-ins for unknown names from
# 127.0.0.2-127.0.0.6 for 10 s, a real sign-in from 127.0.0.1 every 0.5 s).
# Usage: Benchmarks/signin-flood.sh BIN [BIN…]   (e.g. an older build, then .build/release/tracedesk)
# Prints one JSON line per binary.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
server=""
cleanup() {
  [ -n "$server" ] && kill -KILL "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
password="chief-key-8734"

for bin in "$@"; do
  bin=$(realpath "$bin")
  dir="$work/$(date +%s%N)"
  mkdir -p "$dir"
  "$bin" keys generate --out "$dir/key.pem" >/dev/null 2>&1
  printf '%s\n' "$password" | "$bin" staff add boss --role admin --store "$dir/s.sqlite" --password-stdin >/dev/null
  TRACEDESK_APP_SETTINGS_FILE="$root/config/app-settings.json" "$bin" serve --store "$dir/s.sqlite" \
    --listen 127.0.0.1:0 --internal-listen 127.0.0.1:0 --signing-key "$dir/key.pem" 2>"$dir/serve.log" >/dev/null &
  server=$!
  internal=""
  for _ in $(seq 1 200); do
    internal=$(sed -nE 's|.*internal API .* on http://(127\.0\.0\.1:[0-9]+).*|\1|p' "$dir/serve.log")
    [ -n "$internal" ] && break
    sleep 0.05
  done
  [ -n "$internal" ] || { echo "signin-flood: $bin did not start" >&2; exit 1; }
  printf '%s ' "$bin"
  TRACEDESK_FLOOD_PASSWORD="$password" python3 "$root/Benchmarks/signin-flood.py" --server "http://$internal" \
    --user boss --threads 24 --seconds 10 --json
  kill -TERM "$server"; wait "$server" 2>/dev/null; server=""
done
