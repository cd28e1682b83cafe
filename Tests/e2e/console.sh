#!/usr/bin/env bash
# Drives the real tracedesk binary in tmux, as an operator would, and reads the screen.
# Usage: Tests/e2e/console.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e: N passed, N failed".
set -uo pipefail

bin=$(realpath "${1:-.build/debug/tracedesk}")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
socket="tracedesk-e2e-$$-0"
sessions=0
passed=0
failed=0
export TRACEDESK_THEMES="$root/themes"

cleanup() { tmux -L "$socket" kill-server 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

tm() { tmux -L "$socket" "$@"; }
screen() { tm capture-pane -p -t app 2>/dev/null; }

# start NAME-OF-CHECK-GROUP WIDTH HEIGHT [ENV=VALUE...] -- ARGS...
start() {
  local width=$1 height=$2; shift 2
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=(-e "$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  tm kill-server 2>/dev/null
  # A fresh tmux server per session: reusing a socket right after kill-server races.
  sessions=$((sessions + 1))
  socket="tracedesk-e2e-$$-$sessions"
  local quoted
  quoted=$(printf ' %q' "$@")
  tm -f /dev/null new-session -d -s app -x "$width" -y "$height" -e TERM=tmux-256color -e LANG=C.UTF-8 \
    -e SWIFT_BACKTRACE=enable=no "${envs[@]}" "$bin$quoted; echo __EXIT=\$?; sleep 60"
  tm set-option -t app remain-on-exit on >/dev/null
}

# wait_for TEXT [SECONDS]: polls the screen until TEXT appears.
wait_for() {
  local text=$1 deadline=$((SECONDS + ${2:-5}))
  while [ $SECONDS -le $deadline ]; do
    screen | grep -qF -- "$text" && return 0
    sleep 0.05
  done
  return 1
}

check() {
  local name=$1; shift
  if "$@"; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failed=$((failed + 1)); echo "FAIL $name"; echo "---- screen ----"; screen | sed 's/^/    /'; echo "----------------"
  fi
}

modes() { tm display -p -t app 2>/dev/null '#{alternate_on} #{mouse_any_flag} #{cursor_flag}'; }
restored() { [ "$(modes)" = "0 0 1" ]; }

store="$work/desk.sqlite"

# 1. The phone-call flow: code, yesterday, review, authorise.
start 80 24 -- --store "$store"
check "console opens on the authorise screen" wait_for "Authorise an upload"
tm send-keys -t app 9 k 2 - r a y 8 - u u q
check "typed code is grouped 3-4-3 and the check character passes" wait_for "9K2-RAY8-UUQ    ✓ check character matches"
tm send-keys -t app y
check "y picks yesterday" wait_for "yesterday"
tm send-keys -t app Enter
check "Enter opens the review" wait_for "Authorise this upload?"
tm send-keys -t app Enter
check "Enter authorises with a countdown" wait_for "Authorised: the app must upload within 2:"
first=$(screen | grep -o 'within [0-9]:[0-9][0-9]')
sleep 2.2
second=$(screen | grep -o 'within [0-9]:[0-9][0-9]')
check "the countdown runs" test "$first" != "$second"
tm send-keys -t app q
check "q on the result quits with status 0" wait_for "__EXIT=0"
check "terminal restored after quitting (no alternate screen, mouse off, cursor on)" restored
check "otp status agrees" bash -c "'$bin' otp status 9K2RAY8UUQ --store '$store' | grep -q '^authorized'"

# 2. Already authorised, bad characters, bad check character.
start 80 24 -- --store "$store"
wait_for "Authorise an upload" >/dev/null
tm send-keys -t app 9 K 2 R A Y 8 U U Q t Enter Enter
check "authorising again says already authorised" wait_for "Already authorised: nothing was changed"
tm send-keys -t app n
wait_for "Type the code the citizen" >/dev/null
tm send-keys -t app 9 K B
check "a character outside the alphabet is refused and named" wait_for "'B' at position 3 is never in a code"
tm send-keys -t app 2 R A Y 8 U U A
check "a wrong check character is reported" wait_for "check character does not match: ask the citizen"

# 3. Help, resize, mouse.
tm send-keys -t app '?'
check "? opens help generated from the key maps" wait_for "Previous week"
tm send-keys -t app Escape
tm resize-window -t app -x 70 -y 20
check "below 80x24 the console says so" wait_for "terminal too small: have 70×20, need 80×24"
tm resize-window -t app -x 120 -y 40
check "back to a large size redraws the screen" wait_for "Authorise an upload"
# A mouse press and release on the symptom-onset field (column 5, row 9, 1-based), encoded as
# tmux sends it to an application that asked for mouse mode 1000 under TERM=tmux-256color
# (X10: ESC [ M, then 32+button, 32+column, 32+row): the focus marker moves there.
tm send-keys -t app -l $'\e[M %)'
tm send-keys -t app -l $'\e[M#%)'
check "a click focuses the symptom-onset field" wait_for "│› YYYY-MM-DD"
tm send-keys -t app C-c
check "Ctrl-C exits cleanly" wait_for "__EXIT=0"
check "terminal restored after Ctrl-C" restored

# 4. Signals and crashes restore the terminal.
# signal_exits SIGNAL EXPECTED-EXIT-TEXT NAME
signal_exits() {
  start 80 24 -- --store "$store"
  wait_for "Authorise an upload" >/dev/null
  kill "-$1" "$(pgrep -n -f "$bin --store $store")"
  check "$3 exits" wait_for "$2"
  check "terminal restored after $3" restored
}
signal_exits TERM "__EXIT=" "SIGTERM"
signal_exits SEGV "__EXIT=139" "a crash (SIGSEGV)"
signal_exits ABRT "__EXIT=134" "an abort (SIGABRT)"

# 5. Monochrome, themes.
start 80 24 NO_COLOR=1 -- --store "$store"
wait_for "Authorise an upload" >/dev/null
check "NO_COLOR draws without colours" bash -c "! tmux -L '$socket' capture-pane -e -p -t app | grep -qE $'\e\\\\[[0-9;]*(3[0-7]|38;5;[0-9]+|4[0-7]|48;5;[0-9]+)m'"
tm send-keys -t app C-c
start 80 24 -- --store "$store" --theme high-contrast
check "--theme high-contrast opens" wait_for "Authorise an upload"
tm send-keys -t app C-c

# 6. Bad stores are reported before the screen opens.
printf 'this is not a database' > "$work/garbage.sqlite"
start 80 24 -- --store "$work/garbage.sqlite"
check "a damaged store gives one clear line" wait_for "is not a database or is damaged"
check "and exit status 4" wait_for "__EXIT=4"
check "and the terminal is untouched" restored
start 80 24 -- --theme no-such-theme --store "$store"
check "an unknown theme is named" wait_for "no theme named 'no-such-theme'"

# 7. The CLI: exit statuses and no code printed back.
cli="$work/cli.sqlite"
exits() { local want=$1; shift; "$bin" "$@" >/dev/null 2>&1; [ $? -eq "$want" ]; }
check "otp check: valid code exits 0" exits 0 otp check 9k2-ray8-uuq
check "otp check: wrong check character exits 1" exits 1 otp check 9K2RAY8UUA
check "otp authorize exits 0" exits 0 otp authorize KJ23IWY5UJ --symptoms "$(date -u +%F)" --store "$cli"
check "otp authorize again exits 3" exits 3 otp authorize KJ23IWY5UJ --symptoms "$(date -u +%F)" --store "$cli"
check "otp authorize with a future day exits 1" exits 1 otp authorize 59FU36KR46 --symptoms 2999-01-01 --store "$cli"
check "otp status on a damaged store exits 4" exits 4 otp status KJ23IWY5UJ --store "$work/garbage.sqlite"
check "an unknown option exits 2" exits 2 otp status KJ23IWY5UJ --frobnicate
check "otp output never contains the code" bash -c "! '$bin' otp status KJ23IWY5UJ --store '$cli' --json 2>&1 | grep -q KJ23IWY5UJ"
check "every subcommand has --help" bash -c "'$bin' otp --help | grep -q Usage && '$bin' bench --help | grep -q Usage && '$bin' --help | grep -q Usage"

echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
