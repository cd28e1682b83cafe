#!/usr/bin/env bash
# The command line's output in Italian (issue 22, point 1) through the real binary: with
# --lang it, a usage error and its "see --help" line, `staff list`, `case open` and `queue`, the
# text of `stats`, all in Italian; the same commands with --lang en in the English the other
# scripts read; and --json byte for byte the same in both languages (a wire contract).
# Usage: Tests/e2e/cli-italian.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-cli-italian: N passed, N failed".
set -uo pipefail

# The locale is this script's to set: no LC_MESSAGES=C from lib.sh, and none of the developer's.
e2e_own_locale=1
source "$(dirname "$0")/lib.sh"
unset LC_ALL LC_MESSAGES LANGUAGE
export LANG=C.UTF-8
store="$work/cli-italian.sqlite"
password="bench trace password"
td_split=1  # `td`: stdout in $work/out, stderr in $work/err

on_failure() {
  [ -f "$work/out" ] && head -c 600 "$work/out" | sed 's/^/    out: /'
  [ -f "$work/err" ] && head -n 5 "$work/err" | sed 's/^/    err: /'
  return 0
}
err_has() { grep -qF -- "$1" "$work/err"; }
out_has() { grep -qF -- "$1" "$work/out"; }
status_is() { [ "$rc" -eq "$1" ]; }
# as NAME PASSWORD LANG ARGS…: the command as NAME, in LANG.
as() { local who=$1 pw=$2 lang=$3; shift 3; td "$pw\n" --lang "$lang" "$@" --user "$who" --password-stdin --store "$store"; }

# 1. Usage errors: the refusal and the pointer to --help, in each language (exit 2 both).
td "" --lang it stats --x
check "a usage error in Italian, with the pointer to --help" bash -c "
  [ $rc -eq 2 ] && grep -qF \"opzione sconosciuta '--x' per 'stats'\" '$work/err' &&
  grep -qF \"vedere 'tracedesk stats --help'\" '$work/err'"
td "" --lang it stats --range
check "an option without its value, in Italian" err_has "l'opzione --range richiede un valore"
td "" --lang it case frobnicate
check "an unknown verb, in Italian" err_has "comando sconosciuto 'case frobnicate': usare open, list, show, close o add"
td "" --lang en stats --x
check "the same usage error in English, byte for byte" bash -c "
  [ $rc -eq 2 ] && grep -qxF \"tracedesk: unknown option '--x' for 'stats'\" '$work/err' &&
  grep -qxF \"tracedesk: see 'tracedesk stats --help'\" '$work/err'"
LANG=it_IT.UTF-8 td "" stats --range
check "the locale alone makes it Italian too" err_has "l'opzione --range richiede un valore"

# 2. A store: `bench trace` makes the patient, bench-tracer and bench-admin; the admin adds a
# supervisor.
"$bin" bench trace --store "$store" --users 20 --days 2 --records 720 --runs 1 --json >"$work/bench.json" 2>&1
check "bench trace seeds the store" grep -q '"lookup' "$work/bench.json"
td "$password\n$super_pw\n" staff add sara --role supervisor --user bench-admin --password-stdin --store "$store"
check "the admin adds a supervisor" status_is 0

# 3. staff list: headings, roles and states in Italian; English as before.
as bench-admin "$password" it staff list
check "staff list in Italian: headings, role and state" bash -c "
  [ $rc -eq 0 ] && grep -qE '^NOME +RUOLO +STATO +FALLITI +ULTIMO ACCESSO +CREATO DA' '$work/out' &&
  grep -qE '^sara +supervisore +attivo ' '$work/out' && grep -qE '^bench-tracer +tracciatore ' '$work/out'"
as bench-admin "$password" en staff list
check "staff list in English" bash -c "
  [ $rc -eq 0 ] && grep -qE '^NAME +ROLE +STATE +FAILED +LAST SIGN-IN +CREATED BY' '$work/out' &&
  grep -qE '^sara +supervisor +active ' '$work/out'"

# 4. case open and queue, as the tracer.
onset=$(date -u -d '3 days ago' +%F)
as bench-tracer "$password" it case open "+39 300 000 0000" --reference "ASL-2026-0412" --onset "$onset" --mine
check "case open in Italian: the case, its index day, its follow-ups" bash -c "
  [ $rc -eq 0 ] &&
  grep -qE '^aperto il caso [0-9]+ \(ASL-2026-0412\) per \+39 300 000 0000, giorno indice $onset \(inizio sintomi\)' '$work/out' &&
  grep -qE 'sorveglianze: [1-9][0-9]* nuov[ae], assegnate a te' '$work/out' && grep -qF 'per vederlo: tracedesk case show' '$work/out'"
as bench-tracer "$password" en case open "+39 300 000 0000" --reference "ASL-2026-0412"
check "case open again, in English: the existing case" out_has "the patient already has an open case: case "
case_id=$(sed -nE 's/.*open case: case ([0-9]+).*/\1/p' "$work/out" | head -n 1)
as bench-tracer "$password" it case show "${case_id:-0}"
check "case show in Italian: the history's lines in Italian, as the store wrote them in English" bash -c "
  [ $rc -eq 0 ] && grep -qE 'aperto \(inizio sintomi $onset\): [0-9]+ sorveglianz[ae] nuov[ae]' '$work/out'"
as bench-tracer "$password" en case show "${case_id:-0}"
check "case show in English: the history as stored" bash -c "
  [ $rc -eq 0 ] && grep -qE 'opened \(symptom onset $onset\): [0-9]+ new follow-ups?, ' '$work/out'"
as bench-tracer "$password" it queue
check "queue in Italian: whose, the counts and the headings" bash -c "
  [ $rc -eq 0 ] && grep -qE '^Coda di bench-tracer: [0-9]+ in ritardo · [0-9]+ da fare ora · [0-9]+ più tardi oggi' '$work/out' &&
  grep -qE '^ID +SCADENZA +TELEFONO +CASO +STATO +TENTATIVI +ULTIMO ESITO +MOTIVO' '$work/out' &&
  grep -qE ' da chiamare ' '$work/out'"
as bench-tracer "$password" en queue
check "queue in English" bash -c "
  [ $rc -eq 0 ] && grep -qE '^Queue of bench-tracer: [0-9]+ overdue · [0-9]+ due now · [0-9]+ later today' '$work/out' &&
  grep -qE '^ID +DUE +PHONE +CASE +STATE +ATTEMPTS +LAST OUTCOME +WHY' '$work/out'"

# 5. stats as text, as the supervisor.
as sara "$super_pw" it stats --range 24h
check "stats in Italian: the range, the tiles and the funnel" bash -c "
  [ $rc -eq 0 ] && grep -qE '^Statistiche, ultime 24 ore: .* UTC, [0-9]+ intervalli orari' '$work/out' &&
  grep -qE '^Letto alle .* UTC' '$work/out' &&
  { grep -qE '^Codici autorizzati +[0-9]+' '$work/out' || grep -qF 'Nessun dato in questo intervallo.' '$work/out'; }"
as sara "$super_pw" en stats --range 24h
check "stats in English" bash -c "[ $rc -eq 0 ] && grep -qE '^Statistics, last 24 hours: .* UTC, [0-9]+ hourly buckets' '$work/out'"

# 6. --json is a wire contract: the same fields and values in both languages (the times of the
# reading and of the last sign-in aside: the two runs are a moment apart, each signing in).
cat >"$work/same.py" <<'PY'
import json, sys
def walk(v):
    if isinstance(v, dict):
        return {k: walk(x) for k, x in v.items() if k not in ("generated_at", "read_at", "last_sign_in_at", "from", "to")}
    if isinstance(v, list): return [walk(x) for x in v]
    return v
a, b = (walk(json.load(open(p))) for p in sys.argv[1:3])
sys.exit(0 if a == b and a else 1)
PY
json_same() {  # json_same ARGS…: the command as in section 3–5, in Italian then English
  local who=$1 pw=$2; shift 2
  as "$who" "$pw" it "$@" --json; cp "$work/out" "$work/it.json"
  as "$who" "$pw" en "$@" --json; cp "$work/out" "$work/en.json"
  python3 "$work/same.py" "$work/it.json" "$work/en.json"
}
check "staff list --json: the same in both languages" json_same bench-admin "$password" staff list
check "staff list --json keeps the roles' wire names" grep -q '"role":"supervisor"' "$work/it.json"
check "queue --json: the same in both languages" json_same bench-tracer "$password" queue
check "case list --json: the same in both languages" json_same bench-tracer "$password" case list
check "stats --json: the same in both languages" json_same sara "$super_pw" stats --range 24h

summary "e2e-cli-italian"
