#!/usr/bin/env bash
# Two real `tracedesk serve` processes on one PostgreSQL (a throwaway cluster of this script's
# own, so that it can be stopped and started again under load), driven with curl and psql.
# Usage: Tests/e2e/postgres.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-postgres: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
chmod 755 "$work"
servers=()
# The servers first, then the clusters they use.
on_exit 'for pid in "${servers[@]}"; do kill -KILL "$pid" 2>/dev/null; done'
on_exit '[ -d "$work/standby" ] && "$root/scripts/postgres.sh" stop "$work/standby"'
on_exit '[ -d "$work/pg" ] && "$root/scripts/postgres.sh" stop "$work/pg"'
use_signing_key
export TRACEDESK_CHECK_DELAY_MEAN_MS=0 TRACEDESK_CHECK_DELAY_SD_MS=0

# PostgreSQL cannot bind port 0 and say which port it got: its port is one free a moment ago,
# and another is tried when it has been taken meanwhile (pg_start, pg_standby).
port=$(free_port)
url="postgres://postgres@127.0.0.1:$port/postgres"
# pg_try WHAT DIR PORT [PRIMARY_PORT]: scripts/postgres.sh WHAT (start or standby) on PORT; 2 when
# the port was taken, 1 on another failure.
pg_try() {
  "$root/scripts/postgres.sh" "$1" "$2" "${@:3}" >/dev/null 2>"$work/pg.err" && return 0
  grep -q 'could not bind\|already in use' "$work/pg.err" || { cat "$work/pg.err" >&2; return 1; }
  echo "    (PostgreSQL could not bind port $3, taken meanwhile: trying another)" >&2
  "$root/scripts/postgres.sh" stop "$2"
  return 2
}
# pg_start: the primary in $work/pg on $port, or on another free port (then $port and $url
# follow).
pg_start() {
  local try status
  for try in 1 2 3 4 5; do
    pg_try start "$work/pg" "$port"
    status=$?
    [ $status -eq 2 ] || return $status
    port=$(free_port)
    url="postgres://postgres@127.0.0.1:$port/postgres"
  done
  return 1
}
# pg_standby: a hot standby of the primary in $work/standby on a free port, $sport.
pg_standby() {
  local try status
  for try in 1 2 3 4 5; do
    sport=$(free_port)
    pg_try standby "$work/standby" "$sport" "$port"
    status=$?
    [ $status -eq 2 ] || return $status
  done
  return 1
}

# Before the database exists: serve refuses to start, naming host and port.
"$bin" serve --store "$url" --listen 127.0.0.1:0 --internal-listen 127.0.0.1:0 >"$work/out" 2>"$work/err"
status=$?
check "serve with the database unreachable exits non-zero (4)" test "$status" = 4
check "... naming host and port and what to do" \
  grep -q "cannot reach the database postgres://postgres@127.0.0.1:$port/postgres.*check that PostgreSQL is running" "$work/err"
check "--settings never shows a password" bash -c "
  '$bin' serve --store 'postgres://td:s3cretpw@127.0.0.1:$port/x' --settings | grep -A1 '^  store ' | grep -q 'td:\*\*\*@' &&
  ! '$bin' serve --store 'postgres://td:s3cretpw@127.0.0.1:$port/x' --settings | grep -q s3cretpw"

if ! pg_start; then
  echo "FAIL cannot start PostgreSQL"
  echo "e2e-postgres: $passed passed, $((failed + 1)) failed"
  exit 1
fi
psql_() { psql "$url" -XAtq -c "$1"; }

# The latest version is what a fresh SQLite store gets: the two lists have the same versions.
latest=$("$bin" migrate --store "$work/latest.sqlite" | sed -nE 's/.*schema version ([0-9]+).*/\1/p')
check "tracedesk migrate applies the schema and prints its version" \
  bash -c "'$bin' migrate --store '$url' | grep -q 'schema version $latest'"
check "tracedesk store info names PostgreSQL and the tables" \
  bash -c "'$bin' store info --store '$url' | grep -q '^adapter *PostgreSQL [0-9]' &&
           '$bin' store info --store '$url' | grep -q '^exposure_keys '"
check "TRACEDESK_STORE selects the store too" \
  bash -c "TRACEDESK_STORE='$url' '$bin' store info --json | grep -q '\"adapter\":\"PostgreSQL'"

# Staff accounts on PostgreSQL: the first admin, an operator for the console below.
check "the first admin is made on PostgreSQL" \
  bash -c "printf '%s\n' '$admin_pw' | '$bin' staff add boss --role admin --password-stdin --store '$url' | grep -q 'first account'"
check "the admin adds an operator on PostgreSQL" \
  bash -c "printf '%s\n%s\n' '$admin_pw' '$oper_pw' | '$bin' staff add ana --role operator --user boss --password-stdin --store '$url' | grep -q 'added ana'"

# Two servers on the one database, with one APRICOT code secret (PostgreSQL needs the file).
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$work/code-secret"
export TRACEDESK_APRICOT_CODE_SECRET_FILE="$work/code-secret"
start_server "$url" && mv "$work/serve.log" "$work/a.log"
a_pid=$server a_phone=$phone a_internal=$internal
servers+=("$a_pid")
start_server "$url" && mv "$work/serve.log" "$work/b.log"
b_pid=$server b_phone=$phone b_internal=$internal
servers+=("$b_pid")
check "two servers start on one PostgreSQL" test -n "$a_phone" -a -n "$b_phone"
check "each logs the store without a password" grep -q "store postgres://postgres@127.0.0.1:$port/postgres" "$work/a.log"

now=$(date -u +%s)
body=$(random_keys_body 3 3)
upload() { # upload PHONE TOKEN → status; headers in $work/h
  curl -s --max-time 10 -o "$work/body" -D "$work/h" -w '%{http_code}' -X POST "http://$1/v1/ingestion/upload" \
    -H 'Content-Type: application/json; charset=utf-8' -H "Authorization: Bearer $2" -H 'Immuni-Dummy-Data: 0' \
    -H "Immuni-Client-Clock: $now" -d "$body"
}

# A code authorised on server A's internal listener is uploaded through server B, once.
his_key=$(his_key "$url" boss "$admin_pw" e2e-hospital)
check "POST /v1/otp on server A with the HIS key: 204" test "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://$a_internal/v1/otp" \
  -H "Authorization: Bearer $his_key" -H 'Content-Type: application/json' -d "{\"otp\":\"9K2RAY8UUQ\",\"symptoms_started_on\":\"$today\"}")" = 204
check "its upload through server B: 204" test "$(upload "$b_phone" "$(hash 9K2RAY8UUQ)")" = 204
check "a second upload through server A: 401" test "$(upload "$a_phone" "$(hash 9K2RAY8UUQ)")" = 401
printf '%s\n' "$admin_pw" | "$bin" his revoke e2e-hospital --user boss --password-stdin --store "$url" >/dev/null 2>&1
check "the HIS client revoked on the store: server B refuses its key at once (401)" \
  test "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://$b_internal/v1/otp" -H "Authorization: Bearer $his_key" \
    -H 'Content-Type: application/json' -d "{\"otp\":\"KJ23IWY5UJ\",\"symptoms_started_on\":\"$today\"}")" = 401

# APRICOT across servers: a code sent by server A signs in on server B (the shared secret).
ap='"app_id":"e2e.app","device_id":"dev-1","phone":"+393331234567"'
check "APRICOT code asked on server A: 204" test "$(curl -s -o /dev/null -w '%{http_code}' -X POST \
  "http://$a_phone/apricot/v1/otp" -H 'Content-Type: application/json' -d "{$ap}")" = 204
ap_code=$(psql_ "SELECT text FROM sms_messages ORDER BY id DESC LIMIT 1" | grep -oE '[0-9]{6}')
check "... signed in on server B with it: 1000 pseudo-ids" bash -c "
  curl -s -X POST http://$b_phone/apricot/v1/login -H 'Content-Type: application/json' \
    -d '{$ap,\"otp\":\"$ap_code\"}' | grep -oE '\"(88){16}[0-9a-f]{8}\"' | wc -l | grep -qx 1000"

# The operator's console on the same database, in tmux: it authorises, server B takes the upload.
start 80 24 TRACEDESK_THEMES="$root/themes" -- --store "$url" --user ana
check "the console opens on PostgreSQL and names it in the title bar" wait_for "127.0.0.1:$port/postgres"
sign_in "$oper_pw"
check "ana signs in on the console's sign-in screen" wait_for "Authorise an upload"
keys k j 2 3 i w y 5 u j y Enter Enter
check "the console authorises KJ2-3IWY-5UJ on PostgreSQL" wait_for "Authorised"
keys C-c
check "server B takes that code's upload" test "$(upload "$b_phone" "$(hash KJ23IWY5UJ)")" = 204

# The audit log on PostgreSQL: intact, guarded by triggers, and an edit is named.
verify() { printf '%s\n' "$admin_pw" | "$bin" audit verify --user boss --password-stdin --store "$url" "$@"; }
verify >"$work/verify" 2>&1
check "audit verify on PostgreSQL: intact" grep -q '^intact: ' "$work/verify"
check "the console's authorisation is in the audit log, by ana" \
  test "$(psql_ "SELECT count(*) FROM audit_log WHERE action = 'otp_authorized' AND actor = 'ana'")" = 1
check "PostgreSQL refuses to edit or delete an audit entry" bash -c "
  ! psql '$url' -XAtq -c \"UPDATE audit_log SET detail = '{}' WHERE id = 2\" 2>/dev/null &&
  ! psql '$url' -XAtq -c 'DELETE FROM audit_log WHERE id = 2' 2>/dev/null &&
  ! psql '$url' -XAtq -c 'TRUNCATE audit_log' 2>/dev/null"
psql_ "ALTER TABLE audit_log DISABLE TRIGGER USER; UPDATE audit_log SET actor = 'mallory' WHERE id = 2; ALTER TABLE audit_log ENABLE TRIGGER USER" >/dev/null
verify >"$work/verify" 2>&1
verify_status=$?
check "after an edit through psql, audit verify names entry 2 and exits 7" \
  bash -c "[ $verify_status -eq 7 ] && grep -q '^BROKEN at entry 2:' '$work/verify'"

# Under load, the database stops and comes back.
codes=120
"$bin" bench seed --store "$url" --count "$codes" --tokens "$work/tokens" >/dev/null
: >"$work/results"
(
  i=0
  while read -r token; do
    i=$((i + 1))
    if [ $((i % 2)) -eq 0 ]; then target=$a_phone; else target=$b_phone; fi
    status=$(upload "$target" "$token")
    retry=$(grep -ci '^retry-after: 5' "$work/h")
    echo "$token $status $retry" >>"$work/results"
    sleep 0.02  # Paces the load (what is tested), so that the outage falls in its middle.
  done <"$work/tokens"
) &
load=$!
# answered N: N uploads answered, or the load is over. refused: 5 answered 503, or the load is over.
answered() { [ "$(wc -l <"$work/results")" -ge "$1" ] || ! kill -0 "$load" 2>/dev/null; }
refused() { [ "$(grep -c ' 503 ' "$work/results")" -ge 5 ] || ! kill -0 "$load" 2>/dev/null; }
wait_until 120 answered 30
"$root/scripts/postgres.sh" pause "$work/pg"
wait_until 60 refused
"$root/scripts/postgres.sh" restart "$work/pg" >/dev/null
wait "$load"

ok=$(grep -c ' 204 ' "$work/results")
unavailable=$(grep -c ' 503 ' "$work/results")
echo "     ($codes uploads under load: $ok answered 204, $unavailable answered 503 while the database was down)"
check "while the database is down, uploads get 503" test "$unavailable" -ge 5
check "... every 503 carries Retry-After" test "$(grep ' 503 ' "$work/results" | grep -c ' 503 1$')" = "$unavailable"
check "... and nothing but 204 or 503 is answered" test "$((ok + unavailable))" = "$codes"
check "both servers are still running" kill -0 "$a_pid" "$b_pid"
check "the servers logged the lost database" grep -q "cannot reach the database" "$work/a.log" "$work/b.log"
grep ' 204 ' "$work/results" | cut -d' ' -f1 | while read -r t; do stored_token "$t"; echo; done | sort >"$work/acknowledged"
psql_ "SELECT otp_hash FROM uploads" | sort >"$work/stored"
check "every acknowledged upload is stored (nothing acknowledged is lost)" \
  test -z "$(comm -23 "$work/acknowledged" "$work/stored")"

# The codes refused with 503 are still usable: the phones' retries succeed.
retried_ok=0
for token in $(grep ' 503 ' "$work/results" | cut -d' ' -f1); do
  [ "$(upload "$a_phone" "$token")" = 204 ] && retried_ok=$((retried_ok + 1))
done
check "after the restart, every upload refused with 503 succeeds on retry ($retried_ok of $unavailable)" \
  test "$retried_ok" = "$unavailable"
check "each code was uploaded exactly once" \
  test "$(psql_ "SELECT count(*) FROM uploads")" = "$((codes + 2))" -a \
       "$(psql_ "SELECT count(DISTINCT otp_hash) FROM uploads")" = "$((codes + 2))"

# Publishing is shared: a chunk published by the CLI is served by both servers.
psql_ "UPDATE exposure_keys SET expires_at_s = expires_at_s - 86400 * 2" >/dev/null
check "tracedesk chunks publish on the shared store publishes chunk 1" \
  bash -c "'$bin' chunks publish --store '$url' | grep -q '^chunk 1: '"
check "server A and server B both offer it" bash -c "
  curl -s http://$a_phone/v1/keys/index | grep -q '\"newest\":1' && curl -s http://$b_phone/v1/keys/index | grep -q '\"newest\":1'"

# Failover (docs/deployment.md): a hot standby; the primary is lost and the standby promoted;
# a server given both hosts with target_session_attrs=read-write finds the new primary itself.
if pg_standby; then
  both="postgres://postgres@127.0.0.1:$port,127.0.0.1:$sport/postgres?target_session_attrs=read-write"
  start_server "$both" && mv "$work/serve.log" "$work/c.log"
  c_pid=$server c_phone=$phone
  servers+=("$c_pid")
  "$bin" bench seed --store "$both" --count 10 --tokens "$work/failover-tokens" >/dev/null
  mapfile -t ftokens <"$work/failover-tokens"
  check "a server given both hosts serves from the primary" test "$(upload "$c_phone" "${ftokens[0]}")" = 204
  # The standby has replayed the codes before the primary goes.
  expected=$(psql_ "SELECT count(*) FROM otp_authorizations")
  replayed() { [ "$(psql "postgres://postgres@127.0.0.1:$sport/postgres" -XAtq -c "SELECT count(*) FROM otp_authorizations")" = "$expected" ]; }
  wait_until 60 replayed
  "$root/scripts/postgres.sh" pause "$work/pg"
  "$root/scripts/postgres.sh" promote "$work/standby"
  statuses=""
  result=0
  # stored_there: an upload through server C is stored (204); the answers are kept in $statuses.
  stored_there() {
    result=$(upload "$c_phone" "${ftokens[1]}")
    [ "${statuses##* }" = "$result" ] || statuses="$statuses $result"
    [ "$result" = 204 ]
  }
  wait_until 60 stored_there
  echo "     (uploads after the primary went:$statuses)"
  check "after the standby is promoted, the same server stores uploads there, by itself" test "$result" = 204
  check "the promoted standby has every upload acknowledged before and after" test \
    "$(psql "postgres://postgres@127.0.0.1:$sport/postgres" -XAtq -c "SELECT count(*) FROM uploads WHERE otp_hash IN ('$(stored_token "${ftokens[0]}")', '$(stored_token "${ftokens[1]}")')")" = 2
else
  check "a hot standby starts (pg_basebackup -R)" false
fi

for pid in "${servers[@]}"; do kill -TERM "$pid" 2>/dev/null; done
for pid in "${servers[@]}"; do wait "$pid" 2>/dev/null; done
servers=()
summary e2e-postgres
