# Shared by the end-to-end scripts; sourced first (`source "$(dirname "$0")/lib.sh"`), never run.
# It sets $bin (the binary: the script's $1), $root (the checkout), $work (a scratch folder),
# $passed and $failed (the checks), $today, the staff passwords of every script, and an exit
# trap that runs the script's `on_exit` commands, kills $server, the pids in $pids and every tmux
# server started here, then removes $work.
# Then: checks (`check`), waits for a condition with a generous cap that say what they waited for
# when they give up (`wait_until`, `wait_log`, `wait_for`…), servers on ephemeral ports
# (`start_server`, `stop_server`), consoles in tmux (`start`, `open_window`) and what they show.
# No wait here is a fixed sleep: each polls its condition every 0.05 s and returns as soon as it
# holds; the cap only guards against a hang, so it is no timing check.

bin=$(realpath "${1:-.build/debug/tracedesk}")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
passed=0
failed=0
server=""
pids=()
today=$(date -u +%F)
admin_pw="chief-key-8734"
oper_pw="operator-secret-2"
super_pw="supervisor-pass-3"
export SWIFT_BACKTRACE=enable=no
# The console keeps small choices (the dashboard's range) in the XDG state folder: a fresh one
# per script, never the user's.
export XDG_STATE_HOME="$work/state"
# …and its settings file ($XDG_CONFIG_HOME/tracedesk/console.json) too: a developer's own
# (their server, their name) must not reach the consoles the scripts start.
export XDG_CONFIG_HOME="$work/config"
# The scripts read the console's and the CLI's English words: the messages' locale is C (so
# the language is English whatever the developer's LANG), unless the script set
# e2e_own_locale=1 before sourcing this file (italian.sh). Only the language: the character
# set comes from LANG/LC_ALL (LC_CTYPE), which this leaves alone.
if [ -z "${e2e_own_locale:-}" ]; then export LC_MESSAGES=C; fi
# The cap of a wait that names none, in seconds: generous, for a loaded CI machine.
wait_cap=30

e2e_exit_hooks=()
e2e_sockets=()
# on_exit COMMAND: runs COMMAND (a string, evaluated) when the script exits, before the rest of
# the clean-up, in the order given.
on_exit() { e2e_exit_hooks+=("$1"); }
e2e_cleanup() {
  local hook pid s
  for hook in "${e2e_exit_hooks[@]}"; do eval "$hook"; done
  for pid in $server "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null && { wait "$pid"; } 2>/dev/null; done
  for s in "${e2e_sockets[@]}"; do tmux -L "$s" kill-server 2>/dev/null; done
  rm -rf "$work"
}
trap e2e_cleanup EXIT

# --- Checks ---

# check NAME COMMAND…: runs the command; one "ok"/"FAIL" line. On failure, what there is to see:
# the console's screen (when one runs), the server log's tail, and whatever `on_failure` adds.
check() {
  local name=$1; shift
  if "$@"; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failed=$((failed + 1)); echo "FAIL $name"
    if [ -n "$socket" ] && tmux -L "$socket" has-session 2>/dev/null; then
      echo "---- screen of $pane ----"; screen | sed 's/^/    /'; echo "----------------"
    fi
    [ -f "$work/serve.log" ] && sed 's/^/    log: /' "$work/serve.log" | tail -n 15
    on_failure
  fi
}
# on_failure: more to show after a FAIL line; a script may define its own.
on_failure() { :; }
# summary PREFIX: the last line, "PREFIX: N passed, N failed"; the script's status.
summary() {
  echo "$1: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# --- Waits ---

# wait_until SECONDS COMMAND…: runs COMMAND every 0.05 s until it succeeds (0) or SECONDS pass
# (1, and a line on stderr naming what it waited for).
wait_until() {
  local cap=$1; shift
  local deadline=$((SECONDS + cap))
  while :; do
    "$@" && return 0
    [ $SECONDS -gt $deadline ] && break
    sleep 0.05
  done
  echo "    (gave up after $cap s waiting for: $*)" >&2
  return 1
}
# has_line FILE TEXT: FILE holds TEXT (a basic regular expression, as grep reads it).
has_line() { grep -q -- "$2" "$1" 2>/dev/null; }
# wait_file FILE [SECONDS]: FILE exists and is not empty.
wait_file() { wait_until "${2:-$wait_cap}" test -s "$1"; }
# wait_log TEXT [SECONDS]: TEXT (a basic regular expression) in the server log.
wait_log() { wait_until "${2:-$wait_cap}" has_line "$work/serve.log" "$1"; }
# wait_gone PID [SECONDS]: the process has ended.
wait_gone() { wait_until "${2:-$wait_cap}" e2e_gone "$1"; }
e2e_gone() { ! kill -0 "$1" 2>/dev/null; }

# --- Servers ---

# start_server STORE [ARGS…]: serve on ephemeral loopback ports (environment variables before
# the call reach it; later --listen/--internal-listen/--his-listen arguments win); sets $server,
# $phone and $internal (and $his with --his-listen); the log goes to $work/serve.log. A server
# told a fixed address (a restart on the one it had) that finds it still taken tries again for a
# while, saying so: another process may hold it meanwhile, and that is no failure of the server.
start_server() {
  local store=$1; shift
  local deadline=$((SECONDS + 60)) status
  while :; do
    : >"$work/serve.log"
    "$bin" serve --store "$store" --listen 127.0.0.1:0 --internal-listen 127.0.0.1:0 "$@" 2>"$work/serve.log" &
    server=$!
    until e2e_listening; do
      if ! kill -0 "$server" 2>/dev/null; then break; fi
      if [ $SECONDS -gt $deadline ]; then
        echo "    (gave up after 60 s waiting for serve to name its listeners in its log)" >&2
        return 1
      fi
      sleep 0.05
    done
    e2e_listening && return 0
    wait "$server" 2>/dev/null
    status=$?
    server=""
    if [ "$status" -eq 5 ] && grep -q "in use" "$work/serve.log" && [ $SECONDS -le $deadline ]; then
      echo "    (an address given to serve is still in use, trying again: $(tail -n 1 "$work/serve.log"))" >&2
      sleep 0.2  # A pause between binds of a taken address: there is no event to wait for.
      continue
    fi
    echo "    (serve ended with status $status before naming its listeners)" >&2
    return 1
  done
}
# e2e_listening: the server log names both listeners (sets $phone, $internal, and $his).
e2e_listening() {
  phone=$(sed -nE 's|.*phone API on https?://(127\.0\.0\.1:[0-9]+).*|\1|p' "$work/serve.log")
  internal=$(sed -nE 's|.*internal API .* on https?://(127\.0\.0\.1:[0-9]+).*|\1|p' "$work/serve.log")
  his=$(sed -nE 's|.*HIS API .* on https?://(127\.0\.0\.1:[0-9]+).*|\1|p' "$work/serve.log")
  [ -n "$phone" ] && [ -n "$internal" ]
}
# stop_server: SIGTERM to $server and its exit status.
stop_server() {
  local status=0
  if [ -n "$server" ]; then
    kill -TERM "$server" 2>/dev/null
    wait "$server" 2>/dev/null
    status=$?
  fi
  server=""
  return $status
}
# listening PID: the loopback addresses PID listens on, one a line (for a server whose log cannot
# be read: on a full disk, or a pipe).
listening() { ss -Htlnp 2>/dev/null | grep -F "pid=$1," | awk '{print $4}' | sort -u; }
# bound_ports PID: waits until the server PID listens on two addresses and sets $phone and
# $internal (the one that serves /metrics).
bound_ports() {
  local pid=$1
  wait_until 60 e2e_two_listeners "$pid" || return 1
  local a b
  read -r a b <<<"$(listening "$pid" | tr '\n' ' ')"
  if [ "$(curl -s -o /dev/null -m 10 -w '%{http_code}' "http://$a/metrics")" = 200 ]; then
    internal=$a phone=$b
  else
    internal=$b phone=$a
  fi
}
e2e_two_listeners() { [ "$(listening "$1" | wc -l)" -ge 2 ]; }

# use_signing_key: a fresh chunk signing key for every server of the script (serve refuses to
# start without one).
use_signing_key() {
  "$bin" keys generate --out "$work/signing.pem" >/dev/null 2>&1
  export TRACEDESK_SIGNING_KEY_PATH="$work/signing.pem"
}

# --- The CLI ---

# td STDIN ARGS… [${td_args[@]}]: tracedesk with STDIN (printf %b) piped in; its output in
# $work/out (stdout and stderr; with td_split=1, stderr in $work/err), also added to
# $work/all-output; sets $rc.
td_args=()
td_split=0
td() {
  local input=$1; shift
  if [ "$td_split" = 1 ]; then
    printf '%b' "$input" | "$bin" "$@" "${td_args[@]}" >"$work/out" 2>"$work/err"
  else
    printf '%b' "$input" | "$bin" "$@" "${td_args[@]}" >"$work/out" 2>&1
  fi
  rc=$?
  cat "$work/out" >>"$work/all-output"
}
says() { grep -qF -- "$1" "$work/out"; }

# add_staff STORE NAME ROLE: a staff account with the role's password above ($admin_pw for an
# admin…), added by boss unless NAME is boss.
add_staff() {
  local pw
  case $3 in admin) pw=$admin_pw ;; operator) pw=$oper_pw ;; supervisor) pw=$super_pw ;; esac
  if [ "$2" = boss ]; then
    printf '%s\n' "$pw" | "$bin" staff add "$2" --role "$3" --password-stdin --store "$1" >/dev/null 2>&1
  else
    printf '%s\n%s\n' "$admin_pw" "$pw" |
      "$bin" staff add "$2" --role "$3" --user boss --password-stdin --store "$1" >/dev/null 2>&1
  fi
}

# his_key STORE ADMIN PASSWORD NAME: adds the HIS client NAME (as ADMIN, on STORE) and prints the
# API key `tracedesk his add` shows once: what a hospital system sends on POST /v1/otp.
his_key() {
  printf '%s\n' "$3" | "$bin" his add "$4" --user "$2" --password-stdin --store "$1" 2>/dev/null |
    grep -oE 'tdh_[A-Za-z0-9_-]{43}'
}

# hash TEXT: SHA-256 in hex (a code's bearer token is the hash of the code).
hash() { printf %s "$1" | sha256sum | cut -c1-64; }
# stored_token TOKEN: how the store keys a bearer token (OtpHash.stored): its tag, then SHA-256
# of the token.
stored_token() { printf '%s%s' "${1:0:6}" "$(printf %s "$1" | sha256sum | cut -c1-58)"; }
# hexbytes HEX: the bytes HEX spells.
hexbytes() { printf "$(printf %s "$1" | sed 's/../\\x&/g')"; }

# free_port: a loopback port that was free a moment ago, for what cannot bind port 0 and say
# which it got (PostgreSQL): its user must try again with another when the bind fails. Taken
# below the kernel's ephemeral range, where nothing binding port 0 is given ports: the Swift
# tests running beside these scripts keep ports of that range bound (ReservedLoopbackPort), and
# PostgreSQL's SO_REUSEADDR would otherwise let it share one of them.
free_port() {
  python3 -c '
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
for _ in range(200):
    port = random.randrange(10000, max(10001, low))
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        continue
    finally:
        s.close()
    print(port)
    break
else:
    raise SystemExit("no free loopback port below the ephemeral range")
'
}

# The phone's side, with curl, on $phone: check-otp of CODE, then an upload of 14 daily keys
# (the newest one still running today, so it waits for the embargo after the others are
# published; yesterday's ends 3 h before now at the latest, so it is past its 2 h embargo at any
# hour, midnight included), province RM; SEED varies the keys. Each prints the status.
phone_check() {
  curl -s -o /dev/null -w '%{http_code}' -X POST "http://$phone/v1/ingestion/check-otp" \
    -H 'Content-Type: application/json; charset=utf-8' -H "Authorization: Bearer $(hash "$1")" \
    -H 'Immuni-Dummy-Data: 0' -d '{"padding":"00ff"}'
}
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

# random_keys_body FIRST COUNT: an upload's JSON body of COUNT random daily keys, the first of
# them FIRST days before today (UTC), province RM.
random_keys_body() {
  local now keys="" day
  now=$(date -u +%s)
  for day in $(seq 0 $(($2 - 1))); do
    keys="$keys{\"key_data\":\"$(head -c 16 /dev/urandom | base64)\",\"rolling_start_number\":$(((now / 86400 - $1 + day) * 144)),\"rolling_period\":144},"
  done
  printf '{"teks":[%s],"province":"RM","padding":"00","exposure_detection_summaries":[]}' "${keys%,}"
}

# --- Consoles in tmux ---
# $socket is the tmux server of the console in use, $pane the window the screen helpers read and
# the keys go to.

socket=""
pane=app
e2e_sessions=0
e2e_name="tracedesk-$(basename "$0" .sh)-e2e-$$"
# start WIDTH HEIGHT [ENV=VALUE…] -- ARGS…: `tracedesk ARGS` alone in a fresh tmux server (a
# socket reused right after kill-server races), window app; "__EXIT=status" when it ends.
start() {
  local width=$1 height=$2; shift 2
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  start_shell "$width" "$height" "${envs[@]}" -- "$bin$(printf ' %q' "$@"); echo __EXIT=\$?; sleep 600"
}
# start_shell WIDTH HEIGHT [ENV=VALUE…] -- COMMAND: the shell command line COMMAND, as `start`.
start_shell() {
  local width=$1 height=$2; shift 2
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=(-e "$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  [ -n "$socket" ] && tmux -L "$socket" kill-server 2>/dev/null
  e2e_sessions=$((e2e_sessions + 1))
  socket="$e2e_name-$e2e_sessions"
  e2e_sockets+=("$socket")
  pane=app
  tmux -L "$socket" -f /dev/null new-session -d -s app -x "$width" -y "$height" -e TERM=tmux-256color \
    -e LANG=C.UTF-8 -e SWIFT_BACKTRACE=enable=no "${envs[@]}" "$1"
  tmux -L "$socket" set-option -t app remain-on-exit on >/dev/null
}
# open_window NAME WIDTH HEIGHT [ENV=VALUE…] -- ARGS…: `tracedesk ARGS` in window app:NAME of
# one tmux server for several consoles side by side; the window becomes $pane.
open_window() {
  local name=$1 width=$2 height=$3; shift 3
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=(-e "$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  local command="$bin$(printf ' %q' "$@"); echo __EXIT=\$?; sleep 600"
  if [ "$socket" != "$e2e_name-w" ]; then
    socket="$e2e_name-w"
    e2e_sockets+=("$socket")
    tmux -L "$socket" -f /dev/null new-session -d -s app -n "$name" -x "$width" -y "$height" \
      -e TERM=tmux-256color -e LANG=C.UTF-8 -e SWIFT_BACKTRACE=enable=no "${envs[@]}" "$command"
    tmux -L "$socket" set-option -t app remain-on-exit on >/dev/null
  else
    tmux -L "$socket" new-window -d -t app -n "$name" -e TERM=tmux-256color -e LANG=C.UTF-8 \
      -e SWIFT_BACKTRACE=enable=no "${envs[@]}" "$command"
    tmux -L "$socket" resize-window -t "app:$name" -x "$width" -y "$height" 2>/dev/null
  fi
  pane="app:$name"
}
# screen [TARGET]: what the console shows now. joined [TARGET]: the same as one line without box
# edges, so that wrapped text reads whole.
screen() { tmux -L "$socket" capture-pane -p -t "${1:-$pane}" 2>/dev/null; }
joined() { screen "$@" | sed 's/[│┃|┌┐└┘─]//g' | tr -s ' \n' '  '; }
shows() { screen | grep -qF -- "$1"; }
shows_wrapped() { joined | grep -qF -- "$1"; }
shows_re() { screen | grep -qE -- "$1"; }
# wait_for TEXT [SECONDS]: TEXT on a line of the screen. wait_wrapped: TEXT, wrapped or not.
# wait_re REGEX [SECONDS]: a line matches the extended regular expression.
wait_for() { wait_until "${2:-$wait_cap}" shows "$1"; }
wait_wrapped() { wait_until "${2:-$wait_cap}" shows_wrapped "$1"; }
wait_re() { wait_until "${2:-$wait_cap}" shows_re "$1"; }
# absent TEXT: TEXT is nowhere on the screen, wrapped or not.
absent() { ! shows "$1" && ! shows_wrapped "$1"; }
# keys KEY…: tmux key names to the console. text TEXT: TEXT typed literally (a password: never
# through a shell word list).
keys() { tmux -L "$socket" send-keys -t "$pane" "$@"; }
text() { tmux -L "$socket" send-keys -t "$pane" -l -- "$1"; }
# sign_in PASSWORD: on the sign-in screen (the name filled in with --user), types the password.
sign_in() {
  wait_for "Sign in" >/dev/null
  text "$1"
  keys Enter
}
# no_colours: the screen is drawn without colour escapes (NO_COLOR).
no_colours() {
  ! tmux -L "$socket" capture-pane -e -p -t "$pane" | grep -qE $'\e\\[[0-9;]*(3[0-7]|38;5;[0-9]+|4[0-7]|48;5;[0-9]+)m'
}
