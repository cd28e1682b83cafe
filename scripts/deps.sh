#!/usr/bin/env bash
# Installs (as root) or names (otherwise) the Debian packages TraceDesk needs.
# Usage: scripts/deps.sh run|test|bench|package
set -euo pipefail

need_run=(libncurses-dev libsqlite3-dev libssl-dev libmicrohttpd-dev libzip-dev libpq-dev libcurl4-openssl-dev pkgconf)
# zsh, fish and man-db: Tests/e2e/cli-docs.sh checks the completions and man pages with them;
# gdb: Tests/e2e/serve.sh checks what an exit runs.
need_test=(tmux curl openssl postgresql sqlite3 python3 zsh fish man-db gdb)
need_bench=(hyperfine wrk nginx)
# scripts/package and scripts/package-check: dpkg-shlibdeps, strip, chrpath, lintian,
# systemd-analyze, and adduser (the package depends on it; dpkg -i installs no dependency).
need_package=(dpkg-dev binutils chrpath lintian systemd adduser)

case "${1:-run}" in
  run) wanted=("${need_run[@]}") ;;
  test) wanted=("${need_run[@]}" "${need_test[@]}") ;;
  bench) wanted=("${need_run[@]}" "${need_test[@]}" "${need_bench[@]}") ;;
  package) wanted=("${need_run[@]}" "${need_package[@]}") ;;
  *) echo "usage: scripts/deps.sh run|test|bench|package" >&2; exit 2 ;;
esac

missing=()
for package in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  echo "Installing Debian packages: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
  echo "TraceDesk needs these Debian packages. Install them, then run this again:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
