#!/usr/bin/env bash
# TEK chunks through the real binary: signing keys, `serve` refusing bad keys, publishing from
# the CLI and inside serve, downloads with curl checked by openssl, a publish killed midway,
# and retention.
# Usage: Tests/e2e/chunks.sh PATH/TO/tracedesk
# Prints one line per check and ends with "e2e-chunks: N passed, N failed".
set -uo pipefail

source "$(dirname "$0")/lib.sh"
unset TRACEDESK_SIGNING_KEY_PATH TRACEDESK_CONFIG

# The store of the killed publishing run below takes a while to fill: it fills meanwhile.
"$bin" bench keys --store "$work/crash.sqlite" --count 60000 >"$work/crash-seed.out" 2>&1 &
seeding=$!
pids+=($seeding)

# export.bin and the DER signature of a chunk zip, written beside it (stdlib Python only).
extract() {
  python3 - "$1" "$2" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = [i.filename for i in z.infolist()]
assert names == ["export.bin", "export.sig"], names
assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in z.infolist())
out = sys.argv[2]
open(out + "/export.bin", "wb").write(z.read("export.bin"))
sig = z.read("export.sig")
def fields(b):
    i = 0
    while i < len(b):
        key = 0; shift = 0
        while True:
            c = b[i]; i += 1; key |= (c & 0x7F) << shift; shift += 7
            if c < 0x80: break
        number, wire = key >> 3, key & 7
        if wire == 0:
            while b[i] & 0x80: i += 1
            i += 1; yield number, None
        elif wire == 2:
            n = 0; shift = 0
            while True:
                c = b[i]; i += 1; n |= (c & 0x7F) << shift; shift += 7
                if c < 0x80: break
            yield number, b[i:i + n]; i += n
        else:
            raise SystemExit("unexpected wire type %d" % wire)
signatures = [v for n, v in fields(sig) if n == 1]
assert len(signatures) == 1, len(signatures)
der = [v for n, v in fields(signatures[0]) if n == 4][0]
open(out + "/export.sig.der", "wb").write(der)
PY
}

# --- Signing keys ---
"$bin" keys generate --out "$work/signing.pem" >"$work/public.pem" 2>"$work/keys.log"
check "keys generate writes a key and prints its public key" grep -q "BEGIN PUBLIC KEY" "$work/public.pem"
check "the key file is readable by its owner only (0600)" test "$(stat -c %a "$work/signing.pem")" = 600
check "openssl reads it as a P-256 key" bash -c "openssl pkey -in '$work/signing.pem' -noout -text 2>/dev/null | grep -q 'prime256v1'"
"$bin" keys generate --out "$work/signing.pem" >/dev/null 2>"$work/again.log"
check "keys generate never overwrites: exit 1 and says so" bash -c "[ $? -eq 1 ] && grep -q 'already exists' '$work/again.log'"
check "keys public prints the same public key" bash -c "'$bin' keys public --key '$work/signing.pem' | cmp -s - '$work/public.pem'"
openssl genrsa -out "$work/rsa.pem" 2048 2>/dev/null
openssl ecparam -name secp384r1 -genkey -noout -out "$work/p384.pem" 2>/dev/null

# --- serve refuses a missing, unreadable or wrong-type key ---
"$bin" serve --store "$work/a.sqlite" --listen 127.0.0.1:0 --internal-listen 127.0.0.1:0 2>"$work/nokey.log"
check "serve without a signing key: exit 2, saying how to make one" bash -c "
  [ $? -eq 2 ] && grep -q 'no signing key' '$work/nokey.log' && grep -q 'tracedesk keys generate' '$work/nokey.log'"
"$bin" serve --store "$work/a.sqlite" --signing-key "$work/missing.pem" 2>"$work/missing.log"
check "serve with a missing key file: exit 2, naming it" bash -c "
  [ $? -eq 2 ] && grep -q 'missing.pem cannot be read' '$work/missing.log'"
"$bin" serve --store "$work/a.sqlite" --signing-key "$work/rsa.pem" 2>"$work/rsa.log"
check "serve with an RSA key: exit 2, 'an RSA key'" bash -c "[ $? -eq 2 ] && grep -q 'RSA key' '$work/rsa.log'"
"$bin" serve --store "$work/a.sqlite" --signing-key "$work/p384.pem" 2>"$work/p384.log"
check "serve with a P-384 key: exit 2, naming the curve" bash -c "[ $? -eq 2 ] && grep -q 'secp384r1' '$work/p384.log'"
cp "$work/signing.pem" "$work/unreadable.pem" && chmod 000 "$work/unreadable.pem"
if [ "$(id -u)" -ne 0 ]; then
  "$bin" serve --store "$work/a.sqlite" --signing-key "$work/unreadable.pem" 2>"$work/unreadable.log"
  check "serve with an unreadable key: exit 2" bash -c "[ $? -eq 2 ] && grep -q 'cannot be read' '$work/unreadable.log'"
fi

# --- Without a key, when allowed: runs, publishes nothing, says so in the log and /metrics ---
"$bin" bench keys --store "$work/unsigned.sqlite" --count 20 >/dev/null
echo '{"signing_key_required": false}' >"$work/unsigned.json"
check "serve with signing_key_required false and no key starts" start_server "$work/unsigned.sqlite" --config "$work/unsigned.json"
check "and warns that nothing will be published" wait_log "NO chunks will be published"
check "every publishing line says NOT PUBLISHING, with the keys waiting" wait_log "publishing: NOT PUBLISHING: no signing key is configured (set signing_key_path); 20 keys ready"
check "/metrics: tracedesk_publishing_enabled 0" bash -c "curl -s http://$internal/metrics | grep -qx 'tracedesk_publishing_enabled 0'"
check "/v1/keys/index: 404 with error 1301" bash -c "curl -s http://$phone/v1/keys/index | grep -q '\"error_code\":1301'"
stop_server

# --- Publishing from the CLI; serving; openssl verifies ---
"$bin" bench keys --store "$work/desk.sqlite" --count 30 >/dev/null
"$bin" chunks publish --store "$work/desk.sqlite" --signing-key "$work/signing.pem" >"$work/publish.out" 2>&1
check "chunks publish prints the chunk it published" bash -c "[ $? -eq 0 ] && grep -q '^chunk 1: 30 keys, window ' '$work/publish.out'"
"$bin" chunks publish --store "$work/desk.sqlite" --signing-key "$work/signing.pem" >"$work/publish2.out" 2>&1
check "a second run publishes nothing" grep -q "nothing published" "$work/publish2.out"
check "chunks list shows it" bash -c "'$bin' chunks list --store '$work/desk.sqlite' | grep -qE '^ +1 .* +30 +0 '"
check "serve with the key starts and reads the store" start_server "$work/desk.sqlite" --signing-key "$work/signing.pem"
check "/v1/keys/index: {oldest 1, newest 1}, cached 30 min" bash -c "
  curl -s -D '$work/index.h' http://$phone/v1/keys/index | grep -qx '{\"oldest\":1,\"newest\":1}' &&
  grep -qi '^cache-control: public, max-age=1800' '$work/index.h'"
check "/v1/keys/1: a zip cached 15 days" bash -c "
  [ \"\$(curl -s -D '$work/chunk.h' -o '$work/chunk1.zip' -w '%{http_code}' http://$phone/v1/keys/1)\" = 200 ] &&
  grep -qi '^content-type: application/zip' '$work/chunk.h' && grep -qi '^cache-control: public, max-age=1296000' '$work/chunk.h'"
check "the served bytes are the stored chunk" bash -c "
  '$bin' chunks show 1 --store '$work/desk.sqlite' | grep -q \"sha256 \$(python3 -c \"import zipfile,hashlib;print(hashlib.sha256(zipfile.ZipFile('$work/chunk1.zip').read('export.bin')).hexdigest())\")\""
check "the zip holds export.bin then export.sig, deflated" extract "$work/chunk1.zip" "$work"
check "export.bin starts with the 16-byte header" bash -c "[ \"\$(head -c 16 '$work/export.bin')\" = 'EK Export v1    ' ]"
check "openssl verifies the signature over the whole export.bin" bash -c "
  openssl dgst -sha256 -verify '$work/public.pem' -signature '$work/export.sig.der' '$work/export.bin' | grep -q 'Verified OK'"
check "openssl refuses it without the header" bash -c "
  tail -c +17 '$work/export.bin' > '$work/body.bin'
  ! openssl dgst -sha256 -verify '$work/public.pem' -signature '$work/export.sig.der' '$work/body.bin' >/dev/null 2>&1"
check "chunks show decodes it and verifies it with the public key" bash -c "
  '$bin' chunks show '$work/chunk1.zip' --public-key '$work/public.pem' > '$work/show.out' &&
  grep -q '^region      222' '$work/show.out' && grep -q '^keys        30' '$work/show.out' &&
  grep -q 'key id 222, version v1' '$work/show.out' && grep -q '^signature   verified' '$work/show.out'"
openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl ec -pubout 2>/dev/null >"$work/other.pub"
"$bin" chunks show 1 --store "$work/desk.sqlite" --public-key "$work/other.pub" >"$work/show-bad.out" 2>&1
check "with another key: DOES NOT VERIFY, exit 1" bash -c "[ $? -eq 1 ] && grep -q 'DOES NOT VERIFY' '$work/show-bad.out'"
"$bin" chunks show 7 --store "$work/desk.sqlite" 2>"$work/show7.log"
check "an index not published yet: exit 1, naming the newest" bash -c "[ $? -eq 1 ] && grep -q 'the newest is 1' '$work/show7.log'"
check "/v1/keys/2: 404 with error 1300" bash -c "curl -s http://$phone/v1/keys/2 | grep -q '\"error_code\":1300'"
check "the published vectors decode and verify too" bash -c "
  '$bin' chunks show '$(cd "$(dirname "$0")/.." && pwd)/Vectors/google-internals_sample_diagnosis_key_file.zip' \
    --public-key '$(cd "$(dirname "$0")/.." && pwd)/Vectors/google-internals_test_public_310-v1.pem' | grep -q '^signature   verified'"

# --- serve publishes by itself, at start and every interval ---
stop_server
"$bin" bench keys --store "$work/desk.sqlite" --count 5 >/dev/null
cp "$work/signing.pem" "$work/signing-644.pem" && chmod 644 "$work/signing-644.pem"
start_server "$work/desk.sqlite" --signing-key "$work/signing-644.pem"
check "a signing key others can read is named with a warning" wait_log "signing-644.pem can be read by other users (mode 644): chmod 600 it"
check "serve publishes waiting keys at start: chunk 2" wait_log "publishing: chunk 2 published (5 keys"
check "the index now ends at 2" bash -c "curl -s http://$phone/v1/keys/index | grep -qx '{\"oldest\":1,\"newest\":2}'"
check "/metrics: publishing enabled, 1 chunk published by this server" bash -c "
  curl -s http://$internal/metrics > '$work/metrics' && grep -qx 'tracedesk_publishing_enabled 1' '$work/metrics' &&
  grep -qx 'tracedesk_chunks_published_total 1' '$work/metrics' && grep -qx 'tracedesk_last_chunk_index 2' '$work/metrics'"
check "serve runs the cleanup at start too" wait_log "cleanup: nothing to delete"
stop_server

# --- A publishing run killed midway leaves whole chunks and no gap ---
wait "$seeding" || { echo "FAIL seeding the store of the killed run:"; cat "$work/crash-seed.out"; }
# Midway on any machine, however fast: a trigger the test adds to the store makes the sixth
# chunk's transaction endless (it counts the keys joined with themselves three times over,
# 60 000^3 rows), so the run holds there with exactly 5 chunks committed until it is killed,
# inside that transaction. The trigger goes before the second run.
sqlite3 "$work/crash.sqlite" "CREATE TRIGGER e2e_stall AFTER INSERT ON chunks WHEN NEW.chunk_index = 6
  BEGIN SELECT count(*) FROM exposure_keys a, exposure_keys b, exposure_keys c; END"
TRACEDESK_CHUNK_MAX_KEYS=500 "$bin" chunks publish --store "$work/crash.sqlite" --signing-key "$work/signing.pem" \
  >"$work/crash.out" 2>&1 &
publisher=$!
pids+=($publisher)
chunk_count() {
  "$bin" chunks list --store "$work/crash.sqlite" --json 2>/dev/null | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))' 2>/dev/null
}
committed() { [ "$(chunk_count)" = 5 ]; }
check "the publisher commits 5 chunks" wait_until "$wait_cap" committed
# Running, not ended (an ended child that is not waited for yet still answers kill -0).
running() { local state; state=$(ps -o stat= -p "$1" 2>/dev/null); [ -n "$state" ] && [ "${state#Z}" = "$state" ]; }
check "…and is still running, inside the sixth chunk's transaction" running "$publisher"
kill -KILL "$publisher" 2>/dev/null
{ wait "$publisher"; } 2>/dev/null
killed_at=$(chunk_count)
check "the publisher was killed midway (5 of 120 chunks committed, none of the sixth)" test "$killed_at" = 5
sqlite3 "$work/crash.sqlite" "DROP TRIGGER e2e_stall"
TRACEDESK_CHUNK_MAX_KEYS=500 "$bin" chunks publish --store "$work/crash.sqlite" --signing-key "$work/signing.pem" >/dev/null 2>&1
check "after a second run: indexes 1…n without a gap, contiguous windows, every key exactly once" bash -c "
  '$bin' chunks list --store '$work/crash.sqlite' --json | python3 -c '
import json, sys
chunks = json.load(sys.stdin)
assert [c[\"index\"] for c in chunks] == list(range(1, len(chunks) + 1)), \"gap\"
assert all(a[\"window_end\"] == b[\"window_start\"] for a, b in zip(chunks, chunks[1:])), \"windows\"
assert all(c[\"window_end\"] > c[\"window_start\"] for c in chunks)
assert sum(c[\"keys\"] for c in chunks) == 60000, sum(c[\"keys\"] for c in chunks)
assert len(chunks) == 120, len(chunks)
'"
check "every chunk after the crash verifies" bash -c "
  for n in 1 $killed_at $((killed_at + 1)) 120; do
    '$bin' chunks show \$n --store '$work/crash.sqlite' --public-key '$work/public.pem' | grep -q '^signature   verified' || exit 1
  done"

# --- Retention from the CLI ---
"$bin" cleanup --store "$work/desk.sqlite" >"$work/cleanup.out" 2>&1
check "cleanup runs and says what it kept" bash -c "[ $? -eq 0 ] && grep -q 'kept: 14 days, analytics 30 days' '$work/cleanup.out'"
TRACEDESK_RETENTION_DAYS=3 "$bin" cleanup --store "$work/desk.sqlite" >"$work/cleanup-bad.out" 2>&1
check "a retention under 10 days is refused (exit 2, naming the range)" bash -c "
  [ $? -eq 2 ] && grep -q 'TRACEDESK_RETENTION_DAYS must be a whole number from 10 to 30' '$work/cleanup-bad.out'"

summary e2e-chunks
