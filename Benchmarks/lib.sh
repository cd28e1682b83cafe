# Shared by the benchmark scripts (sourced, not run): a scratch folder, free ports, nginx.
# Sets $work; cleans up nginx, $server_pid and $work on exit.

work=$(mktemp -d)
chmod 755 "$work"  # nginx workers run as another user
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  [ -f "$work/nginx.pid" ] && kill -QUIT "$(cat "$work/nginx.pid")" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# start_nginx PORT [DIRECTIVES]: nginx with 2 workers and no access log, serving $work/www on
# 127.0.0.1:PORT (swift-linux-recipes §3.7); DIRECTIVES go into its server block.
start_nginx() {
  mkdir -p "$work/www"
  cat > "$work/nginx.conf" <<CONF
pid $work/nginx.pid;
error_log $work/nginx-error.log;
worker_processes 2;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  types { application/zip zip; application/json json; }
  client_body_temp_path $work/client_temp;
  proxy_temp_path $work/proxy_temp;
  fastcgi_temp_path $work/fastcgi_temp;
  uwsgi_temp_path $work/uwsgi_temp;
  scgi_temp_path $work/scgi_temp;
  server {
    listen 127.0.0.1:$1;
    root $work/www;
    keepalive_requests 1000000;
    ${2:-}
  }
}
CONF
  nginx -t -q -c "$work/nginx.conf" -p "$work"
  nginx -c "$work/nginx.conf" -p "$work"
}

# wait_http URL: waits up to 10 s for URL to answer.
wait_http() {
  for _ in $(seq 100); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done
  return 1
}

# start_serve NAME BIN [VAR=VALUE…]: `BIN serve` on its own store $work/NAME.sqlite, check delays
# 0 and the variables given, on free loopback ports; sets port_NAME and bin_NAME, adds its pid
# to serve_pids (stop_serves stops them). Needs $work/signing.pem.
serve_pids=()
start_serve() {
  local name=$1 bin=$2 phone internal
  shift 2
  phone=$(free_port)
  internal=$(free_port)
  env TRACEDESK_CHECK_DELAY_MEAN_MS=0 TRACEDESK_CHECK_DELAY_SD_MS=0 "$@" \
    "$bin" serve --store "$work/$name.sqlite" --signing-key "$work/signing.pem" \
    --listen "127.0.0.1:$phone" --internal-listen "127.0.0.1:$internal" >/dev/null 2>"$work/$name.log" &
  serve_pids+=($!)
  wait_http "http://127.0.0.1:$phone/"
  printf -v "port_$name" '%s' "$phone"
  printf -v "bin_$name" '%s' "$bin"
}
stop_serves() { for pid in "${serve_pids[@]}"; do kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done; }

# compare_serves A B ROUNDS DURATION "A's column" "B's column" "what the machine was doing":
# upload (14 keys, fresh codes from each server's own `bench seed` every round) and
# /v1/settings throughput of the servers A and B (start_serve), measured alternately with
# `wrk -t2 -c64` on kept connections; prints a Markdown table of the means and A/B.
compare_serves() {
  local a=$1 b=$2 rounds=$3 duration=$4 a_label=$5 b_label=$6 machine=$7 round name port bin rps
  local -A sums=()
  for round in $(seq 1 "$rounds"); do
    for name in "$a" "$b"; do
      port="port_$name" bin="bin_$name"
      "${!bin}" bench seed --store "$work/$name.sqlite" --count $((duration * 9000)) \
        --tokens "$work/tokens-$name-$round" >&2
      rps=$(THREADS=2 TOKENS="$work/tokens-$name-$round" wrk -t2 -c64 -d"${duration}s" -s Benchmarks/upload.lua \
        "http://127.0.0.1:${!port}" | awk '/Requests\/sec/ {print $2}')
      echo "round $round, $name: upload $rps req/s" >&2
      sums[upload_$name]=$(awk -v s="${sums[upload_$name]:-0}" -v r="$rps" 'BEGIN { print s + r }')
      rps=$(wrk -t2 -c64 -d"${duration}s" "http://127.0.0.1:${!port}/v1/settings?platform=ios&build=1" |
        awk '/Requests\/sec/ {print $2}')
      echo "round $round, $name: settings $rps req/s" >&2
      sums[settings_$name]=$(awk -v s="${sums[settings_$name]:-0}" -v r="$rps" 'BEGIN { print s + r }')
    done
  done
  echo
  echo "Machine: $(nproc) cores, $(lscpu | sed -nE 's/^Model name: +//p'), $machine;" \
    "wrk -t2 -c64 -d${duration}s on 127.0.0.1, $rounds rounds alternating; $(date -u +%F)"
  echo
  echo "| measurement | $a_label, req/s | $b_label, req/s | ratio |"
  echo "|---|---:|---:|---:|"
  local what mean_a mean_b label
  for what in upload settings; do
    mean_a=$(awk -v s="${sums[${what}_$a]}" -v n="$rounds" 'BEGIN { printf "%.0f", s / n }')
    mean_b=$(awk -v s="${sums[${what}_$b]}" -v n="$rounds" 'BEGIN { printf "%.0f", s / n }')
    label=$([ "$what" = upload ] && echo "POST /v1/ingestion/upload, 14 keys" || echo "GET /v1/settings (ios, build 1)")
    echo "| $label | $mean_a | $mean_b | $(awk -v x="$mean_a" -v y="$mean_b" 'BEGIN { printf "%.3f", x / y }') |"
  done
}
