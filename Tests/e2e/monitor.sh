#!/usr/bin/env bash
# The upload monitor through the real binary: an operator authorises a code in the console (in
# tmux), a phone (curl) checks it and uploads against `tracedesk serve` on the same store, the
# CLI publishes a chunk, and each step appears on the console's watch within 2 s; the same over
# the network (`--server`); the monitor screen's rows; an event kind the console does not know;
# and the server restarting under a supervisor's monitor, which resumes without losing or
# repeating a row.
# Usage: Tests/e2e/monitor.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-monitor: N passed, N failed".
set -uo pipefail

bin=$(realpath "${1:-.build/debug/tracedesk}")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
passed=0
failed=0
server=""
export SWIFT_BACKTRACE=enable=no TRACEDESK_SIGNING_KEY_REQUIRED=false TRACEDESK_CHECK_DELAY_MEAN_MS=0

socket="tracedesk-monitor-e2e-$$"
cleanup() {
  [ -n "$server" ] && kill -KILL "$server" 2>/dev/null
  tmux -L "$socket" kill-server 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

source "$root/Tests/e2e/lib.sh"

store="$work/desk.sqlite"
today=$(date -u +%F)
admin_pw="chief-key-8734"
oper_pw="operator-secret-2"
super_pw="supervisor-pass-3"
hash() { printf %s "$1" | sha256sum | cut -c1-64; }
tag() { hash "$1" | cut -c1-6; }

# screen WINDOW: what the console in that tmux window shows now.
screen() { tmux -L "$socket" capture-pane -p -t "$1"; }
# joined WINDOW: the screen as one line without box edges, so wrapped text reads whole.
joined() { screen "$1" | sed 's/[│┃]//g' | tr -s ' \n' '  '; }
# within SECONDS WINDOW TEXT: TEXT appears on the window (wrapped or not) within SECONDS.
within() {
  local limit=$1 window=$2 text=$3
  local deadline
  deadline=$(($(date +%s%N) + limit * 1000000000))
  while [ "$(date +%s%N)" -le "$deadline" ]; do
    joined "$window" | grep -qF -- "$text" && return 0
    sleep 0.05
  done
  echo "    screen of $window:"; screen "$window" | sed 's/^/    | /'
  return 1
}
keys() { local window=$1; shift; tmux -L "$socket" send-keys -t "$window" "$@"; }

# The phone's side, with curl: check-otp, then an upload of 14 daily keys (the newest one still
# running today, so it waits for the embargo after the others are published; yesterday's ends
# 3 h before now at the latest, so it is past its 2 h embargo at any hour, midnight included).
phone_check() {
  curl -s -o /dev/null -w '%{http_code}' -X POST "http://$phone/v1/ingestion/check-otp" \
    -H 'Content-Type: application/json; charset=utf-8' -H "Authorization: Bearer $(hash "$1")" \
    -H 'Immuni-Dummy-Data: 0' -d '{"padding":"00ff"}'
}
phone_upload() {
  local now keys="" start period byte data
  now=$(date -u +%s)
  for i in $(seq 0 13); do
    start=$(((now / 86400 - 13 + i) * 144))
    period=144
    if [ "$i" = 12 ] && [ $(((now - 10800) / 600 - start)) -lt 144 ]; then period=$(((now - 10800) / 600 - start)); fi
    byte=$(printf '\\x%02x' "$((i + 1 + $2))")
    data=$(for _ in $(seq 16); do printf "$byte"; done | base64)
    keys="$keys{\"key_data\":\"$data\",\"rolling_start_number\":$start,\"rolling_period\":$period},"
  done
  curl -s -o /dev/null -w '%{http_code}' -X POST "http://$phone/v1/ingestion/upload" \
    -H 'Content-Type: application/json; charset=utf-8' -H "Authorization: Bearer $(hash "$1")" \
    -H 'Immuni-Dummy-Data: 0' -H "Immuni-Client-Clock: $now" \
    -d "{\"teks\":[${keys%,}],\"province\":\"RM\",\"padding\":\"00\",\"exposure_detection_summaries\":[]}"
}
publish() { "$bin" chunks publish --store "$store" --signing-key "$work/signing.pem" >"$work/publish.out" 2>&1; }

"$bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1
printf '%s\n' "$admin_pw" | "$bin" staff add boss --role admin --password-stdin --store "$store" >/dev/null 2>&1
printf '%s\n%s\n' "$admin_pw" "$oper_pw" |
  "$bin" staff add ana --role operator --user boss --password-stdin --store "$store" >/dev/null 2>&1
printf '%s\n%s\n' "$admin_pw" "$super_pw" |
  "$bin" staff add sara --role supervisor --user boss --password-stdin --store "$store" >/dev/null 2>&1
check "serve starts on the store" start_server "$store"
phone_port=${phone##*:}
internal_port=${internal##*:}

# start_console WINDOW ARGS…: a console in a new tmux window, signed in with PASSWORD ($pw).
tmux -L "$socket" -f /dev/null new-session -d -s e2e -x 80 -y 24 -e TERM=tmux-256color -e LANG=C.UTF-8 "sleep 600"
start_console() {
  local window=$1 pw=$2; shift 2
  tmux -L "$socket" new-window -d -t e2e -n "$window" -e TERM=tmux-256color -e LANG=C.UTF-8 \
    "$bin $*; sleep 60"
  tmux -L "$socket" resize-window -t "e2e:$window" -x 80 -y 24 2>/dev/null
  within 10 "e2e:$window" "Sign in" || return 1
  keys "e2e:$window" -l -- "$pw"
  keys "e2e:$window" Enter
}

# watch_a_call MODE WINDOW CODE SEED: the operator's call, step by step, against the server.
watch_a_call() {
  local mode=$1 w=$2 code=$3 seed=$4
  local typed
  typed=$(echo "$code" | tr 'A-Z' 'a-z' | sed 's/./& /g')
  # shellcheck disable=SC2086
  keys "$w" $typed y Enter Enter
  check "$mode: the console authorises $code and its watch waits for the app" \
    within 5 "$w" "waiting for the app to check the code"
  check "$mode: the phone's check-otp is 204" test "$(phone_check "$code")" = 204
  check "$mode: the watch shows the check within 2 s" within 2 "$w" "the app checked the code"
  check "$mode: the phone's upload is 204" test "$(phone_upload "$code" "$seed")" = 204
  check "$mode: the watch shows the upload within 2 s" within 2 "$w" "upload received at"
  # Symptoms from yesterday: the keys of the 4 days from 2 days before are kept.
  check "$mode: ... with its keys, the dropped ones and why, and the province" \
    within 2 "$w" "4 keys accepted, 10 dropped (before_risk_window: 10), province RM"
  check "$mode: ... and that this server publishes nothing (it has no signing key)" \
    within 2 "$w" "no publishing run scheduled"
  publish
  check "$mode: the CLI publishes a chunk" grep -q '^chunk [0-9]*:' "$work/publish.out"
  local chunk
  chunk=$(sed -nE 's/^chunk ([0-9]+):.*/\1/p' "$work/publish.out" | head -n1)
  check "$mode: the watch shows it published in chunk $chunk within 2 s" within 2 "$w" "published in chunk $chunk so far, 1 key still waits"
  check "$mode: ... and today's key waiting for its embargo" within 2 "$w" "keys wait for the embargo until 02:00"
}

# filtered WINDOW TEXT: the monitor filtered to TEXT (typed after /), then the filter closed.
filtered() {
  keys "$1" /
  keys "$1" -l -- "$2"
  keys "$1" Enter
}
# rows WINDOW KIND TAG: how many rows of KIND about TAG the monitor shows.
rows() { screen "$1" | grep -c " $2 .*$3"; }

# --- Local mode: the console on the store, the server beside it ---
start_console op "$oper_pw" --store "$store" --user ana
check "local: the operator signs in" within 10 e2e:op "Authorise an upload"
watch_a_call local e2e:op 9K2RAY8UUQ 0
keys e2e:op F3
check "local: F3 opens the monitor, with the upload of the code's tag" within 3 e2e:op "$(tag 9K2RAY8UUQ)"
check "local: ... its rows name the steps" bash -c "s=\$(tmux -L '$socket' capture-pane -p -t e2e:op); for k in authorised checked upload chunk; do echo \"\$s\" | grep -q \" \$k \" || exit 1; done"
keys e2e:op C-c

# --- Network mode: the console through the server's staff API ---
start_console net "$oper_pw" --server "http://$internal" --user ana
check "network: the operator signs in to the server" within 10 e2e:net "Authorise an upload"
watch_a_call network e2e:net KJ23IWY5UJ 20
keys e2e:net C-c

# --- A supervisor's monitor over the network, through a server restart ---
start_console sup "$super_pw" --server "http://$internal" --user sara
check "network: the supervisor's console opens on the dashboard" within 10 e2e:sup "TraceDesk · Dashboard"
keys e2e:sup F3
check "network: F3 shows the monitor" within 10 e2e:sup "Activity, newest first"
for code in 9K2RAY8UUQ KJ23IWY5UJ; do
  filtered e2e:sup "$(tag "$code")"
  check "the monitor filtered to $(tag "$code") shows its authorisation, check, upload" bash -c "
    sleep 0.3; s=\$(tmux -L '$socket' capture-pane -p -t e2e:sup)
    for k in authorised checked upload; do [ \$(echo \"\$s\" | grep -c \" \$k .*$(tag "$code")\") = 1 ] || { echo \"\$s\"; exit 1; }; done"
  keys e2e:sup x
done

# An event this console version does not know (a newer server wrote it).
sqlite3 "$store" "INSERT INTO events (at_ms, kind, detail) VALUES ($(date +%s)000, 'vaccine_pass_issued', '{\"province\":\"RM\"}')"
check "an unknown kind is a row 'unknown event', the console still runs" within 3 e2e:sup "unknown event"
# An APRICOT registration: its own kind, in words.
sqlite3 "$store" "INSERT INTO events (at_ms, kind, detail) VALUES ($(date +%s)000, 'apricot_registered', '{\"pseudo_ids\":1000}')"
check "an APRICOT registration is a row 'registered', in words" within 3 e2e:sup "new app user, 1000 pseudo-ids"

# The server stops under the waiting long poll; codes are authorised meanwhile; it comes back.
kill -TERM "$server"; wait "$server"; server=""
check "while the server is away, the monitor says it is reconnecting" within 10 e2e:sup "reconnecting"
later=(UQ776R9A7E Z6UI7HAFXQ)
for code in "${later[@]}"; do
  printf '%s\n' "$oper_pw" | "$bin" otp authorize "$code" --symptoms "$today" --store "$store" --user ana --password-stdin >/dev/null 2>&1
done
check "the server starts again on the same ports" start_server "$store" --listen "127.0.0.1:$phone_port" --internal-listen "127.0.0.1:$internal_port"
check "the monitor is live again" within 15 e2e:sup "● live"
for code in "${later[@]}"; do
  check "the code authorised while away ($(tag "$code")) is on the monitor once" bash -c "
    deadline=\$((SECONDS + 5))
    while [ \$SECONDS -le \$deadline ]; do
      n=\$(tmux -L '$socket' capture-pane -p -t e2e:sup | grep -c ' authorised .*$(tag "$code")')
      [ \"\$n\" = 1 ] && exit 0
      sleep 0.1
    done
    exit 1"
done
filtered e2e:sup "$(tag 9K2RAY8UUQ)"
sleep 0.3
check "and nothing from before the restart is repeated" \
  test "$(rows e2e:sup authorised "$(tag 9K2RAY8UUQ)") $(rows e2e:sup upload "$(tag 9K2RAY8UUQ)")" = "1 1"
keys e2e:sup C-c
kill -TERM "$server" 2>/dev/null && wait "$server" 2>/dev/null
server=""

echo "e2e-monitor: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
