# Shared by the end-to-end scripts (sourced, not run): checks counted as passed/failed, a server
# started on ephemeral ports and waited for, free ports, and waits for a condition with a cap.
# Expects $bin (the binary) and $work (a scratch folder); keeps $passed, $failed and $server.
# A script may define its own `check` after sourcing (to show a tmux screen on failure).

# check NAME COMMAND…: runs the command; one "ok"/"FAIL" line; on failure the server log's tail.
check() {
  local name=$1; shift
  if "$@"; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failed=$((failed + 1)); echo "FAIL $name"
    [ -f "$work/serve.log" ] && sed 's/^/    log: /' "$work/serve.log" | tail -n 15
  fi
}

# start_server STORE [ARGS…]: serve on ephemeral loopback ports (environment variables before
# the call reach it); sets $server, $phone and $internal (and $his with --his-listen); the log
# goes to $work/serve.log.
start_server() {
  local store=$1; shift
  "$bin" serve --store "$store" --listen 127.0.0.1:0 --internal-listen 127.0.0.1:0 "$@" 2>"$work/serve.log" &
  server=$!
  local deadline=$((SECONDS + 10))
  while [ $SECONDS -le $deadline ]; do
    phone=$(sed -nE 's|.*phone API on https?://(127\.0\.0\.1:[0-9]+).*|\1|p' "$work/serve.log")
    internal=$(sed -nE 's|.*internal API .* on https?://(127\.0\.0\.1:[0-9]+).*|\1|p' "$work/serve.log")
    his=$(sed -nE 's|.*HIS API .* on https?://(127\.0\.0\.1:[0-9]+).*|\1|p' "$work/serve.log")
    [ -n "$phone" ] && [ -n "$internal" ] && return 0
    kill -0 "$server" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}

# wait_log TEXT: waits up to 10 s for TEXT in the server log.
wait_log() {
  local deadline=$((SECONDS + 10))
  while [ $SECONDS -le $deadline ]; do
    grep -q -- "$1" "$work/serve.log" && return 0
    sleep 0.05
  done
  return 1
}

# his_key STORE ADMIN PASSWORD NAME: adds the HIS client NAME (as ADMIN, on STORE) and prints the
# API key `tracedesk his add` shows once: what a hospital system sends on POST /v1/otp.
his_key() {
  printf '%s\n' "$3" | "$bin" his add "$4" --user "$2" --password-stdin --store "$1" 2>/dev/null |
    grep -oE 'tdh_[A-Za-z0-9_-]{43}'
}

# free_port: a loopback port that was free a moment ago (for a server that must be told its
# port before it starts, or restarted on the same one).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# wait_until SECONDS COMMAND…: runs COMMAND every 0.05 s until it succeeds (0) or SECONDS pass
# (1). The cap guards against a hang; it is no timing check, so give it generously.
wait_until() {
  local deadline=$((SECONDS + $1)); shift
  while [ $SECONDS -le $deadline ]; do
    "$@" && return 0
    sleep 0.05
  done
  return 1
}
