// The HTTP client's engines measured against each other (Benchmarks/http-client.sh runs it):
// libcurl as DeskHTTPClient drives it, and URLSession (swift-corelibs-foundation) as the five
// wrappers before it did. Usage: http-client-probe URL [REQUESTS]
// URL answers small GETs (nginx); the unanswering peers are made here, on 127.0.0.1.
import DeskHTTPClient
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2, let target = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: http-client-probe URL [REQUESTS]\n".utf8))
    exit(2)
}
let requests = arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000

/// One way of sending a GET: the error's words (nil: answered).
protocol Engine: Sendable {
    var name: String { get }
    func get(_ url: URL, connectTimeout: Double, deadline: Double) async -> String?
}

struct Curl: Engine {
    let client: HTTPClient
    var name: String { "libcurl" }
    func get(_ url: URL, connectTimeout: Double, deadline: Double) async -> String? {
        do {
            _ = try await client.send(
                .init("GET", url, connectTimeout: .seconds(connectTimeout), deadline: .seconds(deadline)))
            return nil
        } catch { return "\(error)" }
    }
}

/// URLSession as the old wrappers used it; cancellation as `data(for:)` does it (the task's
/// cancellation cancels the URLSessionTask): the path found to deadlock.
struct Session: Engine {
    let session: URLSession
    var name: String { "URLSession" }
    /// `silence` and `resource`: the session's two timeouts, as the old wrappers set them.
    init(connections: Int, silence: Double = 60, resource: Double = 604_800) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = connections
        configuration.timeoutIntervalForRequest = silence
        configuration.timeoutIntervalForResource = resource
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }
    func get(_ url: URL, connectTimeout: Double, deadline: Double) async -> String? {
        // The only knobs: a silence timer per request, and one per session for the resource.
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: connectTimeout)
        request.httpMethod = "GET"
        do {
            _ = try await session.data(for: request)
            return nil
        } catch { return "\((error as NSError).code)" }
    }
}

/// A listening socket on 127.0.0.1: `backlog` 0 and never accepted (after two connections
/// fill its queue, further SYNs are dropped: a blackholed peer), or accepted and never answered.
final class Peer: @unchecked Sendable {
    let fd: Int32
    let port: UInt16
    private var held: [Int32] = []
    private let lock = NSLock()
    private(set) var closedByClient = 0

    init(accepting: Bool) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        listen(fd, accepting ? 64 : 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.port = UInt16(bigEndian: address.sin_port)
        if !accepting { fill(address) }
    }

    /// Accepts, reads until the client closes, counts that close.
    func serve() {
        let fd = self.fd
        do {
            Thread.detachNewThread { [self] in
                while true {
                    let client = accept(fd, nil, nil)
                    guard client >= 0 else { return }
                    Thread.detachNewThread { [self] in
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        while read(client, &buffer, buffer.count) > 0 {}
                        lock.withLock { closedByClient += 1 }
                        close(client)
                    }
                }
            }
        }
    }

    /// Fills the accept queue so the next SYN is dropped.
    func fill(_ address: sockaddr_in) {
        var address = address
        do {
            for _ in 0..<3 {
                let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
                _ = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                held.append(client)
            }
            usleep(200_000)
        }
    }
    var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    var closed: Int { lock.withLock { closedByClient } }
}

func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

func format(_ v: Double) -> String { String(format: "%.3f", v) }

/// Waits for `work` at most `cap` seconds: nil when it has not ended by then (a hung request,
/// left running: a task group would wait for it).
final class Once<T: Sendable>: @unchecked Sendable {
    let lock = NSLock()
    var continuation: CheckedContinuation<T?, Never>?
    func resume(_ value: T?) {
        let c = lock.withLock { () -> CheckedContinuation<T?, Never>? in
            defer { continuation = nil }
            return continuation
        }
        c?.resume(returning: value)
    }
}

func capped<T: Sendable>(_ cap: Double, _ work: @escaping @Sendable () async -> T) async -> T? {
    let once = Once<T>()
    return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        once.lock.withLock { once.continuation = continuation }
        let task = Task { once.resume(await work()) }
        Task {
            try? await Task.sleep(for: .seconds(cap))
            task.cancel()
            once.resume(nil)
        }
    }
}

/// Printed at once (stdout to a pipe is otherwise flushed only at exit).
@Sendable func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let curl = Curl(client: HTTPClient(options: .init(maxConnectionsPerHost: 16)))
let session = Session(connections: 16)
let engines: [any Engine] = [curl, session]
/// URLSession with its session's timeouts set as well (the old wrappers set both).
let sessionConnect = Session(connections: 16, silence: 1, resource: 10)
let sessionDeadline = Session(connections: 16, silence: 2, resource: 2)

// (a) Connect timeout 1 s, deadline 10 s, to a blackholed peer; then deadline 2 s to a peer
// that accepts and never answers (URLSession's knob: a 2 s silence).
let blackhole = Peer(accepting: false)
let silent = Peer(accepting: true)
silent.serve()
say("## (a) timeouts (s from start to the error; wanted ≈ 1 and ≈ 2)")
let timeoutRuns: [(String, any Engine, any Engine)] = [
    ("libcurl", curl, curl), ("URLSession, URLRequest.timeoutInterval only", session, session),
    ("URLSession, the session's timeouts set too", sessionConnect, sessionDeadline),
]
for (label, connecting, waiting) in timeoutRuns {
    let start = ContinuousClock.now
    let error =
        await capped(20) { await connecting.get(blackhole.url, connectTimeout: 1, deadline: 10) } ?? "no end in 20 s"
    let connect = seconds(ContinuousClock.now - start)
    let start2 = ContinuousClock.now
    let error2 = await capped(20) { await waiting.get(silent.url, connectTimeout: 2, deadline: 2) } ?? "no end in 20 s"
    let whole = seconds(ContinuousClock.now - start2)
    say(
        "\(label): connect to a blackholed peer \(format(connect)) (\(error ?? "answered")); deadline, silent peer \(format(whole)) (\(error2 ?? "answered"))"
    )
}

// (b) Cancellation: a request to the silent peer, cancelled after 100 ms; the time from
// cancel() to the request's end, and whether the peer saw its connection closed.
say("## (b) cancellation (20 tries each: median and worst s from cancel to end; hung: no end in 5 s)")
for engine in engines {
    var times: [Double] = []
    var hung = 0
    let closedBefore = silent.closed
    for _ in 0..<20 {
        let task = Task { await engine.get(silent.url, connectTimeout: 30, deadline: 30) }
        try? await Task.sleep(for: .milliseconds(100))
        let cancelled = ContinuousClock.now
        task.cancel()
        let ended = await capped(5) {
            _ = await task.value
            return true
        }
        if ended == nil { hung += 1 } else { times.append(seconds(ContinuousClock.now - cancelled)) }
    }
    try? await Task.sleep(for: .milliseconds(500))
    times.sort()
    let median = times.isEmpty ? .nan : times[times.count / 2]
    say(
        "\(engine.name): median \(format(median)), worst \(format(times.last ?? .nan)), hung \(hung); connections closed at the peer \(silent.closed - closedBefore) of 20"
    )
}

// (c) Throughput of small GETs on kept connections, 1 and 16 at a time, engines alternating.
say("## (c) small GETs to \(target.absoluteString): requests/s, \(requests) each, 3 rounds")
var rates: [String: [Double]] = [:]
for _ in 0..<3 {
    for concurrency in [1, 16] {
        for engine in engines {
            let start = ContinuousClock.now
            let failures = await withTaskGroup(of: Int.self) { group in
                for worker in 0..<concurrency {
                    group.addTask {
                        var failed = 0
                        for _ in stride(from: worker, to: requests, by: concurrency) {
                            if await engine.get(target, connectTimeout: 5, deadline: 30) != nil { failed += 1 }
                        }
                        return failed
                    }
                }
                var total = 0
                for await failed in group { total += failed }
                return total
            }
            let rate = Double(requests) / seconds(ContinuousClock.now - start)
            if failures > 0 { say("  \(engine.name) ×\(concurrency): \(failures) failed") }
            rates["\(engine.name) ×\(concurrency)", default: []].append(rate)
        }
    }
}
for concurrency in [1, 16] {
    let c = rates["libcurl ×\(concurrency)"]!.reduce(0, +) / 3
    let s = rates["URLSession ×\(concurrency)"]!.reduce(0, +) / 3
    say(
        "×\(concurrency): libcurl \(Int(c)) req/s, URLSession \(Int(s)) req/s, libcurl/URLSession \(String(format: "%.2f", c / s))"
    )
}

// (b') Cancellation racing answers: GETs to URL, each cancelled 0-3 ms after it starts, so
// that some cancellations meet an answer arriving (where data(for:) was seen to deadlock).
// Last, with a watchdog on a thread of its own: a deadlock can stop every task of the process.
say("## (b') cancellation racing answers (300 each, 0-3 ms after the start; a request not ended in 5 s is hung)")
final class Progress: @unchecked Sendable {
    let lock = NSLock()
    var engine = ""
    var tries = 0
    var lastChange = ContinuousClock.now
    func step(_ name: String, _ n: Int) {
        lock.withLock {
            engine = name
            tries = n
            lastChange = .now
        }
    }
}
let progress = Progress()
Thread.detachNewThread {
    while true {
        sleep(1)
        let (name, tries, since) = progress.lock.withLock { (progress.engine, progress.tries, progress.lastChange) }
        if ContinuousClock.now - since > .seconds(30) {
            say("\(name): the process stopped after \(tries) tries: no task ran for 30 s (the cancellation deadlock)")
            exit(0)
        }
    }
}
for engine in engines {
    var hung = 0
    var tries = 0
    for round in 0..<300 where hung < 3 {
        tries += 1
        progress.step(engine.name, tries)
        let task = Task { await engine.get(target, connectTimeout: 5, deadline: 30) }
        try? await Task.sleep(for: .microseconds((round % 31) * 100))
        task.cancel()
        if await capped(
            5,
            {
                _ = await task.value
                return true
            }) == nil
        {
            hung += 1
        }
    }
    say("\(engine.name): ended \(tries - hung) of \(tries), hung \(hung)")
}
exit(0)
