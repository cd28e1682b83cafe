#!/usr/bin/env bash
# The upload monitor through the real binary: an operator authorises a code in the console (in
# tmux), a phone (curl) checks it and uploads against `tracedesk serve` on the same store, the
# CLI publishes a chunk, and each step appears on the console's watch as it happens; the same over
# the network (`--server`); the monitor screen's rows; an event kind the console does not know;
# and the server restarting under a supervisor's monitor, which resumes without losing or
# repeating a row.
# Usage: Tests/e2e/monitor.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-monitor: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
export TRACEDESK_SIGNING_KEY_REQUIRED=false TRACEDESK_CHECK_DELAY_MEAN_MS=0

store="$work/desk.sqlite"
tag() { hash "$1" | cut -c1-6; }

publish() { "$bin" chunks publish --store "$store" --signing-key "$work/signing.pem" >"$work/publish.out" 2>&1; }

"$bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1
add_staff "$store" boss admin
add_staff "$store" ana operator
add_staff "$store" sara supervisor
# Ports below the ephemeral range (free_port), since the server comes back on them: a port the
# kernel handed out could be given meanwhile to a test running beside this script.
check "serve starts on the store" start_server "$store" --listen "127.0.0.1:$(free_port)" \
  --internal-listen "127.0.0.1:$(free_port)"
phone_port=${phone##*:}
internal_port=${internal##*:}

# start_console WINDOW PASSWORD ARGS…: a console in a window of its own (the window becomes
# $pane), signed in with PASSWORD.
start_console() {
  local window=$1 pw=$2; shift 2
  open_window "$window" 80 24 -- "$@"
  sign_in "$pw"
}

# watch_a_call MODE CODE SEED: the operator's call, step by step, against the server.
watch_a_call() {
  local mode=$1 code=$2 seed=$3
  local typed
  typed=$(echo "$code" | tr 'A-Z' 'a-z' | sed 's/./& /g')
  # shellcheck disable=SC2086
  keys $typed y Enter Enter
  check "$mode: the console authorises $code and its watch waits for the app" \
    wait_wrapped "waiting for the app to check the code"
  check "$mode: the phone's check-otp is 204" test "$(phone_check "$code")" = 204
  check "$mode: the watch shows the check" wait_wrapped "the app checked the code"
  check "$mode: the phone's upload is 204" test "$(phone_upload "$code" "$seed")" = 204
  check "$mode: the watch shows the upload" wait_wrapped "upload received at"
  # Symptoms from yesterday: the keys of the 4 days from 2 days before are kept.
  check "$mode: ... with its keys, the dropped ones and why, and the province" \
    wait_wrapped "4 keys accepted, 10 dropped (10 before the risk window), province RM"
  check "$mode: ... and that this server publishes nothing (it has no signing key)" \
    wait_wrapped "no publishing run scheduled"
  publish
  check "$mode: the CLI publishes a chunk" grep -q '^chunk [0-9]*:' "$work/publish.out"
  local chunk
  chunk=$(sed -nE 's/^chunk ([0-9]+):.*/\1/p' "$work/publish.out" | head -n1)
  check "$mode: the watch shows it published in chunk $chunk" wait_wrapped "published in chunk $chunk so far, 1 key still waits"
  check "$mode: ... and today's key waiting for its embargo, tomorrow at 02:00" \
    wait_wrapped "keys wait for the embargo until tomorrow 02:00"
}

# filtered TEXT: the monitor filtered to TEXT (typed after /), then the filter closed: its line
# names the filter, drawn with the rows it leaves.
filtered() {
  keys /
  keys -l -- "$1"
  keys Enter
  wait_for "Filter: $1 (/ edit, Esc clears)" >/dev/null
}
# rows KIND TAG: how many rows of KIND about TAG the monitor shows. rows_are KIND TAG N: N of them.
rows() { screen | grep -c " $1 .*$2"; }
rows_are() { [ "$(rows "$1" "$2")" = "$3" ]; }
# once TAG: the monitor shows one row of each step about TAG: authorised, checked, upload.
once() { rows_are authorised "$1" 1 && rows_are checked "$1" 1 && rows_are upload "$1" 1; }

# --- Local mode: the console on the store, the server beside it ---
start_console op "$oper_pw" --store "$store" --user ana
check "local: the operator signs in" wait_wrapped "Authorise an upload"
watch_a_call local 9K2RAY8UUQ 0
keys F3
check "local: F3 opens the monitor, with the upload of the code's tag" wait_wrapped "$(tag 9K2RAY8UUQ)"
check "local: ... its rows name the steps" bash -c "s=\$(tmux -L '$socket' capture-pane -p -t app:op); for k in authorised checked upload chunk; do echo \"\$s\" | grep -q \" \$k \" || exit 1; done"
check "local: the operator's legend lists only their kinds' keys, apart from the counts" \
  wait_wrapped "show/hide 1 authorised 2 checked 3 upload 4 refused 6 chunk 7 staff"
check "local: ... and no kind of the supervisor's" absent "analytics"
check "local: the counts are words first, without keys" wait_re "^ authorised [0-9]+ · checked [0-9]+ · upload [0-9]+"
filtered "before the risk"
check "local: / finds the upload by the words shown" rows_are upload "$(tag 9K2RAY8UUQ)" 1
keys Enter
check "local: Enter: its detail in words" wait_wrapped "dropped: 10 before the risk window"
check "local: ... no stored name or JSON in the pane" bash -c "! tmux -L '$socket' capture-pane -p -t app:op | grep -qE 'before_risk_window|upload_accepted|[{}]'"
keys Escape Escape
filtered "before_risk_window"
check "local: / still finds it by the stored reason" rows_are upload "$(tag 9K2RAY8UUQ)" 1
keys Escape
filtered "status: authorized"
check "local: / still finds the check by its stored status" rows_are checked "$(tag 9K2RAY8UUQ)" 1
keys Escape
keys C-c

# The same monitor without colour and without UTF-8: the legend's digits are keys (reverse
# video), the counts plain text, apart.
open_window mono 80 24 NO_COLOR=1 LANG=C LC_ALL=C -- --store "$store" --user ana
sign_in "$oper_pw"
wait_wrapped "Authorise an upload" >/dev/null
keys F3
check "NO_COLOR, LANG=C: the operator's legend" wait_wrapped "show/hide 1 authorised 2 checked 3 upload 4 refused 6 chunk 7 staff"
check "NO_COLOR, LANG=C: the counts apart, in ASCII" wait_re "^ authorised [0-9]+ - checked [0-9]+ - upload [0-9]+"
legend_keys() { tmux -L "$socket" capture-pane -e -p -t app:mono | grep "show/hide" | grep -q $'\e\[7m6'; }
check "NO_COLOR: the legend's digits in reverse video, as the footer's keys" wait_until 30 legend_keys
keys C-c

# --- Network mode: the console through the server's staff API ---
start_console net "$oper_pw" --server "http://$internal" --user ana
check "network: the operator signs in to the server" wait_wrapped "Authorise an upload"
watch_a_call network KJ23IWY5UJ 20
keys C-c

# --- A supervisor's monitor over the network, through a server restart ---
start_console sup "$super_pw" --server "http://$internal" --user sara
check "network: the supervisor's console opens on the dashboard" wait_wrapped "TraceDesk · Dashboard"
keys F3
check "network: F3 shows the monitor" wait_wrapped "Activity, newest first"
for code in 9K2RAY8UUQ KJ23IWY5UJ; do
  filtered "$(tag "$code")"
  check "the monitor filtered to $(tag "$code") shows its authorisation, check, upload" once "$(tag "$code")"
  keys x
done

# An event this console version does not know (a newer server wrote it).
sqlite3 "$store" "INSERT INTO events (at_ms, kind, detail) VALUES ($(date +%s)000, 'vaccine_pass_issued', '{\"province\":\"RM\"}')"
check "an unknown kind is a row 'unknown event', the console still runs" wait_wrapped "unknown event"
# An APRICOT registration: its own kind, in words.
sqlite3 "$store" "INSERT INTO events (at_ms, kind, detail) VALUES ($(date +%s)000, 'apricot_registered', '{\"pseudo_ids\":1000}')"
check "an APRICOT registration is a row 'registered', in words" wait_wrapped "new app user, 1000 pseudo-ids"

# The server stops under the waiting long poll; codes are authorised meanwhile; it comes back.
stop_server
check "while the server is away, the monitor says it is reconnecting" wait_wrapped "reconnecting"
later=(UQ776R9A7E Z6UI7HAFXQ)
for code in "${later[@]}"; do
  printf '%s\n' "$oper_pw" | "$bin" otp authorize "$code" --symptoms "$today" --store "$store" --user ana --password-stdin >/dev/null 2>&1
done
check "the server starts again on the same ports" start_server "$store" --listen "127.0.0.1:$phone_port" --internal-listen "127.0.0.1:$internal_port"
check "the monitor is live again" wait_wrapped "● live"
for code in "${later[@]}"; do
  check "the code authorised while away ($(tag "$code")) is on the monitor once" \
    wait_until "$wait_cap" rows_are authorised "$(tag "$code")" 1
done
filtered "$(tag 9K2RAY8UUQ)"
check "and nothing from before the restart is repeated" \
  test "$(rows authorised "$(tag 9K2RAY8UUQ)") $(rows upload "$(tag 9K2RAY8UUQ)")" = "1 1"
keys C-c
stop_server
summary e2e-monitor
