#!/usr/bin/env bash
# `tracedesk serve` as systemd runs it (Type=notify): the sd_notify datagrams on a real AF_UNIX
# datagram socket that python3 listens on (a path, then an abstract @name), READY=1 only once
# both listeners accept connections and STOPPING=1 on SIGTERM; a socket that is gone does not
# stop the server. Then --log-format json: every line of a run's stderr parsed as JSON, and no
# code, bearer token, HIS key, password, setup token or phone number in any of them.
# Usage: Tests/e2e/service.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-service: N passed, N failed". KEEP_JSON_LOG=FILE
# keeps a copy of the JSON run's log there, to read.
set -uo pipefail

source "$(dirname "$0")/lib.sh"
use_signing_key

# notify_listener NAME OUT: a datagram socket bound to NAME (a path, or @ and an abstract name)
# that writes each message it receives to OUT, one line each ("READY=1|STATUS=…"); on READY=1 it
# first connects to every port the server log names and adds "accepted PORT" or "refused PORT"
# for each. Ends after STOPPING=1 or 120 s. Its pid is in $listener.
notify_listener() {
  python3 - "$1" "$2" "$work/serve.log" <<'PY' &
import re, socket, sys, time
name, out, log = sys.argv[1], sys.argv[2], sys.argv[3]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind("\0" + name[1:] if name.startswith("@") else name)
s.settimeout(120)
open(out + ".bound", "w").write("bound\n")
deadline = time.time() + 120
with open(out, "a", buffering=1) as f:
    while time.time() < deadline:
        try:
            message = s.recv(4096).decode()
        except socket.timeout:
            break
        if "READY=1" in message.split("\n"):
            ports = re.findall(r" on https?://127\.0\.0\.1:(\d+)", open(log).read())
            for port in ports:
                c = socket.socket()
                c.settimeout(5)
                try:
                    c.connect(("127.0.0.1", int(port)))
                    f.write("accepted %s\n" % port)
                except OSError:
                    f.write("refused %s\n" % port)
                finally:
                    c.close()
        f.write(message.replace("\n", "|") + "\n")
        if "STOPPING=1" in message.split("\n"):
            break
PY
  listener=$!
  pids+=("$listener")
  wait_file "$2.bound"
}
got() { grep -q -- "$2" "$1" 2>/dev/null; }

# --- sd_notify on a socket at a path ---
notes="$work/notify-path"
notify_listener "$work/notify.sock" "$notes"
NOTIFY_SOCKET="$work/notify.sock" check "serve starts with NOTIFY_SOCKET set" start_server "$work/desk.sqlite"
check "READY=1 arrives" wait_until 30 got "$notes" '^READY=1'
check "READY=1 came once both listeners accepted connections" bash -c "
  [ \$(grep -c '^accepted ' '$notes') -ge 2 ] && ! grep -q '^refused ' '$notes' &&
  grep -q '^accepted ${phone##*:}\$' '$notes' && grep -q '^accepted ${internal##*:}\$' '$notes'"
check "READY=1 is the first message" bash -c "grep -v '^accepted ' '$notes' | head -n1 | grep -q '^READY=1'"
check "no STOPPING before a signal" bash -c "! grep -q STOPPING '$notes'"
kill -TERM "$server"
check "STOPPING=1 arrives after SIGTERM" wait_until 30 got "$notes" '^STOPPING=1'
wait "$server"; status=$?; server=""
check "serve exits 0 after SIGTERM" test "$status" = 0
check "the log says it stopped" has_line "$work/serve.log" "serve: stopped"

# --- an abstract socket name ---
notes="$work/notify-abstract"
abstract="@tracedesk-e2e-$$-$RANDOM"
notify_listener "$abstract" "$notes"
NOTIFY_SOCKET="$abstract" check "serve starts with an abstract NOTIFY_SOCKET" start_server "$work/desk.sqlite"
check "READY=1 arrives on the abstract socket" wait_until 30 got "$notes" '^READY=1'
kill -INT "$server"
check "STOPPING=1 arrives after SIGINT" wait_until 30 got "$notes" '^STOPPING=1'
wait "$server"; status=$?; server=""
check "serve exits 0 after SIGINT" test "$status" = 0

# --- a socket that is gone: noted, and the server serves ---
NOTIFY_SOCKET="$work/nobody.sock" check "serve starts with a NOTIFY_SOCKET nobody listens on" \
  start_server "$work/desk.sqlite"
check "the log notes that systemd could not be told" wait_log "note: systemd could not be told the server is ready"
check "the server serves all the same" test "$(curl -s -o /dev/null -w '%{http_code}' "http://$phone/v1/settings?platform=ios&build=1")" = 200
check "and stops cleanly" stop_server

# --- --log-format json ---
# A run that sees every kind of secret: a fresh store (the setup token), an admin's password, a
# HIS key authorising a code, the phone's bearer token on check-otp and upload, an APRICOT code
# sent to a phone number, bad requests and a refused sign-in.
store="$work/json.sqlite"
"$bin" serve --store "$store" --listen 127.0.0.1:0 --internal-listen 127.0.0.1:0 --log-format json \
  >"$work/json.out" 2>"$work/serve.log" &
server=$!
check "serve --log-format json names its listeners (in JSON)" wait_until 60 e2e_listening
check "the setup token is on stdout" wait_until 30 got "$work/json.out" '^setup token: '
setup=$(sed -n 's/^setup token: //p' "$work/json.out")
add_staff "$store" boss admin
his=$(his_key "$store" boss "$admin_pw" json-hospital)
code=KJ23IWY5UJ
curl -s -o /dev/null -X POST "http://$internal/v1/otp" -H "Authorization: Bearer $his" \
  -H 'Content-Type: application/json' -d "{\"otp\":\"$code\",\"symptoms_started_on\":\"$today\"}"
check "the code is authorised: check-otp 204" test "$(phone_check "$code")" = 204
check "the upload: 204" test "$(phone_upload "$code" 0)" = 204
ap_phone="+393337654321"
curl -s -o /dev/null -X POST "http://$phone/apricot/v1/otp" -H 'Content-Type: application/json' \
  -d "{\"app_id\":\"e2e.app\",\"device_id\":\"dev-json\",\"phone\":\"$ap_phone\"}"
curl -s -o /dev/null -X POST "http://$internal/staff/v1/sessions" -H 'Content-Type: application/json' \
  -d "{\"name\":\"boss\",\"password\":\"wrong-$admin_pw\"}"
curl -s -o /dev/null "http://$phone/v1/nowhere?otp=$code"
curl -s -o /dev/null -X POST "http://$phone/v1/ingestion/upload" -H 'Content-Type: application/json' \
  -H "Authorization: Bearer $(hash "$code")" -d '{'
check "a request line is logged" wait_until 30 got "$work/serve.log" '"event":"request"'
kill -TERM "$server"
wait "$server"; server=""
check "every line of the run is one JSON object with time, level and event" python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) >= 10, len(lines)
for line in lines:
    o = json.loads(line)
    assert isinstance(o, dict) and all(k in o for k in ("time", "level", "event")), line
    assert o["time"].endswith("Z") and o["level"] in ("info", "notice", "warning", "error"), line
' "$work/serve.log"
check "request lines carry route, status and duration_ms" python3 -c '
import json, sys
rs = [o for o in map(json.loads, open(sys.argv[1])) if o["event"] == "request"]
assert any(o["route"] == "/v1/ingestion/check-otp" and o["status"] == 204 for o in rs), rs
assert all(isinstance(o["duration_ms"], (int, float)) and "?" not in o["route"] for o in rs), rs
' "$work/serve.log"
check "start and stop are events of their own" python3 -c '
import json, sys
events = [o["event"] for o in map(json.loads, open(sys.argv[1]))]
assert "listening" in events and "stopping" in events and "stopped" in events, events
' "$work/serve.log"
check "no code, token, key, password, setup token or phone number in the JSON log" bash -c "
  ! grep -qiF -e '$code' -e '$(hash "$code")' -e '$his' -e '$admin_pw' -e '$setup' -e '$ap_phone' -e '${ap_phone#+}' '$work/serve.log'"
check "bad settings are reported as a JSON error" bash -c "
  '$bin' serve --store '$store' --log-format json --listen nowhere 2>'$work/bad.log'; [ \$? = 2 ] &&
  python3 -c 'import json,sys; o=json.loads(open(sys.argv[1]).read()); assert o[\"level\"]==\"error\" and o[\"event\"]==\"settings\"' '$work/bad.log'"
check "an unknown --log-format is a usage error naming the formats (the table's allowed values)" bash -c "
  '$bin' serve --store '$store' --log-format xml 2>'$work/xml.err'; [ \$? = 2 ] &&
  grep -qF \"unknown log format 'xml': use text or json\" '$work/xml.err'"

[ -n "${KEEP_JSON_LOG:-}" ] && cp "$work/serve.log" "$KEEP_JSON_LOG"
summary e2e-service
