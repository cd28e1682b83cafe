#!/usr/bin/env bash
# Runs the real `tracedesk demo` in tmux at 80x24: the operator reads the simulated citizen's
# code from the demo's strip, authorises it and sees its phone check and upload in the watch;
# then the monitor's feed moves, and a supervisor and a tracer signed in from second consoles
# against the demo's staff API see a dashboard with figures and a patient's contacts, all while
# the demo runs; the tracer's queue holds the contacts of the cases the demo opened, and the
# simulated second tracer records calls. Each step waits for what the screen shows (no check
# reads a clock).
# Usage: Tests/e2e/demo.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-demo: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null; then
  echo "e2e-demo: 0 passed, 0 failed (tmux not installed)"
  exit 0
fi

open_window demo 80 24 -- demo --store "$work/demo.sqlite" --apricot-users 12 --seed 7

check "the demo opens the authorise screen signed in as the operator, a simulated citizen's code in its strip" \
  wait_for "phone: waiting for you" 60
# What the demo printed before the console opened (the screen saved under the console's).
intro=$(tmux -L "$socket" capture-pane -p -J -a -t app:demo 2>/dev/null)
internal=$(sed -nE 's/^  internal +(http[^ ]+) .*/\1/p' <<<"$intro")
supervisor=$(sed -nE 's|^    supervisor  supervisor / (.*)$|\1|p' <<<"$intro")
tracer=$(sed -nE 's|^    tracer      tracer / (.*)$|\1|p' <<<"$intro")
patient=$(sed -nE 's/^  positive patients, for the tracer.s lookup: ([^,]+).*/\1/p' <<<"$intro")
check "the demo printed its staff API, the accounts and a positive patient" \
  test -n "$internal" -a -n "$supervisor" -a -n "$tracer" -a -n "$patient"

# The phone call: the operator hears the code and the onset day from the strip.
strip=$(screen | grep -F 'Demo call')
code=$(sed -nE 's/.* code ([0-9A-Z]{3}-[0-9A-Z]{4}-[0-9A-Z]{3}) .*/\1/p' <<<"$strip")
onset=$(sed -nE 's/.* onset ([0-9]{4}-[0-9]{2}-[0-9]{2}) .*/\1/p' <<<"$strip")
check "the strip shows a code grouped 3-4-3 and an onset day" test -n "$code" -a -n "$onset"
days=$((($(date -u +%s) / 86400) - ($(date -u -d "$onset" +%s) / 86400)))
text "$code"
text "-$days"
keys Enter
check "Enter reviews the code and the day" wait_for "[Authorise]"
keys Enter
check "Enter authorises it: the watch opens on that code" wait_for "Watch · code $code"
check "the citizen's phone checks the code (the watch shows the check)" \
  wait_for "the app checked the code" 60
uploaded() { wait_for "Upload received" 60 && wait_for "phone: uploaded at" 30; }
check "then uploads after a delay: the watch shows the upload, the strip its time" uploaded

# Live data on the operator's monitor (their own codes) and, below, on the
# supervisor's monitor (every phone) and dashboard.
tag=$(screen | sed -nE 's/.*Watch · code [^ ]+ · tag ([0-9a-f]+) .*/\1/p')
keys F3
feed() { wait_re " checked +phone +$tag " 30 && wait_re " upload +phone +$tag " 30; }
check "the operator's monitor feed shows the citizen's check and upload" feed
no_strip() { ! screen | grep -qF "Demo call"; }
check "the strip is on the authorise screen only" no_strip

# A supervisor signs in from a second console against the demo's staff API.
open_window sup 80 24 -- --server "$internal" --user supervisor
wait_for "Password" 60
text "$supervisor"
keys Enter
check "a supervisor's console against the demo's staff API opens the dashboard" wait_for "Last hour" 60
tiles() {
  local s
  s=$(screen)
  grep -qE '^ authorised +[1-9]' <<<"$s" && grep -qE ' uploads +[1-9]' <<<"$s" &&
    grep -qE 'registrations +[1-9]' <<<"$s" && grep -qE 'contact files +[1-9]' <<<"$s"
}
check "its tiles count authorisations, uploads, registrations and contact files" wait_until 60 tiles
keys F3
everyone() {
  wait_re "authorised [1-9][0-9]* · .*upload [1-9]" 30 && wait_re "registered [1-9][0-9]* · contacts [1-9]" 30
}
check "the supervisor's monitor feed shows every phone: registrations and contact files" everyone

# A tracer looks up the positive patient the demo printed.
open_window tr 80 24 -- --server "$internal" --user tracer
wait_for "Password" 60
text "$tracer"
keys Enter
# The demo opened cases for its simulated patients: the tracer's home, the call queue, has
# people due; F2 goes to the contact trace for a lookup.
check "a tracer's console opens on the call queue, with the demo's cases' contacts due" \
  wait_re "Your calls · [0-9]+ overdue · [1-9][0-9]* due now" 90
check "the rows name the demo's cases" wait_re "DEMO-7-[0-9]+" 30
keys F2
check "F2 opens the lookup" wait_for "Look up a patient" 60
text "$patient"
keys Enter
text "demo e2e"
keys Enter
contacts() { wait_for "close contact" 60 && screen | grep -qE "Contacts \([1-9]"; }
check "the lookup of the printed positive patient finds close contacts" contacts
# The simulated second tracer works its share of the queue: its calls show in everyone's queue.
tracer2_called() {
  printf '%s\n' "$supervisor" | "$bin" --server "$internal" queue --everyone --later --json --user supervisor \
    --password-stdin 2>/dev/null |
    python3 -c "import json,sys; r=json.load(sys.stdin); sys.exit(0 if any(x['assigned_to'] == 'tracer2' and x['attempts'] > 0 for x in r['rows']) else 1)" 2>/dev/null
}
check "the simulated tracer2 records calls on its follow-ups" wait_until 90 tracer2_called
pane=app:demo
# Every step above came in order, each waited for on a screen; the demo lived through them all.
still_running() { ! shows "__EXIT=" && shows_re " upload +phone +$tag "; }
check "all of it while the demo still runs: its console is up, its feed on the screen" still_running

# Quitting the operator's console stops the demo; the code is on no line it printed.
keys C-c
check "quitting the operator's console ends the demo, exit 0" wait_for "__EXIT=0" 60
unlogged() {
  local printed
  printed=$(tmux -L "$socket" capture-pane -p -J -S -300 -t app:demo)
  ! grep -qF "${code//-/}" <<<"$printed" && ! grep -qF "$code" <<<"$printed" && ! grep -qF "${code//-/}" "$work/demo.log"
}
check "the simulated citizen's code is in neither the demo's output nor its log" unlogged
quiet() { ! tmux -L "$socket" capture-pane -p -J -S -300 -t app:demo | grep -q 'libmicrohttpd'; }
check "no server message was written over the terminal (stderr goes to demo.log while the console runs)" quiet

# Issue 20: the accounts the console covers are also in a file only this user can read,
# next to the store, and the said where.
accounts_file="$work/demo-accounts.txt"
private() { [ "$(stat -c %a "$accounts_file")" = 600 ] && grep -qF "supervisor / $supervisor" "$accounts_file"; }
check "the demo wrote its accounts to demo-accounts.txt beside the store, mode 0600" private
said() { tmux -L "$socket" capture-pane -p -J -S -300 -t app:demo | grep -qF "written to $accounts_file (mode 0600)"; }
check "and said where" said

summary e2e-demo
