@preconcurrency import CMicroHTTPD
import DeskAPI
import DeskCore
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The listening socket, and every connection until its request head has arrived whole and
/// broken no rule: only then is the connection handed to libmicrohttpd.
///
/// Why: libmicrohttpd's timeout is an idle one, so a client sending one header line every few
/// seconds holds a connection for ever; 1 100 such connections from five addresses filled the
/// connection limit and took the phone API offline. And libmicrohttpd accepts heads that a proxy
/// may frame differently (``RequestHead``). Here, on one thread with epoll, the head is peeked
/// (left unread for libmicrohttpd) and checked as it grows:
/// - a head must be whole within `headDeadline` and see a byte at least every `idleSeconds`;
///   otherwise the connection is closed (no answer: the client is not sending a request);
/// - at most `maxReading` connections may be reading their head: past it, the oldest one of the
///   address holding the most is closed, so a trickle from a few addresses cannot keep out a
///   fresh client, whose head arrives at once;
/// - a head that breaks a rule (too long included) gets 400 with the contract's error body and
///   `Connection: close`; the connection is then read and discarded for `lingerSeconds` at
///   most (a lingering close), so that the client reads the answer instead of a reset.
///
/// With TLS the bytes are encrypted: connections are handed over at once, and only
/// libmicrohttpd's rules and idle timeout apply (put a TLS proxy in front for the rest).
///
/// Threading: `start` and `stop` from any thread; everything else runs on the gate's thread.
final class HTTPHeadGate: @unchecked Sendable {
    struct Limits: Sendable {
        var headDeadlineSeconds: Int
        var idleSeconds: Int
        var maxReading: Int
        var maxHeadBytes: Int
        var lingerSeconds: Int
        var lingerBytes: Int
        /// False: hand each connection over at once (TLS).
        var inspects: Bool
        /// Connections handed to libmicrohttpd at once, in all and from one address (0: no
        /// limit): past them a connection is answered 503 here (see ``KeptConnections``).
        var maxConnections = 1_000
        var maxConnectionsPerAddress = 0
    }

    /// A connection the gate holds.
    private struct Held {
        var address: sockaddr_storage
        var length: socklen_t
        var source: UInt64
        var opened: UInt64
        var lastByte: UInt64
        var seen = 0
        /// Bytes read and thrown away while closing.
        var discarded = 0
        /// Set once answered: the connection is being read and discarded until then + linger.
        var closingSince: UInt64?
    }

    let limits: Limits
    /// libmicrohttpd's kept-alive connections: those waiting for their next head share the
    /// deadline and the cap (see ``KeptConnections``); the sweep here is their one timer.
    let kept: KeptConnections
    private let handOff: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Void
    private let refused: @Sendable (_ status: Int, _ reason: String) -> Void
    private var listener: Int32 = -1
    private var poller: Int32 = -1
    private var wake: Int32 = -1
    private var held: [Int32: Held] = [:]
    private var buffer: [UInt8]
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)
    private var lastSweep: UInt64 = 0
    /// Sockets handed back by libmicrohttpd for a lingering close, and whether `stop` was called
    /// (both from other threads, under `inboxLock`, with a write to `wake`).
    private let inboxLock = SimpleLock()
    private var lingering: [Int32] = []
    private var stopping = false

    /// `handOff` is called on the gate's thread with a connection whose head is whole and clean
    /// (it then owns the socket); `refused` for each connection closed here, with its status
    /// (0: closed without an answer) and reason (`timeout`, `evicted`, `malformed`).
    init(
        limits: Limits, kept: KeptConnections, handOff: @escaping (Int32, UnsafePointer<sockaddr>, socklen_t) -> Void,
        refused: @escaping @Sendable (Int, String) -> Void
    ) {
        self.limits = limits
        self.kept = kept
        self.handOff = handOff
        self.refused = refused
        buffer = [UInt8](repeating: 0, count: limits.maxHeadBytes + 1)
    }

    /// Binds `host`:`port` (0: an ephemeral port) and starts the gate's thread; the bound port.
    func start(host: String, port: UInt16) -> UInt16? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { return nil }
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // The kernel completes a connection only once its first bytes are there (or after a
        // second): most heads are then whole at the first look, with no epoll round.
        var deferSeconds: Int32 = 1
        setsockopt(listener, Int32(IPPROTO_TCP), TCP_DEFER_ACCEPT, &deferSeconds, socklen_t(MemoryLayout<Int32>.size))
        guard bound == 0, listen(listener, 1024) == 0 else {
            let saved = errno
            close(listener)
            listener = -1
            errno = saved
            return nil
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        poller = epoll_create1(Int32(EPOLL_CLOEXEC))
        wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        watch(listener, EPOLLIN.rawValue)
        watch(wake, EPOLLIN.rawValue)
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "tracedesk.http.gate"
        thread.start()
        self.thread = thread
        return UInt16(bigEndian: actual.sin_port)
    }

    /// Closes the listening socket and every connection still held; returns once the gate's
    /// thread has ended.
    func stop() {
        guard thread != nil else { return }
        inboxLock.withLock { stopping = true }
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
        finished.wait()
        thread = nil
    }

    /// Takes `fd`, a duplicate of a socket whose answer was sent before its request body was
    /// read, for a lingering close: the rest is read and thrown away (at most `lingerSeconds`
    /// and `lingerBytes`), so that a client that writes before it reads sees the answer, not
    /// a reset. Any thread.
    func linger(_ fd: Int32) {
        guard fd >= 0 else { return }
        let taken = inboxLock.withLock { () -> Bool in
            guard !stopping else { return false }
            lingering.append(fd)
            return true
        }
        guard taken else {
            close(fd)
            return
        }
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    private func watch(_ fd: Int32, _ events: UInt32) {
        var event = epoll_event(events: events, data: epoll_data_t(fd: fd))
        epoll_ctl(poller, EPOLL_CTL_ADD, fd, &event)
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var running = true
        while running {
            let count = epoll_wait(poller, &events, Int32(events.count), 200)
            let now = DispatchTime.now().uptimeNanoseconds
            for event in events.prefix(max(0, Int(count))) {
                let fd = event.data.fd
                if fd == wake {
                    var counter: UInt64 = 0
                    _ = read(wake, &counter, 8)
                    let (taken, stop) = inboxLock.withLock { () -> ([Int32], Bool) in
                        defer { lingering.removeAll() }
                        return (lingering, stopping)
                    }
                    for fd in taken { startLingering(fd, now) }
                    if stop { running = false }
                } else if fd == listener {
                    acceptWaiting(now)
                } else {
                    readable(fd, now, hangUp: event.events & (EPOLLRDHUP.rawValue | EPOLLHUP.rawValue) != 0)
                }
            }
            if now &- lastSweep > 200_000_000 {
                lastSweep = now
                sweep(now)
            }
        }
        for fd in held.keys { close(fd) }
        held.removeAll()
        for fd in inboxLock.withLock({ lingering }) { close(fd) }
        close(listener)
        close(wake)
        close(poller)
    }

    private func acceptWaiting(_ now: UInt64) {
        for _ in 0..<256 {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(listener, $0, &length)
                }
            }
            if fd >= 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            guard fd >= 0 else {
                // Out of descriptors: give the connections in flight a moment rather than spin.
                if errno == EMFILE || errno == ENFILE { usleep(10_000) }
                return
            }
            guard limits.inspects else {
                give(fd, address, length)
                continue
            }
            if reading() >= limits.maxReading { evict() }
            held[fd] = Held(address: address, length: length, source: Self.source(address), opened: now, lastByte: now)
            // Often the whole head is there already; otherwise wait for more (registering an
            // edge-triggered socket with bytes waiting reports them once, so none is missed).
            readable(fd, now, hangUp: false)
            if held[fd] != nil { watch(fd, EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue) }
        }
    }

    private func startLingering(_ fd: Int32, _ now: UInt64) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        shutdown(fd, Int32(SHUT_WR))
        held[fd] = Held(
            address: sockaddr_storage(), length: 0, source: 0, opened: now, lastByte: now, closingSince: now)
        watch(fd, EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue)
    }

    private func give(_ fd: Int32, _ address: sockaddr_storage, _ length: socklen_t) {
        let source = Self.source(address)
        if let full = kept.reserve(
            source: source, maxTotal: limits.maxConnections, maxPerSource: limits.maxConnectionsPerAddress)
        {
            busy(fd, reason: full)
            return
        }
        var address = address
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { handOff(fd, $0, length) }
        }
    }

    /// Connections reading a head: here, and kept alive in libmicrohttpd awaiting the next one.
    private func reading() -> Int {
        held.values.reduce(0) { $0 + ($1.closingSince == nil ? 1 : 0) } + kept.readingCount
    }

    /// Closes the oldest head of the address that holds the most heads being read (here or
    /// in a kept-alive connection).
    private func evict() {
        let keptBySource = kept.readingBySource()
        var perSource = keptBySource.mapValues { $0.count }
        for connection in held.values where connection.closingSince == nil {
            perSource[connection.source, default: 0] += 1
        }
        guard let busiest = perSource.max(by: { $0.value < $1.value })?.key else { return }
        let oldest = held.filter { $0.value.source == busiest && $0.value.closingSince == nil }
            .min { $0.value.opened < $1.value.opened }
        if let keptOldest = keptBySource[busiest]?.oldest, oldest.map({ keptOldest < $0.value.opened }) ?? true,
            kept.shutOldest(of: busiest)
        {
            refused(0, "evicted")
        } else if let fd = oldest?.key {
            drop(fd, reason: "evicted")
        }
    }

    private func readable(_ fd: Int32, _ now: UInt64, hangUp: Bool) {
        guard var connection = held[fd] else { return }
        if connection.closingSince != nil {
            let open = discard(fd, counting: &connection.discarded)
            held[fd] = connection
            if !open || connection.discarded > limits.lingerBytes { forget(fd) }
            return
        }
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_PEEK)) }
        if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) {
            forget(fd)
            return
        }
        guard n > 0 else { return }
        if n > connection.seen {
            connection.seen = n
            connection.lastByte = now
        }
        held[fd] = connection
        switch RequestHead.inspect(buffer.prefix(n), maxBytes: limits.maxHeadBytes) {
        case .complete:
            held[fd] = nil
            epoll_ctl(poller, EPOLL_CTL_DEL, fd, nil)
            give(fd, connection.address, connection.length)
        case .refused(let detail):
            answer(fd, now, detail: detail)
        case .incomplete:
            // A client that has finished sending without ending its head will not end it.
            if hangUp { drop(fd, reason: "malformed") }
        }
    }

    /// Answers a connection past a connection cap 503 with the contract's error body and
    /// `Retry-After`, and closes it (its head is not read: nothing of it is acted on).
    private func busy(_ fd: Int32, reason: String) {
        let detail =
            reason == "busy"
            ? "the server holds as many connections as it may (max_connections): try again in a few seconds"
            : "this address holds as many connections as it may (max_connections_per_address): close some, then try again"
        let response = HTTPResponse.error(.unavailable(detail))
        var text = "HTTP/1.1 503 Service Unavailable\r\n"
        for header in response.headers { text += "\(header.name): \(header.value)\r\n" }
        text += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(text.utf8) + response.body
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        discard(fd)
        held[fd] = nil
        epoll_ctl(poller, EPOLL_CTL_DEL, fd, nil)
        close(fd)
        refused(503, reason)
    }

    /// Answers a refused head with the contract's error body, then lingers (see the type doc).
    private func answer(_ fd: Int32, _ now: UInt64, detail: String) {
        discard(fd)
        // 400 {1100} for every rule, a head too long included: the one error table has no 431.
        let response = HTTPResponse.error(.missingParameters(detail))
        var text = "HTTP/1.1 \(response.status) Bad Request\r\n"
        for header in response.headers { text += "\(header.name): \(header.value)\r\n" }
        text += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(text.utf8) + response.body
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        held[fd]?.closingSince = now
        refused(response.status, "malformed")
    }

    /// Reads and throws away what has arrived (adding it to `counting`, at most a little past
    /// `lingerBytes`); false once the client has closed its side or the socket failed.
    @discardableResult
    private func discard(_ fd: Int32, counting: inout Int) -> Bool {
        while counting <= limits.lingerBytes {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                counting += n
                continue
            }
            return n < 0 && (errno == EAGAIN || errno == EINTR)
        }
        return true
    }

    private func discard(_ fd: Int32) {
        var ignored = 0
        discard(fd, counting: &ignored)
    }

    /// Closes a connection without an answer (what it sent so far is read first, so the client
    /// sees the end of the stream rather than a reset).
    private func drop(_ fd: Int32, reason: String) {
        discard(fd)
        forget(fd)
        refused(0, reason)
    }

    private func forget(_ fd: Int32) {
        held[fd] = nil
        epoll_ctl(poller, EPOLL_CTL_DEL, fd, nil)
        close(fd)
    }

    private func sweep(_ now: UInt64) {
        let deadline = UInt64(limits.headDeadlineSeconds) * 1_000_000_000
        let idle = UInt64(limits.idleSeconds) * 1_000_000_000
        let linger = UInt64(limits.lingerSeconds) * 1_000_000_000
        for (fd, connection) in held {
            if let since = connection.closingSince {
                if now &- since > linger { forget(fd) }
            } else if now &- connection.opened > deadline || now &- connection.lastByte > idle {
                drop(fd, reason: "timeout")
            }
        }
        // Idle or trickling, a kept connection without its next head: counted apart from the
        // first heads that never ended.
        for _ in 0..<kept.reap(now: now, deadline: deadline) { refused(0, "kept_timeout") }
        // Kept connections become idle without passing through `acceptWaiting`: hold the cap here.
        var excess = reading() - limits.maxReading
        while excess > 0 {
            evict()
            excess -= 1
        }
    }

    /// ``source(_:)`` of a socket address as libmicrohttpd is handed it.
    static func source(of address: UnsafePointer<sockaddr>) -> UInt64 {
        var storage = sockaddr_storage()
        let length =
            address.pointee.sa_family == sa_family_t(AF_INET6)
            ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        withUnsafeMutableBytes(of: &storage) {
            UnsafeMutableRawPointer($0.baseAddress!).copyMemory(from: address, byteCount: length)
        }
        return source(storage)
    }

    /// The client's address as a number (IPv4; an IPv6 /64), for the per-address eviction.
    private static func source(_ address: sockaddr_storage) -> UInt64 {
        var address = address
        let family = address.ss_family
        return withUnsafePointer(to: &address) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    withUnsafeBytes(of: v6.pointee.sin6_addr) { $0.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } }
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt64($0.pointee.sin_addr.s_addr) }
        }
    }
}
