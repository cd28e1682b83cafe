#!/usr/bin/env bash
# Nothing acknowledged is lost on the SQLite write path (issue 23, point 4), against the real
# binary: authorisations (POST /v1/otp) and uploads sent at once on many connections, so that
# the server commits them in groups, then the server killed with SIGKILL in the middle of the
# load. Every request answered 204 must be in the store; the audit chain must verify; and an
# upload whose code was used, in a group or not, is refused on the restarted server.
# Usage: Tests/e2e/write-path.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-write-path: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
use_signing_key

store="$work/desk.sqlite"
add_staff "$store" boss admin
key=$(printf '%s\n' "$admin_pw" | "$bin" his add hospital-a --rate 1000000 --user boss --password-stdin \
  --store "$store" | grep -oE 'tdh_[A-Za-z0-9_-]{43}')
codes=600
"$bin" bench seed --store "$store" --count "$codes" --tokens "$work/tokens" >/dev/null
# Valid codes for POST /v1/otp (the check character of OtpRules), none of them seeded.
python3 - "$codes" >"$work/codes" <<'PY'
import random, sys
alphabet = "AEFHIJKLQRSUWXYZ123456789"
odd = dict(zip("123456789", [0, 5, 7, 9, 13, 15, 17, 19, 21]))
odd.update(A=1, E=9, F=13, H=17, I=19, J=21, K=2, L=4, Q=6, R=8, S=12, U=16, W=22, X=25, Y=24, Z=23)
even = dict(zip("123456789", range(1, 10)))
even.update(A=0, E=4, F=5, H=7, I=8, J=9, K=10, L=11, Q=16, R=17, S=18, U=20, W=22, X=23, Y=24, Z=25)
seen = set()
while len(seen) < int(sys.argv[1]):
    body = "".join(random.choice(alphabet) for _ in range(9))
    total = sum(odd[c] if i % 2 == 0 else even[c] for i, c in enumerate(body))
    seen.add(body + alphabet[total % 25])
print("\n".join(sorted(seen)))
PY
body=$(random_keys_body 13 14)
now=$(date -u +%s)

TRACEDESK_CHECK_DELAY_MEAN_MS=0 TRACEDESK_CHECK_DELAY_SD_MS=0 start_server "$store"
check "serve starts on the store" test -n "$phone"
: >"$work/results"
# 8 senders at once, each its own slice: 4 upload, 4 authorise; each line "kind value status".
senders=()
for s in 0 1 2 3; do
  (
    n=0
    while read -r token; do
      n=$((n + 1))
      [ $((n % 4)) -eq "$s" ] || continue
      status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -X POST "http://$phone/v1/ingestion/upload" \
        -H 'Content-Type: application/json; charset=utf-8' -H "Authorization: Bearer $token" \
        -H 'Immuni-Dummy-Data: 0' -H "Immuni-Client-Clock: $now" -d "$body")
      echo "upload $token $status" >>"$work/results"
    done <"$work/tokens"
  ) &
  senders+=($!)
  (
    n=0
    while read -r code; do
      n=$((n + 1))
      [ $((n % 4)) -eq "$s" ] || continue
      status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -X POST "http://$internal/v1/otp" \
        -H 'Content-Type: application/json' -H "Authorization: Bearer $key" \
        -d "{\"otp\":\"$code\",\"symptoms_started_on\":\"$today\"}")
      echo "otp $code $status" >>"$work/results"
    done <"$work/codes"
  ) &
  senders+=($!)
done
pids+=("${senders[@]}")
answered() { [ "$(grep -c ' 204$' "$work/results")" -ge 200 ]; }
check "the load is answered 204 (200 answers)" wait_until 120 answered
kill -KILL "$server" 2>/dev/null
{ wait "$server"; } 2>/dev/null
server=""
for pid in "${senders[@]}"; do wait "$pid" 2>/dev/null; done
uploads_ok=$(grep -c '^upload .* 204$' "$work/results")
otps_ok=$(grep -c '^otp .* 204$' "$work/results")
echo "     (killed with SIGKILL after $uploads_ok uploads and $otps_ok authorisations answered 204)"
check "the load had both kinds of request acknowledged" test "$uploads_ok" -gt 0 -a "$otps_ok" -gt 0
check "only 204 was answered before the kill (000: no answer, the server was gone)" \
  test -z "$(grep -v ' 204$' "$work/results" | grep -v ' 000$')"

grep '^upload .* 204$' "$work/results" | cut -d' ' -f2 | while read -r t; do stored_token "$t"; echo; done |
  sort >"$work/acknowledged-uploads"
sqlite3 "$store" "SELECT otp_hash FROM uploads" | sort >"$work/stored-uploads"
check "every acknowledged upload is stored, once" bash -c "
  [ -z \"\$(comm -23 '$work/acknowledged-uploads' '$work/stored-uploads')\" ] &&
  [ -z \"\$(sort '$work/stored-uploads' | uniq -d)\" ]"
check "every stored upload has its 14 keys" test \
  "$(sqlite3 "$store" "SELECT count(*) FROM uploads u WHERE (SELECT count(*) FROM exposure_keys k WHERE k.upload_id = u.id) <> 14")" = 0
grep '^otp .* 204$' "$work/results" | cut -d' ' -f2 | while read -r c; do
  stored_token "$(printf %s "$c" | sha256sum | cut -c1-64)"
  echo
done | sort >"$work/acknowledged-otps"
sqlite3 "$store" "SELECT otp_hash FROM otp_authorizations WHERE authorized_by = 'his:hospital-a'" |
  sort >"$work/stored-otps"
check "every acknowledged authorisation is stored" test -z "$(comm -23 "$work/acknowledged-otps" "$work/stored-otps")"
check "each stored authorisation has its event and its audit entry" bash -c "
  [ \"\$(sqlite3 '$store' \"SELECT count(*) FROM events WHERE kind = 'otp_authorized' AND actor = 'his:hospital-a'\")\" = \$(wc -l <'$work/stored-otps') ] &&
  [ \"\$(sqlite3 '$store' \"SELECT count(*) FROM audit_log WHERE action = 'otp_authorized' AND actor = 'his:hospital-a'\")\" = \$(wc -l <'$work/stored-otps') ]"
check "the audit chain verifies after the kill" bash -c \
  "printf '%s\n' '$admin_pw' | '$bin' audit verify --user boss --password-stdin --store '$store' >'$work/verify' 2>&1"

# One upload per code: a code whose upload was acknowledged is refused on the restarted server.
TRACEDESK_CHECK_DELAY_MEAN_MS=0 TRACEDESK_CHECK_DELAY_SD_MS=0 start_server "$store"
again=$(grep '^upload .* 204$' "$work/results" | head -n1 | cut -d' ' -f2)
check "the restarted server refuses a second upload with an acknowledged code (401)" test "$(curl -s -o /dev/null \
  -w '%{http_code}' --max-time 10 -X POST "http://$phone/v1/ingestion/upload" \
  -H 'Content-Type: application/json; charset=utf-8' -H "Authorization: Bearer $again" -H 'Immuni-Dummy-Data: 0' \
  -H "Immuni-Client-Clock: $now" -d "$body")" = 401
stop_server

summary e2e-write-path
