#!/usr/bin/env bash
# Contact follow-up (issue 21) through the real binary: a tracer's morning and a supervisor's
# watch. First every command with bad input (the message says what to type; usage errors exit 2
# before a password is asked for, refusals exit 1); then, on a store seeded by `tracedesk bench
# trace`, a tracer opens a case from the command line, reads it and the queue as text, JSON and
# CSV, records calls and checks (and is refused a check before the person was reached, an
# attempt on an ended follow-up, someone else's follow-up); a supervisor reassigns follow-ups
# and is refused a non-tracer; a tracer's morning in the console (the queue worked to the end
# with digit keys) and a supervisor's (reassigning with Space and a, reading the indicators);
# the same through --server; the audit log holds every step and no phone number.
# Usage: Tests/e2e/followup.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-followup: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
export TRACEDESK_THEMES="$root/themes"
store="$work/followup.sqlite"
password="bench trace password"
tom_pw="second tracer pw 4"
td_split=1  # `td`: stdout in $work/out, stderr in $work/err

# After a FAIL: the last command's output (stdout, then stderr), a few lines of each.
on_failure() {
  [ -f "$work/out" ] && head -c 600 "$work/out" | sed 's/^/    out: /'
  [ -f "$work/err" ] && head -n 5 "$work/err" | sed 's/^/    err: /'
  return 0
}
err_has() { grep -qF -- "$1" "$work/err"; }
out_has() { grep -qF -- "$1" "$work/out"; }
# json_check EXPRESSION: a Python expression over the JSON in $work/out (as `r`) that must hold.
json_check() {
  python3 -c "import json,sys; r=json.load(open('$work/out')); sys.exit(0 if ($1) else 1)" 2>/dev/null
}
# json_value EXPRESSION: prints a Python expression over the JSON in $work/out.
json_value() { python3 -c "import json; r=json.load(open('$work/out')); print($1)" 2>/dev/null; }
status_is() { [ "$rc" -eq "$1" ]; }
# refused STATUS TEXT: the last command exited STATUS with TEXT on stderr, and no phone number.
refused() { status_is "$1" && err_has "$2" && ! grep -qE '300 ?000 ?[0-9]{4}|3000000|333 ?999 ?9999|3339999999' "$work/err"; }

as_tracer() { td "$password\n" "$@" --user bench-tracer --password-stdin --store "$store"; }
as_tom() { td "$tom_pw\n" "$@" --user tom --password-stdin --store "$store"; }
as_sup() { td "$super_pw\n" "$@" --user sara --password-stdin --store "$store"; }
as_admin() { td "$password\n" "$@" --user bench-admin --password-stdin --store "$store"; }

# 1. Bad input, caught before a password is asked for: stdin is empty and there is no terminal,
# so a command that got as far as signing in would exit 6 instead.
usage() {  # usage TEXT ARGS…: exit 2 with TEXT on stderr
  local expected=$1; shift
  td "" "$@" --user bench-tracer --store "$store"
  status_is 2 && err_has "$expected" && err_has "see 'tracedesk"
}
check "case without a verb: what to do" usage "say what to do: open, list, show, close or add" case
check "case open without a number: how to type it" \
  usage "give the patient's phone number: tracedesk case open PHONE --reference TEXT" case open
check "case open without a reference: the option, with an example" \
  usage 'give the case reference: --reference "ASL-2026-0412"' case open 3000000000
check "case open with --onset and --test-day" usage "give --onset (symptoms started) or --test-day (no symptoms), not both" \
  case open 3000000000 --reference x --onset "$today" --test-day "$today"
check "case open with an option of another verb" usage "'case open' takes no --limit" \
  case open 3000000000 --reference x --limit 3
check "case list --closed --all" usage "give --closed or --all, not both" case list --closed --all
check "case show with a word for the number" usage "'x1' is not a case number: give the number tracedesk case list shows" \
  case show x1
check "case show with two numbers" usage "give one case number only" case show 1 2
check "case close without a reason: the reasons" \
  usage "give why the case closes: --reason recovered, transferred, opened-in-error, other" case close 1
check "case close with an unknown reason" usage "unknown reason 'healed': use recovered," case close 1 --reason healed
check "case add without the number" usage "give the person's phone number after the case number" case add 1
check "case add without a reason" usage 'say why the person is added: --reason' case add 1 3000000005
check "case frobnicate" usage "unknown command 'case frobnicate': use open, list, show, close or add" case frobnicate
check "queue with two scopes" usage "give one of --mine, --tracer NAME, --unassigned or --everyone" queue --mine --everyone
check "queue --after with no cursor" usage "--after 'soon' is not a queue cursor" queue --after soon
check "queue --limit out of range" usage "--limit must be a whole number from 1 to 500, got '501'" queue --limit 501
check "queue --csv --json" usage "give --csv or --json, not both" queue --csv --json
check "queue with an argument" usage "unexpected argument 'tom'" queue tom
check "followup without a verb" usage "say what to do: show, attempt, check or assign" followup
check "followup attempt without an outcome: the outcomes" \
  usage "give what the call came to: --outcome no-answer|voicemail|wrong-number|reached|refused" followup attempt 1
check "followup attempt with an unknown outcome" usage "unknown outcome 'busy': use no-answer, voicemail," \
  followup attempt 1 --outcome busy
check "followup attempt without a number" usage "give the follow-up number: tracedesk followup attempt ID" \
  followup attempt --outcome reached
check "followup check without --isolating" usage "give --isolating yes or --isolating no" \
  followup check 1 --symptoms no
check "followup check with maybe" usage "unknown --symptoms answer 'maybe': use yes or no" \
  followup check 1 --symptoms maybe --isolating no
check "followup assign without numbers" usage "give the follow-ups' numbers: tracedesk followup assign ID... --to TRACER" \
  followup assign --to tom
check "followup assign with a word among the numbers" usage "'seven' is not a follow-up number" \
  followup assign 1 seven --to tom
check "followup assign without --to" usage "say to whom: --to TRACER" followup assign 1 2
td "" case open 300-abc --reference x --user bench-tracer --store "$store"
check "a number in a wrong format is refused (exit 1) with how to type it" refused 1 "a phone number has only digits"
td "" case open 3000000000 --reference "   " --user bench-tracer --store "$store"
check "an empty case reference is refused (exit 1)" refused 1 "a case reference is required"
tomorrow=$(date -u -d tomorrow +%F)
td "" case open 3000000000 --reference x --onset "$tomorrow" --user bench-tracer --store "$store"
check "an onset after today is refused (exit 1)" refused 1 "--onset $tomorrow is after today"
td "" case open 3000000000 --reference x --test-day 2026-02-30 --user bench-tracer --store "$store"
check "a test day that is no day is refused (exit 1) with the form" refused 1 "is not a day: write it YYYY-MM-DD"
td "" case add 1 3000000005 --reason "  " --user bench-tracer --store "$store"
check "an empty reason for a contact added by hand is refused (exit 1)" refused 1 "--reason is empty: say why"
long_note=$(printf 'x%.0s' $(seq 501))
td "" followup attempt 1 --outcome reached --note "$long_note" --user bench-tracer --store "$store"
check "a note over 500 characters is refused (exit 1)" refused 1 "the note has 501 characters, at most 500"
for word in case queue followup; do
  "$bin" $word --help >"$work/help" 2>&1
  check "$word --help: usage and exit statuses" bash -c "grep -q '^Usage' '$work/help' && grep -q '^Exit status:' '$work/help' && grep -qE '^  0 +ok' '$work/help'"
done
check "tracedesk --help lists case, queue and followup" \
  bash -c "'$bin' --help | grep -q 'case open PHONE --reference TEXT' && '$bin' --help | grep -q 'queue \[--mine' && '$bin' --help | grep -q 'followup assign ID... --to TRACER'"

# 2. The store: `bench trace` makes the patient (+39 300 000 0000, with a circle of contacts),
# users whose phones it may or may not have heard, bench-tracer and bench-admin; the admin adds a
# supervisor and a second tracer.
"$bin" bench trace --store "$store" --users 40 --days 2 --records 1440 --runs 1 --json >"$work/bench.json" 2>&1
check "bench trace seeds the patient's files and the tracer" grep -q '"lookup' "$work/bench.json"
td "$password\n$super_pw\n" staff add sara --role supervisor --user bench-admin --password-stdin --store "$store"
sara=$rc
td "$password\n$tom_pw\n" staff add tom --role tracer --user bench-admin --password-stdin --store "$store"
check "the admin adds a supervisor and a second tracer" bash -c "[ $sara -eq 0 ] && [ $rc -eq 0 ]"

# 3. The tracer's morning, from the command line: a case for the patient, with their contacts
# as follow-ups assigned to the tracer (--mine).
onset=$(date -u -d '3 days ago' +%F)
as_tracer case open "+39 300 000 0000" --reference "ASL-2026-0412" --onset "$onset" --mine
check "case open: the case, its index day and how many follow-ups" \
  bash -c "[ $rc -eq 0 ] && grep -qE '^opened case [0-9]+ \(ASL-2026-0412\) for \+39 300 000 0000, index day $onset \(symptom onset\)' '$work/out' && grep -qE 'follow-ups: [1-9][0-9]* new, assigned to you' '$work/out'"
case_id=$(sed -nE 's/^opened case ([0-9]+) .*/\1/p' "$work/out")
contacts=$(sed -nE 's/.*follow-ups: ([0-9]+) new.*/\1/p' "$work/out")
as_tracer case open 3000000000 --reference "another reference" --json
check "opening it again gives the same case, unchanged (JSON: existing)" \
  json_check "r['existing'] is True and r['case']['id'] == ${case_id:-0} and r['case']['reference'] == 'ASL-2026-0412' and r['follow_ups_created'] == 0"
as_tracer case list
check "case list: the open case with its contacts" \
  bash -c "[ $rc -eq 0 ] && grep -qE '^ID +REFERENCE +PATIENT' '$work/out' && grep -qE '^$case_id +ASL-2026-0412 +\+39 300 000 0000 +$onset \(symptom onset\) +bench-tracer .* $contacts +open$' '$work/out'"
as_tracer case list --closed
check "case list --closed: none yet, said plainly" bash -c "[ $rc -eq 0 ] && grep -q 'No closed cases.' '$work/out'"
as_tracer case show "$case_id" --json
check "case show --json: the case, its follow-ups (all the tracer's, due) and its history" \
  json_check "r['case']['contacts'] == $contacts and len(r['follow_ups']) == $contacts and all(f['assigned_to'] == 'bench-tracer' and f['state'] == 'calling' for f in r['follow_ups']) and len(r['history']) >= 1"
# A registered user who is not among the contacts (the bench registers +39 300 000 0000 to 0039;
# which of them the patient's phone heard is drawn by the bench), for a contact added by hand.
by_hand=$(json_value "next('+3930000000%02d' % i for i in range(1, 40) if '+3930000000%02d' % i not in {f['phone'] for f in r['follow_ups']})")
as_tracer case show "$case_id"
check "case show: the header, the follow-ups table, the history" \
  bash -c "grep -q '^Case $case_id · ASL-2026-0412 · open' '$work/out' && grep -qE '^ID +DUE +PHONE +CASE +STATE' '$work/out' && grep -q '^History (oldest first):' '$work/out'"

as_tracer queue --json
check "queue --json: every follow-up due now, in the order of due time then number" \
  json_check "r['counts']['due'] + r['counts']['overdue'] == $contacts and len(r['rows']) == $contacts and [(x['next_due_at'], x['id']) for x in r['rows']] == sorted((x['next_due_at'], x['id']) for x in r['rows'])"
check "each row has the person's full number, the case and the evidence" \
  json_check "all(x['phone'].startswith('+39300000') and x['reasons'][0]['case_reference'] == 'ASL-2026-0412' and x['reasons'][0]['minutes'] > 0 for x in r['rows'])"
read -r f1 f2 f3 f4 f5 <<<"$(json_value "' '.join(str(x['id']) for x in r['rows'][:5])")"
as_tracer queue --csv
csv_header="follow_up_id,urgency,next_due_at,phone,person_user_id,cases,case_ids,state,assigned_to,attempts,last_outcome,last_attempt_at,reached_at,last_exposure_day,period_ends_on,minutes,days,most_minutes_on_one_day,close_contact,added_by_hand,checked_days,last_check_day,symptoms_flagged"
check "queue --csv: the documented columns, one line per follow-up" \
  bash -c "[ \"\$(head -n1 '$work/out' | tr -d '\r')\" = '$csv_header' ] && [ \$(( \$(wc -l <'$work/out') - 1 )) -eq $contacts ] && grep -q '^$f1,due,' '$work/out'"
as_tracer queue
check "queue: the counts, then the rows with the full number and why" \
  bash -c "grep -qE '^Queue of bench-tracer: 0 overdue · $contacts due now · 0 later today' '$work/out' && grep -qE '^$f1 +due now .* \+39 300 000 [0-9]{4} +ASL-2026-0412 +to call +0 +- +[0-9]+ min, [0-9]+ d, last ' '$work/out'"

as_tracer followup check "$f1" --symptoms no --isolating yes
check "a check before the person was reached is refused (exit 1), saying what to do" \
  refused 1 "follow-up $f1 has not been reached yet: record the call as reached first"
as_tracer followup attempt "$f1" --outcome reached --note "back on Monday"
check "attempt --outcome reached: recorded, today's check due now" \
  bash -c "[ $rc -eq 0 ] && grep -q '^recorded reached for follow-up $f1: next daily check due now' '$work/out'"
as_tracer followup check "$f1" --symptoms no --isolating yes --note "feels fine"
check "check: recorded, the next one due tomorrow" \
  bash -c "[ $rc -eq 0 ] && grep -q '^recorded the daily check of follow-up $f1: symptoms no, isolating yes; next daily check due ' '$work/out'"
as_tracer followup attempt "$f2" --outcome no-answer --json
check "attempt --outcome no-answer --json: the next call later" \
  json_check "r['id'] == $f2 and r['state'] == 'calling' and r['attempts'] == 1 and r['last_outcome'] == 'no_answer' and r['next_due_at'] > r['last_attempt_at']"
as_tracer followup attempt "$f5" --outcome wrong-number
check "attempt --outcome wrong-number ends the follow-up" \
  bash -c "[ $rc -eq 0 ] && grep -q 'the follow-up has ended: wrong number' '$work/out'"
as_tracer followup attempt "$f5" --outcome reached
check "an attempt on an ended follow-up is refused (exit 1), saying so" refused 1 "follow-up $f5 has ended (wrong number)"
as_tracer followup show "$f1"
check "followup show: the person, the case's evidence, the attempt with its note, the check" \
  bash -c "[ $rc -eq 0 ] && grep -qE '^Follow-up $f1 · \+39 300 000 [0-9]{4} · user [0-9]+ · monitoring · assigned to bench-tracer' '$work/out' && grep -qE '^  case $case_id ASL-2026-0412: [0-9]+ min over' '$work/out' && grep -qE 'bench-tracer  reached  back on Monday' '$work/out' && grep -qE 'symptoms no, isolating yes  feels fine' '$work/out'"
as_tracer followup show 999999
check "an unknown follow-up is refused, not a crash" bash -c "[ $rc -eq 1 ] || [ $rc -eq 6 ]"
as_tracer case add "$case_id" "$by_hand" --reason "household member, no phone seen"
check "case add: a registered person added by hand becomes a follow-up of the case" \
  bash -c "[ $rc -eq 0 ] && grep -qE '^case $case_id follows \+39 300 000 00${by_hand: -2} as follow-up [0-9]+, added by hand' '$work/out'"
as_tracer case open 3339999999 --reference "ASL-2026-0413"
check "a number nobody registered is refused (exit 1), the number not repeated" refused 1 "no APRICOT user has this number"

# Roles: an admin reads no case; another tracer works no follow-up of someone else's; a tracer
# assigns nothing and reads only their own queue.
as_admin case list
check "an admin may not list cases: exit 6" status_is 6
as_tom followup attempt "$f3" --outcome reached
check "another tracer's follow-up: exit 6" status_is 6
as_tom queue --everyone
check "a tracer may not read everyone's queue: exit 6" status_is 6
as_tracer followup assign "$f3" --to tom
check "a tracer may not assign: exit 6" status_is 6

# 4. The supervisor: everyone's queue (the default for a supervisor), reassignment, refusals.
as_sup queue
check "the supervisor's queue is everyone's, with who each row is assigned to" \
  bash -c "[ $rc -eq 0 ] && grep -q \"^Everyone's queue: \" '$work/out' && grep -qE '^ID +DUE +PHONE +CASE +STATE +ATTEMPTS +LAST OUTCOME +ASSIGNED +WHY' '$work/out' && grep -qE '^$f3 .* bench-tracer ' '$work/out'"
as_sup followup assign "$f3" "$f4" "$f3" --to tom
check "followup assign: two follow-ups (a repeated number once) to tom" \
  bash -c "[ $rc -eq 0 ] && grep -q '^assigned 2 follow-ups to tom: ' '$work/out'"
as_sup followup assign "$f2" --to sara
check "an assignment to a non-tracer is refused (exit 1), saying so" \
  bash -c "[ $rc -eq 1 ] && grep -qi 'tracer' '$work/err'"
as_tom queue --json
check "tom's queue now holds the two" \
  json_check "{$f3, $f4} <= {x['id'] for x in r['rows']} and all(x['assigned_to'] == 'tom' for x in r['rows'])"
as_sup queue --tracer tom --csv
check "the supervisor's queue --tracer tom --csv has the same two" \
  bash -c "[ $rc -eq 0 ] && grep -q '^$f3,.*,tom,' '$work/out' && grep -q '^$f4,.*,tom,' '$work/out' && [ \$(grep -vc ',tom,' '$work/out') -eq 1 ]"
as_tom followup attempt "$f3" --outcome voicemail
check "tom works the follow-up now his" status_is 0
as_tracer followup attempt "$f4" --outcome reached
check "and bench-tracer no longer may: exit 6" status_is 6

# 5. Closing the case ends its follow-ups: the queue is empty.
as_tracer case close "$case_id" --reason recovered --note "isolation over"
check "case close: closed, with the reason" \
  bash -c "[ $rc -eq 0 ] && grep -q '^closed case $case_id (ASL-2026-0412): recovered' '$work/out'"
as_tracer queue
check "the queue is empty after the case closed" \
  bash -c "grep -q '^Queue of bench-tracer: 0 overdue · 0 due now · 0 later today' '$work/out' && grep -q 'Nobody to call' '$work/out'"
as_tracer case close "$case_id" --reason recovered
check "closing it again is refused (exit 1)" status_is 1
as_tracer case list --all
check "case list --all shows it closed" bash -c "grep -qE '^$case_id +ASL-2026-0412 .* closed \(recovered\)$' '$work/out'"

# 6. The tracer's morning in the console, on a store of its own: the tracer opens the case on
# the trace screen (F2: the number, then the reference) and reads it in the case view (v), then
# works the queue (F3) to the end with digit keys and checks the one person reached with c; then
# a supervisor marks two people with Space, reassigns them with a, and reads the indicators (the
# dashboard's t, tracedesk stats). tom is added after the case opened, so its contacts all go
# to the one active tracer, bench-tracer.
morning="$work/morning.sqlite"
"$bin" bench trace --store "$morning" --users 40 --days 2 --records 1440 --runs 1 --json >"$work/bench2.json" 2>&1
td "$password\n$super_pw\n" staff add sara --role supervisor --user bench-admin --password-stdin --store "$morning"

start 120 30 -- --store "$morning" --user bench-tracer
sign_in "$password"
check "the tracer's console opens on the call queue, nobody to call yet" wait_wrapped "nobody to call: open a case"
keys F2
check "F2: the trace screen asks for the patient's number" wait_wrapped "Contact trace"
text "3000000000"
keys Enter
check "Enter: the case reference is asked next" wait_wrapped "Open case"
text "ASL-2026-0500"
keys Enter
check "Enter opens the case and looks the patient up: its contacts go to the queue" \
  wait_re "Case ASL-2026-0500 \(case [0-9]+\) opened: [0-9]+ contacts to follow"
due=$(screen | sed -nE 's/.*Case ASL-2026-0500 \(case [0-9]+\) opened: ([0-9]+) contacts.*/\1/p' | head -n1)
morning_case=$(screen | sed -nE 's/.*Case ASL-2026-0500 \(case ([0-9]+)\) opened.*/\1/p' | head -n1)
check "the morning's case has contacts to call ($due)" test "${due:-0}" -gt 2
check "the footer offers the case view" wait_wrapped "v Case"
keys v
check "v: the case view, its reference and number" wait_wrapped "Case ASL-2026-0500 · case $morning_case"
check "the case view: the patient, the status and who opened it" \
  wait_wrapped "Status: open · opened by bench-tracer"
check "the case view: every contact, all to call" wait_wrapped "Contacts ($due, $due active)"
check "the case view: each contact's number, tracer and state" wait_re "\+39 300 000 [0-9]{4} +bench-tracer +to call"
check "the case view: its history" wait_re "History \([1-9][0-9]*\)"
keys Escape
check "Esc: back on the trace screen" wait_wrapped "Case ASL-2026-0500 (case $morning_case) opened"
keys F3
check "F3: the call queue, everyone due now" \
  wait_wrapped "Your calls · 0 overdue · $due due now · 0 later today"
check "the rows have the full number, the case and why a contact" \
  wait_re "due now +\+39 300 000 [0-9]{4} +ASL-2026-0500 +0 +not called.* [0-9]+ ?m(in)? · [0-9]+ ?d"
check "the digits' legend is on the table's border" wait_for "1 no answer  2 voicemail  3 wrong number  4 reached  5 refused"
# selected: the follow-up the person pane names (its title: "+39 … · follow-up N").
selected() { screen | grep -oE '\+39 300 000 [0-9]{4} · follow-up [0-9]+' | head -n1; }
first=$(selected)
keys 4
check "4 records reached for the selected person" wait_wrapped "reached recorded for ${first% · *}"
reached_id=${first##* }
calls=1
while [ $calls -lt $((due + 3)) ]; do
  shows_wrapped "nobody else is due now" && break
  person=$(selected)
  [ -z "$person" ] && break
  # The person reached is due again (their check): that one is checked below, not called.
  [ "${person##* }" = "$reached_id" ] && break
  keys 1
  wait_wrapped "no answer recorded for ${person% · *}" >/dev/null || break
  calls=$((calls + 1))
done
check "1 records no answer and moves on, person after person, to the end of the queue ($calls calls)" \
  test "$calls" -eq "$due"
check "the cursor came back to the person reached: their check is due" \
  wait_until "$wait_cap" bash -c "[ \"\$(tmux -L '$socket' capture-pane -p -t '$pane' | grep -oE 'follow-up [0-9]+' | head -n1)\" = 'follow-up $reached_id' ]"
keys c
check "c opens today's check" wait_wrapped "Today's check of"
keys n y Enter
check "n, y and Enter record it: no symptoms, isolating" wait_wrapped "check recorded for ${first% · *}"
keys r
check "read again, nobody is due: everyone called or checked" \
  wait_wrapped "Your calls · 0 overdue · 0 due now"
keys l
check "l shows the later ones: the people called" wait_re "(today|[0-9]{2}-[0-9]{2}) [0-9]{2}:[0-9]{2} +\+39 300 000"
keys Enter
check "Enter opens a person" wait_wrapped "Calls (1)"
keys v
check "v in the person view: their case, the calls recorded in it" \
  wait_wrapped "Contacts ($due, $due active)" && wait_re "bench-tracer +(to call|monitoring) +(no answer|reached|checked today)"
keys Escape
check "Esc: back to the person" wait_wrapped "Calls (1)"
keys C-c
check "Ctrl-C quits with status 0" wait_wrapped "__EXIT=0"
td "$password\n" queue --later --json --user bench-tracer --password-stdin --store "$morning"
check "the store agrees: nothing due, every follow-up called once" \
  json_check "r['counts']['due'] + r['counts']['overdue'] == 0 and len(r['rows']) == $due and all(x['attempts'] == 1 for x in r['rows'])"
td "$password\n" followup show "$reached_id" --json --user bench-tracer --password-stdin --store "$morning"
check "the person reached has the check the keys recorded" \
  json_check "r['follow_up']['state'] == 'monitoring' and [c['symptoms'] for c in r['checks']] == [False] and r['checks'][0]['isolating'] is True"

td "$password\n$tom_pw\n" staff add tom --role tracer --user bench-admin --password-stdin --store "$morning"
check "the admin adds a second tracer for the supervisor's reassigning" status_is 0
td "$password\n" audit list --action follow_up_viewed --limit 500 --user bench-admin --password-stdin --store "$morning"
check "both views of the case in the console are audited (follow_up_viewed, case $morning_case)" \
  bash -c "[ \$(grep -cE 'follow_up_viewed[[:space:]]+case $morning_case([[:space:]]|\$)' '$work/out') -ge 2 ]"

start 120 40 -- --store "$morning" --user sara
sign_in "$super_pw"
wait_for "Dashboard" 60 >/dev/null
keys F4
check "the supervisor's queue is everyone's" wait_wrapped "Everyone's queue"
keys l
check "l shows the later ones too, with their tracer" wait_re "today [0-9]{2}:[0-9]{2} .*bench-tracer|[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} .*bench-tracer"
keys Space j Space
check "Space marks two people" wait_wrapped "2 marked"
keys a
check "a asks to whom" wait_wrapped "Reassign 2 to"
text "tom"
keys Enter
check "typing tom and Enter reassigns them" wait_wrapped "2 follow-ups assigned to tom"
# The indicators: the dashboard's tracing page (t), then tracedesk stats.
keys F2
wait_for "Last hour" 60 >/dev/null
keys t
check "t on the dashboard shows the tracing indicators over the cases opened" wait_wrapped "Tracing · cases opened"
check "and each tracer's load: tom has the two reassigned, nothing done today" wait_re "tom +2 +0 +0 +0"
check "bench-tracer's calls and the check are done today" wait_re "bench-tracer +$((due - 2)) +[0-9]+ +[0-9]+ +$((due + 1))"
keys C-c
td "$tom_pw\n" queue --later --json --user tom --password-stdin --store "$morning"
check "tom's queue holds the two" json_check "len(r['rows']) == 2"
td "$super_pw\n" stats --range 24h --json --user sara --password-stdin --store "$morning"
check "tracedesk stats --json: one case, its contacts, a first contact reached" \
  json_check "r['tracing']['cases'] == 1 and r['tracing']['contacts_per_case_mean'] == $due and r['tracing']['median_hours_to_first_reach'] is not None"
tracer_key() { json_value "'tracer' if 'tracer' in r['tracing']['tracers'][0] else 'name'"; }
key=$(tracer_key)
check "and the tracers' load: tom 2 assigned, bench-tracer $((due + 1)) done today" \
  json_check "{t['$key']: (t['assigned'], t['done_today']) for t in r['tracing']['tracers']}.get('tom') == (2, 0) and {t['$key']: t['done_today'] for t in r['tracing']['tracers']}.get('bench-tracer') == $((due + 1))"

# The same through a server's staff API (--server): the queue, a case, an attempt, a refusal.
export TRACEDESK_SIGNING_KEY_REQUIRED=false
td "$tom_pw\n" queue --later --json --user tom --password-stdin --store "$morning"
local_ids=$(json_value "sorted(x['id'] for x in r['rows'])")
if start_server "$morning"; then
  td "$tom_pw\n" --server "http://$internal" queue --later --json --user tom --password-stdin
  check "--server: tom's queue is the same as on the store" \
    bash -c "[ $rc -eq 0 ] && [ \"\$(python3 -c \"import json; print(sorted(x['id'] for x in json.load(open('$work/out'))['rows']))\")\" = '$local_ids' ]"
  remote_id=$(json_value "r['rows'][0]['id']")
  td "$tom_pw\n" --server "http://$internal" followup attempt "$remote_id" --outcome voicemail --user tom --password-stdin
  check "--server: tom records a call" bash -c "[ $rc -eq 0 ] && grep -q '^recorded voicemail for follow-up $remote_id' '$work/out'"
  td "$password\n" --server "http://$internal" case list --user bench-tracer --password-stdin
  check "--server: the tracer's cases" bash -c "[ $rc -eq 0 ] && grep -qE '^[0-9]+ +ASL-2026-0500 ' '$work/out'"
  td "$password\n" --server "http://$internal" followup attempt "$remote_id" --outcome reached --user bench-tracer \
    --password-stdin
  check "--server: someone else's follow-up is refused, exit 6" status_is 6
  td "$super_pw\n" --server "http://$internal" followup assign "$remote_id" --to sara --user sara --password-stdin
  check "--server: an assignment to a non-tracer is refused, exit 1" bash -c "[ $rc -eq 1 ] && grep -qi 'tracer' '$work/err'"
  check "the server's log holds no phone number and no case reference" \
    bash -c "! grep -qE '3000000|300 000|ASL-2026' '$work/serve.log'"
  stop_server
else
  failed=$((failed + 1)); echo "FAIL the server did not start"; tail -n 15 "$work/serve.log"
fi

# 7. The audit log: every view and change, with the case and follow-up numbers, never a phone
# number or a note.
as_admin audit list --limit 500
cp "$work/out" "$work/audit"
for action in case_opened follow_up_viewed follow_up_attempt follow_up_check follow_up_added follow_up_assigned case_closed; do
  check "the audit log has $action" grep -q "$action" "$work/audit"
done
check "the audit names the case by its reference" grep -q "ASL-2026-0412" "$work/audit"
check "no phone number and no note in the audit log" \
  bash -c "! grep -qE '3000000|300 000|back on Monday|feels fine|isolation over' '$work/audit'"

summary e2e-followup
