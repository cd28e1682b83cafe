#!/usr/bin/env bash
# Issue 18, points 5 and 10, against the real `tracedesk serve`: the store's files are private,
# the store holds no bearer token, wrong codes from one address are answered 429 while another
# address is served, SMS pumping is refused, and a flood of checks of one code is coalesced.
# Source addresses 127.0.0.x stand for separate clients; every burst is bounded.
# Usage: Tests/e2e/hardening-store.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-hardening-store: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
use_signing_key

umask 022
mode() { stat -c %a "$1"; }
store="$work/desk.sqlite"
code=KJ23IWY5UJ
token=$(hash "$code")

# check-otp from SOURCE with TOKEN: prints the status.
check_from() {
  curl -s -o /dev/null -w '%{http_code}' --interface "$1" -X POST "http://$phone/v1/ingestion/check-otp" \
    -H 'Content-Type: application/json' -H "Authorization: Bearer $2" -H 'Immuni-Dummy-Data: 0' \
    -d '{"padding":"ab12"}'
}
upload_with() {
  curl -s -o /dev/null -w '%{http_code}' -X POST "http://$phone/v1/ingestion/upload" \
    -H 'Content-Type: application/json' -H "Authorization: Bearer $1" -H 'Immuni-Dummy-Data: 0' \
    -H "Immuni-Client-Clock: $(date +%s)" \
    -d '{"teks":[],"province":"RM","exposure_detection_summaries":[],"padding":"00ab"}'
}
ask_code() {
  curl -s -o "$work/body" -w '%{http_code}' -X POST "http://$phone/apricot/v1/otp" \
    -H 'Content-Type: application/json' -d "{\"phone\":\"$1\",\"app_id\":\"it.test.app\",\"device_id\":\"dev-$2\"}"
}

# An admin, and the hospital system that authorises codes with its key (POST /v1/otp needs one).
add_staff "$store" boss admin
his_api_key=$(his_key "$store" boss "$admin_pw" e2e-hospital)

TRACEDESK_CHECK_DELAY_MEAN_MS=0 TRACEDESK_CHECK_DELAY_SD_MS=0 TRACEDESK_OTP_GUESS_LIMIT=20 \
  check "serve starts (umask 022, guess limit 20)" start_server "$store"
check "the store file is 0600 though the umask is 022" test "$(mode "$store")" = 600
check "serve does not warn about a private store" bash -c "! grep -q 'can be read by other users' '$work/serve.log'"

otp_body="{\"otp\":\"$code\",\"symptoms_started_on\":\"$today\"}"
check "a hospital system authorises a code: 204" test "$(curl -s -o /dev/null -w '%{http_code}' -X POST \
  "http://$internal/v1/otp" -H "Authorization: Bearer $his_api_key" -H 'Content-Type: application/json' -d "$otp_body")" = 204
check "the -wal and -shm files are 0600 too" test "$(mode "$store-wal") $(mode "$store-shm")" = "600 600"
stored=$(sqlite3 "$store" "SELECT otp_hash FROM otp_authorizations")
check "the store holds the code's tag but not its bearer token" \
  test "${stored:0:6}" = "${token:0:6}" -a "$stored" != "$token"
check "the value the store holds is no bearer token: check-otp 401" test "$(check_from 127.0.0.1 "$stored")" = 401
check "... and upload 401" test "$(upload_with "$stored")" = 401
check "no event holds the bearer token" test "$(sqlite3 "$store" "SELECT count(*) FROM events WHERE otp_hash = '$token'")" = 0

# A bounded guess burst from 127.0.0.2 (40 wrong codes); a phone on 127.0.0.3 meanwhile.
statuses=""
for n in $(seq 1 40); do statuses="$statuses $(check_from 127.0.0.2 "$(hash "GUESS$n")")"; done
unauthorized=$(echo "$statuses" | tr ' ' '\n' | grep -c '^401$')
limited=$(echo "$statuses" | tr ' ' '\n' | grep -c '^429$')
echo "     (40 guesses from 127.0.0.2: $unauthorized answered 401, $limited answered 429)"
check "the guess burst from 127.0.0.2 gets 429 past the limit (20 401s, then 429)" \
  test "$unauthorized" = 20 -a "$limited" = 20
check "a phone on 127.0.0.3 is still answered: its code checks 204" test "$(check_from 127.0.0.3 "$token")" = 204
check "the log warns once, naming the setting and no code" \
  bash -c "[ \$(grep -c 'otp_guess_limit' '$work/serve.log') = 1 ] && ! grep -q '$token' '$work/serve.log'"
check "the monitor gets an otp_guesses_limited event" \
  test "$(sqlite3 "$store" "SELECT count(*) FROM events WHERE kind = 'otp_guesses_limited'")" = 1
check "/metrics counts the refusals" bash -c \
  "curl -s http://$internal/metrics | grep -q 'tracedesk_otp_guesses_limited_total{route=\"/v1/ingestion/check-otp\"} 20'"

# SMS pumping: premium, satellite, foreign numbers are refused; +999 is served (outbox gateway).
for number in +19005550100 +88213000001 +447700900123; do
  check "an SMS code for ${number:0:5}… is refused: 422 with error 3010 and a detail" \
    bash -c "[ \"\$(curl -s -o '$work/body' -w '%{http_code}' -X POST 'http://$phone/apricot/v1/otp' -H 'Content-Type: application/json' -d '{\"phone\":\"$number\",\"app_id\":\"it.test.app\",\"device_id\":\"dev-1\"}')\" = 422 ] && grep -q '\"error_code\":3010' '$work/body' && grep -q 'detail' '$work/body'"
done
check "a +999 test number is served with the outbox gateway: 204" test "$(ask_code +999123456789 2)" = 204
check "an Italian number is served: 204" test "$(ask_code +393331234567 3)" = 204
check "no SMS was queued for a refused number" \
  test "$(sqlite3 "$store" "SELECT count(*) FROM sms_messages WHERE phone LIKE '+1%' OR phone LIKE '+88%' OR phone LIKE '+44%'")" = 0

# The outbox drops a code's text once the code is used; `sms outbox` still lists the entry, saying why.
outbox() { printf '%s\n' "$admin_pw" | "$bin" sms outbox --user boss --password-stdin --store "$store" "$@" 2>/dev/null; }
it_code=$(outbox --json | grep -oE '"phone":"\+393331234567"[^}]*' | grep -oE 'code is [0-9]{6}' | grep -oE '[0-9]{6}')
check "the outbox holds the live code's text" test -n "$it_code"
check "the code signs the phone in: 200" test "$(curl -s -o /dev/null -w '%{http_code}' -X POST \
  "http://$phone/apricot/v1/login" -H 'Content-Type: application/json' \
  -d "{\"phone\":\"+393331234567\",\"otp\":\"$it_code\",\"app_id\":\"it.test.app\",\"device_id\":\"dev-3\"}")" = 200
check "sms outbox then shows the entry without its text, saying why" \
  bash -c "outbox() { printf '%s\n' '$admin_pw' | '$bin' sms outbox --user boss --password-stdin --store '$store' 2>/dev/null; }
    outbox | grep -F '+393331234567' | grep -qF '(text dropped: its code was used)' && ! outbox | grep -qF 'code is $it_code'"
check "... and the store no longer holds it" \
  test "$(sqlite3 "$store" "SELECT count(*) FROM sms_messages WHERE text LIKE '%$it_code%'")" = 0

# A check flood of one valid code: 6 clients x 25 checks, bounded.
before=$(sqlite3 "$store" "SELECT count(*) FROM events WHERE kind = 'otp_checked'")
flooders=()
for client in 4 5 6 7 8 9; do
  (for _ in $(seq 1 25); do check_from "127.0.0.$client" "$token"; echo; done) >"$work/flood-$client" &
  flooders+=($!)
done
wait "${flooders[@]}"
answered=$(cat "$work"/flood-* | grep -c '^204$')
events=$(($(sqlite3 "$store" "SELECT count(*) FROM events WHERE kind = 'otp_checked'") - before))
counted=$(sqlite3 "$store" "SELECT check_count FROM otp_authorizations")
echo "     (150 checks: $answered answered 204, $events otp_checked events, $counted counted)"
check "the flood was answered (150 x 204)" test "$answered" = 150
check "... all counted on the authorisation" test "$counted" -ge 150
# The rule on the events' own times (no clock of the test's): two otp_checked events of one code
# are at least 5 s apart, however fast the flood came.
closer=$(sqlite3 "$store" "SELECT count(*) FROM (SELECT at_ms - lag(at_ms) OVER (PARTITION BY otp_hash ORDER BY at_ms)
  AS gap FROM events WHERE kind = 'otp_checked') WHERE gap < 5000")
check "... in at most one otp_checked event every 5 s ($events for 150 checks; none closer)" \
  test "$((before + events))" -ge 1 -a "$events" -lt 150 -a "$closer" = 0

stop_server
chmod 644 "$store"
check "serve on a store others can read starts" start_server "$store"
check "... and warns, naming the file and the fix" wait_log "can be read by other users (mode 644)"

summary e2e-hardening-store
