#!/usr/bin/env bash
# The dependency rule of docs/architecture.md, checked from Package.swift itself:
#   scripts/module-deps.sh TARGET   prints every target TARGET builds on (transitively)
#   scripts/module-deps.sh          checks the rules below and says which one broke
# Rules: the console knows the service contract only (no store, no implementation of the
# contract, no C library); the remote desk does not build on the local one; the contract
# builds on the pure core only; the command line's shared parts (DeskCLI) build on no server.
# The console's own tests run on FakeDesk: their sources import no store, no implementation of
# the contract and no server (the one test-support target links those for the other suites).
set -euo pipefail
cd "$(dirname "$0")/.."
swift package dump-package 2>/dev/null | python3 -c '
import json, sys
package = json.load(sys.stdin)
deps = {}
for target in package["targets"]:
    names = []
    for dep in target.get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dep:
                names.append(dep[kind][0])
    deps[target["name"]] = names
system = {t["name"] for t in package["targets"] if t["type"] == "system"}

def closure(name):
    seen, todo = set(), list(deps.get(name, []))
    while todo:
        dep = todo.pop()
        if dep not in seen:
            seen.add(dep)
            todo += deps.get(dep, [])
    return seen

if len(sys.argv) > 1:
    print("\n".join(sorted(closure(sys.argv[1]))))
    sys.exit(0)
rules = [
    ("DeskConsole", {"DeskAPI", "DeskStore", "DeskLocal", "DeskRemote", "DeskCrypto", "DeskExport", "DeskServer"} | system),
    ("DeskRemote", {"DeskLocal", "DeskStore", "DeskExport", "DeskServer"}),
    ("DeskContract", {"DeskAPI", "DeskLocal", "DeskRemote", "DeskStore", "DeskCrypto", "DeskExport", "DeskServer"}
        | system),
    ("DeskCLI", {"DeskServer", "CMicroHTTPD"}),
]
broken = 0
for target, forbidden in rules:
    found = sorted(closure(target) & forbidden)
    if found:
        print("%s builds on %s: see docs/architecture.md (the dependency rule)" % (target, ", ".join(found)))
        broken = 1
    else:
        print("ok: %s builds on %s" % (target, ", ".join(sorted(closure(target))) or "nothing"))
sys.exit(broken)
' "$@" || exit 1
[ $# -gt 0 ] && exit 0
forbidden='DeskStore|DeskLocal|DeskRemote|DeskCrypto|DeskExport|DeskServer|CSQLite|CLibpq|COpenSSL|CZip|CMicroHTTPD|CCurl'
if imports=$(grep -rnE "^(@testable )?import ($forbidden)\b" Tests/DeskConsoleTests); then
  echo "DeskConsoleTests imports a store, a desk or a server (it runs on FakeDesk): see docs/architecture.md"
  echo "$imports"
  exit 1
fi
echo "ok: DeskConsoleTests imports no store, no desk and no server"
