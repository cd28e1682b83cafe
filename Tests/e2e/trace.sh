#!/usr/bin/env bash
# The contact-trace screen through the real binary in tmux, as a tracer would use it: help from
# the empty number, a wrong number, an empty purpose, a lookup, sorting, the filter, a contact's
# detail, an outcome, the CSV export (audited; asked before overwriting), the call loop (a digit
# records an outcome and moves on), a patient without uploads, an unknown number;
# then `tracedesk trace` on the same store (table, CSV, exit statuses), the same through a
# server, and the whole chain: apps registering and uploading over the APRICOT API, found by
# the console through the server.
#
# The data: `tracedesk bench trace` seeds the store through the store's own APRICOT contract
# (users registered with their pseudo-ids, the patient's daily contact files) and makes the
# tracer `bench-tracer`. (The APRICOT HTTP endpoints that phones use are tested by the server's
# own end-to-end script; this one is about the tracer's side.)
# Usage: Tests/e2e/trace.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-trace: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
export TRACEDESK_THEMES="$root/themes"

store="$work/trace.sqlite"
password="bench trace password"
# The patient is the bench's user 0: +39 300 000 0000; user 5 (+39 300 000 0005) never uploads.
"$bin" bench trace --store "$store" --users 40 --days 2 --records 1440 --runs 1 --json >"$work/bench.json" 2>&1
check "bench trace seeds 40 users, the patient's files and the tracer" grep -q '"lookup' "$work/bench.json"
# Fewer users than the patient's circle of 30: every other user is in the circle (this once
# indexed past the users and crashed).
"$bin" bench trace --store "$work/few.sqlite" --users 12 --days 1 --records 600 --runs 1 --json >"$work/few.json" 2>&1
check "bench trace with 12 users (fewer than the circle) finishes" grep -q '"lookup' "$work/few.json"

# 1. The console at 80×24: the tracer's start page.
start 80 24 -- --store "$store" --user bench-tracer
sign_in "$password"
check "a tracer starts on the call queue" wait_wrapped "TraceDesk · Call queue"
keys F2
check "F2: the contact-trace screen" wait_wrapped "Look up a patient"
keys ?
check "? in the empty phone field opens help" wait_wrapped "Help: "
keys Escape
check "Esc closes it, back on the empty number" wait_until "$wait_cap" absent "Help: "
text "300-abc"
keys Enter
check "a number in a wrong format is refused with what to type" \
  wait_wrapped "✗ a phone number has only digits"
keys C-u
text "300 000 0000"
check "the number is shown as it will be looked up" wait_wrapped "✓ +39 300 000 0000"
keys Enter Enter
check "an empty purpose is refused with what to type" wait_wrapped "✗ type the purpose or case reference"
text "case e2e-1"
keys Enter
check "the lookup shows the patient's summary" wait_wrapped "Patient +39 300 000 0000"
check "the summary has the uploads and the time they cover" wait_wrapped "Uploads: 2 days,"
check "the contacts table is sorted by minutes" wait_wrapped "sorted by minutes"
check "close contacts are marked, with the legend" wait_wrapped "● close contact: ≥ 15 min on one day"
check "at 80 columns the table keeps phone, minutes, days, last seen and outcome" \
  wait_wrapped "Phone Minutes ▼ Days Last seen Outcome"
keys l
check "l sorts by last seen" wait_wrapped "sorted by last seen"
keys d
check "d sorts by days" wait_wrapped "sorted by days"
keys m
keys /
text "isolating"
check "the filter applies as you type (no outcome yet)" wait_wrapped "Contacts (0)"
keys Escape
check "Esc clears the filter" wait_wrapped "● close contact: ≥ 15 min on one day"
keys Enter
check "Enter opens the detail with the timeline" wait_wrapped "Timeline: timed minutes per UTC hour"
check "and the contact's sightings, read from the desk" wait_wrapped "Sightings ("
keys o Down Down
text "back on Monday"
keys Enter
check "an outcome is recorded" wait_wrapped "✓ outcome recorded: reached, isolating"
keys Escape
check "and shows in the table" wait_wrapped "reached, isolating"
# y: the selected contact's number, whole, to the clipboard (OSC 52), after the desk audited it;
# tmux with set-clipboard on takes it into its paste buffer.
tmux -L "$socket" set-option -g set-clipboard on >/dev/null
keys y
check "y copies the contact's phone number, whole, in E.164 (tmux show-buffer)" \
  wait_until "$wait_cap" bash -c "tmux -L '$socket' show-buffer 2>/dev/null | grep -qE '^\+39300000[0-9]{4}$'"
check "the notice says a phone number was copied, not which" wait_wrapped "phone number copied"
copied_phone=$(tmux -L "$socket" show-buffer 2>/dev/null)

# The export: to a typed path, audited, whole; asked before overwriting.
keys e
check "e asks for the file, with a default name in the documents or home folder" \
  wait_re "~(/[^ ]+)?/trace-1-[0-9]{4}-[0-9]{2}-[0-9]{2}\.csv"
keys C-u
text "$work/contacts.csv"
keys Enter
check "the export is written" wait_wrapped "✓ exported"
check "the CSV has the screen's columns" \
  bash -c "head -n1 '$work/contacts.csv' | grep -q '^contact_user_id,phone,close_contact,minutes,most_minutes_on_one_day,days,sightings,first_seen,last_seen,outcome,outcome_note,outcome_by,outcome_at'"
check "and the outcome" grep -q "reached_isolating,back on Monday,bench-tracer," "$work/contacts.csv"
check "the CSV is readable only by its owner" bash -c "[ \$(stat -c %a '$work/contacts.csv') = 600 ]"
cp "$work/contacts.csv" "$work/first.csv"
keys e C-u
text "$work/contacts.csv"
keys Enter
check "an existing file: asked before overwriting" wait_wrapped "contacts.csv exists. Replace it with"
keys n
check "Keep it leaves the file" wait_wrapped "kept the existing file"
check "untouched" cmp -s "$work/contacts.csv" "$work/first.csv"
keys Escape

# The call loop: a digit records the selected contact's outcome at once and moves the cursor
# to the next contact that still needs a call.
selected_row() { screen | grep -E '^[│|] ?[›>]'; }
selected_phone() { selected_row | grep -oE '\+39 [0-9]{3} [0-9]{3} [0-9]{4}' | head -n1; }
selected_needs_call() { selected_row | grep -q 'not yet called'; }
row_of() { screen | grep -F -- "$1" | grep -q -- "$2"; }  # row_of PHONE TEXT
check "the table's border has the digits' legend" \
  wait_wrapped "1 not called 2 no answer 3 isolating 4 refused 5 wrong number"
check "the footer has 1-5 Outcome" wait_wrapped "1-5 Outcome"
keys j
check "j selects a contact not yet called" wait_until "$wait_cap" selected_needs_call
first_call=$(selected_phone)
keys 2
check "2 records no answer for the selected contact" wait_wrapped "✓ outcome recorded: no answer for $first_call"
second_call=$(selected_phone)
check "the cursor moved on to another contact" test -n "$second_call" -a "$second_call" != "$first_call"
check "which still needs a call" selected_needs_call
check "and the contact called shows its outcome" row_of "$first_call" "no answer"
keys 5
check "5 records wrong number for the next one" wait_wrapped "✓ outcome recorded: wrong number for $second_call"
check "and shows it in its row" row_of "$second_call" "wrong number"

# A patient without uploads; an unknown number.
keys n
text "300 000 0005"
keys Enter
text "case e2e-2"
keys Enter
check "a patient without uploads: a message that says what to do" wait_wrapped "uploaded no contact files yet"
keys n
text "333 999 9999"
keys Enter
text "case e2e-2"
keys Enter
check "an unknown number: the desk's message, which does not repeat it" \
  wait_wrapped "no APRICOT user has this number"
check "no phone number in any message" absent "3339999999"
keys C-c
check "Ctrl-C quits with status 0" wait_wrapped "__EXIT=0"

# 2. The audit log has the lookups and the export, with the purpose.
printf '%s\n' "$password" | "$bin" audit list --action trace_export --user bench-admin --password-stdin \
  --store "$store" >"$work/audit" 2>&1
check "the export is in the audit log, with the purpose and rows" grep -q 'trace_export.*case e2e-1' "$work/audit"
printf '%s\n' "$password" | "$bin" audit list --action copy_phone --user bench-admin --password-stdin \
  --store "$store" >"$work/audit" 2>&1
check "the copy is in the audit log: copy_phone, the contact's user id, the purpose" \
  grep -q 'bench-tracer.copy_phone.user [0-9]*.*case e2e-1' "$work/audit"
check "and never the number copied" bash -c "[ -n '$copied_phone' ] && ! grep -qF -- '${copied_phone#+}' '$work/audit'"

# 3. The CLI on the same store.
as_tracer() { printf '%s\n' "$password" | "$bin" trace "$@" --user bench-tracer --password-stdin --store "$store"; }
as_tracer 3000000000 --purpose "case e2e-3" >"$work/table" 2>&1
check "tracedesk trace prints the summary and the table" \
  bash -c "grep -q 'Patient +39 300 000 0000' '$work/table' && grep -q 'PHONE' '$work/table' && grep -q 'reached, isolating' '$work/table'"
check "the CLI's summary is the screen's: the clock skew with its sign" grep -q 'clock skew [+−][0-9]' "$work/table"
as_tracer "+39 300 000 0000" --purpose "case e2e-3" --csv >"$work/cli.csv" 2>/dev/null
check "--csv prints the screen's columns" bash -c "head -n1 '$work/cli.csv' | grep -q '^contact_user_id,phone,close_contact,'"
check "--csv has one row per contact" bash -c "[ \$(wc -l <'$work/cli.csv') -eq \$(wc -l <'$work/first.csv') ]"
as_tracer 3000000000 --purpose "case e2e-3" --json >"$work/cli.json" 2>/dev/null
check "--json is the staff API's answer" bash -c "grep -q '\"close_contact_minutes\":15' '$work/cli.json'"
printf '%s\n%s\n' "300 000 0000" "$password" | "$bin" trace --phone-stdin --password-stdin --purpose "case e2e-3" \
  --csv --user bench-tracer --store "$store" >"$work/stdin.csv" 2>"$work/err"
check "--phone-stdin reads the number, then --password-stdin the password (the same rows)" \
  bash -c "[ \$(wc -l <'$work/stdin.csv') -eq \$(wc -l <'$work/cli.csv') ]"
printf '%s\n' "$password" | "$bin" trace 3000000000 --phone-stdin --purpose x --user bench-tracer --password-stdin \
  --store "$store" >/dev/null 2>&1
check "a number both as PHONE and on stdin is a usage error (exit 2)" bash -c "[ $? -eq 2 ]"
as_tracer 3000000000 --purpose "case e2e-5" --json --sightings >"$work/sightings.json" 2>/dev/null
sightings=$(grep -o '"time"' "$work/sightings.json" | wc -l)
printf '%s\n' "$password" | "$bin" audit list --action trace_export --user bench-admin --password-stdin \
  --store "$store" >"$work/audit" 2>&1
check "--json --sightings audits the number of sightings as its rows" \
  bash -c "[ $sightings -gt 0 ] && grep 'case e2e-5' '$work/audit' | grep -q 'rows.\{0,4\}$sightings'"
as_tracer "300-abc" --purpose x >/dev/null 2>"$work/err"
check "a wrong format exits 1, with the reason" bash -c "[ $? -eq 1 ] && grep -q 'only digits' '$work/err'"
as_tracer 3339999999 --purpose x >/dev/null 2>"$work/err"
check "an unknown number exits 1" bash -c "[ $? -eq 1 ] && grep -q 'no APRICOT user' '$work/err' && ! grep -q 3339999999 '$work/err'"
printf '%s\n' "$password" | "$bin" trace 3000000000 --purpose x --user bench-admin --password-stdin --store "$store" \
  >/dev/null 2>"$work/err"
check "an admin may not trace: exit 6" bash -c "[ $? -eq 6 ] && grep -q 'needs the tracer role' '$work/err'"
"$bin" trace 3000000000 >/dev/null 2>&1
check "no purpose is a usage error (exit 2)" bash -c "[ $? -eq 2 ]"
check "trace --help documents the columns" bash -c "'$bin' trace --help | grep -q most_minutes_on_one_day"

# 4. The same through a server's staff API (--server).
export TRACEDESK_SIGNING_KEY_REQUIRED=false
if start_server "$store"; then
  printf '%s\n' "$password" | "$bin" --server "http://$internal" trace 3000000000 --purpose "case e2e-4" --csv \
    --user bench-tracer --password-stdin >"$work/remote.csv" 2>"$work/err"
  check "tracedesk --server … trace --csv gives the same rows" \
    bash -c "[ \$(wc -l <'$work/remote.csv') -eq \$(wc -l <'$work/cli.csv') ] && head -n1 '$work/remote.csv' | grep -q '^contact_user_id,'"
  check "the server's logs hold no phone number or purpose" \
    bash -c "! grep -qE '3000000000|300 000 0000|case e2e' '$work/serve.log'"

  # 5. The whole chain, as the phones and the tracer meet it: two apps register over the
  # APRICOT API (the codes read from the SMS outbox by an admin, through the server), the
  # patient's app hears the other's first pseudo-id every minute for 20 minutes and uploads its
  # day; the tracer's console, through the server, finds that person as a close contact.
  register_app() {  # PHONE DEVICE: prints the login's JSON
    curl -s -o /dev/null -X POST "http://$phone/apricot/v1/otp" -H 'Content-Type: application/json' \
      -d "{\"app_id\":\"e2e.app\",\"device_id\":\"$2\",\"phone\":\"$1\"}"
    local code
    code=$(printf '%s\n' "$password" | "$bin" --server "http://$internal" sms outbox --user bench-admin \
      --password-stdin --limit 1 --json 2>/dev/null | grep -oE 'code is [0-9]{6}' | grep -oE '[0-9]{6}')
    curl -s -X POST "http://$phone/apricot/v1/login" -H 'Content-Type: application/json' \
      -d "{\"app_id\":\"e2e.app\",\"device_id\":\"$2\",\"phone\":\"$1\",\"otp\":\"$code\"}"
  }
  patient_login=$(register_app +393337770001 dev-patient)
  contact_login=$(register_app +393337770002 dev-contact)
  patient_token=$(printf %s "$patient_login" | grep -oE '"access_token":"[A-Za-z0-9_-]{43}"' | cut -d'"' -f4)
  contact_id=$(printf %s "$contact_login" | grep -oE '"(88){16}[0-9a-f]{8}"' | head -n1 | tr -d '"')
  check "two apps register over the APRICOT API with codes from the outbox" \
    bash -c "[ -n '$patient_token' ] && [ -n '$contact_id' ]"
  now=$(date -u +%s)
  midnight=$((now / 86400 * 86400))
  first=$((now - 25 * 60))
  [ "$first" -lt "$midnight" ] && first=$midnight
  for i in $(seq 0 19); do hexbytes "$contact_id"; hexbytes "$(printf %08x $((first + i * 60)))"; done \
    >"$work/heard.bin"
  status=$(curl -s -o "$work/receipt" -w '%{http_code}' -X POST \
    "http://$phone/apricot/v1/contacts/$(date -u -d @"$midnight" +%F)" \
    -H 'Content-Type: application/octet-stream' -H "Authorization: Bearer $patient_token" \
    -H 'Apricot-App-Id: e2e.app' -H 'Apricot-Device-Id: dev-patient' -H "Apricot-Client-Clock: $(date -u +%s)" \
    --data-binary @"$work/heard.bin")
  check "the patient's app uploads its day: 20 records, none unknown" \
    bash -c "[ '$status' = 200 ] && grep -q '\"records\":20' '$work/receipt' && grep -q '\"unknown_beacons\":0' '$work/receipt'"
  start 100 30 -- --server "http://$internal" --user bench-tracer
  sign_in "$password"
  wait_wrapped "Call queue" >/dev/null
  keys F2
  wait_wrapped "Look up a patient" >/dev/null
  text "333 777 0001"
  keys Enter
  text "case e2e-5"
  keys Enter
  check "through the server, the console finds the person heard: a close contact, 20 minutes, 1 day" \
    wait_wrapped "● +39 333 777 0002 20 1"
  check "and the patient's one upload" wait_wrapped "Uploads: 1 day"
  keys C-c
  check "Ctrl-C quits with status 0" wait_wrapped "__EXIT=0"
  check "the server's log holds neither app's number, nor the token" \
    bash -c "! grep -qE '333777000[12]|333 777 000|$patient_token' '$work/serve.log'"
  stop_server
else
  failed=$((failed + 1)); echo "FAIL the server did not start"; tail -n 15 "$work/serve.log"
fi

summary e2e-trace
