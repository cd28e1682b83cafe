#!/usr/bin/env bash
# The console's conventions keys on the real binary in tmux (issue 20, conventions 1, 2 and 7):
# the `:` command palette (`:` then `mon` Enter lands on the monitor), a screen's letter key,
# Tab staying on its screen, Ctrl-Z to the shell and `fg` back, redrawn (also after the window
# was resized while stopped), and Ctrl-L repainting a screen scribbled over.
# Usage: Tests/e2e/keys.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-keys: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
store="$work/desk.sqlite"
add_staff "$store" boss admin
add_staff "$store" rossi operator
add_staff "$store" sara supervisor

# An interactive shell with job control, as a person's terminal has: Ctrl-Z stops the console
# and the shell says so; `fg` continues it.
start_shell 80 24 -- "bash --norc --noprofile -i"
wait_re '\$ *$' >/dev/null
text "'$bin' --store '$store' --user rossi"
keys Enter
sign_in "$oper_pw"
check "signed in on the authorise screen" wait_for "TraceDesk · Authorise an upload"

keys ":"
check "':' opens the palette, listing the screens with their keys" wait_for "F3/M"
check "the palette names the monitor" shows "monitor"
text "mon"
keys Enter
check "':' then 'mon' Enter lands on the monitor" wait_for "TraceDesk · Monitor"
keys U
check "U (the authorise screen's letter) goes back" wait_for "TraceDesk · Authorise an upload"
keys Tab Tab
check "Tab moves between the fields, never to another screen" shows "TraceDesk · Authorise an upload"
keys F3
wait_for "TraceDesk · Monitor" >/dev/null

keys C-z
check "Ctrl-Z suspends: the shell is back and says the job stopped" wait_re "Stopped|stopped"
check "the console left nothing on the shell's screen" bash -c "! tmux -L '$socket' capture-pane -p -t '$pane' | grep -q 'TraceDesk ·'"
tmux -L "$socket" resize-window -t app -x 100 -y 30 2>/dev/null
text "fg"
keys Enter
check "fg: the console is back, redrawn whole" wait_for "TraceDesk · Monitor"
# The title bar's clock ends one cell before the right edge: at 100 columns, past column 95.
title_width() { screen | head -n 1 | LC_ALL=C.UTF-8 wc -m; }
wide_title() { [ "$(title_width)" -gt 95 ]; }
check "redrawn at the size the window has now (100 columns)" wait_until "$wait_cap" wide_title
check "still signed in after coming back" shows "rossi (operator)"

# Scribble over the screen from outside (as a stray write would), then Ctrl-L repaints it.
tty=$(tmux -L "$socket" display -p -t "$pane" '#{pane_tty}')
printf '\033[5;5HSCRIBBLED-OVER' >"$tty"
wait_for "SCRIBBLED-OVER" >/dev/null
keys C-l
check "Ctrl-L clears and repaints the whole screen" wait_until "$wait_cap" bash -c "! tmux -L '$socket' capture-pane -p -t '$pane' | grep -q SCRIBBLED-OVER"
check "Ctrl-L keeps the screen as it was" shows "TraceDesk · Monitor"

keys C-q
console_gone() { ! shows "TraceDesk ·"; }
wait_until "$wait_cap" console_gone
# $? after fg is the job's status.
text 'echo __EXIT=$?'
keys Enter
check "Ctrl-Q quits with status 0 after the suspend" wait_for "__EXIT=0"

summary "e2e-keys"
