#!/usr/bin/env bash
# Hospital systems have identities (issue 18, point 1), against the real binary: `his add` prints
# an API key once and the store holds only its hash; POST /v1/otp with and without it; the actor
# in the audit log and /metrics; a per-client rate limit; revoke; --his-listen; his_auth none.
# Usage: Tests/e2e/hardening-his.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-hardening-his: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
use_signing_key

store="$work/desk.sqlite"
add_staff "$store" boss admin
add_staff "$store" ana operator
as_boss() { printf '%s\n' "$admin_pw" | "$bin" "$@" --user boss --password-stdin --store "$store"; }
otp() { # otp BASE CODE [CURL ARGS…] → status; body in $work/body, headers in $work/h
  local base=$1 code=$2; shift 2
  curl -s --max-time 10 -o "$work/body" -D "$work/h" -w '%{http_code}' -X POST "http://$base/v1/otp" \
    -H 'Content-Type: application/json' -d "{\"otp\":\"$code\",\"symptoms_started_on\":\"$today\"}" "$@"
}

# An admin adds a hospital system: the key is printed once, the store keeps its SHA-256 only.
as_boss his add hospital-a >"$work/add.out" 2>&1
key=$(grep -oE 'tdh_[A-Za-z0-9_-]{43}' "$work/add.out")
check "his add prints one API key, says it is shown only now" \
  bash -c "[ \$(grep -coE 'tdh_[A-Za-z0-9_-]{43}' '$work/add.out') = 1 ] && grep -q 'shown only now' '$work/add.out'"
check "the store holds the key's SHA-256 and not the key" bash -c "
  [ \"\$(sqlite3 '$store' \"SELECT key_hash FROM his_clients WHERE name = 'hospital-a'\")\" = \"\$(printf %s '$key' | sha256sum | cut -c1-64)\" ] &&
  ! cat '$store'* | grep -qa -- '$key'"
check "his list shows the client as active, and never a key" bash -c "
  printf '%s\n' '$admin_pw' | '$bin' his list --user boss --password-stdin --store '$store' >'$work/list.out' 2>&1
  grep -qE '^hospital-a +active' '$work/list.out' && ! grep -q tdh_ '$work/list.out'"
check "an operator may not add a client: exit 6, nothing added" bash -c "
  printf '%s\n' '$oper_pw' | '$bin' his add rogue --user ana --password-stdin --store '$store' >/dev/null 2>'$work/rogue.err'
  [ \$? = 6 ] && grep -q 'manage hospital systems' '$work/rogue.err' &&
  [ \"\$(sqlite3 '$store' \"SELECT count(*) FROM his_clients WHERE name = 'rogue'\")\" = 0 ]"

check "serve starts" start_server "$store"
check "POST /v1/otp without a key: 401 {1402} with WWW-Authenticate, nothing authorised" bash -c "
  [ \"\$(curl -s -o '$work/body' -D '$work/h' -w '%{http_code}' -X POST http://$internal/v1/otp -H 'Content-Type: application/json' -d '{\"otp\":\"KJ23IWY5UJ\",\"symptoms_started_on\":\"$today\"}')\" = 401 ] &&
  grep -q '\"error_code\":1402' '$work/body' && grep -qi '^WWW-Authenticate: Bearer realm=\"tracedesk-his\"' '$work/h' &&
  [ \"\$(sqlite3 '$store' 'SELECT count(*) FROM otp_authorizations')\" = 0 ]"
check "POST /v1/otp with a wrong key: 401" test "$(otp "$internal" KJ23IWY5UJ -H "Authorization: Bearer tdh_${key:5}x")" = 401
check "POST /v1/otp with the key: 204" test "$(otp "$internal" KJ23IWY5UJ -H "Authorization: Bearer $key")" = 204
check "the audit log names the client as the actor" bash -c "
  printf '%s\n' '$admin_pw' | '$bin' audit list --action otp_authorized --user boss --password-stdin --store '$store' 2>/dev/null |
    grep -q 'his:hospital-a'"
check "/metrics counts the client's authorisations" bash -c "
  curl -s http://$internal/metrics | grep -q 'tracedesk_his_authorizations_total{client=\"hospital-a\",result=\"authorized\"} 1'"
check "no key reached the server log" bash -c "! grep -q -- '$key' '$work/serve.log'"

# A client with a rate of its own: the second authorisation of the minute is 429.
as_boss his add slow-his --rate 1 >"$work/slow.out" 2>&1
slow=$(grep -oE 'tdh_[A-Za-z0-9_-]{43}' "$work/slow.out")
otp "$internal" 59FU36KR46 -H "Authorization: Bearer $slow" >/dev/null
check "past its rate a client gets 429 {1429} with Retry-After" bash -c "
  [ \"\$(curl -s -o '$work/body' -D '$work/h' -w '%{http_code}' -X POST http://$internal/v1/otp -H 'Authorization: Bearer $slow' -H 'Content-Type: application/json' -d '{\"otp\":\"9K2RAY8UUQ\",\"symptoms_started_on\":\"$today\"}')\" = 429 ] &&
  grep -q '\"error_code\":1429' '$work/body' && grep -qiE '^Retry-After: [0-9]+' '$work/h'"

# Revoked while the server runs: refused from the next request on.
as_boss his revoke hospital-a >"$work/revoke.out" 2>&1
check "his revoke says so" grep -q 'revoked HIS client hospital-a' "$work/revoke.out"
check "the revoked key: 401 at once" test "$(otp "$internal" 9K2RAY8UUQ -H "Authorization: Bearer $key")" = 401
check "his list shows it revoked; the audit log has the add and the revoke" bash -c "
  printf '%s\n' '$admin_pw' | '$bin' his list --user boss --password-stdin --store '$store' 2>/dev/null | grep -qE '^hospital-a +revoked' &&
  printf '%s\n' '$admin_pw' | '$bin' audit list --user boss --password-stdin --store '$store' 2>/dev/null >'$work/audit.out' &&
  grep -q 'his_client_added' '$work/audit.out' && grep -q 'his_client_revoked' '$work/audit.out'"
stop_server

# The HIS on a listener of its own: POST /v1/otp there, not the staff API; internal no longer has it.
as_boss his add hospital-b >"$work/b.out" 2>&1
key_b=$(grep -oE 'tdh_[A-Za-z0-9_-]{43}' "$work/b.out")
check "serve --his-listen starts and names the HIS listener" start_server "$store" --his-listen 127.0.0.1:0
check "the HIS listener is not the internal one" test -n "$his" -a "$his" != "$internal"
check "POST /v1/otp on the HIS listener with the key: 204" test "$(otp "$his" 9K2RAY8UUQ -H "Authorization: Bearer $key_b")" = 204
check "the HIS listener does not serve the staff API or /metrics (404)" bash -c "
  [ \"\$(curl -s -o /dev/null -w '%{http_code}' http://$his/staff/v1)\" = 404 ] &&
  [ \"\$(curl -s -o /dev/null -w '%{http_code}' http://$his/metrics)\" = 404 ]"
check "POST /v1/otp on the internal listener is 404, naming his_listen" bash -c "
  [ \"\$(curl -s -o '$work/body' -w '%{http_code}' -X POST http://$internal/v1/otp -H 'Authorization: Bearer $key_b' -H 'Content-Type: application/json' -d '{\"otp\":\"KJ23IWY5UJ\",\"symptoms_started_on\":\"$today\"}')\" = 404 ] &&
  grep -q his_listen '$work/body'"
stop_server

# his_auth none: a warning at every start.
TRACEDESK_HIS_AUTH=none check "his_auth none: serve starts" start_server "$store"
check "his_auth none: serve warns at start" grep -q 'WARNING: his_auth is none' "$work/serve.log"
check "his_auth none: POST /v1/otp without a key is 204, as his-api" bash -c "
  [ \"\$(curl -s -o /dev/null -w '%{http_code}' -X POST http://$internal/v1/otp -H 'Content-Type: application/json' -d '{\"otp\":\"UQ776R9A7E\",\"symptoms_started_on\":\"$today\"}')\" = 204 ] || exit 1
  [ \"\$(sqlite3 '$store' \"SELECT authorized_by FROM otp_authorizations ORDER BY authorized_at_ms DESC LIMIT 1\")\" = his-api ]"
stop_server

# his_auth certificate: TLS client certificates signed by the HIS authority; the subject CN names
# the client (added like any other), a certificate from another authority or without a client
# is refused.
pki="$work/pki"; mkdir -p "$pki"
ossl() { openssl "$@" >/dev/null 2>&1; }
ossl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=e2e-his-ca \
  -keyout "$pki/ca.key" -out "$pki/ca.pem"
ossl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=other-ca \
  -keyout "$pki/other.key" -out "$pki/other.pem"
ossl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$pki/server.key" -out "$pki/server.pem"
client_cert() { # client_cert NAME CN CA
  ossl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/O=e2e/CN=$2" -keyout "$pki/$1.key" -out "$pki/$1.csr"
  ossl x509 -req -in "$pki/$1.csr" -CA "$pki/$3.pem" -CAkey "$pki/$3.key" -CAcreateserial -days 2 -out "$pki/$1.pem"
}
client_cert good hospital-c ca
client_cert stranger hospital-c other
client_cert nobody no-such-client ca
as_boss his add hospital-c >/dev/null 2>&1
TRACEDESK_TLS_CERT="$pki/server.pem" TRACEDESK_TLS_KEY="$pki/server.key" TRACEDESK_HIS_AUTH=certificate \
  TRACEDESK_HIS_CA_FILE="$pki/ca.pem" check "his_auth certificate: serve starts over TLS" start_server "$store"
tls_otp() { # tls_otp CODE [CURL ARGS…] → status
  local code=$1; shift
  curl -s --max-time 10 -k -o "$work/body" -w '%{http_code}' -X POST "https://$internal/v1/otp" \
    -H 'Content-Type: application/json' -d "{\"otp\":\"$code\",\"symptoms_started_on\":\"$today\"}" "$@"
}
check "a client certificate from the HIS authority: 204, actor his:hospital-c" bash -c "
  [ \"\$(curl -s --max-time 10 -k -o /dev/null -w '%{http_code}' -X POST https://$internal/v1/otp --cert '$pki/good.pem' --key '$pki/good.key' -H 'Content-Type: application/json' -d '{\"otp\":\"Z6UI7HAFXQ\",\"symptoms_started_on\":\"$today\"}')\" = 204 ] &&
  [ \"\$(sqlite3 '$store' \"SELECT authorized_by FROM otp_authorizations ORDER BY authorized_at_ms DESC LIMIT 1\")\" = his:hospital-c ]"
check "no client certificate: 401 {1402}" bash -c "[ \"\$(curl -s --max-time 10 -k -o '$work/body' -w '%{http_code}' -X POST https://$internal/v1/otp -H 'Content-Type: application/json' -d '{\"otp\":\"4K51Q19235\",\"symptoms_started_on\":\"$today\"}')\" = 401 ] && grep -q 1402 '$work/body'"
check "a key instead of a certificate: 401" test "$(tls_otp 4K51Q19235 -H "Authorization: Bearer $key_b")" = 401
check "the same CN from another authority: 401 {1402}" bash -c "
  [ \"\$(curl -s --max-time 10 -k -o '$work/body' -w '%{http_code}' -X POST https://$internal/v1/otp --cert '$pki/stranger.pem' --key '$pki/stranger.key' -H 'Content-Type: application/json' -d '{\"otp\":\"4K51Q19235\",\"symptoms_started_on\":\"$today\"}')\" = 401 ] &&
  grep -q 1402 '$work/body'"
check "a certificate naming no client: 401" test "$(tls_otp 4K51Q19235 --cert "$pki/nobody.pem" --key "$pki/nobody.key")" = 401
as_boss his revoke hospital-c >/dev/null 2>&1
check "the client revoked: its certificate is refused (401)" test "$(tls_otp 4K51Q19235 --cert "$pki/good.pem" --key "$pki/good.key")" = 401
check "a staff console still connects without a certificate" \
  test "$(curl -s --max-time 10 -k -o /dev/null -w '%{http_code}' "https://$internal/staff/v1")" = 200
stop_server

summary e2e-hardening-his
