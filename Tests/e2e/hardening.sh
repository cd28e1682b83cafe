#!/usr/bin/env bash
# Issue 18's attacks against the real binary, one part per trust boundary:
#   hardening-http.sh    strict framing, the lingering 413, slow heads, logs that fail
#   hardening-signin.sh  sign-in floods, per-source failures, the setup token, session limits
#   hardening-his.sh     hospital systems' keys on POST /v1/otp
#   hardening-store.sh   the store's file modes and token hashes, OTP guessing, SMS pumping
#   hardening-audit.sh   audit checkpoints against a store writer, --code-stdin, output sanitising
# Usage: Tests/e2e/hardening.sh PATH/TO/tracedesk [PART…]
# Prints each part's checks and ends with "e2e-hardening: N passed, N failed".
set -uo pipefail

bin=${1:-.build/debug/tracedesk}
shift || true
here=$(cd "$(dirname "$0")" && pwd)
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(http signin his store audit)

# The parts share nothing (each its own folder, servers on ephemeral ports, tmux socket): they
# run in two lanes side by side, each printed whole in the order above. The two that load the
# machine on purpose (the header trickle, the sign-in flood) share a lane, so that neither runs
# under the other.
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
lane() {
  local part
  for part in "$@"; do
    if [ -x "$here/hardening-$part.sh" ]; then
      "$here/hardening-$part.sh" "$bin" >"$out/$part.out" 2>&1
      echo $? >"$out/$part.status"
    fi
  done
}
heavy=() light=()
for part in "${parts[@]}"; do
  case $part in http | signin) heavy+=("$part") ;; *) light+=("$part") ;; esac
done
lane "${heavy[@]}" &
lane "${light[@]}" &
wait

passed=0
failed=0
status=0
for part in "${parts[@]}"; do
  script="$here/hardening-$part.sh"
  if [ ! -x "$script" ]; then
    echo "FAIL hardening part '$part': $script is missing"
    failed=$((failed + 1))
    continue
  fi
  echo "-- hardening: $part"
  cat "$out/$part.out"
  code=$(cat "$out/$part.status" 2>/dev/null || echo 1)
  summary=$(grep -E "^e2e-hardening-$part: [0-9]+ passed, [0-9]+ failed" "$out/$part.out" | tail -n1)
  p=$(echo "$summary" | sed -nE 's/.*: ([0-9]+) passed.*/\1/p')
  f=$(echo "$summary" | sed -nE 's/.* ([0-9]+) failed.*/\1/p')
  p=${p:-0}
  f=${f:-1}
  [ "$code" -ne 0 ] && [ "$f" -eq 0 ] && f=1
  [ "$code" -ne 0 ] && status=$code
  passed=$((passed + p))
  failed=$((failed + f))
done
echo "e2e-hardening: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
