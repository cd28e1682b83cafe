#!/usr/bin/env bash
# Issue 18, points 7-9, against the real `tracedesk serve`: a log on a full disk and a log pipe
# without a reader, a store on a full disk, the three lenient framings (request smuggling), a
# client that writes a 2 MB body before it reads, and a bounded header trickle from
# 127.0.0.2-127.0.0.6 while a fresh client on 127.0.0.1 is served.
# Usage: Tests/e2e/hardening-http.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-hardening-http: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
mounted=""
# The server first: a tmpfs it holds a file on cannot be unmounted.
on_exit '[ -n "$server" ] && kill -KILL "$server" 2>/dev/null && wait "$server" 2>/dev/null'
on_exit '[ -n "$mounted" ] && umount "$mounted" 2>/dev/null'
use_signing_key

# up PORT: GET / answers 200. wait_up PORT: waits for that (generously).
up() { [ "$(curl -s -o /dev/null -m 5 -w '%{http_code}' "http://127.0.0.1:$1/")" = 200 ]; }
wait_up() { wait_until 60 up "$1"; }
# failures PORT: tracedesk_log_write_failures_total from /metrics on the internal PORT.
failures() { curl -s -m 10 "http://127.0.0.1:$1/metrics" | sed -n 's/^tracedesk_log_write_failures_total //p'; }
alive() { kill -0 "$server" 2>/dev/null; }
# Requests that write a line each to the access log (flushed every 250 ms).
some_requests() { for _ in $(seq "$2"); do curl -s -o /dev/null -m 10 "http://127.0.0.1:$1/"; done; }
# counted PORT: waits for the failure counter to be above 0.
some_failures() { local n; n=$(failures "$1"); [ -n "$n" ] && [ "$n" -gt 0 ]; }
counted() { wait_until "$wait_cap" some_failures "$1"; }
# serving: the server (whose log cannot be read) listens on its two ephemeral ports, found from
# the system's sockets: $p is the phone API's, $i the internal one's; and it answers.
serving() { bound_ports "$server" && p=${phone##*:} i=${internal##*:} && wait_up "$p"; }

# 7. The log on a full disk: every line fails to be written; the server serves on.
"$bin" serve --store "$work/full-log.sqlite" --listen 127.0.0.1:0 --internal-listen 127.0.0.1:0 2>/dev/full &
server=$!
check "log on /dev/full: the server starts and answers" serving
some_requests "$p" 60
check "log on /dev/full: 60 requests later it still answers" wait_up "$p"
check "log on /dev/full: the lines dropped are counted in /metrics" counted "$i"
check "log on /dev/full: still running" alive
stop_server

# 7. The log's reader goes away (a pipe whose read end is closed): no SIGPIPE death.
mkfifo "$work/log.fifo"
# The reader takes the first line and leaves.
head -n 1 "$work/log.fifo" >"$work/first-line" &
reader=$!
"$bin" serve --store "$work/pipe-log.sqlite" --listen 127.0.0.1:0 --internal-listen 127.0.0.1:0 \
  2>"$work/log.fifo" &
server=$!
wait "$reader"
check "closed log pipe: the reader saw the first line and left" test -s "$work/first-line"
check "closed log pipe: the server answers" serving
some_requests "$p" 60
check "closed log pipe: 60 requests later it still answers" wait_up "$p"
check "closed log pipe: the lines dropped are counted in /metrics" counted "$i"
check "closed log pipe: still running (no SIGPIPE)" alive
stop_server

# 8 and 9 on one server with its log in a file. Fewer connections than the trickle below holds
# (so that, without the head gate, it would fill them), a short head deadline and a small cap on
# heads being read (so that both act within the trickle's 12 s).
TRACEDESK_MAX_CONNECTIONS=100 TRACEDESK_HEAD_DEADLINE_SECONDS=4 TRACEDESK_MAX_CONNECTIONS_READING_HEAD=64 \
  check "serve starts" start_server "$work/desk.sqlite"
pport=${phone##*:}

# smuggle.py PORT CASE [kept]: a lenient framing, then a hidden request, on a fresh connection
# (or, with kept, as the 4th request of a kept one: past the gate, checked from what
# libmicrohttpd parsed): answered 400 with the error body and closed, the hidden one never.
cat >"$work/smuggle.py" <<'EOF'
import socket, sys
port = int(sys.argv[1])
kept = sys.argv[3:] == ["kept"]
hidden = b"GET /hidden-request HTTP/1.1\r\nHost: x\r\n\r\n"
space = b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
cases = {
    "space": space,
    "fold": b"POST / HTTP/1.1\r\nHost: x\r\nX-A: b\r\n c\r\nContent-Length: 0\r\n\r\n",
    "lf": b"POST / HTTP/1.1\nHost: x\nContent-Length: 5\n\nhello",
}
if kept:
    cases = {
        "space": space,
        "fold": b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding:\r\n chunked\r\n\r\nhello",
        "both": b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    }
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(30)
for _ in range(3 if kept else 0):  # kept: each answer read by its Content-Length, no Connection: close
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.lower().split(b"\r\n")
    length = int([l.split(b":")[1] for l in lines if l.startswith(b"content-length:")][0])
    while len(body) < length:
        body += s.recv(65536)
    if not head.startswith(b"HTTP/1.1 200 ") or b"connection: close" in lines:
        sys.exit(1)
s.sendall(cases[sys.argv[2]] + hidden)
out = b""
while True:  # until the server closes (the read timeout would raise: a failure)
    b = s.recv(65536)
    if not b:
        break
    out += b
ok = out.startswith(b"HTTP/1.1 400 ") and out.count(b"HTTP/1.1") == 1 and b'"error_code":1100' in out
sys.exit(0 if ok else 1)
EOF
lines_before=$(wc -l <"$work/serve.log")
for variant in space fold lf; do
  check "smuggling ($variant): 400 with the error body, closed, the hidden request not answered" \
    python3 "$work/smuggle.py" "$pport" "$variant"
done
# A marker request, logged after everything before it: until it, no request reached a handler.
curl -s -o /dev/null "http://$phone/v1/keys/index"
wait_log 'GET /v1/keys/index' >/dev/null
check "smuggling: neither the requests nor the hidden ones reached a handler (access log)" bash -c "
  tail -n +\$(($lines_before + 1)) '$work/serve.log' | sed '/GET \\/v1\\/keys\\/index/q' | grep -c ' public ' | grep -qx 1"
check "smuggling: the refusals are counted" bash -c \
  "curl -s http://$internal/metrics | grep -q 'tracedesk_http_heads_refused_total{reason=\"malformed\"} 3'"

# The same framings as a LATER request of a kept connection, after three requests answered on it.
for variant in space fold both; do
  check "kept connection, 4th request ($variant): 400 with the error body, closed, the hidden one not answered" \
    python3 "$work/smuggle.py" "$pport" "$variant" kept
done

cat >"$work/big.py" <<'EOF'
import http.client, sys
# Python's http.client writes the whole body before it reads the answer.
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=60)
c.request("POST", "/v1/ingestion/upload", body=b"a" * 2_000_000,
          headers={"Content-Type": "application/json", "Authorization": "Bearer " + "0" * 64,
                   "Immuni-Dummy-Data": "0", "Immuni-Client-Clock": "0"})
r = c.getresponse()
body = r.read()
sys.exit(0 if r.status == 413 and b'"error_code":1013' in body else 1)
EOF
check "a 2 MB body written before reading (http.client): 413 with the error body, not a broken pipe" \
  python3 "$work/big.py" "$pport"

# 9. A bounded trickle: 300 connections from five addresses, a header line every 2 s, 12 s;
# a fresh client on 127.0.0.1 asks every 0.5 s, waiting up to 20 s for each answer.
python3 "$root/Benchmarks/trickle.py" "$pport" --connections 300 --sources 5 --interval 2 --seconds 12 \
  --probe-timeout 20 >"$work/trickle.json"
check "trickle: every probe of a fresh client was answered" python3 -c "
import json, sys; r = json.load(open('$work/trickle.json')); print('    ', r)
sys.exit(0 if r['probes_failed'] == 0 and r['probes_answered'] > 0 else 1)"
check "trickle: the server closed trickling connections (head deadline, cap)" python3 -c "
import json, sys; sys.exit(0 if json.load(open('$work/trickle.json'))['closed_by_server'] > 0 else 1)"
check "trickle: the server still answers" wait_up "$pport"
stop_server

# 7. A store on a full disk: 500/503, the server stays up, and works again once there is room.
disk="$work/disk"
mkdir -p "$disk"
if mount -t tmpfs -o size=8m tmpfs "$disk" 2>/dev/null; then
  mounted="$disk"
  check "full store disk: serve starts" start_server "$disk/desk.sqlite"
  "$bin" bench seed --store "$disk/desk.sqlite" --count 30 --tokens "$work/tokens" >/dev/null 2>&1
  now=$(date -u +%s)
  body=$(random_keys_body 13 14)
  upload() {
    curl -s -o "$work/upload" -w '%{http_code}' -m 30 -X POST "http://$phone/v1/ingestion/upload" \
      -H 'Content-Type: application/json; charset=utf-8' -H "Authorization: Bearer $1" -H 'Immuni-Dummy-Data: 0' \
      -H "Immuni-Client-Clock: $now" -d "$body"
  }
  dd if=/dev/zero of="$disk/filler" bs=64k 2>/dev/null
  # SQLite may still have room in its WAL file (reused after a checkpoint): upload with one
  # code after another until the disk tells, at most 30.
  stored=0 refused="" statuses=""
  for n in $(seq 30); do
    status=$(upload "$(sed -n "${n}p" "$work/tokens")")
    statuses="$statuses $status"
    if [ "$status" = 204 ]; then stored=$((stored + 1)); else refused=$n; break; fi
  done
  check "full store disk: an upload is refused with 500 or 503 and the error body (answers:$statuses)" bash -c \
    "[ -n '$refused' ] && case '$status' in 500|503) grep -q '\"error_code\"' '$work/upload';; *) false;; esac"
  check "full store disk: the server is up" wait_up "${phone##*:}"
  check "full store disk: the incident is in the log, without the token" bash -c \
    "grep -q incident '$work/serve.log' && ! grep -q '$(sed -n "${refused:-1}p" "$work/tokens")' '$work/serve.log'"
  rm -f "$disk/filler"
  check "room again: the refused upload is stored (204)" test "$(upload "$(sed -n "${refused:-1}p" "$work/tokens")")" = 204
  check "the server counted $((stored + 1)) uploads stored" bash -c \
    "curl -s http://$internal/metrics | grep -q 'tracedesk_uploads_total{result=\"stored\"} $((stored + 1))\$'"
  stop_server
  check "nothing acknowledged was lost: the store holds $((stored + 1)) uploads" \
    test "$(sqlite3 "$disk/desk.sqlite" 'SELECT count(*) FROM uploads')" = "$((stored + 1))"
  umount "$disk" && mounted=""
else
  echo "skip full store disk: cannot mount a tmpfs here (needs root)"
fi

summary e2e-hardening-http
