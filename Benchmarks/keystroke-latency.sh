#!/usr/bin/env bash
# Keystroke-to-screen latency of the real console under tmux, against a baseline measured the
# same way in the same run: `cat` echoing keys in a tmux pane (the terminal's own echo, no
# application work). Each sample sends one key with `tmux send-keys` and polls
# `capture-pane` every 1 ms until the screen shows it.
# Usage: Benchmarks/keystroke-latency.sh [PATH/TO/tracedesk] [SAMPLES]
set -euo pipefail
bin=$(realpath "${1:-.build/release/tracedesk}")
samples=${2:-40}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
base_sock="tracedesk-latency-$$"
sock="$base_sock-0"
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT
export TRACEDESK_THEMES="$root/themes"

now_ns() { date +%s%N; }

# measure NAME COMMAND RESET-COMMAND LINES [PREPARE]: prints median and p90 in ms. LINES is the
# capture-pane range to watch (the console's title clock must not count as a change);
# PREPARE runs once after the command starts (signing in).
measure() {
  local name=$1 command=$2 reset=$3 range=$4 prepare=${5:-}
  tmux -L "$sock" kill-server 2>/dev/null || true
  # A tmux server of its own per measurement: a new one on a just-killed socket can race.
  measured=$((${measured:-0} + 1))
  sock="$base_sock-$measured"
  tmux -L "$sock" -f /dev/null new-session -d -s m -x 80 -y 24 -e TERM=tmux-256color -e LANG=C.UTF-8 "$command"
  sleep 0.5
  [ -n "$prepare" ] && eval "$prepare"
  local times=()
  local keys=(K R A Y U Q E F H)  # letters: the console's n/10 counter changes digits
  for ((i = 0; i < samples; i++)); do
    local key=${keys[$((i % 9))]}
    local before
    before=$(tmux -L "$sock" capture-pane -p -t m $range | tr -d '\n' | tr -cd "$key" | wc -c)
    local start end
    start=$(now_ns)
    tmux -L "$sock" send-keys -t m "$key"
    while true; do
      local count
      count=$(tmux -L "$sock" capture-pane -p -t m $range | tr -d '\n' | tr -cd "$key" | wc -c)
      [ "$count" -gt "$before" ] && break
      sleep 0.001
    done
    end=$(now_ns)
    times+=($(( (end - start) / 1000 )))
    if (( i % 9 == 8 )); then eval "$reset"; sleep 0.05; fi
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v name="$name" '{a[NR]=$1} END {printf "%-28s median %.2f ms  p90 %.2f ms  (n=%d)\n", name, a[int((NR+1)/2)]/1000, a[int(NR*0.9)]/1000, NR}'
}

echo "keystroke → screen under tmux, $samples samples each"
# (Reset and prepare commands are evaluated at use, in single quotes: each measurement has
# its own tmux socket.)
measure "baseline: cat (tty echo)" "cat" 'tmux -L $sock send-keys -t m Enter' ""
# The console needs a signed-in operator: accounts made with the CLI, the password typed on
# the sign-in screen before measuring (the idle lock is far off: 10 min).
printf '%s\n' "bench-admin-pass" | "$bin" staff add boss --role admin --password-stdin --store "$work/l.sqlite" >/dev/null
printf '%s\n%s\n' "bench-admin-pass" "bench-operator-pass" |
  "$bin" staff add ana --role operator --user boss --password-stdin --store "$work/l.sqlite" >/dev/null
sign_in='tmux -L $sock send-keys -t m -l bench-operator-pass; tmux -L $sock send-keys -t m Enter; sleep 0.8'
measure "tracedesk console" "$bin --store $work/l.sqlite --user ana" 'tmux -L $sock send-keys -t m Escape' "-S 3 -E 3" "$sign_in"

# The supervisor's monitor while 1 000 events a second are written to its store: keys go to
# the monitor's filter (opened with /), which shows what is typed on its own line.
printf '%s\n%s\n' "bench-admin-pass" "bench-super-pass" |
  "$bin" staff add sara --role supervisor --user boss --password-stdin --store "$work/l.sqlite" >/dev/null
"$bin" bench events --store "$work/l.sqlite" --rate 1000 --seconds 600 >"$work/events.out" 2>&1 &
writer=$!
trap 'kill "$writer" 2>/dev/null; tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT
sleep 2
# The same baseline under the same load: what the writer's CPU alone costs the terminal.
measure "baseline: cat, same load" "cat" 'tmux -L $sock send-keys -t m Enter' ""
monitor_in='tmux -L $sock send-keys -t m -l bench-super-pass; tmux -L $sock send-keys -t m Enter; sleep 1.5; tmux -L $sock send-keys -t m /; sleep 0.3'
measure "monitor, 1 000 events/s" "$bin --store $work/l.sqlite --user sara" \
  'tmux -L $sock send-keys -t m Escape; tmux -L $sock send-keys -t m /' "-S 4 -E 4" "$monitor_in"
kill "$writer" 2>/dev/null
