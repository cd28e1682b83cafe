#!/usr/bin/env bash
# Staff accounts, roles and the audit log through the real CLI on a real SQLite file: the first
# admin, accounts per role, role refusals, sign-in failures, disabling, and the audit chain:
# intact, refused edits, and an edited row named by `audit verify`.
# Usage: Tests/e2e/staff.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-staff: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
store="$work/desk.sqlite"
td_args=(--store "$store")  # `td` is the CLI on $store
# on_failure: the command's output, after a FAIL line.
on_failure() { [ -f "$work/out" ] && sed 's/^/    out: /' "$work/out" | tail -n 5; }

td "" staff add ana --role operator --password-stdin
check "the first account must be an admin: exit 1, says so" \
  bash -c "[ $rc -eq 1 ] && grep -q 'the first one must be an admin' '$work/out'"
td "$admin_pw\n" staff add boss --role admin --password-stdin
check "the first admin is made without --user" bash -c "[ $rc -eq 0 ] && grep -q 'added boss (admin), the first account' '$work/out'"
td "$admin_pw\n$oper_pw\n" staff add ana --role operator --user boss --password-stdin
check "the admin adds an operator" bash -c "[ $rc -eq 0 ] && grep -q 'added ana (operator)' '$work/out'"
td "$admin_pw\n$super_pw\n" --user boss --password-stdin staff add sara --role supervisor
check "--user before the subcommand works too" bash -c "[ $rc -eq 0 ] && grep -q 'added sara (supervisor)' '$work/out'"
td "$admin_pw\nshort\n" staff add tom --role tracer --user boss --password-stdin
check "a short password is refused with the rule, exit 1" \
  bash -c "[ $rc -eq 1 ] && grep -q 'at least 10 characters' '$work/out'"
td "$admin_pw\n$oper_pw\n" staff add ANA --role tracer --user boss --password-stdin
check "a taken name is refused, exit 1" bash -c "[ $rc -eq 1 ] && grep -q 'the name ana is taken' '$work/out'"

td "$oper_pw\n" otp authorize KJ23IWY5UJ --symptoms "$today" --user ana --password-stdin
check "the operator authorises a code, exit 0" bash -c "[ $rc -eq 0 ] && grep -q '^authorized' '$work/out'"
td "$super_pw\n" otp authorize 9K2RAY8UUQ --symptoms "$today" --user sara --password-stdin
check "a supervisor cannot authorise: exit 6, names the role needed" \
  bash -c "[ $rc -eq 6 ] && grep -q 'your role (supervisor) cannot authorise codes: that needs the operator role' '$work/out'"
td "$super_pw\n" otp status KJ23IWY5UJ --user sara --password-stdin
check "a supervisor sees the operator's code" bash -c "[ $rc -eq 0 ] && grep -q 'authorized .* by ana' '$work/out'"
td "$oper_pw\n" staff list --user ana --password-stdin
check "an operator cannot list staff: exit 6" bash -c "[ $rc -eq 6 ] && grep -q 'cannot list staff accounts' '$work/out'"
td "not-the-password\n" otp status KJ23IWY5UJ --user ana --password-stdin
check "a wrong password: exit 6, 'wrong user name or password'" \
  bash -c "[ $rc -eq 6 ] && grep -q 'wrong user name or password' '$work/out'"
td "$oper_pw\n" otp status KJ23IWY5UJ --user nobody --password-stdin
check "an unknown name gets the same message" bash -c "[ $rc -eq 6 ] && grep -q 'wrong user name or password' '$work/out'"
td "$oper_pw\n" otp status KJ23IWY5UJ --password-stdin
check "no --user: usage error naming --user" bash -c "[ $rc -eq 2 ] && grep -q -- '--user NAME' '$work/out'"
td "" otp status KJ23IWY5UJ --user ana --password-stdin
check "--password-stdin with nothing on stdin says so" bash -c "[ $rc -eq 6 ] && grep -q 'stdin is empty' '$work/out'"
# setsid: no controlling terminal, as under cron or CI, whatever runs this script.
setsid -w "$bin" otp status KJ23IWY5UJ --user ana --store "$store" </dev/null >"$work/out" 2>&1
check "no terminal and no --password-stdin: says how to pass the password" \
  bash -c "grep -q 'password-stdin' '$work/out'"

td "$admin_pw\n" staff list --user boss --password-stdin --json
check "staff list --json has every account with its state" \
  bash -c "[ $rc -eq 0 ] && grep -q '\"name\":\"ana\"' '$work/out' && grep -q '\"failed_sign_ins\":1' '$work/out' && grep -q '\"state\":\"active\"' '$work/out'"
td "$admin_pw\n" staff disable ana --user boss --password-stdin
check "the admin disables the operator" bash -c "[ $rc -eq 0 ] && grep -q 'disabled ana' '$work/out'"
td "$oper_pw\n" otp status KJ23IWY5UJ --user ana --password-stdin
# Issue 18: a disabled account answers as a wrong password (the Staff screen shows the state).
check "a disabled account cannot sign in: exit 6, the words of a wrong password" \
  bash -c "[ $rc -eq 6 ] && grep -q 'wrong user name or password' '$work/out' && ! grep -q 'ana' '$work/out'"
td "$admin_pw\n" staff disable boss --user boss --password-stdin
check "an admin cannot disable themself" bash -c "[ $rc -eq 1 ] && grep -q 'cannot disable your own account' '$work/out'"
td "$admin_pw\nfresh-pass-for-her\n" staff reset-password sara --user boss --password-stdin
check "reset-password sets a new one" bash -c "[ $rc -eq 0 ] && grep -q 'new password set for sara' '$work/out'"
td "fresh-pass-for-her\n" otp status KJ23IWY5UJ --user sara --password-stdin
check "the new password works" test "$rc" -eq 0

# Break glass, for when every admin is locked out or disabled: straight on the store, audited.
td "$admin_pw\n" staff recover boss --server http://127.0.0.1:9
check "recover refuses --server: it works on the store itself" bash -c "[ $rc -eq 2 ] && grep -q 'not through a server' '$work/out'"
td "another-key-5521\n" staff recover root --password-stdin
check "recover adds an admin when the name is new" bash -c "[ $rc -eq 0 ] && grep -q 'added root (admin) (audited as store-access:' '$work/out'"
td "another-key-5521\n" staff list --user root --password-stdin
check "the recovered admin signs in" test "$rc" -eq 0
td "$admin_pw\n" staff recover boss --password-stdin
check "recover on an existing account sets its password and unlocks it" \
  bash -c "[ $rc -eq 0 ] && grep -q 'new password set for boss' '$work/out'"
td "$admin_pw\n" staff recover ana --password-stdin
check "recover refuses a disabled account" bash -c "[ $rc -eq 1 ] && grep -q 'ana is disabled for good' '$work/out'"

td "$admin_pw\n" audit list --user boss --password-stdin --actor ana
check "audit list --actor shows the operator's sign-ins and authorisation" \
  bash -c "grep -q 'otp_authorized' '$work/out' && grep -q 'sign_in' '$work/out'"
td "$admin_pw\n" audit list --user boss --password-stdin --action staff_disabled --json
check "audit list --action --json: the disabling, by boss" \
  bash -c "grep -q '\"actor\":\"boss\"' '$work/out' && grep -q '\"target\":\"ana\"' '$work/out'"
td "$admin_pw\n" audit list --user boss --password-stdin --action frobnicated
check "an unknown action is a usage error listing the actions" \
  bash -c "[ $rc -eq 2 ] && grep -q 'sign_in_failed' '$work/out'"
td "$admin_pw\n" audit verify --user boss --password-stdin
check "audit verify: intact, exit 0" bash -c "[ $rc -eq 0 ] && grep -q '^intact: [0-9]* entries, head [0-9a-f]\{64\}' '$work/out'"
td "fresh-pass-for-her\n" audit verify --user sara --password-stdin
check "a supervisor cannot verify the audit log: exit 6" test "$rc" -eq 6

check "the database refuses to edit an audit entry" \
  bash -c "! sqlite3 '$store' \"UPDATE audit_log SET detail = '{}' WHERE id = 3\" 2>'$work/sql' && grep -q 'append-only' '$work/sql'"
check "the database refuses to delete an audit entry" \
  bash -c "! sqlite3 '$store' 'DELETE FROM audit_log WHERE id = 3' 2>/dev/null"
# Someone with the file drops the guards and edits entry 3 (boss adding ana).
triggers=$(sqlite3 "$store" "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log'")
for trigger in $triggers; do sqlite3 "$store" "DROP TRIGGER $trigger"; done
sqlite3 "$store" "UPDATE audit_log SET detail = '{\"role\":\"admin\"}' WHERE id = 3"
td "$admin_pw\n" audit verify --user boss --password-stdin
check "after an edit, audit verify names entry 3 and exits 7" \
  bash -c "[ $rc -eq 7 ] && grep -q '^BROKEN at entry 3: its contents do not match its hash' '$work/out'"
check "... and says the two entries before it verify" grep -q 'entries before it verify (2, up to id 2)' "$work/out"
td "$admin_pw\n" audit verify --user boss --password-stdin --json
check "audit verify --json says where it broke (the staff API's answer)" \
  bash -c "grep -q '\"first_broken\":{\"id\":3,' '$work/out'"

check "no password and no code in any output" bash -c "
  ! grep -qE -- '$admin_pw|$oper_pw|$super_pw|fresh-pass-for-her|KJ23IWY5UJ|9K2RAY8UUQ' '$work/all-output'"
check "no password in the store file" bash -c "! grep -qaE -- '$admin_pw|$oper_pw|$super_pw' '$store'*"

summary e2e-staff
