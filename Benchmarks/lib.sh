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
