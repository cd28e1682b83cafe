import Foundation
import Testing

/// A TCP listener on 127.0.0.1 for the client's tests: each accepted connection is handed to
/// `handle` on a thread of its own. Counts connections and the ones the client closed.
///
/// Lifetime rule: every test ends its peers with ``stop()`` (a `defer` right after creating
/// one): it shuts the listener and every connection still open, then joins the peer's threads,
/// so no test leaves a thread or a socket behind. A handler ends a connection with
/// ``hangUp(_:)``, never `close`: the peer closes each descriptor once, under its lock, so
/// ``stop()`` cannot shut a number the system has meanwhile given to someone else.
///
/// Threading rule: counters and open connections behind a lock; `handle` runs on the peer's threads.
final class TestPeer: @unchecked Sendable {
    let fd: Int32
    let port: UInt16
    private let lock = NSLock()
    private var accepted = 0
    private var requestsRead = 0
    private var closedByClient = 0
    private var held: [Int32] = []
    /// Accepted connections not yet hung up.
    private var open: Set<Int32> = []
    private var stopped = false
    /// The accepting thread and one per connection, until each returns.
    private let threads = DispatchGroup()

    /// A listener whose connections get `handle` (none: accepted, read, never answered).
    init(_ handle: (@Sendable (Int32, TestPeer) -> Void)? = nil) throws {
        (fd, port) = try Self.listener(backlog: 64)
        let fd = self.fd
        let handle = handle ?? { client, peer in peer.readAndHold(client) }
        threads.enter()
        Thread.detachNewThread { [self] in
            defer { threads.leave() }
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                let admitted = lock.withLock {
                    guard !stopped else { return false }
                    accepted += 1
                    open.insert(client)
                    threads.enter()
                    return true
                }
                guard admitted else {
                    close(client)
                    return
                }
                Thread.detachNewThread { [self] in
                    defer { threads.leave() }
                    handle(client, self)
                    hangUp(client)
                }
            }
        }
    }

    /// A listener that never accepts, its queue filled: the next SYN is dropped, so a client's
    /// connect hangs as with a blackholed address.
    init(blackholed: Void) throws {
        (fd, port) = try Self.listener(backlog: 0)
        for _ in 0..<3 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = Self.loopback(port)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            held.append(client)
        }
    }

    /// Ends the peer: no more connections, every open one shut (a handler blocked reading or
    /// writing returns), then waits for all the peer's threads; records a failure if one is
    /// still running after a minute (a guard against a hang, not a timing).
    func stop(sourceLocation: SourceLocation = #_sourceLocation) {
        let first = lock.withLock {
            defer { stopped = true }
            for client in open { shutdown(client, Int32(SHUT_RDWR)) }
            return !stopped
        }
        guard first else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        if threads.wait(timeout: .now() + 60) == .timedOut {
            Issue.record("a peer thread still runs a minute after stop", sourceLocation: sourceLocation)
            return
        }
        close(fd)
        for client in held { close(client) }
    }

    /// Closes a connection the peer accepted (once; later calls do nothing).
    func hangUp(_ client: Int32) {
        lock.withLock {
            guard open.remove(client) != nil else { return }
            close(client)
        }
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/path")! }
    var connections: Int { lock.withLock { accepted } }
    var requests: Int { lock.withLock { requestsRead } }
    var closed: Int { lock.withLock { closedByClient } }

    /// Reads a request head (and counts it), then reads until the client closes, answering
    /// nothing.
    func readAndHold(_ client: Int32) {
        _ = readHead(client)
        drain(client)
        lock.withLock { closedByClient += 1 }
        hangUp(client)
    }

    /// Reads and drops whatever the client sends, until it closes (or ``stop()``).
    func drain(_ client: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(client, &buffer, buffer.count) > 0 {}
    }

    /// The request's head and body (by its Content-Length), as text.
    func readHead(_ client: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(client, &byte, 1) == 1 {
            bytes.append(byte)
            if bytes.count >= 4 && bytes.suffix(4) == [13, 10, 13, 10] { break }
        }
        var text = String(decoding: bytes, as: UTF8.self)
        let length =
            text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        var body = [UInt8](repeating: 0, count: length)
        var got = 0
        while got < length {
            let n = body.withUnsafeMutableBytes { read(client, $0.baseAddress! + got, length - got) }
            guard n > 0 else { break }
            got += n
        }
        text += String(decoding: body.prefix(got), as: UTF8.self)
        lock.withLock { requestsRead += 1 }
        return text
    }

    /// Sends all of `text`; false once the connection is gone (the client closed, or ``stop()``).
    @discardableResult
    static func write(_ client: Int32, _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes {
                send(client, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }

    private static func listener(backlog: Int32) throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, backlog) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }
}
