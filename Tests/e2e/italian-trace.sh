#!/usr/bin/env bash
# The tracer's screens in Italian through the real binary in tmux (issue 22, point 1): started
# with `--lang it`, the call queue and the contact-trace screen speak Italian: the lookup form,
# the patient's summary, the contacts table (its columns at 80×24 and the digits' legend), an
# outcome recorded by a digit, then the queue with the case's contacts and a call recorded from
# it. The digits mean the same outcomes in either language: the store says what was recorded.
#
# The data as in trace.sh: `tracedesk bench trace` seeds the store (the patient +39 300 000 0000,
# their contacts, the tracer `bench-tracer`).
# Usage: Tests/e2e/italian-trace.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-italian-trace: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
export TRACEDESK_THEMES="$root/themes"

store="$work/trace.sqlite"
password="bench trace password"
"$bin" bench trace --store "$store" --users 40 --days 2 --records 1440 --runs 1 --json >"$work/bench.json" 2>&1
check "bench trace seeds the users, the patient's files and the tracer" grep -q '"lookup' "$work/bench.json"

start 80 24 -- --lang it --store "$store" --user bench-tracer
# The sign-in screen is the frame's: wait for the prefilled name, in whichever language it speaks.
check "the sign-in screen shows the tracer's name" wait_for "bench-tracer"
text "$password"
keys Enter
check "a tracer starts on the call queue, in Italian" wait_wrapped "Le tue chiamate"
check "an empty queue says where the contacts come from" wait_wrapped "nessuno da chiamare: apri un caso"
keys F2
check "F2: the lookup form in Italian" wait_wrapped "Cerca un paziente: apri un caso"
check "its fields are labelled in Italian" wait_wrapped "Numero di telefono"
text "300 000 0000"
keys Enter
check "then the case reference" wait_wrapped "Riferimento del caso"
check "and the index day" wait_wrapped "Data indice"
text "ASL-2026-0412"
keys Enter
check "the summary: the patient" wait_wrapped "Paziente +39 300 000 0000"
check "the uploads, counted in Italian" wait_wrapped "Caricamenti: 2 giorni,"
check "the case opened, its contacts to follow" wait_re "aperto: [0-9]+ contatt[oi] da seguire"
check "the table sorted by minutes, in Italian" wait_wrapped "ordinati per minuti"
check "the close-contact legend" wait_wrapped "contatto stretto: ≥ 15 min in un giorno"
check "at 80 columns the Italian column titles fit whole" \
  wait_wrapped "Telefono Min ▼ Gg Ultima volta Esito"
check "the digits' legend on the table's border" \
  wait_wrapped "1 da chiamare 2 non risponde 3 in isolamento 4 rifiuta 5 numero errato"
check "the outcomes in Italian" wait_wrapped "da chiamare"
keys 2
check "2 records no answer (non risponde)" wait_wrapped "✓ esito registrato: non risponde per"
check "the English words are not on the screen" absent "sorted by"
check "the store has the outcome the digit means in English too" \
  bash -c "sqlite3 '$store' \"select count(*) from contact_outcomes where outcome = 'no_answer';\" 2>/dev/null | grep -qx 1"

keys F3
check "F3: the call queue with the case's contacts" wait_wrapped "Le tue chiamate ·"
check "its columns in Italian" wait_wrapped "Scadenza"
check "the case's contacts, due now" wait_re "da fare ora +\+39 300 000"
check "the queue's digits legend in Italian" wait_wrapped "1 non risponde 2 segreteria 3 numero errato 4 raggiunto 5 rifiuta"
keys 1
check "1 records no answer from the queue" wait_wrapped "non risponde registrato per"
check "with the next call's time, in Italian" wait_wrapped "prossima chiamata"
keys Enter
check "Enter opens the person, in Italian" wait_wrapped "Perché è un contatto"
check "with their calls and daily checks" wait_wrapped "Controlli giornalieri ("
keys Escape
keys q
check "q quits" wait_for "__EXIT=0"

summary e2e-italian-trace
