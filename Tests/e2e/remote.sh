#!/usr/bin/env bash
# The real CLI through a real `tracedesk serve` (--server URL, the staff API on the internal
# listener): the first admin, an operator, an authorisation and its status, role refusals, a
# wrong URL, the public listener by mistake, a server that is down; and the console in tmux
# signed in to the server: an authorisation found in the server's store and audit log, the
# server going away mid-call and coming back.
# Usage: Tests/e2e/remote.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-remote: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
export TRACEDESK_SIGNING_KEY_REQUIRED=false

# The internal port below the ephemeral range (free_port), since the server comes back on it: a
# port the kernel handed out could be given meanwhile to a test running beside this script.
check "serve starts and names both listeners" start_server "$work/desk.sqlite" \
  --internal-listen "127.0.0.1:$(free_port)"
url="http://$internal"

# Issue 18: a server's first admin needs the setup token serve wrote beside the store.
td "$admin_pw\n" --server "$url" staff add boss --role admin --password-stdin
check "without the setup token the first admin is refused, saying where it is" \
  bash -c "[ $rc -eq 1 ] && grep -q 'TRACEDESK_SETUP_TOKEN' '$work/out'"
TRACEDESK_SETUP_TOKEN=$(cat "$work/desk.sqlite.setup-token") \
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

# The console over the network, in tmux: ana signs in to the running server and authorises a
# code; the server's store has it, and so has its audit log, by ana.
start 80 24 TRACEDESK_THEMES="$root/themes" -- --server "$url" --user ana
wait_for "TraceDesk · Sign in" >/dev/null
check "the console opens on the server's sign-in screen, naming the server" wait_for "$internal"
text "not-her-password"
keys Enter
check "a wrong password over the network: the desk's message on the screen" wait_for "wrong user name or password"
text "$oper_pw"
keys Enter
check "ana signs in over the network" wait_for "Authorise an upload"
check "the title bar names ana, her role and the server" wait_for "ana (operator)"
keys 5 9 f u 3 6 k r 4 6 y Enter Enter
check "the console authorises 59F-U36K-R46 through the server" wait_for "Authorised"
check "the server's store has it, authorised by ana" test \
  "$(sqlite3 "$work/desk.sqlite" "SELECT authorized_by FROM otp_authorizations WHERE otp_hash = '$(stored_token "$(hash 59FU36KR46)")'")" = ana
check "the server's audit log has it, by ana" test \
  "$(sqlite3 "$work/desk.sqlite" "SELECT count(*) FROM audit_log WHERE action = 'otp_authorized' AND actor = 'ana' AND target = '$(hash 59FU36KR46 | cut -c1-6)'")" = 1

# The server goes away during the next call: the console says so and keeps what was typed; when
# the server is back on the same address, r retries and it goes through.
keys n
wait_for "Authorise an upload" >/dev/null
stop_server
keys 9 k 2 r a y 8 u u q y Enter Enter
check "with the server gone, the console says it cannot be reached" wait_for "Could not authorise: the TraceDesk server at $url"
check "... and the title bar says the server is unreachable" wait_for "! server unreachable"
check "... and keeps the typed code" wait_for "9K2-RAY8-UUQ"
check "serve starts again on the same internal address" \
  start_server "$work/desk.sqlite" --internal-listen "$internal"
keys r
check "r retries, and the authorisation goes through" wait_for "Authorised"
keys C-c
check "^C signs out and leaves the console" wait_until "$wait_cap" absent "Authorise an upload"
check "the sign-out is in the server's audit log" test \
  "$(sqlite3 "$work/desk.sqlite" "SELECT count(*) FROM audit_log WHERE action = 'sign_out' AND actor = 'ana'")" -ge 1


stop_server
td "$oper_pw\n" --server "$url" --user ana --password-stdin otp status KJ23IWY5UJ
check "a server that is down: exit 4, says so, naming the URL" \
  bash -c "[ $rc -eq 4 ] && grep -q 'cannot be reached (connection refused)' '$work/out' && grep -qF '$url' '$work/out'"

# A server with a certificate this machine does not trust: a clear TLS message, in the CLI and
# on the console's sign-in screen.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/tls-key.pem" \
  -out "$work/tls-cert.pem" -days 2 -subj /CN=localhost >/dev/null 2>&1
check "serve starts with TLS (a self-signed certificate)" \
  start_server "$work/tls.sqlite" --tls-cert "$work/tls-cert.pem" --tls-key "$work/tls-key.pem"
td "$admin_pw\n" --server "https://$internal" --user boss --password-stdin staff list
check "an untrusted certificate: exit 4, the TLS reason, what to check" \
  bash -c "[ $rc -eq 4 ] && grep -q 'a TLS connection to https://$internal could not be made (self-signed certificate)' '$work/out'"
start 80 24 TRACEDESK_THEMES="$root/themes" -- --server "https://$internal" --user boss
check "the console says so on its first screen, without crashing" wait_for "(self-signed"
check "... and its title bar says TLS failed" wait_for "! TLS failed"
keys C-c
stop_server

summary e2e-remote
