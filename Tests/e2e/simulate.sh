#!/usr/bin/env bash
# Runs the real `tracedesk serve` and `tracedesk simulate` against it: simulated phones over
# real HTTP, codes read from the store's outbox and through the staff API as an admin.
# Usage: Tests/e2e/simulate.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-simulate: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
use_signing_key

# Every simulated phone asks for its APRICOT code from 127.0.0.1.
TRACEDESK_APRICOT_OTP_PER_ADDRESS_PER_HOUR=0 check "serve starts" start_server "$work/desk.sqlite"

"$bin" simulate --server "http://$phone" --internal "http://$internal" --store "$work/desk.sqlite" \
  --duration 4 --immuni-rate 60 --apricot-users 12 --seed 5 >"$work/run.out" 2>"$work/run.err"
check "simulate with codes from the store: exit 0" test $? -eq 0
check "its summary: no error, each endpoint" bash -c "
  grep -q '^requests [0-9]*, errors 0$' '$work/run.out' &&
  grep -q '^  upload  ' '$work/run.out' && grep -q '^  check-otp (dummy)' '$work/run.out' &&
  grep -q '^  apricot contacts' '$work/run.out' && grep -q 'APRICOT phones signed in 12, positive 1' '$work/run.out'"

printf 'simulate-pass-1234\nsimulate-pass-1234\n' |
  "$bin" staff add boss --role admin --store "$work/desk.sqlite" --password-stdin >/dev/null 2>&1
echo simulate-pass-1234 | "$bin" simulate --server "http://$phone" --internal "http://$internal" \
  --user boss --password-stdin --duration 2 --apricot-users 4 --seed 6 >"$work/admin.out" 2>"$work/admin.err"
check "simulate with codes read through the staff API as an admin: exit 0, 4 phones" bash -c "
  [ $? -eq 0 ] && grep -q 'APRICOT phones signed in 4' '$work/admin.out'"
check "and each read of the outbox is audited" bash -c "
  echo simulate-pass-1234 | '$bin' audit list --user boss --store '$work/desk.sqlite' --password-stdin 2>/dev/null |
  grep -q sms_outbox_read"

"$bin" simulate --server http://192.0.2.1:8080 --duration 1 2>"$work/remote.err"
check "a server that is not this machine is refused (exit 2) unless --allow-non-loopback" bash -c "
  [ $? -eq 2 ] && grep -q 'allow-non-loopback' '$work/remote.err'"
"$bin" simulate --server "http://$phone" --apricot-users 3 --duration 1 2>"$work/codes.err"
check "APRICOT phones without a way to read codes: exit 2, saying what to give" bash -c "
  [ $? -eq 2 ] && grep -q -- '--store' '$work/codes.err'"
"$bin" simulate --help >"$work/help.out"
check "--help says how the per-address code limit applies" grep -q 'apricot_otp_per_address_per_hour' "$work/help.out"

"$bin" simulate --server "http://$phone" --internal "http://$internal" --immuni-rate 0 \
  --immuni-population 20000000 --duration 3 >"$work/population.out" 2>/dev/null
check "--immuni-population alone: dummy sessions only, no citizen, no error" bash -c "
  [ $? -eq 0 ] && grep -q '^citizens 0,' '$work/population.out' && grep -q '^  check-otp (dummy)' '$work/population.out' &&
  ! grep -q '^  upload  ' '$work/population.out' && grep -q 'errors 0$' '$work/population.out'"

# --store must name the server's store: a typo makes no new, empty one.
"$bin" simulate --server "http://$phone" --internal "http://$internal" --store "$work/typo.sqlite" \
  --duration 1 --apricot-users 2 2>"$work/typo.err"
check "simulate --store of a file that does not exist: exit 4, says so, creates nothing" bash -c "
  [ $? -eq 4 ] && grep -q 'no store there' '$work/typo.err' && [ ! -e '$work/typo.sqlite' ]"
# --user must be an admin: said before the run, not as phones that never sign in.
printf 'simulate-pass-1234\nsimulate-oper-1234\n' |
  "$bin" staff add clerk --role operator --user boss --store "$work/desk.sqlite" --password-stdin >/dev/null 2>&1
echo simulate-oper-1234 | "$bin" simulate --server "http://$phone" --internal "http://$internal" \
  --user clerk --password-stdin --duration 1 --apricot-users 2 >"$work/clerk.out" 2>"$work/clerk.err"
check "simulate --user of an operator: exit 6, 'only an admin', no run" bash -c "
  [ $? -eq 6 ] && grep -q 'only an admin' '$work/clerk.err' && [ ! -s '$work/clerk.out' ]"

# SIGINT (Ctrl-C) and SIGTERM stop a run early: the partial summary is printed, the admin signed
# out, the exit status 128 + the signal.
signouts() {
  echo simulate-pass-1234 | "$bin" audit list --user boss --store "$work/desk.sqlite" --password-stdin 2>/dev/null |
    grep -c sign_out
}
# run_reached_server LINES: a phone request in the server's log after its first LINES lines.
run_reached_server() { tail -n +$(($1 + 1)) "$work/serve.log" | grep -q ' public '; }
for sig in INT TERM; do
  before=$(signouts)
  echo simulate-pass-1234 | "$bin" simulate --server "http://$phone" --internal "http://$internal" \
    --user boss --password-stdin --duration 600 --apricot-users 2 --seed 8 >"$work/sig.out" 2>"$work/sig.err" &
  sim=$!
  # Under way: the server has logged a phone request of this run (by then simulate has set up
  # its signal handling, which follows its "simulating for" line).
  logged=$(wc -l <"$work/serve.log")
  wait_until 60 has_line "$work/sig.err" 'simulating for'
  wait_until 60 run_reached_server "$logged"
  kill -"$sig" "$sim"
  stopped=1
  wait_gone "$sim" && stopped=0
  wait "$sim"
  status=$?
  want=$([ "$sig" = INT ] && echo 130 || echo 143)
  check "SIG$sig during simulate: it stops (exit $want), prints the partial summary, says so" bash -c "
    [ $stopped -eq 0 ] && [ $status -eq $want ] && grep -q '^requests [0-9]*, errors' '$work/sig.out' &&
    grep -q 'SIG$sig: the simulation stopped early' '$work/sig.err'"
  after=$(signouts)
  # The listing before counts its own sign-out only in the next one: +1 for it, +1 for simulate.
  check "and signs the admin out (SIG$sig)" test "$after" -eq $((before + 2))
done

stop_server
check "the server stops cleanly after the simulations (exit 0)" test $? -eq 0

# tracedesk demo: its own server, accounts and phones. The demos below share nothing (each has its
# own store, ports and accounts): the ones that wait for a signal start now, beside the first
# one, rather than one after another.
declare -A sigdemo
for sig in TERM INT HUP; do
  "$bin" demo --no-console --duration 600 --apricot-users 4 >"$work/sigdemo-$sig.out" 2>"$work/sigdemo-$sig.err" &
  sigdemo[$sig]=$!
  pids+=($!)
done
"$bin" demo --no-console --duration 4 --apricot-users 8 >"$work/demo.out" 2>"$work/demo.err"
short_status=$?
check "demo --no-console: exit 0, one account per role printed, phones without error" bash -c "
  [ $short_status -eq 0 ] && grep -q '^    operator    operator / demo-' '$work/demo.out' &&
  grep -q '^    tracer      tracer / demo-' '$work/demo.out' && grep -q '^requests [0-9]*, errors 0$' '$work/demo.out' &&
  grep -q 'APRICOT phones signed in 8' '$work/demo.out' && grep -q '^  operational-info ' '$work/demo.out'"
check "and its temporary store is gone" bash -c "
  store=\$(sed -nE 's/^  store +([^ ]+) .*/\\1/p' '$work/demo.out'); [ -n \"\$store\" ] && [ ! -e \"\$store\" ]"

# SIGTERM, SIGINT or SIGHUP stop the demo: its temporary store (only its user may read it) is gone,
# promptly, the exit status 128 + the signal.
for sig in TERM INT HUP; do
  wait_until 60 has_line "$work/sigdemo-$sig.out" 'positive patients'
  store=$(sed -nE 's/^  store +([^ ]+) .*/\1/p' "$work/sigdemo-$sig.out")
  folder=$(dirname "${store:-/nonexistent/x}")
  mode=$(stat -c %a "$folder" 2>/dev/null)
  kill -"$sig" "${sigdemo[$sig]}"
  stopped=1
  wait_gone "${sigdemo[$sig]}" && stopped=0
  wait "${sigdemo[$sig]}"
  status=$?
  want=$(case $sig in INT) echo 130 ;; TERM) echo 143 ;; HUP) echo 129 ;; esac)
  check "SIG$sig to demo --no-console: its 0700 folder is deleted and it exits $want within 30 s" bash -c "
    [ -n '$store' ] && [ '$mode' = 700 ] && [ $stopped -eq 0 ] && [ $status -eq $want ] && [ ! -e '$folder' ]"
done
# While a demo runs, the tracer looks a positive patient it names up through its staff API (its
# 20 s start when it has printed its accounts: it starts last, so that all of them are left).
"$bin" demo --no-console --duration 20 --apricot-users 12 --seed 7 >"$work/live.out" 2>/dev/null &
demo=$!
wait_until 60 has_line "$work/live.out" 'positive patients'
live=$(sed -nE 's/^  internal +(http[^ ]+) .*/\1/p' "$work/live.out")
tracer=$(sed -nE 's|^    tracer      tracer / (.*)$|\1|p' "$work/live.out")
patient=$(sed -nE 's/^  positive patients, for the tracer.s lookup: ([^,]+).*/\1/p' "$work/live.out")
# contacts_found: the tracer's lookup of the patient through the demo's staff API finds a contact.
contacts_found() {
  echo "$tracer" | "$bin" --server "$live" trace "$patient" --purpose "demo e2e" --user tracer --password-stdin --csv \
    >"$work/trace.csv" 2>/dev/null && [ "$(wc -l <"$work/trace.csv")" -ge 2 ]
}
check "the demo names a positive patient whose contacts the tracer's lookup finds" wait_until 60 contacts_found
wait "$demo"
check "and the demo ends after its --duration, exit 0" test $? -eq 0

"$bin" demo --no-console --store "$work/desk.sqlite" --duration 1 2>"$work/exists.err"
check "demo --store of a file that exists: refused, exit 2" bash -c "[ $? -eq 2 ] && grep -q 'exists' '$work/exists.err'"

if command -v tmux >/dev/null; then
  # opened: the console's title bar names the operator.
  opened() { screen | head -1 | grep -q 'operator (operator)'; }
  start_shell 120 40 -- "LANG=C.UTF-8 '$bin' demo --apricot-users 6 2>'$work/tmux.err'; echo \$? >'$work/tmux.status'; sleep 600"
  check "demo opens the console signed in as the operator" wait_until 60 opened
  keys C-q
  wait_file "$work/tmux.status" 60
  tmux -L "$socket" capture-pane -p -S -200 >"$work/tmux.out" 2>/dev/null
  check "quitting the console stops the demo: exit 0, accounts printed again, no error" bash -c "
    [ \"\$(cat '$work/tmux.status' 2>/dev/null)\" = 0 ] && grep -q 'supervisor  supervisor / demo-' '$work/tmux.out' &&
    grep -q '^requests [0-9]*, errors 0$' '$work/tmux.out'"

  # SIGTERM to the demo while its console is open: the console quits (the terminal is restored),
  # the temporary store is deleted, exit 143.
  start_shell 120 40 -- \
    "sh -c 'echo \$\$ >\"$work/term.pid\"; LANG=C.UTF-8 exec \"$bin\" demo --apricot-users 4 2>\"$work/term.err\"'; echo \$? >'$work/term.status'; stty -a >'$work/term.stty'; sleep 600"
  wait_until 60 opened && was_opened=0 || was_opened=1
  store=$(tmux -L "$socket" capture-pane -p -J -a 2>/dev/null | sed -nE 's/^  store +([^ ]+) .*/\1/p')
  kill -TERM "$(cat "$work/term.pid")"
  wait_file "$work/term.stty"
  check "SIGTERM to the demo with its console open: exit 143, store deleted, terminal sane" bash -c "
    [ $was_opened -eq 0 ] && [ -n '$store' ] && [ ! -e \"\$(dirname '$store')\" ] &&
    [ \"\$(cat '$work/term.status' 2>/dev/null)\" = 143 ] &&
    grep -qE '(^| )icanon( |$)' '$work/term.stty' && grep -qE '(^| )echo( |$)' '$work/term.stty'"
fi

summary e2e-simulate
