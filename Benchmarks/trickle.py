#!/usr/bin/env python3
"""A bounded header trickle against a loopback server, with a fresh client probing meanwhile.

Usage: Benchmarks/trickle.py PORT [--connections 1100] [--sources 5] [--interval 4]
                             [--seconds 20] [--probe-timeout 5] [--kept]

`--connections` sockets from 127.0.0.2 … 127.0.0.(1+sources) each send a request line, then one
header line every `--interval` seconds, never ending the head; a socket the server closes is
opened again (as an attacker would). Meanwhile a fresh client on 127.0.0.1 sends `GET /` every
0.5 s and waits at most `--probe-timeout` s for the answer. With `--kept`, each trickle socket
first sends one whole request and reads its answer, then trickles its second head on the kept
connection. Prints one JSON line: probes
answered and timed out, their latency (median, 95th percentile, worst), and how many trickle
sockets the server closed. Everything stops after `--seconds` (at most 60) and at most 2 000
connections: only 127.x.y.z is ever contacted.
"""
import argparse
import json
import socket
import statistics
import threading
import time


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("port", type=int)
    p.add_argument("--connections", type=int, default=1100)
    p.add_argument("--sources", type=int, default=5)
    p.add_argument("--interval", type=float, default=4.0)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--probe-timeout", type=float, default=5.0)
    p.add_argument("--kept", action="store_true")
    a = p.parse_args()
    a.connections = max(1, min(a.connections, 2000))
    a.sources = max(1, min(a.sources, 20))
    a.seconds = max(1.0, min(a.seconds, 60.0))
    return a


def opened(port, source, kept=False):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(True)
    s.settimeout(2)
    try:
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        if kept:  # one good request first; its (small) answer is read
            s.sendall(b"GET / HTTP/1.1\r\nHost: trickle\r\n\r\n")
            if not s.recv(65536).startswith(b"HTTP/1.1 200"):
                raise OSError("no answer")
        s.sendall(b"GET / HTTP/1.1\r\nHost: trickle\r\n")
        s.setblocking(False)
        return s
    except OSError:
        s.close()
        return None


def trickle(a, stop, counts):
    sources = ["127.0.0.%d" % (2 + i) for i in range(a.sources)]
    sockets = [None] * a.connections
    line = 0
    next_round = time.monotonic()
    while not stop.is_set():
        now = time.monotonic()
        if now >= next_round:
            next_round = now + a.interval
            line += 1
            for i in range(a.connections):
                if stop.is_set():
                    break
                s = sockets[i]
                if s is not None:
                    try:
                        s.send(b"X-Trickle-%d: x\r\n" % line)
                        continue
                    except OSError:
                        counts["closed_by_server"] += 1
                        s.close()
                s = opened(a.port, sources[i % len(sources)], a.kept)
                counts["opened" if s is not None else "refused"] += 1
                sockets[i] = s
        stop.wait(0.05)
    for s in sockets:
        if s is not None:
            s.close()


def probe(a, started):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(a.probe_timeout)
    t0 = time.monotonic()
    try:
        s.bind(("127.0.0.1", 0))
        s.connect(("127.0.0.1", a.port))
        s.sendall(b"GET / HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n")
        data = s.recv(64)
        ok = data.startswith(b"HTTP/1.1 200")
    except OSError:
        ok = False
    finally:
        s.close()
    return ok, time.monotonic() - t0


def main():
    a = parse()
    stop = threading.Event()
    counts = {"opened": 0, "refused": 0, "closed_by_server": 0}
    attacker = threading.Thread(target=trickle, args=(a, stop, counts), daemon=True)
    attacker.start()
    started = time.monotonic()
    time.sleep(min(a.interval, a.seconds / 4))  # let the trickle fill up first
    answered, timed_out, latencies = 0, 0, []
    while time.monotonic() - started < a.seconds:
        ok, seconds = probe(a, started)
        if ok:
            answered += 1
            latencies.append(seconds)
        else:
            timed_out += 1
        time.sleep(0.5)
    stop.set()
    attacker.join(10)
    latencies.sort()

    def ms(x):
        return round(x * 1000, 1)

    print(json.dumps({
        "connections": a.connections, "sources": a.sources, "kept": a.kept, "interval_s": a.interval, "seconds": a.seconds,
        "probes_answered": answered, "probes_failed": timed_out,
        "latency_ms_median": ms(statistics.median(latencies)) if latencies else None,
        "latency_ms_p95": ms(latencies[int(0.95 * (len(latencies) - 1))]) if latencies else None,
        "latency_ms_max": ms(latencies[-1]) if latencies else None,
        **counts,
    }))


if __name__ == "__main__":
    main()
