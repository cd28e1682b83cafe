#!/usr/bin/env bash
# The supervisor's dashboard through the real binary: a store with activity made by the CLI
# (authorisations) and by phones (curl against `tracedesk serve`: checks, an upload, a dummy), then a
# supervisor's console in tmux: the tiles and charts, the ranges and buckets, the CSV export with
# its overwrite question, a bad province and one with no reports, 80×24 and 160×48, LANG=C
# (ASCII), NO_COLOR, and --refresh checked before the screen opens.
# Usage: Tests/e2e/dashboard.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-dashboard: N passed, N failed".
set -uo pipefail

bin=$(realpath "${1:-.build/debug/tracedesk}")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
passed=0
failed=0
server=""
export SWIFT_BACKTRACE=enable=no TRACEDESK_SIGNING_KEY_REQUIRED=false TRACEDESK_CHECK_DELAY_MEAN_MS=0

socket="tracedesk-dashboard-e2e-$$"
cleanup() {
  [ -n "$server" ] && kill -KILL "$server" 2>/dev/null
  tmux -L "$socket" kill-server 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

source "$root/Tests/e2e/lib.sh"

store="$work/desk.sqlite"
today=$(date -u +%F)
admin_pw="chief-key-8734"
oper_pw="operator-secret-2"
super_pw="supervisor-pass-3"
hash() { printf %s "$1" | sha256sum | cut -c1-64; }

screen() { tmux -L "$socket" capture-pane -p -t "$1"; }
joined() { screen "$1" | sed 's/[│┃|]//g' | tr -s ' \n' '  '; }
# within SECONDS WINDOW TEXT: TEXT appears on the window (wrapped or not) within SECONDS.
within() {
  local limit=$1 window=$2 text=$3
  local deadline
  deadline=$(($(date +%s%N) + limit * 1000000000))
  while [ "$(date +%s%N)" -le "$deadline" ]; do
    joined "$window" | grep -qF -- "$text" && return 0
    sleep 0.05
  done
  echo "    screen of $window:"; screen "$window" | sed 's/^/    | /'
  return 1
}
# matches SECONDS WINDOW REGEX: a line of the window matches REGEX within SECONDS.
matches() {
  local limit=$1 window=$2 regex=$3
  local deadline
  deadline=$(($(date +%s%N) + limit * 1000000000))
  while [ "$(date +%s%N)" -le "$deadline" ]; do
    screen "$window" | grep -qE -- "$regex" && return 0
    sleep 0.05
  done
  echo "    screen of $window:"; screen "$window" | sed 's/^/    | /'
  return 1
}
keys() { local window=$1; shift; tmux -L "$socket" send-keys -t "$window" "$@"; }

phone_check() {
  curl -s -o /dev/null -w '%{http_code}' -X POST "http://$phone/v1/ingestion/check-otp" \
    -H 'Content-Type: application/json; charset=utf-8' -H "Authorization: Bearer $(hash "$1")" \
    -H 'Immuni-Dummy-Data: 0' -d '{"padding":"00ff"}'
}
# An upload of 14 daily keys (yesterday's ends 3 h before now at the latest), province RM.
phone_upload() {
  local now keys="" start period byte data
  now=$(date -u +%s)
  for i in $(seq 0 13); do
    start=$(((now / 86400 - 13 + i) * 144))
    period=144
    if [ "$i" = 12 ] && [ $(((now - 10800) / 600 - start)) -lt 144 ]; then period=$(((now - 10800) / 600 - start)); fi
    byte=$(printf '\\x%02x' "$((i + 1 + $2))")
    data=$(for _ in $(seq 16); do printf "$byte"; done | base64)
    keys="$keys{\"key_data\":\"$data\",\"rolling_start_number\":$start,\"rolling_period\":$period},"
  done
  curl -s -o /dev/null -w '%{http_code}' -X POST "http://$phone/v1/ingestion/upload" \
    -H 'Content-Type: application/json; charset=utf-8' -H "Authorization: Bearer $(hash "$1")" \
    -H 'Immuni-Dummy-Data: 0' -H "Immuni-Client-Clock: $now" \
    -d "{\"teks\":[${keys%,}],\"province\":\"RM\",\"padding\":\"00\",\"exposure_detection_summaries\":[]}"
}
authorize() {
  printf '%s\n' "$oper_pw" |
    "$bin" otp authorize "$1" --symptoms "$today" --store "$store" --user ana --password-stdin >/dev/null 2>&1
}

printf '%s\n' "$admin_pw" | "$bin" staff add boss --role admin --password-stdin --store "$store" >/dev/null 2>&1
printf '%s\n%s\n' "$admin_pw" "$oper_pw" |
  "$bin" staff add ana --role operator --user boss --password-stdin --store "$store" >/dev/null 2>&1
printf '%s\n%s\n' "$admin_pw" "$super_pw" |
  "$bin" staff add sara --role supervisor --user boss --password-stdin --store "$store" >/dev/null 2>&1
check "serve starts on the store" start_server "$store"

# Activity: three codes authorised by ana; two checked by their apps; one upload.
for code in 9K2RAY8UUQ KJ23IWY5UJ UQ776R9A7E; do authorize "$code"; done
check "the phones' checks are 204" test "$(phone_check 9K2RAY8UUQ) $(phone_check KJ23IWY5UJ)" = "204 204"
check "the phone's upload is 204" test "$(phone_upload 9K2RAY8UUQ 0)" = 204
# One dummy request (the apps' cover traffic): 1 of 4 phone requests.
dummy=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://$phone/v1/ingestion/check-otp" \
  -H 'Content-Type: application/json; charset=utf-8' -H "Authorization: Bearer $(hash 0000000000)" \
  -H 'Immuni-Dummy-Data: 1' -d '{"padding":"00ff"}')
check "the phone's dummy request is answered" test "$dummy" = 204

# --refresh is checked before the screen opens.
"$bin" --store "$store" --refresh 9999 >"$work/out" 2>&1
check "--refresh 9999 is refused with what to type" \
  bash -c "grep -q -- '--refresh must be a whole number of seconds from 1 to 3600, or 0' '$work/out'"
check "--help lists --refresh" bash -c "'$bin' --help | grep -q -- '--refresh SECONDS'"

tmux -L "$socket" -f /dev/null new-session -d -s e2e -x 80 -y 24 -e TERM=tmux-256color -e LANG=C.UTF-8 "sleep 600"
# start_console WINDOW WIDTH HEIGHT ENV… -- ARGS…: a console signed in as sara.
start_console() {
  local window=$1 width=$2 height=$3; shift 3
  local envs=(-e TERM=tmux-256color -e LANG=C.UTF-8 -e TZ=UTC)
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=(-e "$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  tmux -L "$socket" new-window -d -t e2e -n "$window" "${envs[@]}" "$bin $*; sleep 60"
  tmux -L "$socket" resize-window -t "e2e:$window" -x "$width" -y "$height" 2>/dev/null
  within 10 "e2e:$window" "Sign in" || return 1
  keys "e2e:$window" -l -- "$super_pw"
  keys "e2e:$window" Enter
}

# --- 80×24, UTF-8 ---
w=e2e:dash
start_console dash 80 24 -- --store "$store" --user sara
check "a supervisor starts on the dashboard" within 10 $w "TraceDesk · Dashboard"
check "the title says the range, the bucket, its start and when it was read (UTC)" \
  matches 10 $w "Last hour · 5 min buckets · since [0-9]{2}:[0-9]{2} · updated [0-9]{2}:[0-9]{2}:[0-9]{2} UTC"
check "authorised: 3, with a sparkline" matches 5 $w "authorised +3 [▁▂▃▄▅▆▇█]+"
check "checked: 2 of 3 (67%)" matches 5 $w "checked +67% "
check "uploaded: 1 of 3 (33%)" matches 5 $w "uploaded +33% "
check "uploads: 1" matches 5 $w "uploads +1 "
# Symptoms from today: the keys of the 3 days from 2 days before are kept (the monitor's e2e
# authorises with yesterday's and keeps 4), 11 dropped as before the risk window.
check "keys accepted: 3" matches 5 $w "keys accepted +3 "
check "keys dropped: 11" matches 5 $w "keys dropped +11 "
check "the operator chart lists ana" matches 5 $w "ana +█"
check "dummy share: 1 of 4 phone requests" matches 5 $w "dummy share +25% "
check "no analytics came: the province chart says so" within 5 $w "no analytics from apps in this range"
check "nothing is cut off at 80 columns: the footer ends with Quit" matches 5 $w "\\^C Quit *$"
screen $w >"$work/dashboard-80x24.txt"

# A new range's title comes with its figures (the old ones stay under their own title meanwhile).
# new_range KEY TITLE: after KEY the header names TITLE with when it was read, and nothing says
# another range is being read or shown.
new_range() {
  keys $w "$1"
  matches 10 $w "^ $2 · .*updated [0-9:]{8} UTC" || return 1
  ! joined $w | grep -qE "showing (the last|by )|could not be read"
}
check "2: the last 24 hours in hour buckets, with their figures" new_range 2 "Last 24 hours · hour buckets"
check "... authorised still 3 (the codes are within the hour)" matches 5 $w "authorised +3 "
check "b: 5-minute buckets" new_range b "Last 24 hours · 5 min buckets"
check "3: the last 7 days in day buckets, since a day at midnight" new_range 3 "Last 7 days · day buckets · since [0-9]+ [A-Z][a-z]{2}"
check "4: the last 14 days" new_range 4 "Last 14 days · day buckets"
check "b: hour buckets for 14 days" new_range b "Last 14 days · hour buckets"
check "1: back to the hour, since its first 5 minutes" new_range 1 "Last hour · 5 min buckets · since [0-9]{2}:[0-9]{2}"
keys $w r r r
check "r (three times while asking) refreshes: the figures stay" matches 5 $w "authorised +3 "

# Export: the path asked, written 0600, then the overwrite question.
keys $w e
check "e asks for the file" within 5 $w "Export the figures as CSV"
keys $w C-u
keys $w -l -- "$work/stats.csv"
keys $w Enter
check "the export is written" within 5 $w "exported the figures to"
check "the file is mode 0600" test "$(stat -c %a "$work/stats.csv" 2>/dev/null)" = 600
check "the file is CSV with a header" bash -c "head -1 '$work/stats.csv' | grep -q ,"
cp "$work/stats.csv" "$work/first.csv"
echo old >"$work/stats.csv"
keys $w e
keys $w C-u
keys $w -l -- "$work/stats.csv"
keys $w Enter
check "an existing file: asked before overwriting" within 5 $w "Overwrite?"
check "... and not touched yet" test "$(cat "$work/stats.csv")" = old
keys $w y
check "y overwrites it" within 5 $w "exported the figures to"
check "... with the figures" bash -c "! grep -qx old '$work/stats.csv' && head -1 '$work/stats.csv' | grep -q ,"

# Provinces: a code that is none, one with no reports, one with some.
keys $w p
keys $w -l zz
keys $w Enter
check "a code that is no province is said plainly" within 5 $w "ZZ is not a province code: type two letters such as RM"
keys $w BSpace BSpace
keys $w -l RI
keys $w Enter
check "a province with no reports says so" within 5 $w "no operational info from Rieti (RI) in this range"
keys $w Escape
check "Esc: every province again" within 5 $w "Analytics by province"

# F3 monitor, F2 back.
keys $w F3
check "F3: the monitor" within 5 $w "TraceDesk · Monitor"
keys $w F2
check "F2: the dashboard" within 5 $w "TraceDesk · Dashboard"

# --- A larger terminal: more charts ---
tmux -L "$socket" resize-window -t $w -x 160 -y 48 2>/dev/null
check "160×48: keys dropped by reason" within 5 $w "Keys dropped by reason"
check "160×48: ... before_risk_window, 11" matches 5 $w "before_risk_window +█+ +11 "
check "160×48: the keys-per-upload histogram" within 5 $w "Uploads by keys accepted"
check "160×48: lookups by tracer (none)" within 5 $w "no contact lookup in this range"
screen $w >"$work/dashboard-160x48.txt"
keys $w C-c

# --- LANG=C: ASCII sparklines and bars ---
start_console ascii 80 24 LANG=C LC_ALL=C -- --store "$store" --user sara
w=e2e:ascii
check "LANG=C: the dashboard opens" within 10 $w "TraceDesk - Dashboard"
check "LANG=C: sparklines in ASCII levels" matches 10 $w "authorised +3 [_.=#-]+"
# Nothing outside ASCII but the box borders every screen draws (ncurses maps them for the terminal).
non_ascii() { screen "$1" | LC_ALL=C.UTF-8 grep -oP '[^\x00-\x7F]' | grep -v '[┌┐└┘─│]' | sort -u | tr -d '\n'; }
check "LANG=C: nothing outside ASCII but box borders" test -z "$(non_ascii $w)"
keys $w p
keys $w -l FC
keys $w Enter
check "LANG=C: a province name in ASCII letters" within 5 $w "Forli Cesena (FC)"
check "LANG=C: ... and still nothing outside ASCII" test -z "$(non_ascii $w)"
keys $w Escape 4
check "LANG=C: 14 days" matches 10 $w "^ Last 14 days - day buckets - since"
check "LANG=C: ... nothing outside ASCII" test -z "$(non_ascii $w)"
keys $w C-c

# --- NO_COLOR ---
no_colours() {
  ! tmux -L "$socket" capture-pane -e -p -t "$1" | grep -qE $'\e\\[[0-9;]*(3[0-7]|38;5;[0-9]+|4[0-7]|48;5;[0-9]+)m'
}
start_console mono 80 24 NO_COLOR=1 -- --store "$store" --user sara --refresh 0
w=e2e:mono
check "NO_COLOR: the dashboard opens" within 10 $w "refresh off"
check "NO_COLOR: drawn without colours" no_colours $w
keys $w C-c

kill -TERM "$server" 2>/dev/null && wait "$server" 2>/dev/null
server=""
echo "e2e-dashboard: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
