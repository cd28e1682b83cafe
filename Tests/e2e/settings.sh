#!/usr/bin/env bash
# The console's settings file ($XDG_CONFIG_HOME/tracedesk/console.json) and `tracedesk
# settings`: where each value in force comes from (option, environment, the file's line,
# default), a broken file reported with its line and ignored, and `tracedesk` with no option
# landing on the sign-in of the server the file names, as the user it names.
# Usage: Tests/e2e/settings.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-settings: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
export TRACEDESK_THEMES="$root/themes"
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
unset TRACEDESK_USER TRACEDESK_STORE XDG_DOCUMENTS_DIR
file="$XDG_CONFIG_HOME/tracedesk/console.json"
mkdir -p "$(dirname "$file")"
row() { grep -E "^  $1 " "$work/out"; }

td "" settings
check "no file: every value is the default, the file is named as not found" bash -c "
  [ $rc -eq 0 ] && grep -qF '$file, not found' '$work/out' &&
  grep -qE '^  theme +default +from default' '$work/out' && grep -qE '^  server +- +from default' '$work/out'"

cat >"$file" <<'JSON'
{
  "server": "http://127.0.0.1:9",
  "user": "rossi",
  "theme": "high-contrast",
  "language": "it",
  "export_folder": "~/exports"
}
JSON
# The file chooses Italian, so from here on `settings` speaks it ("da" for "from", "riga" for "line").
td "" settings
check "each value from the file, with its line" bash -c "
  grep -qE '^  server +http://127.0.0.1:9 +da $file riga 2' '$work/out' &&
  grep -qE '^  user +rossi +da $file riga 3' '$work/out' &&
  grep -qE '^  theme +high-contrast +da $file riga 4' '$work/out' &&
  grep -qE '^  language +it +da $file riga 5' '$work/out' &&
  grep -qE '^  export_folder +~/exports +da $file riga 6' '$work/out'"
TRACEDESK_USER=verdi td "" settings --theme default
check "the environment and options win over the file, and say so" bash -c "
  grep -qE '^  user +verdi +da TRACEDESK_USER' '$work/out' && grep -qE '^  theme +default +da --theme' '$work/out'"
td "" --user bianchi settings
check "--user before the command too" bash -c "grep -qE '^  user +bianchi +da --user' '$work/out'"
td "" settings --store "$work/x.sqlite"
check "a store given: the file's server is shown as not used" bash -c "grep -q 'non usato: è indicato un archivio, --store' '$work/out'"

printf '{\n  "server": "http://127.0.0.1:9",\n  "user": "rossi"\n  "theme": "default"\n}\n' >"$file"
td "" settings
check "broken JSON: reported with its line, the whole file ignored, exit 0" bash -c "
  [ $rc -eq 0 ] && grep -qF '$file line 4:' '$work/out' && grep -q 'the file is ignored' '$work/out' &&
  grep -qE '^  user +- +from default' '$work/out'"

printf '{\n  "user": "rossi",\n  "theme": 7,\n  "language": "fr",\n  "colour": "red"\n}\n' >"$file"
td "" settings
check "a value of the wrong kind or unknown: reported with its line, only that value ignored" bash -c "
  grep -qF '$file line 3: theme must be a string, found a number' '$work/out' &&
  grep -qF '$file line 4: language must be one of en, it' '$work/out' &&
  grep -qF '$file line 5: unknown setting \"colour\"' '$work/out' &&
  grep -qE '^  user +rossi +from $file line 2' '$work/out' && grep -qE '^  theme +default +from default' '$work/out'"

# The console lands on the server the file names, as the user it names.
export TRACEDESK_SIGNING_KEY_REQUIRED=false
check "serve starts" start_server "$work/desk.sqlite"
add_staff "$work/desk.sqlite" boss admin
add_staff "$work/desk.sqlite" ana operator
printf '{"server": "http://%s", "user": "ana", "theme": "high-contrast"}\n' "$internal" >"$file"
start 80 24 "XDG_CONFIG_HOME=$XDG_CONFIG_HOME" "XDG_DATA_HOME=$XDG_DATA_HOME" "TRACEDESK_THEMES=$TRACEDESK_THEMES" -- --no-mouse
sign_in "$oper_pw"
check "tracedesk with no option signs in to the file's server as its user" wait_for "Authorise an upload"
check "through the server's staff API" wait_log "internal POST /staff/v1/sessions 20"
check "and no local store was made" test ! -e "$XDG_DATA_HOME/tracedesk/tracedesk.sqlite"
keys C-c
printf '{"server": "http://%s",\n "user": 12}\n' "$internal" >"$file"
start 80 24 "XDG_CONFIG_HOME=$XDG_CONFIG_HOME" "XDG_DATA_HOME=$XDG_DATA_HOME" "TRACEDESK_THEMES=$TRACEDESK_THEMES" -- --no-mouse
check "a file with a bad value: the console starts all the same" wait_for "Sign in"
keys C-c
# (capture-pane -J: the line as printed, joined where the terminal wrapped it.)
printed() { tmux -L "$socket" capture-pane -p -J -t "$pane" | grep -qF -- "$1"; }
check "and after it quits, the problem is on the terminal with its line" \
  wait_until 30 printed "console.json line 2: user must be a string, found a number; it is ignored"

summary e2e-settings
