#!/usr/bin/env bash
# The console in Italian (issue 22): under LANG=it_IT.UTF-8 the real binary, in tmux, opens on
# the Italian sign-in, and once signed in shows the Italian frame and authorise screen; --lang en
# under the same locale is English again; a supervisor's dashboard opens in Italian.
# Usage: Tests/e2e/italian.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-italian: N passed, N failed".
set -uo pipefail

e2e_own_locale=1
source "$(dirname "$0")/lib.sh"
# Only the language comes from the locale here: no LC_MESSAGES of the developer's may decide it.
unset LC_ALL LC_MESSAGES

store="$work/desk.sqlite"
add_staff "$store" boss admin
add_staff "$store" ana operator
add_staff "$store" sara supervisor

# The language is the one LANG names. Where no Italian locale is installed, the console takes
# C.UTF-8 for its characters (the name asks for UTF-8), so it draws in Unicode either way.
italian=(LANG=it_IT.UTF-8)

# 1. LANG=it_IT.UTF-8: the sign-in, then the operator's frame and authorise screen.
start 80 24 "${italian[@]}" -- --store "$store" --user ana
check "LANG=it_IT.UTF-8 opens on the Italian sign-in" wait_for "Accesso"
check "its labels are Italian" wait_for "Nome utente  ana"
check "its footer is Italian" wait_for "Invio Accedi"
check "no English word of the sign-in is left" absent "User name"
check "the borders are Unicode, with or without an installed it_IT locale" wait_for "┌"
text "$oper_pw"
keys Enter
check "signing in opens the Italian authorise screen" wait_re "TraceDesk (·|-) Autorizza un caricamento"
check "the title names the role in Italian" wait_for "ana (operatore)"
check "the form asks for the code and the symptom onset day" wait_for "Data di inizio sintomi"
check "the calendar names the month in Italian" wait_re "(gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre) 20[0-9][0-9]"
check "the weekdays are Italian" wait_for "lu ma me gi ve sa do"
check "the footer is Italian" wait_for "^O Disconnetti"
keys 9 K 2 R A Y 8 U U A
check "a code with a wrong check character is refused in Italian" wait_wrapped "il carattere di controllo non corrisponde"
keys C-c
check "Ctrl-C exits with status 0" wait_for "__EXIT=0"

# 2. --lang en wins over the locale.
start 80 24 "${italian[@]}" -- --lang en --store "$store" --user ana
check "--lang en under LANG=it_IT.UTF-8 opens on the English sign-in" wait_for "User name  ana"
check "no Italian label is shown" absent "Nome utente"
text "$oper_pw"
keys Enter
check "and signs in to the English authorise screen" wait_re "TraceDesk (·|-) Authorise an upload"
check "with the English role and footer" wait_for "ana (operator)"
keys C-c
check "Ctrl-C exits with status 0 again" wait_for "__EXIT=0"

# 3. A supervisor lands on the Italian dashboard; t shows the tracing page in Italian.
start 80 24 "${italian[@]}" -- --store "$store" --user sara
check "the supervisor's sign-in is Italian" wait_for "Nome utente  sara"
text "$super_pw"
keys Enter
check "signing in opens the Italian dashboard" wait_re "TraceDesk (·|-) Cruscotto"
check "the title names the role in Italian" wait_for "sara (supervisore)"
check "the range is named in Italian" wait_re "(Ultima ora|Oggi|Ultime 24 ore|Ultimi (7|14) giorni) (·|-) per"
check "the tiles are Italian" wait_for "autorizzati"
check "the footer is Italian" wait_for "t Tracciamento"
check "no English tile is left" absent "authorised"
keys t
check "t shows the tracing page in Italian" wait_re "Tracciamento (·|-) casi aperti"
keys C-c
check "Ctrl-C exits the dashboard with status 0" wait_for "__EXIT=0"

# 4. The desks' refusals are Italian too: from the store (the command line), and from a server,
# which words them in the language the console asks for (Accept-Language), not its own.
LANG=it_IT.UTF-8 td "wrong-password\n" otp status KJ23IWY5UJ --store "$store" --user ana --password-stdin
check "a wrong password on the store is refused in Italian" says "nome utente o password errati"
LANG=C td "wrong-password\n" otp status KJ23IWY5UJ --store "$store" --user ana --password-stdin
check "and in English under LANG=C" says "wrong user name or password"
use_signing_key
LANG=C start_server "$store"
check "a server started under LANG=C names its listeners" test -n "$internal"
LANG=it_IT.UTF-8 td "wrong-password\n" --server "http://$internal" --user ana --password-stdin otp status KJ23IWY5UJ
check "the server words the refusal in the Italian client's language" says "nome utente o password errati"
LANG=C td "wrong-password\n" --server "http://$internal" --user sara --password-stdin otp status KJ23IWY5UJ
check "and in English for an English client" says "wrong user name or password"
start 80 24 "${italian[@]}" -- --server "http://$internal" --user boss
check "the console on the server opens on the Italian sign-in" wait_for "Nome utente  boss"
text "wrong-password"
keys Enter
check "a wrong password there is refused in Italian, by the server" wait_wrapped "nome utente o password errati"
keys C-c
check "Ctrl-C exits with status 0" wait_for "__EXIT=0"
check "the server stops on SIGTERM" stop_server

summary e2e-italian
