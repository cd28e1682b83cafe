#!/usr/bin/env bash
# The man pages and shell completions made from the table of commands: `tracedesk docs man`
# writes pages man reads without a warning (English and Italian), the bash completion offers
# commands, ranges and roles, zsh and fish accept their scripts, and `tracedesk CMD --help`
# says what the man page says.
# Usage: Tests/e2e/cli-docs.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-cli-docs: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
unset LC_ALL LC_MESSAGES LANG

# 1. The pages, in both languages.
"$bin" docs man --out "$work/man" >"$work/written" 2>&1
check "docs man writes tracedesk(1) and the families' pages" bash -c "
  for page in man1/tracedesk.1 man8/tracedesk-serve.8 man8/tracedesk-staff.8 man1/tracedesk-otp.1 \
    man1/tracedesk-trace.1 man1/tracedesk-case.1 man8/tracedesk-store.8 man1/tracedesk-bench.1; do
    [ -s '$work/man/'\$page ] || { echo \"missing \$page\"; exit 1; }
  done"
"$bin" docs man --out "$work/man" --lang it >"$work/written-it" 2>&1
check "docs man --lang it writes the Italian pages into it/man1 and it/man8" bash -c "
  [ -s '$work/man/it/man1/tracedesk.1' ] && [ -s '$work/man/it/man8/tracedesk-serve.8' ] &&
  grep -q 'STATO DI USCITA' '$work/man/it/man1/tracedesk.1'"
"$bin" --lang it docs man --out "$work/man-lang" >/dev/null 2>&1
check "the run's --lang it chooses the pages' language too" bash -c "
  grep -q 'STATO DI USCITA' '$work/man-lang/it/man1/tracedesk.1'"
# A page that cannot be written: the catalogue's words, the file and the system's reason, exit 1.
: >"$work/not-a-folder"
"$bin" --lang en docs man --out "$work/not-a-folder" >/dev/null 2>"$work/docs-err"
echo $? >"$work/docs-status"
check "docs man into a file: 'cannot write FILE: Not a directory', exit 1" bash -c "
  [ \"\$(cat '$work/docs-status')\" = 1 ] &&
  grep -qx 'tracedesk: docs man: cannot write $work/not-a-folder/man1/tracedesk.1: Not a directory' '$work/docs-err'"
"$bin" --lang it docs man --out "$work/not-a-folder" >/dev/null 2>"$work/docs-err-it"
echo $? >"$work/docs-status-it"
check "docs man into a file in Italian: 'impossibile scrivere FILE: …', exit 1" bash -c "
  [ \"\$(cat '$work/docs-status-it')\" = 1 ] &&
  grep -q '^tracedesk: docs man: impossibile scrivere $work/not-a-folder/it/man1/tracedesk.1: ' '$work/docs-err-it'"

warnings() {
  local page=$1
  LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" >/dev/null 2>"$work/warn" || { cat "$work/warn"; return 1; }
  [ ! -s "$work/warn" ] || { echo "$page:"; sed 's/^/    /' "$work/warn"; return 1; }
}
all_quiet() {
  local page ok=0
  for page in "$@"; do warnings "$page" || ok=1; done
  return $ok
}
check "man --warnings: no warning on any English page" all_quiet "$work"/man/man[18]/*
check "man --warnings: no warning on any Italian page" all_quiet "$work"/man/it/man[18]/*
check "every page has its sections" bash -c "
  for page in '$work'/man/man[18]/*; do
    LC_ALL=C.UTF-8 MANWIDTH=80 man -l \"\$page\" 2>/dev/null | col -b >'$work/page.txt'
    for section in NAME SYNOPSIS DESCRIPTION OPTIONS 'EXIT STATUS'; do
      grep -q \"^\$section\" '$work/page.txt' || { echo \"\$page lacks \$section\"; exit 1; }
    done
  done"
LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$work/man/man1/tracedesk.1" 2>/dev/null | col -b >"$work/main.txt"
check "tracedesk(1) has the environment, exit statuses (5 cannot listen) and files" bash -c "
  grep -q '^ENVIRONMENT' '$work/main.txt' && grep -q '^FILES' '$work/main.txt' &&
  grep -q 'TRACEDESK_IDLE_LOCK_SECONDS' '$work/main.txt' && grep -q 'cannot listen' '$work/main.txt'"

# 2. --help says what the man page says.
same_words() {
  # The words of one text, in order, in the other: layouts differ (man fills and hyphenates off).
  local command=$1 key=$2
  "$bin" $command --help | tr -s ' \n' '  ' >"$work/help.flat"
  LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$3" 2>/dev/null | col -b | tr -s ' \n' '  ' >"$work/man.flat"
  grep -qF -- "$key" "$work/help.flat" && grep -qF -- "$key" "$work/man.flat"
}
check "stats --help and tracedesk-stats(1) say the same about --range" \
  same_words stats "the last 1h, 24h (default), 7d or 14d, the current bucket included" "$work/man/man1/tracedesk-stats.1"
check "staff --help and tracedesk-staff(8) say the same about recover" \
  same_words staff "Break-glass, for whoever can write the store itself (not through --server)" "$work/man/man8/tracedesk-staff.8"
check "serve --help and tracedesk-serve(8) both name exit status 5" bash -c "
  '$bin' serve --help | grep -qE '^  5 +cannot listen' &&
  LC_ALL=C.UTF-8 MANWIDTH=80 man -l '$work/man/man8/tracedesk-serve.8' 2>/dev/null | col -b | grep -q 'cannot listen'"
check "--lang it: the help is Italian" bash -c "'$bin' --lang it stats --help | grep -q 'Stato di uscita:'"
check "bench monitor --help and tracedesk-bench(1) give --seconds the same range and default" \
  same_words "bench monitor" "how long to run, in seconds, 1 to 600 (default 10)" "$work/man/man1/tracedesk-bench.1"
check "bench --help: every benchmark's usage line, its defaults from the table" bash -c "
  '$bin' bench --help | grep -qF 'tracedesk bench events --store PATH|URL [--rate 1000] [--seconds 60]' &&
  '$bin' bench --help | grep -qF 'tracedesk bench render [--width 200] [--height 60] [--frames 2000] [--json]'"
check "--lang it bench seed --help: the table's help in Italian" bash -c "
  '$bin' --lang it bench seed --help | grep -q 'codici da autorizzare, da 1 a 5000000'"

# 2b. The table's parser refuses what the table does not allow: exit 2, the allowed values named.
usage_error() {
  local expected=$1
  shift
  "$bin" "$@" >/dev/null 2>"$work/usage.err"
  local rc=$?
  [ $rc -eq 2 ] || { echo "exit $rc"; cat "$work/usage.err"; return 1; }
  grep -qF -- "$expected" "$work/usage.err" || { cat "$work/usage.err"; return 1; }
}
check "bench render --width 0: the range" usage_error "--width must be a whole number from 1 to 100000, got '0'" bench render --width 0
check "bench seed without --count: named" usage_error "'bench seed' needs --count N" bench seed --store "$work/x.sqlite" --tokens "$work/t"
check "bench write-raw --op delete: the operations" usage_error "unknown operation 'delete': use authorization or upload" \
  bench write-raw --store "$work/raw.sqlite" --op delete
check "bench: a usage error points at the benchmark's own help" usage_error "see 'tracedesk bench seed --help'" bench seed
check "serve --log-format xml: the formats" usage_error "unknown log format 'xml': use text or json" serve --log-format xml
check "case close --reason healed: the close reasons" \
  usage_error "unknown reason 'healed': use recovered, transferred, opened-in-error or other" case close 1 --reason healed --user ana
check "audit list --action: the actions" usage_error "unknown action 'frob': use sign_in, sign_in_failed," \
  audit list --action frob --user boss
check "--lang it: the same refusal in Italian" usage_error "valore sconosciuto per --op: 'x'; usare authorization o upload" \
  --lang it bench write-raw --store "$work/raw.sqlite" --op x

# 3. Completions.
"$bin" completion bash >"$work/tracedesk.bash"
"$bin" completion zsh >"$work/_tracedesk"
"$bin" completion fish >"$work/tracedesk.fish"
# complete WORDS…: the bash completion's answers for the last word (may be empty).
complete_words() {
  bash -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _tracedesk
    printf "%s\n" "${COMPREPLY[@]}"' _ "$work/tracedesk.bash" "$@"
}
export -f complete_words
export work
check "bash: tra completes to trace" bash -c '[ "$(complete_words tracedesk tra)" = trace ]'
check "bash: stats --range offers the ranges" bash -c '
  [ "$(complete_words tracedesk stats --range "" | sort | tr "\n" " ")" = "14d 1h 24h 7d today " ]'
check "bash: staff add --role offers the roles" bash -c '
  [ "$(complete_words tracedesk staff add --role "" | sort | tr "\n" " ")" = "admin operator supervisor tracer " ]'
check "bash: a global option before the command is skipped" bash -c '
  [ "$(complete_words tracedesk --user ana case cl)" = close ]'
check "bash: serve --log-format offers text and json" bash -c '
  [ "$(complete_words tracedesk serve --log-format "" | sort | tr "\n" " ")" = "json text " ]'
check "bash: bench write-raw --op offers the operations" bash -c '
  [ "$(complete_words tracedesk bench write-raw --op "" | sort | tr "\n" " ")" = "authorization upload " ]'
check "bash: case close --reason offers the close reasons" bash -c '
  complete_words tracedesk case close 1 --reason "" | grep -qx opened-in-error'
check "bash: audit list --action offers the actions" bash -c '
  complete_words tracedesk audit list --action sign_in_f | grep -qx sign_in_failed'
check "bash: --theme offers the built-in themes" bash -c '
  complete_words tracedesk --theme "" | grep -qx high-contrast'
check "bash: bench monitor's options, not seed's" bash -c '
  complete_words tracedesk bench monitor -- | grep -qx -- --polls &&
  ! complete_words tracedesk bench monitor -- | grep -qx -- --tokens'
check "bash: followup attempt --outcome offers the outcomes" bash -c '
  complete_words tracedesk followup attempt 1 --outcome "" | grep -qx no-answer'
check "bash: case open's options, not list's" bash -c '
  complete_words tracedesk case open -- | grep -qx -- --reference &&
  ! complete_words tracedesk case open -- | grep -qx -- --closed'
mkdir -p "$work/files"
touch "$work/files/key.pem"
check "bash: --signing-key completes a file" bash -c '
  cd "$work/files" && [ "$(complete_words tracedesk serve --signing-key k)" = key.pem ]'
check "bash: docs man --out completes a folder" bash -c '
  cd "$work" && complete_words tracedesk docs man --out fil | grep -qx files'
if command -v zsh >/dev/null; then
  check "zsh -n accepts the zsh completion" zsh -n "$work/_tracedesk"
  # zcomplete WORDS…: what the zsh completion offers for the last word, its completion
  # builtins replaced by ones that print what they were given.
  zcomplete() {
    zsh -f -c '
      compadd() { while [[ $1 == -* ]]; do [[ $1 == -- ]] && { shift; break }; shift; done; print -l -- "$@" }
      _describe() { local -a e; e=("${(@P)2}"); print -l -- "${e[@]%%:*}" }
      _files() { print -- "(files)" }
      _message() { : }
      source "$1"; shift
      words=("$@"); CURRENT=$#
      _tracedesk' _ "$work/_tracedesk" "$@" 2>&1
  }
  export -f zcomplete
  check "zsh: stats --range offers the ranges" bash -c '
    [ "$(zcomplete tracedesk stats --range "" | sort | tr "\n" " ")" = "14d 1h 24h 7d today " ]'
  check "zsh: staff add --role offers the roles" bash -c '
    [ "$(zcomplete tracedesk staff add --role "" | sort | tr "\n" " ")" = "admin operator supervisor tracer " ]'
  check "zsh: serve --log-format offers text and json" bash -c '
    [ "$(zcomplete tracedesk serve --log-format "" | sort | tr "\n" " ")" = "json text " ]'
  check "zsh: bench write-raw --op offers the operations" bash -c '
    [ "$(zcomplete tracedesk bench write-raw --op "" | sort | tr "\n" " ")" = "authorization upload " ]'
  check "zsh: tra completes among the commands, trace one of them" bash -c 'zcomplete tracedesk tra | grep -qx trace'
  check "zsh: --signing-key completes files" bash -c '[ "$(zcomplete tracedesk serve --signing-key "")" = "(files)" ]'
else
  check "zsh is installed (scripts/deps.sh test)" false
fi
if command -v fish >/dev/null; then
  check "fish -n accepts the fish completion" fish -n "$work/tracedesk.fish"
  check "fish: stats --range offers the ranges" bash -c "
    fish -c 'source $work/tracedesk.fish; complete -C \"tracedesk stats --range \"' | grep -q '^24h'"
  check "fish: serve --log-format offers text and json" bash -c "
    fish -c 'source $work/tracedesk.fish; complete -C \"tracedesk serve --log-format \"' | grep -q '^json'"
  check "fish: case close --reason offers the close reasons" bash -c "
    fish -c 'source $work/tracedesk.fish; complete -C \"tracedesk case close 1 --reason \"' | grep -q '^opened-in-error'"
else
  check "fish is installed (scripts/deps.sh test)" false
fi
"$bin" completion tcsh >/dev/null 2>"$work/err"
check "an unknown shell: exit 2, the shells named" bash -c "[ $? -eq 2 ] && grep -q 'use bash, zsh or fish' '$work/err'"

summary e2e-cli-docs
