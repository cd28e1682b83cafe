#!/usr/bin/env bash
# Copy with y (OSC 52) on the real binary in tmux with `set -g set-clipboard on`: tmux takes
# the sequence the console writes into its paste buffer, which `tmux show-buffer` reads back.
# The staff list's `/` filter and a row copied; the audit log's entry copied as words; the
# HIS list; and --no-copy and TRACEDESK_COPY=off, which copy nothing and say so.
# Usage: Tests/e2e/copy.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-copy: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
store="$work/desk.sqlite"
add_staff "$store" boss admin
add_staff "$store" ana operator
add_staff "$store" sara supervisor

# clipboard: what tmux's newest paste buffer holds (empty when there is none).
clipboard() { tmux -L "$socket" show-buffer 2>/dev/null; }
copied() { clipboard | grep -qF -- "$1"; }
no_buffer() { [ -z "$(tmux -L "$socket" list-buffers 2>/dev/null)" ]; }
clipboard_on() { tmux -L "$socket" set-option -g set-clipboard on >/dev/null; }

start 120 40 -- --store "$store" --user boss
clipboard_on
sign_in "$admin_pw"
check "the admin's console opens on the staff list" wait_for "Staff accounts (3)"
keys /
text oper
check "/ filters the staff list as typed" wait_for "Staff accounts (1 of 3) · / oper"
keys Enter
keys y
check "y copies the selected row: tmux's buffer holds it (OSC 52)" wait_until "$wait_cap" copied "ana  operator  active"
check "the notice says what was copied" wait_for "row of ana copied"
keys Escape
check "Esc clears the filter" wait_for "Staff accounts (3)"
keys F3
check "F3 opens the audit log, actions in words" wait_for "account added"
keys y
check "y copies the newest entry as words, no JSON" wait_until "$wait_cap" copied "boss  sign-in"
check "the copied entry has no field names" bash -c "! tmux -L '$socket' show-buffer | grep -q '_ms\|{'"
keys h
check "h hides routine sign-ins and says so" wait_re "routine sign-in pairs? hidden"
keys F4
check "F4 opens the HIS clients" wait_for "Hospital systems"
keys C-c
check "Ctrl-C exits with status 0" wait_for "__EXIT=0"

start 120 40 -- --store "$store" --user boss --no-copy
clipboard_on
sign_in "$admin_pw"
wait_for "Staff accounts (3)" >/dev/null
keys y
check "--no-copy: y says copying is turned off" wait_for "copying is turned off"
check "--no-copy: nothing reached tmux's buffers" no_buffer
keys C-c
wait_for "__EXIT=0" >/dev/null

start 120 40 TRACEDESK_COPY=off -- --store "$store" --user boss
clipboard_on
sign_in "$admin_pw"
wait_for "Staff accounts (3)" >/dev/null
keys y
check "TRACEDESK_COPY=off: y says copying is turned off" wait_for "copying is turned off"
check "TRACEDESK_COPY=off: nothing reached tmux's buffers" no_buffer
keys C-c
wait_for "__EXIT=0" >/dev/null

start 80 24 TRACEDESK_COPY=maybe -- --store "$store" --user boss
check "TRACEDESK_COPY with another value is refused before the screen opens" wait_for "TRACEDESK_COPY must be on or off"

summary e2e-copy
