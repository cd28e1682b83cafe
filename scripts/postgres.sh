#!/usr/bin/env bash
# A throwaway PostgreSQL cluster in a folder, for tests and benchmarks (never the system's own).
#   scripts/postgres.sh start DIR PORT   initdb + start on 127.0.0.1:PORT and a socket in DIR;
#                                         prints the URL (postgres://postgres@127.0.0.1:PORT/postgres)
#   scripts/postgres.sh stop DIR         stop it (fast) and remove DIR
#   scripts/postgres.sh restart DIR      stop and start again, keeping the data
#   scripts/postgres.sh pause DIR        stop, keeping the data (an outage; restart ends it)
#   scripts/postgres.sh standby DIR PORT PRIMARY_PORT   a streaming hot standby of a primary
#   scripts/postgres.sh promote DIR      promote a standby to primary
# Extra server settings can be passed in PGOPTIONS_EXTRA (e.g. "-c fsync=off").
# As root the server runs as the postgres user (initdb refuses root).
set -euo pipefail
bindir=$(pg_config --bindir 2>/dev/null || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  bindir=$( (ls -d /usr/lib/postgresql/*/bin 2>/dev/null || true) | sort -V | tail -n1)
fi
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "postgres.sh: PostgreSQL's server programs are not installed (Debian package: postgresql)" >&2
  exit 1
fi
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
# halt DIR: stops the cluster in DIR if it runs; a postmaster that does not stop is killed.
halt() {
  [ -f "$1/data/postmaster.pid" ] || return 0
  as_owner "$bindir/pg_ctl" -D "$1/data" -m fast -w -t 20 stop >/dev/null 2>&1 && return 0
  local pid
  pid=$(head -n1 "$1/data/postmaster.pid" 2>/dev/null || true)
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
  return 0
}
cmd=${1:-}; dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: scripts/postgres.sh start|stop|restart|pause|standby|promote DIR [PORT]" >&2; exit 2; }
case "$cmd" in
  start)
    port=${3:?usage: scripts/postgres.sh start DIR PORT}
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"
    as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    echo "$port" >"$dir/port"
    ;&
  restart)
    port=$(cat "$dir/port")
    if [ "$cmd" = restart ] && [ -f "$dir/data/postmaster.pid" ]; then
      as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    fi
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200 ${PGOPTIONS_EXTRA:-}" start >/dev/null \
      || { tail -n 20 "$dir/server.log" >&2; halt "$dir"; exit 1; }
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    halt "$dir"
    rm -rf "$dir"
    ;;
  standby)
    # scripts/postgres.sh standby DIR PORT PRIMARY_PORT: a hot standby of the primary on
    # 127.0.0.1:PRIMARY_PORT (pg_basebackup -R, streaming), started on PORT.
    port=${3:?usage: scripts/postgres.sh standby DIR PORT PRIMARY_PORT}
    primary=${4:?usage: scripts/postgres.sh standby DIR PORT PRIMARY_PORT}
    mkdir -p "$dir"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$dir"
    as_owner "$bindir/pg_basebackup" -h 127.0.0.1 -p "$primary" -U postgres -D "$dir/data" -R -X stream >"$dir/basebackup.log" 2>&1 \
      || { cat "$dir/basebackup.log" >&2; exit 1; }
    echo "$port" >"$dir/port"
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200" start >/dev/null \
      || { tail -n 20 "$dir/server.log" >&2; halt "$dir"; exit 1; }
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  promote)
    as_owner "$bindir/pg_ctl" -D "$dir/data" -w promote >/dev/null
    ;;
  pause)
    # Stop the server but keep the data (to test an outage); "restart" brings it back.
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  *) echo "usage: scripts/postgres.sh start|stop|restart|pause|standby|promote DIR [PORT]" >&2; exit 2 ;;
esac
