#!/usr/bin/env bash
# `tracedesk stats` through the real binary: two codes authorised by an operator, then the
# supervisor's figures as text, JSON and CSV from the store, the same through a server's staff
# API (--server), a range with no data, every kind of bad input (with its message and exit
# status 2, before a password is asked for), another role refused (exit 6), and the server's
# rollup job in /metrics.
# Usage: Tests/e2e/stats.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-stats: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
export TRACEDESK_SIGNING_KEY_REQUIRED=false
store="$work/desk.sqlite"
td_split=1  # `td`: stdout in $work/out, stderr in $work/err

out_has() { grep -qF -- "$1" "$work/out"; }
err_has() { grep -qF -- "$1" "$work/err"; }
# json_check EXPRESSION: a Python expression over the JSON in $work/out (as `r`) that must hold.
json_check() {
  python3 -c "import json,sys; r=json.load(open('$work/out')); sys.exit(0 if ($1) else 1)" 2>/dev/null
}

# The staff and two codes authorised by ana.
td "$admin_pw\n" staff add boss --role admin --password-stdin --store "$store"
td "$admin_pw\n$oper_pw\n" --user boss --password-stdin staff add ana --role operator --store "$store"
td "$admin_pw\n$super_pw\n" --user boss --password-stdin staff add sara --role supervisor --store "$store"
check "the staff are made (admin, operator, supervisor)" bash -c "[ $rc -eq 0 ]"
td "$oper_pw\n" --user ana --password-stdin otp authorize KJ23-IWY5-UJ --symptoms "$today" --store "$store"
ok1=$rc
td "$oper_pw\n" --user ana --password-stdin otp authorize 9K2RAY8UUQ --symptoms "$today" --store "$store"
check "the operator authorises two codes" bash -c "[ $ok1 -eq 0 ] && [ $rc -eq 0 ]"

# 1. From the store.
td "$super_pw\n" --user sara --password-stdin stats --range 24h --store "$store"
check "stats --range 24h: exit 0, the title and the range in hourly buckets" \
  bash -c "[ $rc -eq 0 ] && grep -q 'Statistics, last 24 hours' '$work/out' && grep -q '24 hourly buckets' '$work/out'"
check "the text counts the two codes, with ana among the top operators" \
  bash -c "grep -qE '^Codes authorised +2 ' '$work/out' && grep -qE '^  ana +2 +0 +0$' '$work/out'"
check "the funnel says no code was uploaded (no median, no division by zero)" \
  bash -c "grep -q 'median time to upload: none (no code was uploaded)' '$work/out' && ! grep -qi 'nan' '$work/out'"
check "the text ends with the tracing indicators (no case: none, no tracer)" \
  bash -c "grep -q '^Tracing, cases opened ' '$work/out' && grep -qE '^  Lost to follow-up +none$' '$work/out' && grep -qx 'No active tracer.' '$work/out'"

td "$super_pw\n" --user sara --password-stdin stats --range 24h --json --store "$store"
check "--json: the staff API's answer, 24 hourly values per series" \
  json_check "r['bucket'] == 'hour' and len(r['authorized']) == 24 and len(r['keys_per_upload']) == 16"
check "--json: two codes authorised by ana, none checked or uploaded, no median" \
  json_check "sum(r['authorized']) == 2 and sum(r['checked']) == 0 and r['median_seconds_to_upload'] is None and r['operators'] == [{'name': 'ana', 'authorized': 2, 'checked': 0, 'uploaded': 0}]"
check "--json: the tracing indicators as the last member, no case yet (nulls, not 0)" \
  json_check "list(r)[-1] == 'tracing' and r['tracing']['cases'] == 0 and r['tracing']['lost_percent'] is None and r['tracing']['tracers'] == []"
cp "$work/out" "$work/local.json"

td "$super_pw\n" --user sara --password-stdin stats --range 1h --csv --store "$store"
check "--csv: the layout's header, then the range" \
  bash -c "[ $rc -eq 0 ] && [ \"\$(head -n1 '$work/out' | tr -d '\r')\" = 'section,figure,key,label,bucket_start,value' ] && grep -q '^range,bucket,,,,5m' '$work/out'"
check "--csv: 12 five-minute rows per series, the total and ana's row" \
  bash -c "[ \$(grep -c '^series,authorized,' '$work/out') -eq 12 ] && grep -q '^total,authorized,,,,2' '$work/out' && grep -q '^operator,authorized,ana,,,2' '$work/out'"
check "--csv: a share with nothing to divide by is empty" \
  bash -c "tr -d '\r' <'$work/out' | grep -qx 'share,keys_per_chunk,,,,'"
check "--csv: the indicators' rows after the statistics' (cases 0, nothing to count empty)" \
  bash -c "tr -d '\r' <'$work/out' | grep -qx 'tracing,cases,,,,0' && tr -d '\r' <'$work/out' | grep -qx 'tracing,lost_percent,,,,' && tr -d '\r' <'$work/out' | grep -qx 'unreached,follow_ups,4+,,,0'"

td "$super_pw\n" --user sara --password-stdin stats --from 2026-01-01 --to 2026-01-02T00:00:00Z --store "$store"
check "a range with no data says so plainly, exit 0" \
  bash -c "[ $rc -eq 0 ] && grep -q 'No data in this range.' '$work/out' && grep -q '24 hourly buckets' '$work/out'"

TZ=Europe/Rome td "$super_pw\n" --user sara --password-stdin stats --range today --json --store "$store"
# Today in Rome began at local midnight: 23:00 UTC in winter, 22:00 in summer.
check "--range today: since local midnight (TZ) in hour buckets, exit 0" \
  bash -c "[ $rc -eq 0 ] && python3 -c \"import json; a=json.load(open('$work/out')); exit(0 if a['bucket']=='hour' and a['from'][11:16] in ('22:00','23:00') else 1)\""

# 2. Bad input: exit 2 and what to type, before any password is read.
td "" --user sara --password-stdin stats --range 3h --store "$store"
check "an unknown range: exit 2, the ranges offered" \
  bash -c "[ $rc -eq 2 ] && grep -q \"unknown range '3h': use today, 1h, 24h, 7d or 14d\" '$work/err'"
td "" --user sara --password-stdin stats --bucket week --store "$store"
check "an unknown bucket: exit 2, the buckets offered" \
  bash -c "[ $rc -eq 2 ] && grep -q \"unknown bucket 'week': use 5m, hour or day\" '$work/err'"
td "" --user sara --password-stdin stats --range 24h --from 2026-11-01 --store "$store"
check "--range with --from: exit 2" bash -c "[ $rc -eq 2 ] && grep -q 'give --range or --from/--to, not both' '$work/err'"
td "" --user sara --password-stdin stats --from 2026-11-03 --to 2026-11-01 --store "$store"
check "--from after --to: exit 2, the range is empty" \
  bash -c "[ $rc -eq 2 ] && grep -q -- '--from must come before --to' '$work/err'"
td "" --user sara --password-stdin stats --range 14d --bucket 5m --store "$store"
check "14 days in 5-minute buckets: exit 2, says which buckets to use" \
  bash -c "[ $rc -eq 2 ] && grep -q '5-minute buckets cover at most 24 hours: choose hour or day buckets' '$work/err'"
td "" --user sara --password-stdin stats --from 2026-01-01 --to 2026-03-01 --store "$store"
check "a range longer than 31 days: exit 2" bash -c "[ $rc -eq 2 ] && grep -q 'longer than 31 days' '$work/err'"
td "" --user sara --password-stdin stats --from yesterday --store "$store"
check "--from not a time: exit 2, the form to write" bash -c "[ $rc -eq 2 ] && grep -q 'is not a UTC time' '$work/err'"
td "" --user sara --password-stdin stats --json --csv --store "$store"
check "--json with --csv: exit 2" bash -c "[ $rc -eq 2 ]"
td "$oper_pw\n" --user ana --password-stdin stats --store "$store"
check "an operator is refused: exit 6, names the supervisor role" \
  bash -c "[ $rc -eq 6 ] && grep -q 'your role (operator) cannot read the statistics: that needs the supervisor role' '$work/err'"
"$bin" stats --help >"$work/out" 2>&1
check "stats --help names every option" \
  bash -c "grep -q -- '--range R' '$work/out' && grep -q -- '--bucket B' '$work/out' && grep -q -- '--from TIME' '$work/out' && grep -q -- '--csv' '$work/out'"

# 3. Through a server.
start_server "$store"
check "serve starts on the store" bash -c "[ -n '$internal' ]"
url="http://$internal"
td "$super_pw\n" --server "$url" --user sara --password-stdin stats --range 24h --json
check "--server … --json: exit 0, the same figures as from the store (every total; the rest exactly)" \
  bash -c "[ $rc -eq 0 ] && python3 -c \"import json; a=json.load(open('$work/out')); b=json.load(open('$work/local.json')); series=('authorized','checked','uploaded','uploads','keys_accepted','keys_dropped','chunks','keys_published','real_requests','dummy_requests','analytics_reports','registrations','contact_files','lookups'); [x.pop(k, None) for x in (a,b) for k in ('generated_at','from','to','pseudo_ids','tracing')]; same=all(len(a[k])==24 and sum(a[k])==sum(b[k]) for k in series) and all(a[k]==b[k] for k in a if k not in series) and set(a)==set(b); exit(0 if same else 1)\""
td "$super_pw\n" --server "$url" --user sara --password-stdin stats --range 7d
check "--server … text, 7 days in daily buckets" \
  bash -c "[ $rc -eq 0 ] && grep -q 'Statistics, last 7 days' '$work/out' && grep -q '7 daily buckets' '$work/out' && grep -qE '^Codes authorised +2 ' '$work/out'"
td "$super_pw\n" --server "$url" --user sara --password-stdin stats --range 24h --csv
check "--server … --csv: the same layout" \
  bash -c "[ $rc -eq 0 ] && grep -q '^total,authorized,,,,2' '$work/out' && [ \$(grep -c '^series,uploads,' '$work/out') -eq 24 ]"
td "$oper_pw\n" --server "$url" --user ana --password-stdin stats
check "--server: an operator is refused, exit 6" \
  bash -c "[ $rc -eq 6 ] && grep -q 'that needs the supervisor role' '$work/err'"
code=$(curl -s -o "$work/out" -w '%{http_code}' "$url/staff/v1/stats?from=2026-11-29T10:00:00.000Z&to=2026-11-29T09:00:00.000Z&bucket=hour" \
  -H "Authorization: Bearer nope")
check "GET /staff/v1/stats with an empty range: 400 with the reason" \
  bash -c "[ '$code' = 400 ] && grep -q 'the range is empty' '$work/out'"
curl -s "$url/metrics" >"$work/out"
check "/metrics counts the statistics rollup runs: ok, none failed" \
  bash -c "grep -q '^# HELP tracedesk_stats_rollup_runs_total' '$work/out' && grep -qE '^tracedesk_stats_rollup_runs_total\\{result=\"ok\"\\} [1-9]' '$work/out' && ! grep -qE '^tracedesk_stats_rollup_runs_total\\{result=\"failed\"\\} [1-9]' '$work/out'"
stop_server
summary e2e-stats
