#!/usr/bin/env python3
"""Requests a second to one loopback URL from a few client processes, reusing connections as
long as the server keeps them (HTTP/1.1 keep-alive), or one connection per request.

Usage: Benchmarks/rps.py PORT [--path /v1/settings?platform=android&build=1] [--processes 2]
                         [--seconds 10] [--close]
Prints one JSON line: requests answered 200, other answers, connections opened, requests a
second. Bounded: at most 60 s and 8 processes, to 127.0.0.1 only.
"""
import argparse
import http.client
import json
import multiprocessing
import time


def worker(port, path, seconds, close, out):
    ok = other = connections = 0
    headers = {"Connection": "close"} if close else {}
    conn = None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if conn is None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connections += 1
        try:
            conn.request("GET", path, headers=headers)
            r = conn.getresponse()
            r.read()
            if r.status == 200:
                ok += 1
            else:
                other += 1
            if r.will_close:
                conn.close()
                conn = None
        except OSError:
            other += 1
            conn.close()
            conn = None
    out.put((ok, other, connections))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("port", type=int)
    p.add_argument("--path", default="/v1/settings?platform=android&build=1")
    p.add_argument("--processes", type=int, default=2)
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--close", action="store_true")
    a = p.parse_args()
    processes = max(1, min(a.processes, 8))
    seconds = max(1.0, min(a.seconds, 60.0))
    out = multiprocessing.Queue()
    workers = [multiprocessing.Process(target=worker, args=(a.port, a.path, seconds, a.close, out))
               for _ in range(processes)]
    for w in workers:
        w.start()
    results = [out.get() for _ in workers]
    for w in workers:
        w.join()
    ok = sum(r[0] for r in results)
    print(json.dumps({"ok": ok, "other": sum(r[1] for r in results), "connections": sum(r[2] for r in results),
                      "requests_per_second": round(ok / seconds, 1), "close": a.close, "processes": processes}))


if __name__ == "__main__":
    main()
