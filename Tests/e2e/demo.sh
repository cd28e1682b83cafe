#!/usr/bin/env bash
# Runs the real `tracedesk demo` in tmux at 80x24: the operator reads the simulated citizen's
# code from the demo's strip, authorises it and sees its phone check and upload in the watch;
# within a minute the monitor's feed moves, and a supervisor and a tracer signed in from second
# consoles against the demo's staff API see a dashboard with figures and a patient's contacts.
# Usage: Tests/e2e/demo.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-demo: N passed, N failed".
set -uo pipefail

bin=$(realpath "${1:-.build/debug/tracedesk}")
work=$(mktemp -d)
passed=0
failed=0
socket="tracedesk-demo-e2e-$$"
export SWIFT_BACKTRACE=enable=no

if ! command -v tmux >/dev/null; then
  echo "e2e-demo: 0 passed, 0 failed (tmux not installed)"
  exit 0
fi

tm() { tmux -L "$socket" "$@"; }
cleanup() { tm kill-server 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# screen [WINDOW]: the window's screen now.
screen() { tm capture-pane -p -t "app:${1:-demo}" 2>/dev/null; }

# wait_for WINDOW TEXT [SECONDS]: polls the window's screen until TEXT appears (default 30 s:
# generous for a loaded CI machine; a pass returns as soon as the text is there).
wait_for() {
  local window=$1 text=$2 deadline=$((SECONDS + ${3:-30}))
  while [ $SECONDS -le $deadline ]; do
    screen "$window" | grep -qF -- "$text" && return 0
    sleep 0.1
  done
  return 1
}

# wait_re WINDOW REGEX [SECONDS]: as wait_for, for an extended regular expression.
wait_re() {
  local window=$1 pattern=$2 deadline=$((SECONDS + ${3:-30}))
  while [ $SECONDS -le $deadline ]; do
    screen "$window" | grep -qE -- "$pattern" && return 0
    sleep 0.1
  done
  return 1
}

check() {
  local name=$1 window=$2; shift 2
  if "$@"; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failed=$((failed + 1)); echo "FAIL $name"; echo "---- screen ----"; screen "$window" | sed 's/^/    /'
    echo "----------------"
  fi
}

# console NAME ARGS…: a second console (tracedesk ARGS) in a window of its own.
console() {
  local name=$1; shift
  tm new-window -d -t app -n "$name" -e TERM=tmux-256color -e LANG=C.UTF-8 -e SWIFT_BACKTRACE=enable=no \
    "$bin$(printf ' %q' "$@"); sleep 60"
}

started=$SECONDS
tm -f /dev/null new-session -d -s app -n demo -x 80 -y 24 -e TERM=tmux-256color -e LANG=C.UTF-8 \
  -e SWIFT_BACKTRACE=enable=no \
  "'$bin' demo --store '$work/demo.sqlite' --apricot-users 12 --seed 7; echo __EXIT=\$?; sleep 60"
tm set-option -t app remain-on-exit on >/dev/null

check "the demo opens the authorise screen signed in as the operator, a simulated citizen's code in its strip" demo \
  wait_for demo "phone: waiting for you" 60
# What the demo printed before the console opened (the screen saved under the console's).
intro=$(tm capture-pane -p -J -a -t app:demo 2>/dev/null)
internal=$(sed -nE 's/^  internal +(http[^ ]+) .*/\1/p' <<<"$intro")
supervisor=$(sed -nE 's|^    supervisor  supervisor / (.*)$|\1|p' <<<"$intro")
tracer=$(sed -nE 's|^    tracer      tracer / (.*)$|\1|p' <<<"$intro")
patient=$(sed -nE 's/^  positive patients, for the tracer.s lookup: ([^,]+).*/\1/p' <<<"$intro")
check "the demo printed its staff API, the accounts and a positive patient" demo \
  test -n "$internal" -a -n "$supervisor" -a -n "$tracer" -a -n "$patient"

# The phone call: the operator hears the code and the onset day from the strip.
strip=$(screen demo | grep -F 'Demo call')
code=$(sed -nE 's/.* code ([0-9A-Z]{3}-[0-9A-Z]{4}-[0-9A-Z]{3}) .*/\1/p' <<<"$strip")
onset=$(sed -nE 's/.* onset ([0-9]{4}-[0-9]{2}-[0-9]{2}) .*/\1/p' <<<"$strip")
check "the strip shows a code grouped 3-4-3 and an onset day" demo test -n "$code" -a -n "$onset"
days=$((($(date -u +%s) / 86400) - ($(date -u -d "$onset" +%s) / 86400)))
tm send-keys -t app:demo -l -- "$code"
tm send-keys -t app:demo -l -- "-$days"
tm send-keys -t app:demo Enter
check "Enter reviews the code and the day" demo wait_for demo "[Authorise]"
tm send-keys -t app:demo Enter
check "Enter authorises it: the watch opens on that code" demo wait_for demo "Watch · code $code"
check "the citizen's phone checks the code (the watch shows the check)" demo \
  wait_for demo "the app checked the code" 60
uploaded() { wait_for demo "Upload received" 60 && wait_for demo "phone: uploaded at" 30; }
check "then uploads after a delay: the watch shows the upload, the strip its time" demo uploaded

# Live data within a minute on the operator's monitor (their own codes) and, below, on the
# supervisor's monitor (every phone) and dashboard.
tag=$(screen demo | sed -nE 's/.*Watch · code [^ ]+ · tag ([0-9a-f]+) .*/\1/p')
tm send-keys -t app:demo F3
feed() { wait_re demo " checked +phone +$tag " 30 && wait_re demo " upload +phone +$tag " 30; }
check "the operator's monitor feed shows the citizen's check and upload" demo feed
no_strip() { ! screen demo | grep -qF "Demo call"; }
check "the strip is on the authorise screen only" demo no_strip

# A supervisor signs in from a second console against the demo's staff API.
console sup --server "$internal" --user supervisor
wait_for sup "Password" 60
tm send-keys -t app:sup -l -- "$supervisor"
tm send-keys -t app:sup Enter
check "a supervisor's console against the demo's staff API opens the dashboard" sup wait_for sup "Last hour" 60
tiles() {
  local s
  s=$(screen sup)
  grep -qE '^ authorised +[1-9]' <<<"$s" && grep -qE ' uploads +[1-9]' <<<"$s" &&
    grep -qE 'registrations +[1-9]' <<<"$s" && grep -qE 'contact files +[1-9]' <<<"$s"
}
live=1
for _ in $(seq 1 300); do tiles && { live=0; break; }; sleep 0.2; done
check "its tiles count authorisations, uploads, registrations and contact files" sup test $live -eq 0
tm send-keys -t app:sup F3
everyone() {
  wait_re sup "1 authorised [1-9].* 3 upload [1-9]" 30 && wait_re sup "8 registered [1-9][0-9]* +9 contacts [1-9]" 30
}
check "the supervisor's monitor feed shows every phone: registrations and contact files" sup everyone

# A tracer looks up the positive patient the demo printed.
console tr --server "$internal" --user tracer
wait_for tr "Password" 60
tm send-keys -t app:tr -l -- "$tracer"
tm send-keys -t app:tr Enter
check "a tracer's console opens the lookup" tr wait_for tr "Look up a patient" 60
tm send-keys -t app:tr -l -- "$patient"
tm send-keys -t app:tr Enter
tm send-keys -t app:tr -l -- "demo e2e"
tm send-keys -t app:tr Enter
contacts() { wait_for tr "close contact" 60 && screen tr | grep -qE "Contacts \([1-9]"; }
check "the lookup of the printed positive patient finds close contacts" tr contacts
check "all of it within a minute of starting the demo" demo test $((SECONDS - started)) -le 60

# Quitting the operator's console stops the demo; the code is on no line it printed.
tm send-keys -t app:demo C-c
check "quitting the operator's console ends the demo, exit 0" demo wait_for demo "__EXIT=0" 60
unlogged() {
  local printed
  printed=$(tm capture-pane -p -J -S -300 -t app:demo)
  ! grep -qF "${code//-/}" <<<"$printed" && ! grep -qF "$code" <<<"$printed" && ! grep -qF "${code//-/}" "$work/demo.log"
}
check "the simulated citizen's code is in neither the demo's output nor its log" demo unlogged
quiet() { ! tm capture-pane -p -J -S -300 -t app:demo | grep -q 'libmicrohttpd'; }
check "no server message was written over the terminal (stderr goes to demo.log while the console runs)" demo quiet

# Issue 20: the accounts the console covers are also in a file only this user can read,
# next to the store, and the demo said where.
accounts_file="$work/demo-accounts.txt"
private() { [ "$(stat -c %a "$accounts_file")" = 600 ] && grep -qF "supervisor / $supervisor" "$accounts_file"; }
check "the demo wrote its accounts to demo-accounts.txt beside the store, mode 0600" demo private
said() { tm capture-pane -p -J -S -300 -t app:demo | grep -qF "written to $accounts_file (mode 0600)"; }
check "and said where" demo said

echo "e2e-demo: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
