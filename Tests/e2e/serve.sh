#!/usr/bin/env bash
# Runs the real `tracedesk serve` and talks to it with curl, as a phone and a hospital system
# would; the operator authorises in the real console in tmux, over the same store.
# Usage: Tests/e2e/serve.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-serve: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
export TRACEDESK_THEMES="$root/themes"
use_signing_key

status_of() { curl -s -o "$work/body" -w '%{http_code}' "$@"; }

TRACEDESK_CHECK_DELAY_MEAN_MS=150 check "serve starts and names both listeners" start_server "$work/desk.sqlite"

# A hospital system authorises a code on the internal listener, with the key of the HIS client
# an admin made for it.
add_staff "$work/desk.sqlite" boss admin
his_key=$(his_key "$work/desk.sqlite" boss "$admin_pw" e2e-hospital)
otp_body="{\"otp\":\"KJ23IWY5UJ\",\"symptoms_started_on\":\"$today\"}"
check "POST /v1/otp on the internal listener with the HIS key: 204" \
  test "$(status_of -X POST "http://$internal/v1/otp" -H "Authorization: Bearer $his_key" -H 'Content-Type: application/json' -d "$otp_body")" = 204
check "the same code again: 409 with error 1409" \
  bash -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' -X POST http://$internal/v1/otp -H 'Authorization: Bearer $his_key' -H 'Content-Type: application/json' -d '$otp_body')\" = 409 ]"
check "POST /v1/otp without a key: 401" \
  test "$(status_of -X POST "http://$internal/v1/otp" -H 'Content-Type: application/json' -d "$otp_body")" = 401
check "POST /v1/otp is not on the public listener" \
  test "$(status_of -X POST "http://$phone/v1/otp" -H "Authorization: Bearer $his_key" -H 'Content-Type: application/json' -d "$otp_body")" = 404

# The operator authorises another code in the console, in tmux, on the same store (signing in
# on the console's sign-in screen; the accounts are made with the CLI).
add_staff "$work/desk.sqlite" ana operator
start 80 24 -- --store "$work/desk.sqlite" --user ana
sign_in "$oper_pw"
check "the operator signs in on the console" wait_for "Authorise an upload"
keys 9 k 2 r a y 8 u u q y Enter Enter
check "the console authorises 9K2-RAY8-UUQ" wait_for "Authorised"
keys C-c

# The citizen's app checks the code (with the artificial delay) and uploads 14 keys.
token=$(hash 9K2RAY8UUQ)
phone_headers=(-H 'Content-Type: application/json; charset=utf-8' -H "Authorization: Bearer $token" -H 'Immuni-Dummy-Data: 0')
# (That the answer waits out the delay is shown by behaviour at the end: a server stopped while
# the check waits.)
check "check-otp of the console's code: 204" test "$(status_of -X POST "http://$phone/v1/ingestion/check-otp" \
  "${phone_headers[@]}" -d '{"padding":"00ff"}')" = 204
now=$(date -u +%s)
keys=""
for i in $(seq 0 13); do
  start=$(( (now / 86400 - 13 + i) * 144 ))
  byte=$(printf '\\x%02x' "$((i + 1))")
  data=$(for _ in $(seq 16); do printf "$byte"; done | base64)
  keys="$keys{\"key_data\":\"$data\",\"rolling_start_number\":$start,\"rolling_period\":144},"
done
upload_body="{\"teks\":[${keys%,}],\"province\":\"RM\",\"padding\":\"00\",\"exposure_detection_summaries\":[]}"
check "upload of 14 keys: 204" test "$(status_of -X POST "http://$phone/v1/ingestion/upload" "${phone_headers[@]}" \
  -H "Immuni-Client-Clock: $now" -d "$upload_body")" = 204
check "a second upload with the same code: 401" test "$(status_of -X POST "http://$phone/v1/ingestion/upload" \
  "${phone_headers[@]}" -H "Immuni-Client-Clock: $now" -d "$upload_body")" = 401
check "the CLI sees the code consumed" \
  bash -c "printf '%s\n' '$oper_pw' | '$bin' otp status 9K2RAY8UUQ --store '$work/desk.sqlite' --user ana --password-stdin | grep -q consumed"
check "bad input gets the error body with a detail" bash -c "
  code=\$(curl -s -o '$work/bad' -w '%{http_code}' -X POST http://$phone/v1/ingestion/upload -H 'Content-Type: application/json' \
    -H 'Authorization: Bearer $token' -H 'Immuni-Dummy-Data: 0' -H 'Immuni-Client-Clock: x' -d '{}')
  [ \"\$code\" = 400 ] && grep -q '\"error_code\":1100' '$work/bad' && grep -q 'Immuni-Client-Clock' '$work/bad'"
check "settings for ios build 1 are served with an hour of caching" bash -c "
  curl -s -D '$work/headers' 'http://$phone/v1/settings?platform=ios&build=1' | grep -q teks_packet_size &&
  grep -qi 'cache-control: public, max-age=3600' '$work/headers'"
check "metrics count the upload and the keys" bash -c "
  curl -s http://$internal/metrics | grep -q 'tracedesk_uploads_total{result=\"stored\"} 1'"

# APRICOT: an app asks for a code, the admin reads it in the SMS outbox (tracedesk sms outbox),
# the app signs in and uploads a day's contact file (docs/apricot-api.md).
ap_phone="+393331234567"
ap_ids='{"app_id":"e2e.app","device_id":"dev-1"'
check "APRICOT settings: the design's values" bash -c "
  curl -s http://$phone/apricot/v1/settings | grep -q '\"num_pseudo_ids\":1000'"
check "POST /apricot/v1/otp: 204" test "$(status_of -X POST "http://$phone/apricot/v1/otp" \
  -H 'Content-Type: application/json' -d "$ap_ids,\"phone\":\"$ap_phone\"}")" = 204
ap_code=$(printf '%s\n' "$admin_pw" | "$bin" sms outbox --user boss --password-stdin --store "$work/desk.sqlite" \
  --limit 1 --json 2>/dev/null | grep -oE 'code is [0-9]{6}' | grep -oE '[0-9]{6}')
check "tracedesk sms outbox shows the code, held" test -n "$ap_code"
check "bench apricot refuses a store that holds anything (it would write real-looking users)" \
  bash -c "! '$bin' bench apricot --registrations 2 --uploads 1 --records 1 --store '$work/desk.sqlite' >/dev/null 2>'$work/bench.err' && grep -q 'is not empty' '$work/bench.err'"
check "a wrong code: 401 with error 3001" bash -c "[ \"\$(curl -s -o /dev/null -w '%{http_code}' -X POST http://$phone/apricot/v1/login \
  -H 'Content-Type: application/json' -d '$ap_ids,\"phone\":\"$ap_phone\",\"otp\":\"$(printf %06d $(( (10#$ap_code + 1) % 1000000 )))\"}')\" = 401 ]"
ap_login=$(curl -s -X POST "http://$phone/apricot/v1/login" -H 'Content-Type: application/json' \
  -d "$ap_ids,\"phone\":\"$ap_phone\",\"otp\":\"$ap_code\"}")
ap_token=$(printf %s "$ap_login" | grep -oE '"access_token":"[A-Za-z0-9_-]{43}"' | cut -d'"' -f4)
check "login: an access token and 1000 pseudo-ids" bash -c "
  [ -n '$ap_token' ] && [ \$(printf %s '$ap_login' | grep -oE '\"(88){16}[0-9a-f]{8}\"' | wc -l) -eq 1000 ]"
# Two records: one of the app's own pseudo-ids heard a minute ago, and a foreign beacon without a time.
ap_id=$(printf %s "$ap_login" | grep -oE '"(88){16}[0-9a-f]{8}"' | head -n1 | tr -d '"')
ap_now=$(date -u +%s)
{ hexbytes "$ap_id"; hexbytes "$(printf %08x $((ap_now - 60)))"; hexbytes "$(printf '07%.0s' $(seq 20))00000000"; } >"$work/contacts.bin"
ap_upload() {
  curl -s -o "$work/receipt" -w '%{http_code}' -X POST "http://$phone/apricot/v1/contacts/$1" \
    -H 'Content-Type: application/octet-stream' -H "Authorization: Bearer $ap_token" \
    -H 'Apricot-App-Id: e2e.app' -H "Apricot-Device-Id: $2" -H "Apricot-Client-Clock: $ap_now" \
    --data-binary @"$work/contacts.bin"
}
ap_status=$(ap_upload "$today" dev-1)
check "a day's contact file (48 bytes): 200 with its receipt" bash -c "
  [ $ap_status = 200 ] && grep -q '\"records\":2' '$work/receipt' && grep -q '\"unknown_beacons\":1' '$work/receipt'"
check "the token from another device: 401" test "$(ap_upload "$today" dev-2)" = 401
ap_status=$(ap_upload "$(date -u -d "+2 days" +%F)" dev-1)
check "a day after tomorrow (UTC): 422 saying it is in the future" bash -c "[ $ap_status = 422 ] && grep -q 'in the future' '$work/receipt'"
check "metrics count the registration and the pseudo-ids" bash -c "
  curl -s http://$internal/metrics | grep -q '^tracedesk_apricot_pseudo_ids_used 1000'"

# SIGTERM: finish and exit 0.
stop_server
check "SIGTERM stops the server with exit status 0" test $? -eq 0
check "the log says it stopped" grep -q "serve: stopped" "$work/serve.log"
check "serve warns once at start that the outbox gateway keeps codes readable" \
  bash -c "[ \"\$(grep -c 'WARNING: sms_gateway is outbox' '$work/serve.log')\" = 1 ]"
check "the access log (written out at the latest on stop) has routes and statuses, never the token or a code" bash -c "
  grep -q 'public POST /v1/ingestion/upload 204' '$work/serve.log' && ! grep -q '$token' '$work/serve.log' &&
  ! grep -q 'KJ23IWY5UJ' '$work/serve.log' && ! grep -q '9K2RAY8UUQ' '$work/serve.log'"
check "nor an APRICOT phone number, code or token" bash -c "
  grep -q 'public POST /apricot/v1/contacts/{day} 200' '$work/serve.log' && ! grep -q '3331234567' '$work/serve.log' &&
  ! grep -q '$ap_token' '$work/serve.log' && ! grep -qw '$ap_code' '$work/serve.log'"

# Bad settings: every problem at once, exit 2.
echo '{"otp_ttl_secnds": 100, "max_body_bytes": "big"}' > "$work/config.json"
TRACEDESK_LISTEN=nowhere TRACEDESK_CHECK_DELAY_SD_MS=-3 "$bin" serve --config "$work/config.json" --store "$work/desk.sqlite" \
  2>"$work/bad.log"
check "bad settings exit with status 2" test $? -eq 2
check "every problem is named, with a suggestion for a typo" bash -c "
  grep -q 'unknown setting \"otp_ttl_secnds\" (did you mean \"otp_ttl_seconds\"?)' '$work/bad.log' &&
  grep -q 'max_body_bytes must be a whole number' '$work/bad.log' && grep -q 'TRACEDESK_LISTEN must be' '$work/bad.log' &&
  grep -q 'TRACEDESK_CHECK_DELAY_SD_MS must be' '$work/bad.log'"

# A port already taken: exit 5 with a message. This server's check delay is the longest serve
# accepts (10 s, no deviation) and it stops without grace: below, a check is stopped waiting.
TRACEDESK_CHECK_DELAY_MEAN_MS=10000 TRACEDESK_CHECK_DELAY_SD_MS=0 TRACEDESK_SHUTDOWN_GRACE_SECONDS=0 \
  start_server "$work/desk.sqlite"
first=$server
"$bin" serve --store "$work/desk.sqlite" --listen "$phone" --internal-listen 127.0.0.1:0 2>"$work/busy.log"
check "a listener address in use: exit 5" test $? -eq 5
check "and it says the address is in use" grep -q "in use" "$work/busy.log"
# Its exit must not run OpenSSL's teardown: that frees what the background thread making the
# decoy password hash may be using at that moment (a crash, 1 exit in a few hundred). Under gdb,
# a breakpoint on the teardown says whether the exit calls it at all, whatever the timing.
gdb -batch -nx -ex 'set breakpoint pending on' -ex 'break OPENSSL_cleanup' -ex run \
  --args "$bin" serve --store "$work/desk.sqlite" --listen "$phone" --internal-listen 127.0.0.1:0 \
  >"$work/busy.gdb" 2>&1
check "and its exit leaves OpenSSL alone (no teardown racing its other threads)" bash -c "
  grep -q 'exited with code 05' '$work/busy.gdb' && ! grep -q 'hit Breakpoint 1' '$work/busy.gdb'"

# The artificial delay holds a real check-otp before it is answered (real and dummy requests
# alike: timing tells nothing). No clock is read: the check of KJ23IWY5UJ (authorised by the
# hospital above, never used) is counted on arrival, then waits; while it waits it has no
# answer and no result, and a stop without grace answers it 503 "stopping", never 204. (What
# it takes to see it arrive and to stop the server is milliseconds; the delay is 10 s.)
curl -s -o "$work/held.body" -w '%{http_code}' -X POST "http://$phone/v1/ingestion/check-otp" \
  -H 'Content-Type: application/json; charset=utf-8' -H "Authorization: Bearer $(hash KJ23IWY5UJ)" \
  -H 'Immuni-Dummy-Data: 0' -d '{"padding":"00ff"}' >"$work/held.status" &
held=$!
pids+=($held)
metric() { curl -s "http://$internal/metrics" | grep -qxF "$1"; }
check "a real check-otp reaches the server (counted in /metrics)" \
  wait_until "$wait_cap" metric 'tracedesk_phone_requests_total{route="/v1/ingestion/check-otp",traffic="real"} 1'
waiting() { kill -0 "$held" 2>/dev/null && ! curl -s "http://$internal/metrics" | grep -q '^tracedesk_checks_total'; }
check "…and waits out the delay: not answered, its code not yet checked" waiting
kill -INT "$first"
wait "$first"
check "SIGINT stops it too, with exit status 0" test $? -eq 0
server=""
wait "$held"
check "…and the check still waiting is answered 503 'the server is stopping', not 204" \
  bash -c "[ \"\$(cat '$work/held.status')\" = 503 ] && grep -q 'the server is stopping' '$work/held.body'"

check "--settings lists every setting with its environment variable" bash -c "
  '$bin' serve --settings | grep -q 'TRACEDESK_CHECK_DELAY_MEAN_MS'"

TRACEDESK_BUSY_TIMEOUT_MS=soon "$bin" otp status 9K2RAY8UUQ --store "$work/desk.sqlite" 2>"$work/busy-env.log"
check "a bad TRACEDESK_BUSY_TIMEOUT_MS is refused by the CLI, exit 2, naming the range" bash -c "
  [ $? -eq 2 ] && grep -q 'from 100 to 600000' '$work/busy-env.log'"

summary e2e-serve
