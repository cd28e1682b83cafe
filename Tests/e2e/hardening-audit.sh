#!/usr/bin/env bash
# Issue 18, points 6 and 12, against the real binary: audit checkpoints outside the store
# (the audit key, `audit checkpoint`, the server's job, `audit verify --checkpoints` locally and
# through --server) found by an attacker who drops the triggers with sqlite3 and recomputes every
# later hash in the documented format (python3); bad keys and files; `otp --code-stdin` (the code
# never in argv); and CLI output that keeps tabs and newlines but neutralises ESC.
# Usage: Tests/e2e/hardening-audit.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-hardening-audit: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
export TRACEDESK_SIGNING_KEY_REQUIRED=false

store="$work/desk.sqlite"
cps="$work/checkpoints/audit.jsonl"
mkdir -p "$work/checkpoints"

lines() { grep -c . "$1"; }

td "$admin_pw\n" staff add boss --role admin --password-stdin --store "$store"
td "$admin_pw\n$oper_pw\n" staff add ana --role operator --user boss --password-stdin --store "$store"
td "$oper_pw\n" otp authorize KJ23IWY5UJ --symptoms "$today" --user ana --password-stdin --store "$store"

# --- The audit key ---
td "" keys generate --audit --out "$work/audit-key.pem"
check "keys generate --audit: a P-256 key, mode 0600, its key id and public key printed" \
  bash -c "[ $rc -eq 0 ] && [ \"\$(stat -c %a '$work/audit-key.pem')\" = 600 ] && grep -q 'audit key .* key id [0-9a-f]\{16\}' '$work/out' && grep -q 'BEGIN PUBLIC KEY' '$work/out'"
"$bin" keys public --key "$work/audit-key.pem" >"$work/audit-public.pem" 2>/dev/null
"$bin" keys generate --audit --out "$work/other-key.pem" >/dev/null 2>&1
"$bin" keys public --key "$work/other-key.pem" >"$work/other-public.pem" 2>/dev/null

# --- Checkpoints by hand and by the server ---
td "$admin_pw\n" audit checkpoint --key "$work/audit-key.pem" --out "$cps" --user boss --password-stdin --store "$store"
check "audit checkpoint appends one signed line, file mode 0600" \
  bash -c "[ $rc -eq 0 ] && grep -q '^checkpoint: [0-9]* entries, head [0-9a-f]\{64\}' '$work/out' && [ $(lines "$cps") = 1 ] && grep -q '\"format\":\"tracedesk-audit-checkpoint-v1\"' '$cps' && [ \"\$(stat -c %a '$cps')\" = 600 ]"

check "a server without audit settings says at start that there are no checkpoints" start_server "$store"
check "  … in words" grep -q 'no audit checkpoints (audit_key_path and audit_checkpoint_path unset)' "$work/serve.log"
stop_server
check "audit_key_path without audit_checkpoint_path is refused at start, exit 2" \
  bash -c "TRACEDESK_AUDIT_KEY_PATH='$work/audit-key.pem' '$bin' serve --store '$store' --listen 127.0.0.1:0 --internal-listen 127.0.0.1:0 >'$work/out' 2>&1; [ \$? -eq 2 ] && grep -q 'must be given together' '$work/out'"

export TRACEDESK_AUDIT_KEY_PATH="$work/audit-key.pem" TRACEDESK_AUDIT_CHECKPOINT_PATH="$cps"
export TRACEDESK_AUDIT_CHECKPOINT_EVERY_ENTRIES=3
check "the server with an audit key and file starts and names them" start_server "$store"
check "  … names the file, the key id and the schedule" \
  grep -q "audit checkpoints to $cps (audit key id [0-9a-f]\{16\}) every 3 entries" "$work/serve.log"
anchored_at_start() { wait_log 'audit checkpoint: [0-9]* entries anchored' && [ "$(lines "$cps")" = 2 ]; }
check "  … and anchors at start the entries added since the last checkpoint" anchored_at_start
# Each command through the staff API signs in and out: two entries.
td "$oper_pw\n" --server "http://$internal" otp status KJ23IWY5UJ --user ana --password-stdin
td "$oper_pw\n" --server "http://$internal" otp status KJ23IWY5UJ --user ana --password-stdin
at_least_lines() { [ "$(lines "$1")" -ge "$2" ]; }
wait_until "$wait_cap" at_least_lines "$cps" 3
check "the server appends a checkpoint after 3 more entries (checked every few seconds)" test "$(lines "$cps")" -ge 3

td "$admin_pw\n" --server "http://$internal" audit verify --checkpoints "$cps" --public-key "$work/audit-public.pem" --user boss --password-stdin
check "audit verify --checkpoints through --server: every line matches, exit 0" \
  bash -c "[ $rc -eq 0 ] && grep -q '^checkpoints: \([0-9]*\) of \1 lines match' '$work/out'"
td "$admin_pw\n" --server "http://$internal" audit checkpoint --key "$work/audit-key.pem" --out "$work/remote.jsonl" --user boss --password-stdin
check "audit checkpoint through --server: the key and the file stay on this machine" \
  bash -c "[ $rc -eq 0 ] && grep -q '^checkpoint: ' '$work/out' && [ $(lines "$work/remote.jsonl" 2>/dev/null || echo 0) = 1 ]"
stop_server
unset TRACEDESK_AUDIT_KEY_PATH TRACEDESK_AUDIT_CHECKPOINT_PATH TRACEDESK_AUDIT_CHECKPOINT_EVERY_ENTRIES

verify() {  # verify STORE [CHECKPOINTS [PUBLIC-KEY]]
  td "$admin_pw\n" audit verify --checkpoints "${2:-$cps}" --public-key "${3:-$work/audit-public.pem}" --user boss \
    --password-stdin --store "$1"
}
verify "$store"
check "audit verify --checkpoints on the store: intact, every line matches, exit 0" \
  bash -c "[ $rc -eq 0 ] && grep -q '^chain intact' '$work/out' && grep -q '^checkpoints: \([0-9]*\) of \1 lines match' '$work/out'"
anchored=$(sed -nE 's/.*"entries":([0-9]+).*/\1/p' "$cps" | head -n1)

# --- The attacker: write access to the store, no audit key ---
# recompute.py STORE MODE: drops the triggers, changes the log, recomputes every hash as
# docs/admin-guide.md documents it (AuditEntry.canonicalBytes).
cat >"$work/recompute.py" <<'EOF'
import hashlib, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
mode = sys.argv[2]
db.execute("DROP TRIGGER IF EXISTS audit_log_no_update")
db.execute("DROP TRIGGER IF EXISTS audit_log_no_delete")
rows = [list(r) for r in db.execute("SELECT id, at_ms, actor, action, target, detail FROM audit_log ORDER BY id")]
if mode == "rewrite":
    # The operator's authorisation becomes someone else's routine check.
    row = next(r for r in rows if r[3] == "otp_authorized")
    row[2] = "boss"; row[5] = '{"purpose":"routine check"}'
elif mode == "reorder":
    rows[2][1:], rows[3][1:] = rows[3][1:], rows[2][1:]
elif mode == "shorten":
    db.execute("DELETE FROM audit_log WHERE id > ?", (int(sys.argv[3]),))
    rows = rows[:int(sys.argv[3])]
def field(t):
    if t is None:
        return b"-\n"
    b = str(t).encode()
    return str(len(b)).encode() + b":" + b + b"\n"
prev = "0" * 64
for r in rows:
    data = b"tracedesk-audit-v1\n" + b"".join(field(x) for x in r) + field(prev)
    h = hashlib.sha256(data).hexdigest()
    db.execute("UPDATE audit_log SET at_ms=?, actor=?, action=?, target=?, detail=?, previous_hash=?, hash=? WHERE id=?",
               (r[1], r[2], r[3], r[4], r[5], prev, h, r[0]))
    prev = h
db.commit()
EOF
attack() {  # attack MODE [KEEP]: a copy of the store, changed by the attacker
  sqlite3 "$store" ".backup '$work/$1.sqlite'"
  python3 "$work/recompute.py" "$work/$1.sqlite" "$1" "${2:-0}"
}
attack rewrite
td "$admin_pw\n" audit verify --user boss --password-stdin --store "$work/rewrite.sqlite"
check "rewritten with every later hash recomputed: the chain alone still says intact (the attack works)" \
  bash -c "[ $rc -eq 0 ] && grep -q '^intact' '$work/out'"
verify "$work/rewrite.sqlite"
check "  … audit verify --checkpoints exits 7 and says between which entries it changed" \
  bash -c "[ $rc -eq 7 ] && grep -q 'does not match line 1 ($anchored entries' '$work/out' && grep -q 'the change is among entries 1…$anchored' '$work/out'"
lines_before=$(lines "$cps")
td "$admin_pw\n" audit checkpoint --key "$work/audit-key.pem" --out "$cps" --user boss --password-stdin --store "$work/rewrite.sqlite"
check "audit checkpoint refuses to anchor the rewritten chain: exit 7, nothing appended" \
  bash -c "[ $rc -eq 7 ] && grep -q 'nothing appended' '$work/out' && [ $(lines "$cps") = $lines_before ]"

attack reorder
verify "$work/reorder.sqlite"
check "two entries swapped, hashes recomputed: exit 7" bash -c "[ $rc -eq 7 ] && grep -q 'does not match line 1' '$work/out'"
# Cut 3 entries below the first checkpoint: every command on the store signs in (one more
# entry), and a chain that grows again past the cut shows as changed rather than cut short.
attack shorten $((anchored - 3))
verify "$work/shorten.sqlite"
cp "$work/out" "$work/out.checkpoints"
shorten_rc=$rc
td "$admin_pw\n" audit verify --user boss --password-stdin --store "$work/shorten.sqlite"
shorten_alone=$rc
cp "$work/out.checkpoints" "$work/out"
rc=$shorten_rc
check "the last entries deleted: the chain alone says intact, with checkpoints exit 7, 'cut off the end'" \
  bash -c "[ $shorten_alone -eq 0 ] && [ $rc -eq 7 ] && grep -q 'were cut off the end' '$work/out'"

# The attacker edits a checkpoint to match, without the key.
cp "$cps" "$work/forged.jsonl"
new_head=$(sqlite3 "$work/rewrite.sqlite" "SELECT hash FROM audit_log WHERE id = $anchored")
old_head=$(sed -nE 's/.*"head_hash":"([0-9a-f]{64})".*/\1/p' "$cps" | head -n1)
sed -i "1s/$old_head/$new_head/" "$work/forged.jsonl"
verify "$work/rewrite.sqlite" "$work/forged.jsonl"
check "a checkpoint edited to match the rewrite fails its signature: exit 7" \
  bash -c "[ $rc -eq 7 ] && grep -q \"line 1's signature does not verify\" '$work/out'"

# --- Bad input: each a message and an exit status, never a crash ---
verify "$store" "$cps" "$work/other-public.pem"
check "the wrong public key: exit 1, names the file's key and what to give" \
  bash -c "[ $rc -eq 1 ] && grep -q 'no line was signed by the public key given' '$work/out'"
verify "$store" "$cps" "$work/audit-key.pem"
check "a private key given as --public-key: exit 1, says how to get the public key" \
  bash -c "[ $rc -eq 1 ] && grep -q 'holds a private key' '$work/out'"
verify "$store" "$cps" "$work/nothing.pem"
check "a missing public key file: exit 1" bash -c "[ $rc -eq 1 ] && grep -q 'cannot read the public key file' '$work/out'"
verify "$store" "$work/nothing.jsonl"
check "a missing checkpoint file: exit 1" bash -c "[ $rc -eq 1 ] && grep -q 'there is no checkpoint file' '$work/out'"
cp "$cps" "$work/damaged.jsonl"
printf '{"format":"tracedesk-audit-checkpoint-v1","entries":12,"head_' >>"$work/damaged.jsonl"
verify "$store" "$work/damaged.jsonl"
check "a damaged line: exit 1, the line named, the others still match" \
  bash -c "[ $rc -eq 1 ] && grep -q 'line 4 is not a checkpoint: not JSON' '$work/out' && grep -q '^checkpoints: 3 of 4 lines match' '$work/out'"
td "$admin_pw\n" staff add boss --role admin --password-stdin --store "$work/other.sqlite"
td "$admin_pw\n" audit checkpoint --key "$work/audit-key.pem" --out "$work/other.jsonl" --user boss --password-stdin --store "$work/other.sqlite"
verify "$store" "$work/other.jsonl"
check "a checkpoint file of another store: exit 7, says so" \
  bash -c "[ $rc -eq 7 ] && grep -q 'of another audit log' '$work/out'"
td "$admin_pw\n" audit checkpoint --key "$work/nothing.pem" --out "$cps" --user boss --password-stdin --store "$store"
check "audit checkpoint with a missing key: exit 1" bash -c "[ $rc -eq 1 ] && grep -q 'cannot read the key file' '$work/out'"
td "$admin_pw\n" audit verify --checkpoints "$cps" --user boss --password-stdin --store "$store"
check "--checkpoints without --public-key: usage, exit 2" bash -c "[ $rc -eq 2 ] && grep -q 'together' '$work/out'"

# --- Point 12: the code on stdin, never in argv ---
mkfifo "$work/stdin"
"$bin" otp authorize --code-stdin --password-stdin --symptoms "$today" --user ana --store "$store" \
  <"$work/stdin" >"$work/out" 2>&1 &
pid=$!
exec 3>"$work/stdin"
printf '9K2RAY8UUQ\n' >&3
# The process reads the code, then waits for the password: look at its arguments meanwhile.
argv=""
read_argv() { argv=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null); printf %s "$argv" | grep -q authorize; }
wait_until "$wait_cap" read_argv
printf '%s\n' "$oper_pw" >&3
exec 3>&-
wait "$pid"
rc=$?
check "otp authorize --code-stdin: authorised, and the code is not in the process's argv" \
  bash -c "[ $rc -eq 0 ] && grep -q '^authorized' '$work/out' && [ -n '$argv' ] && ! printf %s '$argv' | grep -qi '9K2RAY8UUQ'"
td "9K2RAY8UUQ\n$oper_pw\n" otp status --code-stdin --password-stdin --user ana --store "$store"
check "otp status --code-stdin: the code then the password on stdin" bash -c "[ $rc -eq 0 ] && grep -q '^authorized .* by ana' '$work/out'"
td "" otp status 9K2RAY8UUQ --code-stdin --user ana --store "$store"
check "a code given both ways: usage, exit 2" bash -c "[ $rc -eq 2 ] && grep -q 'not both' '$work/out'"

# --- Point 12: output keeps tabs and newlines, neutralises ESC ---
"$bin" serve --config "$(printf '/nowhere/a\tb\033[2Jc')" --store "$store" >"$work/out" 2>&1
check "a multi-line error keeps its newline and tab; the ESC becomes '?'" \
  bash -c "grep -q '^tracedesk: serve: the settings have problems:\$' '$work/out' && grep -qP '^  config file /nowhere/a\tb\?\[2Jc cannot be read' '$work/out' && ! grep -qP '\x1b' '$work/out'"

summary e2e-hardening-audit
