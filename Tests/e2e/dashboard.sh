#!/usr/bin/env bash
# The supervisor's dashboard through the real binary: a store with activity made by the CLI
# (authorisations) and by phones (curl against `tracedesk serve`: checks, an upload, a dummy), then a
# supervisor's console in tmux: the tiles and charts, the ranges and buckets, the CSV export with
# its overwrite question, a bad province and one with no reports, 80×24 and 160×48, LANG=C
# (ASCII), NO_COLOR, and --refresh checked before the screen opens.
# Usage: Tests/e2e/dashboard.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-dashboard: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
export TRACEDESK_SIGNING_KEY_REQUIRED=false TRACEDESK_CHECK_DELAY_MEAN_MS=0

store="$work/desk.sqlite"
authorize() {
  printf '%s\n' "$oper_pw" |
    "$bin" otp authorize "$1" --symptoms "$today" --store "$store" --user ana --password-stdin >/dev/null 2>&1
}

add_staff "$store" boss admin
add_staff "$store" ana operator
add_staff "$store" sara supervisor
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

# start_console WINDOW WIDTH HEIGHT ENV… -- ARGS…: a console in a window of its own, signed in as sara.
start_console() {
  local window=$1 width=$2 height=$3; shift 3
  open_window "$window" "$width" "$height" TZ=UTC "$@"
  sign_in "$super_pw"
}

# The last hour's start, as the header gives it: a time today; in the first hour after midnight
# the start is yesterday's, so it carries the day and may not fit beside the rest at 80 columns.
hour_head="Last hour · 5 min buckets · since [0-9]{2}:[0-9]{2}"
if [ "$(date -u -d '-70 min' +%F)" != "$(date -u -d '+10 min' +%F)" ]; then
  hour_head="Last hour · 5 min buckets( · since [0-9]+ [A-Z][a-z]{2} [0-9]{2}:[0-9]{2})?"
fi

# --- 80×24, UTF-8 ---
start_console dash 80 24 -- --store "$store" --user sara
check "a supervisor starts on the dashboard" wait_wrapped "TraceDesk · Dashboard"
check "the title says the range, the bucket, its start and when it was read (UTC)" \
  wait_re "$hour_head · updated [0-9]{2}:[0-9]{2}:[0-9]{2} UTC"
check "authorised: 3, with a sparkline" wait_re "authorised +3 [▁▂▃▄▅▆▇█]+"
check "checked: 2 of 3 (67%)" wait_re "checked +67% "
check "uploaded: 1 of 3 (33%)" wait_re "uploaded +33% "
check "uploads: 1" wait_re "uploads +1 "
# Symptoms from today: the keys of the 3 days from 2 days before are kept (the monitor's e2e
# authorises with yesterday's and keeps 4), 11 dropped as before the risk window.
check "keys accepted: 3" wait_re "keys accepted +3 "
check "keys dropped: 11" wait_re "keys dropped +11 "
check "the operator chart lists ana" wait_re "ana +█"
check "dummy share: 1 of 4 phone requests" wait_re "dummy share +25% "
check "no analytics came: the province chart says so" wait_wrapped "no analytics from apps in this range"
check "nothing is cut off at 80 columns: the footer ends with Quit" wait_re "\\^C Quit *$"
screen >"$work/dashboard-80x24.txt"

# A new range's title comes with its figures (the old ones stay under their own title meanwhile).
# new_range KEY TITLE: after KEY the header names TITLE with when it was read, and nothing says
# another range is being read or shown.
new_range() {
  keys "$1"
  wait_re "^ $2 · .*updated [0-9:]{8} UTC" || return 1
  ! joined | grep -qE "showing (the last|by )|could not be read"
}
check "2: the last 24 hours in hour buckets, with their figures" new_range 2 "Last 24 hours · hour buckets"
check "... authorised still 3 (the codes are within the hour)" wait_re "authorised +3 "
check "b: 5-minute buckets" new_range b "Last 24 hours · 5 min buckets"
check "3: the last 7 days in day buckets, since a day at midnight" new_range 3 "Last 7 days · day buckets · since [0-9]+ [A-Z][a-z]{2}"
check "4: the last 14 days" new_range 4 "Last 14 days · day buckets"
check "b: hour buckets for 14 days" new_range b "Last 14 days · hour buckets"
check "1: back to the hour, since its first 5 minutes" new_range 1 "$hour_head"
keys r r r
check "r (three times while asking) refreshes: the figures stay" wait_re "authorised +3 "

# Export: the path asked, written 0600, then the overwrite question.
keys e
check "e asks for the file" wait_wrapped "Export the figures as CSV"
keys C-u
keys -l -- "$work/stats.csv"
keys Enter
check "the export is written" wait_wrapped "exported the figures to"
check "the file is mode 0600" test "$(stat -c %a "$work/stats.csv" 2>/dev/null)" = 600
check "the file is CSV with a header" bash -c "head -1 '$work/stats.csv' | grep -q ,"
cp "$work/stats.csv" "$work/first.csv"
echo old >"$work/stats.csv"
keys e
keys C-u
keys -l -- "$work/stats.csv"
keys Enter
check "an existing file: asked before overwriting" wait_wrapped "Overwrite?"
check "... and not touched yet" test "$(cat "$work/stats.csv")" = old
keys y
check "y overwrites it" wait_wrapped "exported the figures to"
check "... with the figures" bash -c "! grep -qx old '$work/stats.csv' && head -1 '$work/stats.csv' | grep -q ,"

# Provinces: a code that is none, one with no reports, one with some.
keys p
keys -l zz
keys Enter
check "a code that is no province is said plainly" wait_wrapped "ZZ is not a province code: type two letters such as RM"
keys BSpace BSpace
keys -l RI
keys Enter
check "a province with no reports says so" wait_wrapped "no operational info from Rieti (RI) in this range"
keys Escape
check "Esc: every province again" wait_wrapped "Analytics by province"

# F3 monitor, F2 back.
keys F3
check "F3: the monitor" wait_wrapped "TraceDesk · Monitor"
keys F2
check "F2: the dashboard" wait_wrapped "TraceDesk · Dashboard"

# --- A larger terminal: more charts ---
tmux -L "$socket" resize-window -t "$pane" -x 160 -y 48 2>/dev/null
check "160×48: keys dropped by reason" wait_wrapped "Keys dropped by reason"
check "160×48: ... before the risk window, 11 (in words)" wait_re "before the risk window +█+ +11 "
check "160×48: the keys-per-upload histogram" wait_wrapped "Uploads by keys accepted"
check "160×48: lookups by tracer (none)" wait_wrapped "no contact lookup in this range"
screen >"$work/dashboard-160x48.txt"
keys C-c

# --- LANG=C: ASCII sparklines and bars ---
start_console ascii 80 24 LANG=C LC_ALL=C -- --store "$store" --user sara
check "LANG=C: the dashboard opens" wait_wrapped "TraceDesk - Dashboard"
check "LANG=C: sparklines in ASCII levels" wait_re "authorised +3 [_.=#-]+"
# Nothing outside ASCII but the box borders every screen draws (ncurses maps them for the terminal).
non_ascii() { screen | LC_ALL=C.UTF-8 grep -oP '[^\x00-\x7F]' | grep -v '[┌┐└┘─│]' | sort -u | tr -d '\n'; }
check "LANG=C: nothing outside ASCII but box borders" test -z "$(non_ascii)"
keys p
keys -l FC
keys Enter
check "LANG=C: a province name in ASCII letters" wait_wrapped "Forli Cesena (FC)"
check "LANG=C: ... and still nothing outside ASCII" test -z "$(non_ascii)"
keys Escape 4
check "LANG=C: 14 days" wait_re "^ Last 14 days - day buckets - since"
check "LANG=C: ... nothing outside ASCII" test -z "$(non_ascii)"
keys C-c

# --- NO_COLOR ---
start_console mono 80 24 NO_COLOR=1 -- --store "$store" --user sara --refresh 0
check "NO_COLOR: the dashboard opens" wait_wrapped "refresh off"
check "NO_COLOR: drawn without colours" no_colours
keys C-c

# --- Today, and the range kept between runs (XDG_STATE_HOME, lib.sh: fresh for this script) ---
state_file="$XDG_STATE_HOME/tracedesk/dashboard-range"
rm -rf "$XDG_STATE_HOME"
start_console today 80 24 -- --store "$store" --user sara
check "a first run opens on the last hour" wait_re "$hour_head"
check "0: today since midnight in hour buckets, with its figures" new_range 0 "Today · hour buckets · since 00:00"
check "... the footer offers 0-4" wait_wrapped "0-4 Range"
check "... authorised 3 today" wait_re "authorised +3 "
keys C-c
check "the console quits" wait_for "__EXIT=0"
check "the range is kept in \$XDG_STATE_HOME/tracedesk/dashboard-range" test "$(cat "$state_file" 2>/dev/null)" = today
check "... the file 0600, its folder 0700" \
  test "$(stat -c %a "$state_file" 2>/dev/null) $(stat -c %a "$XDG_STATE_HOME/tracedesk" 2>/dev/null)" = "600 700"
start_console today2 80 24 -- --store "$store" --user sara
check "the next run opens on today" wait_re "^ Today · hour buckets · since 00:00 · updated"
keys C-c
printf 'the day after tomorrow\n' >"$state_file"
start_console bad 80 24 -- --store "$store" --user sara
check "a bad state file is ignored: the last hour" wait_re "$hour_head"
check "3: the last 7 days" new_range 3 "Last 7 days · day buckets"
keys C-c
check "... and the bad file replaced at the change" test "$(cat "$state_file" 2>/dev/null)" = 7d

stop_server
summary e2e-dashboard
