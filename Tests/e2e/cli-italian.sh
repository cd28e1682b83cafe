#!/usr/bin/env bash
# The command line's output in Italian (issue 22, point 1) through the real binary: with
# --lang it, a usage error and its "see --help" line, `staff list`, `case open` and `queue`, the
# text of `stats`, the operating commands (chunks, cleanup, serve --settings, store info, demo),
# all in Italian; the same commands with --lang en in the English the other scripts read; and
# --json byte for byte the same in both languages (a wire contract).
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

# 7. The operating commands (chunks, cleanup, serve --settings, store info, demo): their lines
# and table headings in Italian under the locale alone, the headings over their columns; the
# same commands in the English the other scripts read.
unset TRACEDESK_SIGNING_KEY_PATH TRACEDESK_CONFIG
"$bin" migrate --store "$work/empty.sqlite" >/dev/null 2>&1
LANG=it_IT.UTF-8 td "" chunks list --store "$work/empty.sqlite"
check "chunks list on an empty store, in Italian" bash -c "[ $rc -eq 0 ] && grep -qx 'ancora nessun lotto pubblicato' '$work/out'"
"$bin" keys generate --out "$work/signing.pem" >"$work/public.pem" 2>/dev/null
"$bin" bench keys --store "$work/chunks.sqlite" --count 30 >/dev/null 2>&1
"$bin" chunks publish --store "$work/chunks.sqlite" --signing-key "$work/signing.pem" >/dev/null 2>&1
LANG=it_IT.UTF-8 td "" chunks list --store "$work/chunks.sqlite"
# Each heading ends where its column's cells end (right-aligned numbers), or starts where they do.
cat >"$work/aligned.py" <<'PY'
import sys
head, row = open(sys.argv[1], encoding="utf-8").read().splitlines()[:2]
ok = all(row[head.index(word)].isdigit() and row[head.index(word) - 1] == " " for word in ("pubblicato", "finestra"))
for word, value in (("chiavi", "30"), ("riempimento", "0")):
    e = head.index(word) + len(word)
    ok = ok and row[e - len(value):e] == value and row[e - len(value) - 1] == " "
ok = ok and len(head) == len(row)
sys.exit(0 if ok else 1)
PY
check "chunks list in Italian: headings over their columns" bash -c "
  [ $rc -eq 0 ] && grep -qE '^indice  pubblicato +finestra \(UTC\) +chiavi  riempimento +byte$' '$work/out' &&
  grep -qE ' 2[0-9-]+T[0-9:]+Z – 2[0-9-]+T[0-9:]+Z +30 +0 ' '$work/out' && python3 '$work/aligned.py' '$work/out'"
LANG=it_IT.UTF-8 td "" chunks show 1 --store "$work/chunks.sqlite" --public-key "$work/public.pem" --keys
check "chunks show in Italian: lotto, regione, batch, firma verificata, the keys' headings" bash -c "
  [ $rc -eq 0 ] && grep -qE '^lotto 1, pubblicato il .*, 30 chiavi, [0-9]+ byte$' '$work/out' &&
  grep -qx 'regione     222' '$work/out' && grep -qx 'batch       1 di 1' '$work/out' &&
  grep -qE '^chiavi      30$' '$work/out' && grep -qE '^firma       verificata con .*public.pem$' '$work/out' &&
  grep -qE '^chiave \(base64\) +intervallo iniziale \(giorno UTC\)  periodo  rischio  referto  inizio sintomi$' '$work/out'"
LANG=it_IT.UTF-8 td "" chunks show 9 --store "$work/chunks.sqlite"
check "chunks show of a lotto that does not exist, in Italian (exit 1)" bash -c "
  [ $rc -eq 1 ] && grep -qxF 'tracedesk: chunks show: il lotto 9 non esiste: il più recente è il 1' '$work/err'"
LANG=it_IT.UTF-8 td "" chunks show nowhere.zip --store "$work/chunks.sqlite"
check "chunks show of neither an index nor a file, in Italian" err_has "'nowhere.zip' non è né l'indice di un lotto (1, 2, …) né un file"
td "" --lang en chunks list --store "$work/chunks.sqlite"
check "chunks list in English, its heading as before" bash -c "
  [ $rc -eq 0 ] && grep -qx 'index  published             window (UTC)                               keys  padding     bytes' '$work/out' &&
  grep -qE ' 2[0-9-]+T[0-9:]+Z to 2[0-9-]+T[0-9:]+Z +30 +0 ' '$work/out'"
td "" --lang en chunks show 1 --store "$work/chunks.sqlite" --public-key "$work/public.pem"
check "chunks show in English, as before" bash -c "
  [ $rc -eq 0 ] && grep -qx 'region      222' '$work/out' && grep -qx 'batch       1 of 1' '$work/out' &&
  grep -q '^signature   verified with ' '$work/out'"
LANG=it_IT.UTF-8 td "" cleanup --store "$work/chunks.sqlite"
check "cleanup in Italian: what is kept" bash -c "
  [ $rc -eq 0 ] && grep -qE '^cleanup: .* \(conservati: [0-9]+ giorni, dati analitici [0-9]+ giorni, file dei contatti [0-9]+ giorni\)$' '$work/out'"
LANG=it_IT.UTF-8 td "" serve --settings
check "serve --settings in Italian: the heading" bash -c "
  [ $rc -eq 0 ] && grep -qx 'Impostazioni (chiave nel file, variabile d.ambiente, valore attuale, significato):' '$work/out' &&
  grep -qx '  listen  (TRACEDESK_LISTEN)' '$work/out'"
cp "$work/out" "$work/settings-it.out"
td "" --lang en serve --settings
check "serve --settings in English, as before" grep -qx 'Settings (file key, environment variable, current value, meaning):' "$work/out"
# Every setting's meaning in Italian (none left in the server's English), with the ranges and
# allowed values of the English: a range changed in the server and not in the catalogue fails.
cat >"$work/settings.py" <<'PY'
import re, sys
def meanings(path):
    lines = open(path, encoding="utf-8").read().splitlines()[1:]
    return {lines[i].split()[0]: lines[i + 2].strip() for i in range(0, len(lines), 3)}
it, en = meanings(sys.argv[1]), meanings(sys.argv[2])
bad = [k for k in en if k not in it or it[k] == en[k] or
       re.findall(r"\[[0-9…]+\]$", it[k]) != re.findall(r"\[[0-9…]+\]$", en[k])]
print(" ".join(bad))
sys.exit(0 if en and not bad and it.keys() == en.keys() else 1)
PY
check "serve --settings in Italian: every setting's meaning translated, its range as in English" \
  python3 "$work/settings.py" "$work/settings-it.out" "$work/out"
LANG=it_IT.UTF-8 td "" store info --store "$work/chunks.sqlite"
check "store info in Italian: the size with a decimal comma" bash -c "
  [ $rc -eq 0 ] && grep -qE '^spazio su disco +[0-9]+,[0-9] (kB|MB)$' '$work/out'"
LANG=it_IT.UTF-8 td "" demo --duration 5
check "a demo refusal in Italian" bash -c "
  [ $rc -eq 2 ] && grep -qxF 'tracedesk: --duration va con --no-console: con la console, uscire dalla console per fermare' '$work/err'"
td "" demo --lang it
check "--lang after demo: refused, saying to give it before the command" bash -c "
  [ $rc -eq 2 ] && grep -qxF \"tracedesk: unknown option '--lang' for 'demo': --lang goes before the command, as in tracedesk --lang it demo\" '$work/err'"
td "" --lang it simulate --apricot-users 3
check "--lang before simulate: its refusal in Italian" bash -c "
  [ $rc -eq 2 ] && grep -qF 'i telefoni APRICOT hanno bisogno del loro codice SMS' '$work/err'"

# The core's own refusals, in Italian on the command line (English byte for byte as before).
td "" --lang it otp check 9K2RAY8UUA
check "otp check: a wrong check character, in Italian" bash -c "
  [ $rc -eq 1 ] && cat '$work/out' '$work/err' | grep -qF 'il carattere di controllo non corrisponde'"
td "" --lang en otp check 9K2RAY8UUA
check "and in English as before" bash -c "
  cat '$work/out' '$work/err' | grep -qF 'check character does not match: ask the citizen to read the code again'"
as bench-tracer "$password" it trace 123 --purpose "caso 2026-1"
check "trace: a number too short, in Italian" bash -c "
  [ $rc -ne 0 ] && grep -qF '5 cifre' '$work/err' && ! grep -qF 'too short' '$work/err'"
as sara "$super_pw" it stats --from 2026-10-01 --to 2026-12-01
check "stats: a span longer than the rollups keep, in Italian" bash -c "
  [ $rc -ne 0 ] && grep -qF \"l'intervallo supera i 31 giorni: scegline uno più breve\" '$work/err'"
td "" --lang it migrate --store "$work/no-such-folder/x.sqlite"
check "a store in a folder that does not exist, in Italian" bash -c "
  [ $rc -ne 0 ] && grep -qF 'impossibile aprire' '$work/err' && grep -qF 'no-such-folder non esiste' '$work/err'"
td "" --lang it --theme nope
check "an unknown theme, in Italian" bash -c "
  [ $rc -ne 0 ] && grep -qF \"nessun tema chiamato 'nope'\" '$work/err'"

# audit verify on a log an attacker edited (the triggers dropped with sqlite3): the break's
# reason in Italian; in English as the check writes it.
python3 - "$store" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("DROP TRIGGER IF EXISTS audit_log_no_update")
db.execute("UPDATE audit_log SET detail = '{}' WHERE id = 2")
db.commit()
PY
as bench-admin "$password" it audit verify
check "audit verify on an edited log: why, in Italian" bash -c "
  [ $rc -ne 0 ] && grep -qF 'INTERROTTO alla voce 2: il contenuto non corrisponde al suo hash' '$work/out'"
as bench-admin "$password" en audit verify
check "and in English as before" bash -c "
  [ $rc -ne 0 ] && grep -qF 'its contents do not match its hash: the entry was edited after it was written' '$work/out'"

# serve's refusals of its settings: Italian on a terminal, English in a JSON log (for a shipper).
echo '{"session_hours": 0}' >"$work/bad-settings.json"
LANG=it_IT.UTF-8 "$bin" serve --store "$work/refused.sqlite" --config "$work/bad-settings.json" --listen nope >"$work/out" 2>&1
rc=$?
check "serve refuses bad settings in Italian, each with what to do" bash -c "
  [ $rc -eq 2 ] && grep -qF 'session_hours deve essere un numero intero da 1 a 24' '$work/out' &&
  grep -qF -- '--listen deve essere un indirizzo IPv4 con porta, come 127.0.0.1:8080' '$work/out'"
LANG=it_IT.UTF-8 "$bin" serve --store "$work/refused.sqlite" --config "$work/bad-settings.json" --listen nope --log-format json >"$work/out" 2>&1
rc=$?
check "and in English in a JSON log, whatever the locale" bash -c "
  [ $rc -eq 2 ] && grep -qF 'session_hours must be a whole number from 1 to 24' '$work/out' && ! grep -qF 'deve essere' '$work/out'"

# bench's report lines: each count with its own plural (1 esecuzione, 2 esecuzioni), the KDF's
# parameters in words, and write-raw's line in the run's language beside its --json.
td "" --lang it bench trace --users 2 --days 1 --records 1 --runs 1
check "bench trace in Italian: 1 esecuzione, 1 file dei contatti da 1 record" bash -c "
  [ $rc -eq 0 ] && cat '$work/out' '$work/err' >'$work/bench-it' &&
  grep -qF 'ricerca in LocalDesk, 1 esecuzione: mediana' '$work/bench-it' &&
  grep -qF 'memorizzazione di 1 file dei contatti da 1 record per il paziente' '$work/bench-it' &&
  grep -qF 'paziente: 1 file, ' '$work/bench-it' && ! grep -qE '\b1 (esecuzioni|giorni|contatti|caricamenti)\b' '$work/bench-it'"
td "" --lang en bench trace --users 2 --days 1 --records 1 --runs 2
check "bench trace in English: 2 runs, 1 contact file of 1 record" bash -c "
  [ $rc -eq 0 ] && cat '$work/out' '$work/err' >'$work/bench-en' &&
  grep -qF 'lookup in LocalDesk, 2 runs: median' '$work/bench-en' &&
  grep -qF 'storing 1 contact file of 1 record for the patient' '$work/bench-en'"
td "" --lang it bench staff --hashes 1 --authorizations 1 --sign-ins 2
check "bench staff in Italian: the KDF in words, 1 volta, 2 volte" bash -c "
  [ $rc -eq 0 ] && grep -qF \"KDF dell'accesso, scrypt N=2^15 r=8 p=1, sale di 16 byte, chiave di 32 byte, 1 hash:\" '$work/out' &&
  grep -qF 'autorizzare un codice valido nuovo, 1 volta, archivio SQLite:' '$work/out' &&
  grep -qF 'accesso remoto (KDF sul server + HTTP), 2 volte:' '$work/out'"
td "" --lang it bench write-raw --store "$work/raw-it.sqlite" --seconds 1 --count 20
check "bench write-raw's line in Italian" bash -c "
  [ $rc -eq 0 ] && grep -qE '^scrittura grezza authorization: thread 1, connessione condivisa 0, transazioni [0-9]+, ' '$work/out'"
td "" --lang en bench write-raw --store "$work/raw-en.sqlite" --seconds 1 --count 20
check "bench write-raw's line in English, as before" bash -c "
  [ $rc -eq 0 ] && grep -qE '^raw authorization threads=1 shared=0 ops=[0-9]+ seconds=[0-9.]+ rate=[0-9.]+$' '$work/out'"
td "" --lang it bench write-raw --store "$work/raw-json.sqlite" --op upload --seconds 1 --count 20 --json
check "bench write-raw --json: the numbers Benchmarks/write-path.sh reads, whatever the language" bash -c "
  [ $rc -eq 0 ] && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r[\"operation\"] == \"upload\" and r[\"threads\"] == 1 and r[\"shared\"] is False, r
assert r[\"ops\"] >= 0 and r[\"rate\"] >= 0 and r[\"seconds\"] > 0, r
' '$work/out'"

summary "e2e-cli-italian"
