#!/usr/bin/env bash
# The real CLI through a real `tracedesk serve` (--server URL, the staff API on the internal
# listener): the first admin, an operator, an authorisation and its status, role refusals, a
# wrong URL, the public listener by mistake, and a server that is down.
# Usage: Tests/e2e/remote.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-remote: N passed, N failed".
set -uo pipefail

bin=$(realpath "${1:-.build/debug/tracedesk}")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
passed=0
failed=0
server=""
export SWIFT_BACKTRACE=enable=no TRACEDESK_SIGNING_KEY_REQUIRED=false

cleanup() {
  [ -n "$server" ] && kill -KILL "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

source "$root/Tests/e2e/lib.sh"

today=$(date -u +%F)
admin_pw="chief-key-8734"
oper_pw="operator-secret-2"
super_pw="supervisor-pass-3"

# td STDIN ARGS…: runs tracedesk with STDIN piped in; output in $work/out; sets $rc.
td() {
  local input=$1; shift
  printf '%b' "$input" | "$bin" "$@" >"$work/out" 2>&1
  rc=$?
}
says() { grep -qF -- "$1" "$work/out"; }

check "serve starts and names both listeners" start_server "$work/desk.sqlite"
url="http://$internal"

td "$admin_pw\n" --server "$url" staff add boss --role admin --password-stdin
check "the first admin is made through the server" bash -c "[ $rc -eq 0 ] && grep -q 'added boss (admin), the first account' '$work/out'"
td "$admin_pw\n$oper_pw\n" --server "$url" --user boss --password-stdin staff add ana --role operator
check "the admin adds an operator through the server" bash -c "[ $rc -eq 0 ] && grep -q 'added ana (operator)' '$work/out'"
td "$admin_pw\n$super_pw\n" --server "$url" --user boss --password-stdin staff add sara --role supervisor
check "and a supervisor" bash -c "[ $rc -eq 0 ] && grep -q 'added sara (supervisor)' '$work/out'"

td "$oper_pw\n" --server "$url" --user ana --password-stdin otp authorize KJ23-IWY5-UJ --symptoms "$today"
check "the operator authorises a code through the server, exit 0" bash -c "[ $rc -eq 0 ] && grep -q '^authorized' '$work/out'"
td "$oper_pw\n" --server "$url" --user ana --password-stdin otp authorize KJ23IWY5UJ --symptoms "$today"
check "again: already authorised, exit 3" bash -c "[ $rc -eq 3 ]"
td "$super_pw\n" --server "$url" --user sara --password-stdin otp status KJ23IWY5UJ
check "the supervisor sees its status" bash -c "[ $rc -eq 0 ] && grep -q 'authorized' '$work/out'"
td "$super_pw\n" --server "$url" --user sara --password-stdin otp authorize 9K2RAY8UUQ --symptoms "$today"
check "a supervisor cannot authorise: exit 6, names the role needed" \
  bash -c "[ $rc -eq 6 ] && grep -q 'your role (supervisor) cannot authorise codes: that needs the operator role' '$work/out'"
td "wrong-password-1\n" --server "$url" --user ana --password-stdin otp status KJ23IWY5UJ
check "a wrong password: exit 6, the desk's message" \
  bash -c "[ $rc -eq 6 ] && grep -q 'wrong user name or password' '$work/out'"
td "$oper_pw\n" --server "$url" --user ana --password-stdin otp authorize 9K2-BAY8-UUQ --symptoms "$today"
check "a bad code is refused with the rule: exit 1" bash -c "[ $rc -eq 1 ] && grep -q \"'B' at position 4\" '$work/out'"

td "$admin_pw\n" --server "$url" --user boss --password-stdin audit verify
check "the audit chain verifies through the server" bash -c "[ $rc -eq 0 ]"
td "$admin_pw\n" --user boss --password-stdin audit verify --store "$work/desk.sqlite"
check "and on the store itself" bash -c "[ $rc -eq 0 ]"

td "" --server "ftp://$internal" otp status KJ23IWY5UJ --user ana --password-stdin
check "a URL that is not http(s): usage error, exit 2" bash -c "[ $rc -eq 2 ] && grep -q 'http:// or https://' '$work/out'"
td "" --server "$url" --store "$work/desk.sqlite" otp status KJ23IWY5UJ --user ana --password-stdin
check "--store and --server together: usage error, exit 2" bash -c "[ $rc -eq 2 ]"
td "$oper_pw\n" --server "http://$phone" --user ana --password-stdin otp status KJ23IWY5UJ
check "the public listener by mistake: exit 4, says it is not the staff API" \
  bash -c "[ $rc -eq 4 ] && grep -q 'is not a TraceDesk server' '$work/out' && grep -q 'internal listener' '$work/out'"

if ! grep -qF -- "$oper_pw" "$work/serve.log" && ! grep -qF -- "KJ23" "$work/serve.log" && ! grep -q "tds_" "$work/serve.log"; then
  no_secrets=0
else
  no_secrets=1
fi
check "the server's log has no password, code or token" test "$no_secrets" -eq 0
check "its access log shows the staff routes as templates" grep -q "internal POST /staff/v1/otp/authorizations 201" "$work/serve.log"

kill -TERM "$server" 2>/dev/null
wait "$server" 2>/dev/null
server=""
td "$oper_pw\n" --server "$url" --user ana --password-stdin otp status KJ23IWY5UJ
check "a server that is down: exit 4, says so, naming the URL" \
  bash -c "[ $rc -eq 4 ] && grep -q 'cannot be reached (connection refused)' '$work/out' && grep -qF '$url' '$work/out'"

echo "e2e-remote: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
