#!/usr/bin/env python3
"""A bounded flood of wrong staff sign-ins, and a real sign-in repeating beside it.

`--threads` threads (default 24) post wrong passwords for unknown names to
`POST /staff/v1/sessions` from the `--flood-from` addresses (default 127.0.0.2-127.0.0.6, taken
in turn), for `--seconds` (default 10, at most 60). Meanwhile one client signs in with the
right password from `--real-from` (default 127.0.0.1) every `--every` seconds, and signs out
again. It prints how the flood was answered and the real sign-ins' success rate, as JSON with
`--json` (one line) for scripts (Tests/e2e/hardening-signin.sh, docs/benchmarks.md).

The password of the real account comes from the environment (`TRACEDESK_FLOOD_PASSWORD`),
never from the command line. Only loopback servers are accepted: the addresses stand for
separate clients on one machine.

Usage: Benchmarks/signin-flood.py --server http://127.0.0.1:8081 --user boss [--json]
"""

import argparse
import http.client
import json
import os
import random
import string
import sys
import threading
import time
import urllib.parse


def post(host, port, source, path, body, token=None, method="POST"):
    """One request on a fresh connection from `source`; (status, parsed body or None)."""
    conn = http.client.HTTPConnection(host, port, timeout=30, source_address=(source, 0))
    try:
        headers = {"Content-Type": "application/json", "Connection": "close"}
        if token:
            headers["Authorization"] = "Bearer " + token
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        data = response.read()
        try:
            return response.status, json.loads(data) if data else None
        except ValueError:
            return response.status, None
    except (OSError, http.client.HTTPException):
        return 0, None
    finally:
        conn.close()


def addresses(spec):
    """127.0.0.2-127.0.0.6 or a comma list."""
    if "-" in spec:
        first, last = spec.split("-")
        head, low = first.rsplit(".", 1)
        high = last.rsplit(".", 1)[1]
        return [f"{head}.{n}" for n in range(int(low), int(high) + 1)]
    return spec.split(",")


def main():
    parser = argparse.ArgumentParser(description="a bounded sign-in flood beside a real sign-in")
    parser.add_argument("--server", required=True, help="the internal listener, http://127.0.0.1:PORT")
    parser.add_argument("--user", required=True, help="the real account (its password in TRACEDESK_FLOOD_PASSWORD)")
    parser.add_argument("--threads", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--flood-from", default="127.0.0.2-127.0.0.6")
    parser.add_argument("--real-from", default="127.0.0.1")
    parser.add_argument("--every", type=float, default=0.5, help="seconds between real sign-ins")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    url = urllib.parse.urlparse(options.server)
    if url.hostname != "127.0.0.1" or not url.port:
        sys.exit("signin-flood: only http://127.0.0.1:PORT (loopback) is flooded")
    if not 1 <= options.threads <= 64 or not 0 < options.seconds <= 60:
        sys.exit("signin-flood: at most 64 threads and 60 seconds")
    password = os.environ.get("TRACEDESK_FLOOD_PASSWORD")
    if not password:
        sys.exit("signin-flood: set TRACEDESK_FLOOD_PASSWORD to the real account's password")
    host, port = url.hostname, url.port
    sources = addresses(options.flood_from)
    path = "/staff/v1/sessions"
    deadline = time.monotonic() + options.seconds
    lock = threading.Lock()
    flood = {}
    retry_after = [0]

    def flooder(index):
        source = sources[index % len(sources)]
        rng = random.Random(index)
        while time.monotonic() < deadline:
            name = "nobody" + "".join(rng.choice(string.ascii_lowercase) for _ in range(8))
            status, _ = post(host, port, source, path, {"name": name, "password": "wrong-password-123"})
            with lock:
                flood[status] = flood.get(status, 0) + 1

    threads = [threading.Thread(target=flooder, args=(i,), daemon=True) for i in range(options.threads)]
    for thread in threads:
        thread.start()
    real = {}
    times = []
    while time.monotonic() < deadline:
        started = time.monotonic()
        status, body = post(host, port, options.real_from, path, {"name": options.user, "password": password})
        times.append(time.monotonic() - started)
        real[status] = real.get(status, 0) + 1
        if status == 201 and body and "token" in body:
            post(host, port, options.real_from, path + "/current", None, token=body["token"], method="DELETE")
        pause = options.every - (time.monotonic() - started)
        if pause > 0 and time.monotonic() + pause < deadline:
            time.sleep(pause)
    for thread in threads:
        thread.join(timeout=35)
    attempts = sum(real.values())
    succeeded = real.get(201, 0)
    times.sort()
    result = {
        "threads": options.threads,
        "seconds": options.seconds,
        "flood_sources": len(sources),
        "flood_requests": sum(flood.values()),
        "flood_statuses": {str(k): v for k, v in sorted(flood.items())},
        "real_attempts": attempts,
        "real_succeeded": succeeded,
        "real_statuses": {str(k): v for k, v in sorted(real.items())},
        "real_success_rate": round(succeeded / attempts, 3) if attempts else 0,
        "real_median_s": round(times[len(times) // 2], 3) if times else None,
    }
    if options.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
