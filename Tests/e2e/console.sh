#!/usr/bin/env bash
# Drives the real tracedesk binary in tmux, as an operator would, and reads the screen.
# Usage: Tests/e2e/console.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
export TRACEDESK_THEMES="$root/themes"

modes() { tmux -L "$socket" display -p -t app 2>/dev/null '#{alternate_on} #{mouse_any_flag} #{cursor_flag}'; }
restored() { [ "$(modes)" = "0 0 1" ]; }

store="$work/desk.sqlite"
td_args=(--store "$store")  # `td` is the CLI on $store

# 1. An empty store: the first admin is made on the console, who then adds an operator.
start 80 24 -- --store "$store"
check "an empty store opens on the first-admin setup" wait_for "No staff account exists yet"
text boss
keys Tab
text "$admin_pw"
keys Tab
text "$admin_pw"
check "the passwords show as bullets, never as typed" absent "$admin_pw"
check "the second password is checked as typed" wait_for "✓ the passwords match"
keys Enter
check "Enter creates the first admin and opens the staff screen" wait_for "Staff accounts (1)"
check "the title shows the admin and their role" wait_for "boss (admin)"
keys a
wait_for "Add a staff account" >/dev/null
text ana
keys Enter Enter
text "$oper_pw"
keys Enter
text "$oper_pw"
keys Enter
check "the staff screen adds an operator" wait_for "added ana as operator"
check "and lists it" wait_for "ana             operator    active         0  never"
keys F3
check "F3 opens the audit log, newest first, with the addition" wait_for "account added       ana"
keys v
check "v checks the chain: intact, in words" wait_for "✓ chain intact:"
keys C-c
check "Ctrl-C exits with status 0" wait_for "__EXIT=0"
check "terminal restored" restored
td "$admin_pw\n" audit list --user boss --password-stdin --actor boss --action sign_out
check "quitting signed the admin out (audited)" grep -q sign_out "$work/out"
td "$admin_pw\n$super_pw\n" staff add sara --role supervisor --user boss --password-stdin

# 2. Signing in: a wrong password, then the phone-call flow: code, yesterday, review, authorise.
start 80 24 -- --store "$store" --user ana
check "the console opens on the sign-in with --user's name filled in" wait_for "User name  ana"
sign_in "wrong-password-1"
check "a wrong password is refused with the desk's message" wait_for "✗ wrong user name or password"
check "the name stays" wait_for "User name  ana"
check "the wrong password is not on screen" absent "wrong-password-1"
sign_in "$oper_pw"
check "the right password opens the authorise screen" wait_for "Authorise an upload"
check "the title shows who is signed in" wait_for "ana (operator)"
keys 9 k 2 - r a y 8 - u u q
check "typed code is grouped 3-4-3 and the check character passes" wait_for "9K2-RAY8-UUQ    ✓ check character matches"
keys y
check "y picks yesterday" wait_for "yesterday"
keys Enter
check "Enter opens the review" wait_for "Authorise this upload?"
keys Enter
check "Enter authorises with a countdown" wait_for "Authorised: the app must upload within 2:"
first=$(screen | grep -o 'within [0-9]:[0-9][0-9]')
countdown_moved() { [ "$(screen | grep -o 'within [0-9]:[0-9][0-9]')" != "$first" ]; }
check "the countdown runs" wait_until 30 countdown_moved
keys q
check "q while the code is live asks first" wait_for "Quit during the call?"
keys y
check "y then quits with status 0" wait_for "__EXIT=0"
check "terminal restored after quitting (no alternate screen, mouse off, cursor on)" restored
check "otp status agrees" bash -c "printf '%s\n' '$oper_pw' | '$bin' otp status 9K2RAY8UUQ --store '$store' --user ana --password-stdin | grep -q '^authorized'"

# 3. Already authorised, bad characters, bad check character.
start 80 24 -- --store "$store" --user ana
sign_in "$oper_pw"
wait_for "Authorise an upload" >/dev/null
keys 9 K 2 R A Y 8 U U Q t Enter Enter
check "authorising again says already authorised" wait_for "Already authorised: nothing was changed"
keys n
wait_for "Type the code the citizen" >/dev/null
keys 9 K B
check "a character outside the alphabet is refused and named" wait_for "'B' at position 3 is never in a code"
keys 2 R A Y 8 U U A
check "a wrong check character is reported" wait_for "check character does not match: ask the citizen"

# Help, resize, mouse.
keys '?'
check "? opens help generated from the key maps" wait_for "Previous week"
keys G
check "help lists the sign-out key (at its end)" wait_for "^O/F12     Sign out"
keys Escape
tmux -L "$socket" resize-window -t app -x 70 -y 20
check "below 80x24 the console says so" wait_for "terminal too small: have 70×20, need 80×24"
tmux -L "$socket" resize-window -t app -x 120 -y 40
check "back to a large size redraws the screen" wait_for "Authorise an upload"
# A mouse press and release on the symptom-onset field (column 5, row 9, 1-based), encoded as
# tmux sends it to an application that asked for mouse mode 1000 under TERM=tmux-256color
# (X10: ESC [ M, then 32+button, 32+column, 32+row): the focus marker moves there.
text $'\e[M %)'
text $'\e[M#%)'
check "a click focuses the symptom-onset field" wait_for "│› YYYY-MM-DD"
keys C-c
check "Ctrl-C exits cleanly" wait_for "__EXIT=0"
check "terminal restored after Ctrl-C" restored

# 4. The idle lock (3 s here): it covers the screen, keeps the half-typed code, and lets the same
# person back in; ^O signs out instead.
start 80 24 TRACEDESK_IDLE_LOCK_SECONDS=3 -- --store "$store" --user ana
sign_in "$oper_pw"
wait_for "Authorise an upload" >/dev/null
keys 9 K 2 R A
wait_for "9K2-RA" >/dev/null
check "after 3 s without a key the lock screen covers the console" wait_for "TraceDesk · Locked"
check "it says who is signed in" wait_for "Signed in as ana (operator)"
check "nothing of the screen underneath shows" absent "9K2-RA"
sign_in_lock() { text "$1"; keys Enter; }
sign_in_lock "not-her-password"
check "a wrong password on the lock screen is refused" wait_for "✗ wrong user name or password"
sign_in_lock "$oper_pw"
check "the right password brings back the half-typed code" wait_for "9K2-RA"
keys Y 8 U U Q
check "and typing goes on where it stopped" wait_for "9K2-RAY8-UUQ    ✓ check character matches"
check "idle again: locked again" wait_for "TraceDesk · Locked" 30
keys C-o
check "^O on the lock screen signs out to the sign-in" wait_for "ana signed out."
check "the screen's state is gone after signing out" bash -c "! tmux -L '$socket' capture-pane -p -t app | grep -q 9K2"
keys C-c
check "Ctrl-C on the sign-in exits with status 0" wait_for "__EXIT=0"
td "$admin_pw\n" audit list --user boss --password-stdin --actor ana --action sign_out
check "the idle locks ended the sessions (audited sign-outs)" bash -c "[ \$(grep -c sign_out '$work/out') -ge 2 ]"

# 5. A supervisor starts on the dashboard; F3 is the monitor: every operator's activity, newest
# first, live.
start 80 24 -- --store "$store" --user sara
sign_in "$super_pw"
check "a supervisor starts on the dashboard" wait_for "TraceDesk · Dashboard"
keys F3
check "F3: the monitor" wait_for "TraceDesk · Monitor"
# The sign-ins and sign-outs of the steps above fill the first rows: 7 hides staff actions.
keys 7
check "it lists ana's authorisation (7 hides the staff actions)" wait_for "authorised     ana"
check "... and says staff actions are hidden" wait_for "staff hidden"
keys 7
keys Space
check "Space pauses it" wait_for "‖ paused, 0 new"
keys /
text "ana"
check "/ filters as you type" wait_for "Filter: ana"
keys Escape q
check "q quits" wait_for "__EXIT=0"

# 6. Signals and crashes restore the terminal.
# signal_exits SIGNAL EXPECTED-EXIT-TEXT NAME
signal_exits() {
  start 80 24 -- --store "$store"
  wait_for "TraceDesk · Sign in" >/dev/null
  kill "-$1" "$(pgrep -n -f "$bin --store $store")"
  check "$3 exits" wait_for "$2"
  check "terminal restored after $3" restored
}
signal_exits TERM "__EXIT=" "SIGTERM"
signal_exits SEGV "__EXIT=139" "a crash (SIGSEGV)"
signal_exits ABRT "__EXIT=134" "an abort (SIGABRT)"

# 7. Monochrome, themes.
start 80 24 NO_COLOR=1 -- --store "$store" --user boss
wait_for "TraceDesk · Sign in" >/dev/null
check "NO_COLOR: the sign-in draws without colours" no_colours
sign_in "$admin_pw"
wait_for "Staff accounts" >/dev/null
check "NO_COLOR: the staff screen draws without colours" no_colours
keys F3
wait_for "Audit log, newest first" >/dev/null
check "NO_COLOR: the audit screen draws without colours" no_colours
keys C-c
start 80 24 -- --store "$store" --theme high-contrast
check "--theme high-contrast opens" wait_for "TraceDesk · Sign in"
keys C-c

# 8. Bad stores are reported before the screen opens.
printf 'this is not a database' > "$work/garbage.sqlite"
start 80 24 -- --store "$work/garbage.sqlite"
check "a damaged store gives one clear line" wait_for "is not a database or is damaged"
check "and exit status 4" wait_for "__EXIT=4"
check "and the terminal is untouched" restored
start 80 24 -- --theme no-such-theme --store "$store"
check "an unknown theme is named" wait_for "no theme named 'no-such-theme'"

# 9. The CLI: exit statuses and no code printed back (ana acts, password on stdin).
cli_store="$work/cli.sqlite"
printf '%s\n' "$admin_pw" | "$bin" staff add boss --role admin --password-stdin --store "$cli_store" >/dev/null 2>&1
printf '%s\n%s\n' "$admin_pw" "$oper_pw" |
  "$bin" staff add ana --role operator --user boss --password-stdin --store "$cli_store" >/dev/null 2>&1
exits() { local want=$1; shift; "$bin" "$@" >/dev/null 2>&1; [ $? -eq "$want" ]; }
# as_ana WANT ARGS…: the command as ana, her password on stdin; exit status WANT.
as_ana() {
  local want=$1; shift
  printf '%s\n' "$oper_pw" | "$bin" "$@" --user ana --password-stdin >/dev/null 2>&1
  [ $? -eq "$want" ]
}
check "otp check: valid code exits 0" exits 0 otp check 9k2-ray8-uuq
check "otp check: wrong check character exits 1" exits 1 otp check 9K2RAY8UUA
check "otp authorize exits 0" as_ana 0 otp authorize KJ23IWY5UJ --symptoms "$(date -u +%F)" --store "$cli_store"
check "otp authorize again exits 3" as_ana 3 otp authorize KJ23IWY5UJ --symptoms "$(date -u +%F)" --store "$cli_store"
check "otp authorize with a future day exits 1" \
  as_ana 1 otp authorize 59FU36KR46 --symptoms 2999-01-01 --store "$cli_store"
check "otp status on a damaged store exits 4" as_ana 4 otp status KJ23IWY5UJ --store "$work/garbage.sqlite"
check "an unknown option exits 2" exits 2 otp status KJ23IWY5UJ --frobnicate
check "otp output never contains the code" bash -c "! printf '%s\n' '$oper_pw' |
  '$bin' otp status KJ23IWY5UJ --store '$cli_store' --user ana --password-stdin --json 2>&1 | grep -q KJ23IWY5UJ"
check "every subcommand has --help" bash -c "'$bin' otp --help | grep -q Usage && '$bin' bench --help | grep -q Usage && '$bin' --help | grep -q Usage"
check "--help documents TRACEDESK_IDLE_LOCK_SECONDS" bash -c "'$bin' --help | grep -q TRACEDESK_IDLE_LOCK_SECONDS"
check "a bad TRACEDESK_IDLE_LOCK_SECONDS is a usage error" \
  bash -c "TRACEDESK_IDLE_LOCK_SECONDS=soon '$bin' --store '$store' >/dev/null 2>&1; [ \$? -eq 2 ]"

# 10. An edited audit log: the console's check says BROKEN and where.
triggers=$(sqlite3 "$store" "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log'")
for trigger in $triggers; do sqlite3 "$store" "DROP TRIGGER $trigger"; done
sqlite3 "$store" "UPDATE audit_log SET detail = '{\"role\":\"admin\"}' WHERE id = 3"
start 80 24 -- --store "$store" --user boss
sign_in "$admin_pw"
wait_for "Staff accounts" >/dev/null
keys F3
wait_for "Audit log, newest first" >/dev/null
keys v
check "v on an edited log says BROKEN at entry 3" wait_for "✗ BROKEN at entry 3:"
keys C-c
check "no password ever reached the screen's scrollback" bash -c "! tmux -L '$socket' capture-pane -p -S - -t app |
  grep -qE -- '$admin_pw|$oper_pw|$super_pw'"

# 11. LANG=C: ncurses cannot draw Unicode, so borders and marks are drawn in ASCII.
start 80 24 LANG=C LC_ALL=C -- --store "$store" --user boss
check "under LANG=C the title and borders are ASCII" wait_for "TraceDesk - Sign in"
check "under LANG=C no Unicode reaches the screen" bash -c "! tmux -L '$socket' capture-pane -p -t app | grep -qP '[^\\x00-\\x7F]'"
keys C-c
wait_for "__EXIT=" >/dev/null

# 12. Resizing, then quitting, leaves nothing of the console in the shell, even without an
# alternate screen to return to (tmux's alternate-screen off, set before the console starts).
start_shell 200 50 -- "until [ -e '$work/go' ]; do sleep 0.05; done; '$bin' --store '$store'; echo __EXIT=\$?; sleep 600"
tmux -L "$socket" set-option -w -t app alternate-screen off
touch "$work/go"
wait_for "TraceDesk · Sign in" >/dev/null
tmux -L "$socket" resize-window -t app -x 60 -y 20
wait_for "terminal too small" >/dev/null
tmux -L "$socket" resize-window -t app -x 80 -y 24
wait_for "TraceDesk · Sign in" >/dev/null
tmux -L "$socket" resize-window -t app -x 200 -y 50
wait_for "TraceDesk · Sign in" >/dev/null
keys C-c
check "quitting after resizes exits 0" wait_for "__EXIT=0"
check "no fragment of a panel stays in the shell" bash -c "! tmux -L '$socket' capture-pane -p -t app | grep -qE '[│─┌┐└┘]|TraceDesk'"

# 13. Issue 20: the too-small screen keeps a half-typed call; SIGTERM and SIGHUP (a closed
# terminal window) sign out and exit 128 + the signal, the terminal restored.
start 80 24 -- --store "$cli_store" --user ana
sign_in "$oper_pw"
wait_for "Code from the app" >/dev/null
text "9K2RA"
wait_for "9K2-RA" >/dev/null
tmux -L "$socket" resize-window -t app -x 60 -y 20
check "below 80x24 the console says it is too small" wait_for "terminal too small: have 60×20"
keys Escape
keys q
tmux -L "$socket" resize-window -t app -x 80 -y 24
check "Esc and q on the too-small screen lose nothing: the half-typed code is back" wait_for "9K2-RA"
check "and the console still runs" absent "__EXIT="
# ana_signouts: how many sign-outs of ana the audit log holds.
ana_signouts() {
  printf '%s\n' "$admin_pw" |
    "$bin" audit list --user boss --password-stdin --actor ana --action sign_out --store "$cli_store" 2>/dev/null |
    grep -c sign_out
}
console_pid() { pgrep -P "$(tmux -L "$socket" display -p -t app '#{pane_pid}')" tracedesk; }
for signal in TERM HUP; do
  [ "$signal" = HUP ] && { start 80 24 -- --store "$cli_store" --user ana; sign_in "$oper_pw"; }
  wait_for "Code from the app" >/dev/null
  before=$(ana_signouts)
  kill -s "$signal" "$(console_pid)"
  status=$((128 + $(kill -l "$signal")))
  check "SIG$signal: the console exits $status" wait_for "__EXIT=$status" 60
  check "SIG$signal: ana was signed out (audited)" test "$(ana_signouts)" -gt "$before"
  check "SIG$signal: the terminal is restored" restored
done

summary e2e
