@preconcurrency import CMicroHTTPD
import DeskAPI
import DeskCore
import DeskText
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a handler answers: a response now, or one produced later without holding a server
/// thread (the connection is suspended meanwhile).
public enum HandlerResult: Sendable {
    case now(HTTPResponse)
    /// Produce the response on a background queue after `delay` (check-otp's artificial delay).
    case after(Duration, @Sendable () -> HTTPResponse)
    /// Produced by work the handler runs elsewhere (the staff API's desk calls, on their own
    /// executors). The connection is suspended first; then `start` is called with the function
    /// that answers, which must be called once. `stop` waits for such answers, so the work must
    /// end by itself (a KDF, a store call bounded by its busy timeout).
    case suspended(@Sendable (_ answer: @escaping @Sendable (HTTPResponse) -> Void) -> Void)
}

/// A request handler: given the request, the route it matched (for logs and metrics) and the result.
public protocol HTTPHandler: Sendable {
    /// The route template for `request` ("/v1/keys/{n}", "unmatched"): what logs and metrics show.
    func route(for request: HTTPRequest) -> String
    func handle(_ request: HTTPRequest, route: String) -> HandlerResult
    /// The largest body `route` accepts, when it differs from the listener's `maxBodyBytes`
    /// (APRICOT's contact files: up to 1 048 560 bytes). Refused with 413 unread past it.
    func maxBodyBytes(route: String) -> Int?
}

extension HTTPHandler {
    public func maxBodyBytes(route: String) -> Int? { nil }
}

/// One completed exchange, for the access log and metrics. Holds no header, query or body.
public struct ExchangeSummary: Sendable {
    public var listener: String
    public var method: String
    public var route: String
    /// 0 when the client went away before a response was queued.
    public var status: Int
    public var durationNanoseconds: UInt64
}

/// libmicrohttpd, bridged: the one file that talks to MHD.
///
/// A thread pool with epoll; requests are read whole (up to `maxBodyBytes`, refused with 413
/// as soon as the declared or received size goes over, without reading the rest), handed to
/// the handler on an MHD thread, and answered. A `.after` result suspends the connection and
/// resumes it from a timer, a `.suspended` one when the handler's own work answers, so slow
/// answers hold no thread.
public final class HTTPServer: @unchecked Sendable {
    public struct Options: Sendable {
        public var name: String
        public var host: String
        public var port: UInt16
        public var threads: Int
        public var maxBodyBytes: Int
        public var connectionTimeoutSeconds: Int
        public var maxConnections: Int
        /// Connections from one address at once (0: no limit).
        public var maxConnectionsPerAddress: Int
        /// PEM texts; both set → HTTPS.
        public var tlsKeyPEM: String?
        public var tlsCertificatePEM: String?
        /// A request head must be whole within this many seconds (``HTTPHeadGate``).
        public var headDeadlineSeconds = 10
        /// Connections still reading their head at once; past it the oldest of the busiest
        /// address is closed.
        public var maxConnectionsReadingHead = 512
        /// The longest request head accepted (400 past it).
        public var maxHeadBytes = 32_768
        /// After refusing a body as too large: how long and how much more of it is read and
        /// thrown away so that a client that writes before it reads still gets the 413.
        public var lingerSeconds = 5
        public var lingerBytes = 4_194_304
        /// PEM certificate(s) of the authority client certificates must be signed by (with TLS):
        /// a verified client certificate's subject CN reaches the handler as
        /// ``HTTPRequest/clientCertificateName``.
        public var tlsTrustPEM: String?
        /// False: `Connection: close` after every answer, so that every head passes the gate
        /// (behind a proxy that pools several clients on one connection; see docs/security.md).
        public var keepAlive = true
        /// Where a delayed answer (`.after`) waits out its delay: nil, a dispatch timer (no thread
        /// of Swift's small cooperative pool is needed to end it, however busy that pool is); or a
        /// test's own clock, so a test holds a delay open for as long as it needs without timing
        /// anything.
        public var delays: WaitClock? = nil

        public init(
            name: String, host: String = "127.0.0.1", port: UInt16, threads: Int = 4, maxBodyBytes: Int = 262_144,
            connectionTimeoutSeconds: Int = 15, maxConnections: Int = 1_000, maxConnectionsPerAddress: Int = 0,
            tlsKeyPEM: String? = nil, tlsCertificatePEM: String? = nil, tlsTrustPEM: String? = nil
        ) {
            self.tlsTrustPEM = tlsTrustPEM
            self.maxConnectionsPerAddress = maxConnectionsPerAddress
            self.name = name
            self.host = host
            self.port = port
            self.threads = threads
            self.maxBodyBytes = maxBodyBytes
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.maxConnections = maxConnections
            self.tlsKeyPEM = tlsKeyPEM
            self.tlsCertificatePEM = tlsCertificatePEM
        }
    }

    public struct StartError: Error, Sendable {
        public let message: String
    }

    public let options: Options
    let handler: any HTTPHandler
    let completed: @Sendable (ExchangeSummary) -> Void
    let headRefused: @Sendable (_ status: Int, _ reason: String) -> Void
    private var daemon: OpaquePointer?
    private var gate: HTTPHeadGate?
    /// `http_keep_alive` off: every connection carries one request, so every head is checked by
    /// the gate (later heads on a kept connection are checked only as libmicrohttpd parsed them).
    private var oneRequestPerConnection = false
    /// Plain HTTP: the gate saw the first head (with TLS it could not).
    private var inspectsFirstHead = true
    /// Kept-alive connections, for the deadline and cap on their next head.
    private let kept = KeptConnections()
    private let lock = SimpleLock()
    /// Produces the answers of delayed requests (see `finish`).
    private let workers: OperationQueue
    private var inFlight = 0
    /// The port actually bound (differs from `options.port` when that was 0).
    public private(set) var port: UInt16 = 0

    /// `headRefused`: each connection closed before its head was whole, with the status sent
    /// (0: none) and why (`timeout`, `evicted`, `malformed`), for metrics.
    public init(
        options: Options, handler: any HTTPHandler, completed: @escaping @Sendable (ExchangeSummary) -> Void = { _ in },
        headRefused: @escaping @Sendable (Int, String) -> Void = { _, _ in }
    ) {
        self.options = options
        self.handler = handler
        self.completed = completed
        self.headRefused = headRefused
        workers = OperationQueue()
        workers.maxConcurrentOperationCount = max(2, options.threads)
        workers.name = "tracedesk.\(options.name).delayed"
    }

    /// Binds and starts serving.
    public func start() throws(StartError) {
        // No listening socket of MHD's own: the gate accepts, reads each head, and hands the
        // connection over (MHD_USE_ITC wakes the worker that gets it).
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_ERROR_LOG.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue | MHD_USE_ITC.rawValue
        let tls = options.tlsKeyPEM != nil && options.tlsCertificatePEM != nil
        if tls {
            guard cmhd_has_tls() != 0 else {
                throw StartError(
                    message: "this libmicrohttpd was built without TLS: serve plain HTTP behind a TLS proxy")
            }
            flags |= MHD_USE_TLS.rawValue
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let trusting = tls && options.tlsTrustPEM != nil
        let started = (options.tlsKeyPEM ?? "").withCString { key in
            (options.tlsCertificatePEM ?? "").withCString { cert in
                (options.tlsTrustPEM ?? "").withCString { trust in
                    cmhd_start(
                        UInt32(flags), nil, 0, UInt32(max(1, options.threads)),
                        // The gate counts the connection caps (KeptConnections): libmicrohttpd's own
                        // limits are out of reach (each worker of its pool gets a share of them).
                        UInt32(options.connectionTimeoutSeconds), 64 * 1024,
                        UInt32((options.maxConnections + 64) * max(1, options.threads)), 0, tls ? key : nil,
                        tls ? cert : nil,
                        trusting ? trust : nil, HTTPServer.access, context, HTTPServer.done, context, HTTPServer.notify,
                        context)
                }
            }
        }
        guard let started else {
            throw StartError(message: "cannot start the \(options.name) listener: check the TLS files")
        }
        let handle = Connection(pointer: started)
        let places = kept
        let gate = HTTPHeadGate(
            limits: HTTPHeadGate.Limits(
                headDeadlineSeconds: options.headDeadlineSeconds, idleSeconds: options.connectionTimeoutSeconds,
                maxReading: options.maxConnectionsReadingHead, maxHeadBytes: options.maxHeadBytes,
                lingerSeconds: options.lingerSeconds, lingerBytes: options.lingerBytes, inspects: !tls,
                maxConnections: options.maxConnections, maxConnectionsPerAddress: options.maxConnectionsPerAddress),
            kept: kept,
            handOff: { fd, address, length in
                // MHD owns the socket from here, and closes it itself when it cannot take it
                // (its connection limits).
                if MHD_add_connection(handle.pointer, fd, address, length) != .YES {
                    // It closed the socket; the place the gate reserved is given back.
                    places.release(source: HTTPHeadGate.source(of: address))
                }
            }, refused: headRefused)
        // Set before the first connection can complete (`done` reads it on MHD's threads).
        self.gate = gate
        guard let bound = gate.start(host: options.host, port: options.port) else {
            let reason = errno == EADDRINUSE ? "the address is in use" : "check the address"
            MHD_stop_daemon(started)
            self.gate = nil
            throw StartError(message: "cannot listen on \(options.host):\(options.port) (\(options.name)): \(reason)")
        }
        inspectsFirstHead = !tls
        oneRequestPerConnection = !options.keepAlive
        daemon = started
        port = bound
    }

    /// Stops accepting, lets in-flight requests finish (at most `grace`), then closes everything.
    ///
    /// Meanwhile a new request on a connection that is already open is answered 503 with
    /// `Connection: close`. Requests still waiting out a delay when the grace ends are answered
    /// 503 at once: libmicrohttpd must not be stopped with a suspended connection.
    public func stop(grace: Duration = .seconds(10)) {
        guard let daemon else { return }
        // No new connection from here (the listening socket is closed before `isStopping` says
        // so); those still sending their head are closed.
        gate?.stop()
        lock.withLock { stopping = true }
        let deadline = ContinuousClock.now.advanced(by: grace)
        while lock.withLock({ inFlight }) > 0 && ContinuousClock.now < deadline {
            usleep(10_000)
        }
        // Requests still waiting for their timer are answered now. From here on a request that
        // would wait is answered without waiting (see `access`), so none can be suspended anew.
        let abandoned = lock.withLock { () -> [(Exchange, Connection)] in
            swept = true
            let list = Array(waiting.values)
            waiting.removeAll()
            suspendedNow -= list.count
            for (exchange, _) in list {
                exchange.abandoned = true
                exchange.ready = .error(.unavailable("the server is stopping: retry in a few seconds"))
            }
            return list
        }
        for (_, connection) in abandoned { MHD_resume_connection(connection.pointer) }
        // Those whose timer already claimed them are producing their answer (a store transaction,
        // bounded by the busy timeout): wait for them, since MHD must not be stopped while any
        // connection is suspended. Then give the resumed ones a moment to be written out.
        while lock.withLock({ claimed }) > 0 { usleep(5_000) }
        let last = ContinuousClock.now.advanced(by: .seconds(2))
        while lock.withLock({ inFlight }) > 0 && ContinuousClock.now < last {
            usleep(5_000)
        }
        MHD_stop_daemon(daemon)
        self.daemon = nil
    }

    deinit {
        // Never leave MHD running with a pointer to a freed server.
        stop(grace: .zero)
    }

    /// The most requests ever waiting at once in a suspended state (delays): above the thread
    /// count, it shows that waiting requests hold no thread.
    public var peakSuspended: Int { lock.withLock { suspendedPeak } }
    /// Delays whose timer has not fired yet, or whose request is still being answered after it
    /// (a timer outlives ``stop(grace:)``, which answers the request itself): lets a test see
    /// that `stop` did not wait them out, and wait until every timer has run.
    public var delaysPending: Int { lock.withLock { timersPending } }
    /// True from the moment ``stop(grace:)`` begins: new requests are then answered 503.
    public var isStopping: Bool { lock.withLock { stopping } }
    /// Requests whose headers have arrived and whose answer is not yet written.
    public var requestsInFlight: Int { lock.withLock { inFlight } }
    /// Connections handed to libmicrohttpd and not yet closed there (the connection caps).
    public var connectionsHeld: Int { kept.count }
    private var suspendedNow = 0
    private var suspendedPeak = 0
    private var timersPending = 0
    private var stopping = false
    /// Set by `stop` once waiting requests were answered: later requests are not suspended.
    private var swept = false
    /// Requests whose timer fired and that are producing their answer, and suspended requests
    /// whose work is running.
    private var claimed = 0
    /// Suspended requests, by exchange, until their timer resumes them (or `stop` does).
    private var waiting: [ObjectIdentifier: (Exchange, Connection)] = [:]

    /// Methods logged and counted by name; anything else is "OTHER" (a method is client text:
    /// it must not become a log line's content or a metrics label of its own).
    static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT",
    ]

    // MARK: MHD callbacks

    /// Per-request state, from the first call of the access handler to the completion callback.
    final class Exchange: @unchecked Sendable {
        let start = DispatchTime.now().uptimeNanoseconds
        let method: String
        var path: String
        var route = "unmatched"
        var maxBody = 0
        var headers: [(name: String, value: String)] = []
        var query: [(name: String, value: String)] = []
        var body: [UInt8] = []
        var refused: HTTPResponse?
        var ready: HTTPResponse?
        var received = 0
        var answered = false
        var suspended = false
        var abandoned = false
        var status = 0
        var clientAddress: String?
        /// The verified client certificate's subject CN (a listener that trusts an authority).
        var clientCertificateName: String?

        init(method: String, path: String) {
            self.method = method
            self.path = path
        }
    }

    struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private static let access: MHD_AccessHandlerCallback = {
        cls, connection, url, method, _, uploadData, uploadDataSize, requestContext in
        guard let cls, let connection, let requestContext, let uploadDataSize else { return .NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        return server.access(connection, url, method, uploadData, uploadDataSize, requestContext)
    }

    /// A connection libmicrohttpd starts or is about to close (its socket is closed after this).
    private static let notify: MHD_NotifyConnectionCallback = { cls, connection, context, code in
        guard let cls, let connection, let context else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        if code.rawValue == 0 {
            context.pointee = server.kept.opened(
                fd: cmhd_connection_fd(connection), source: cmhd_connection_source(connection),
                readingHead: !server.inspectsFirstHead, now: DispatchTime.now().uptimeNanoseconds)
        } else if let state = context.pointee {
            context.pointee = nil
            server.kept.closed(state)
        }
    }

    private static let done: MHD_RequestCompletedCallback = { cls, connection, requestContext, _ in
        guard let cls, let requestContext, let raw = requestContext.pointee else { return }
        requestContext.pointee = nil
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        // The next head's clock starts (if the connection is closing, its closed notice follows).
        if let connection {
            KeptConnections.of(cmhd_socket_context(connection))?.answered(now: DispatchTime.now().uptimeNanoseconds)
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeRetainedValue()
        if exchange.answered, let connection, let gate = server.gate {
            // Answered before its body was read: MHD closes the socket now, and a client still
            // writing would get a reset instead of the answer. A duplicate of the socket keeps it
            // open for the gate's lingering close (read and thrown away, bounded).
            let fd = cmhd_connection_fd(connection)
            if fd >= 0 { gate.linger(dup(fd)) }
        }
        server.lock.withLock { server.inFlight -= 1 }
        server.completed(
            ExchangeSummary(
                listener: server.options.name, method: exchange.method, route: exchange.route, status: exchange.status,
                durationNanoseconds: DispatchTime.now().uptimeNanoseconds - exchange.start))
    }

    /// Headers and query arguments with the lengths libmicrohttpd measured (for query values,
    /// after our unescaping, which keeps `%00` as text).
    private static let collect: MHD_KeyValueIteratorN = { cls, kind, key, keySize, value, valueSize in
        guard let cls, let key else { return .YES }
        let exchange = Unmanaged<Exchange>.fromOpaque(cls).takeUnretainedValue()
        let name = key.withMemoryRebound(to: UInt8.self, capacity: keySize) {
            String(decoding: UnsafeBufferPointer(start: $0, count: keySize), as: UTF8.self)
        }
        let text =
            value.map { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: valueSize) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: valueSize), as: UTF8.self)
                }
            } ?? ""
        if kind == .HEADER_KIND {
            // Optional whitespace around a header value is not part of it (RFC 9110 §5.5).
            exchange.headers.append((name.lowercased(), String(text.trimmingSpaces)))
        } else {
            exchange.query.append((name, text))
        }
        return .YES
    }

    /// A request that HTTP itself makes ambiguous: answered 400 and the connection closed, so
    /// nothing after it on the connection can be read as another request.
    static func framingProblem(_ headers: [(name: String, value: String)]) -> String? {
        // The gate refuses these in a connection's first head; it cannot read TLS, nor a later
        // head on a kept connection, which only libmicrohttpd 0.9.75 parses. That hands over
        // `Transfer-Encoding ` (whitespace before the colon) as a name with the whitespace, and
        // glues an obsolete folded line onto the name before it (`X-A: 1\r\n Transfer-Encoding:
        // chunked` → `x-atransfer-encoding: chunked`, `Content-Length: 4\r\n chunked` →
        // `content-lengthchunked`): a name that is no token, or that is a framing header's name
        // with more after it. A folded single word after another header is not seen (it changes
        // no framing here; see docs/security.md).
        for header in headers {
            let name = header.name.utf8
            if name.isEmpty || !name.allSatisfy(RequestHead.isTokenCharacter) {
                return "no whitespace is allowed in a header name or before its colon, and no line may be folded"
            }
            // Every request passes here: the string comparisons only for a name that could be one.
            if name.count > 14, name.first == UInt8(ascii: "c") || name.first == UInt8(ascii: "t"),
                header.name.hasPrefix("content-length") && header.name != "content-length"
                    || header.name.hasPrefix("transfer-encoding") && header.name != "transfer-encoding"
            {
                return "header lines must not be folded (a line beginning with whitespace)"
            }
        }
        let lengths = headers.filter { $0.name == "content-length" }
        let encodings = headers.filter { $0.name == "transfer-encoding" }
        if lengths.count > 1 { return "Content-Length must be sent once" }
        if let length = lengths.first, Int(length.value) == nil || length.value.hasPrefix("+") {
            return "Content-Length must be a whole number of bytes"
        }
        if !encodings.isEmpty {
            if !lengths.isEmpty { return "send either Content-Length or Transfer-Encoding, not both" }
            if encodings.count > 1 || encodings[0].value.lowercased() != "chunked" {
                return "Transfer-Encoding may only be chunked"
            }
        }
        return nil
    }

    /// The subject CN of the connection's client certificate, when its chain verified.
    static func certificateName(_ connection: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard cmhd_client_certificate_name(connection, &buffer, buffer.count) == 1 else { return nil }
        return String(validatingCString: buffer)
    }

    /// The connection's client address, from libmicrohttpd's connection info.
    static func clientAddress(_ connection: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        guard cmhd_client_address(connection, &buffer, buffer.count) == 1 else { return nil }
        return String(cString: buffer)
    }

    private func access(
        _ connection: OpaquePointer, _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
        _ uploadData: UnsafePointer<CChar>?, _ uploadDataSize: UnsafeMutablePointer<Int>,
        _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        // First call: headers only.
        guard let raw = requestContext.pointee else {
            KeptConnections.of(cmhd_socket_context(connection))?.headArrived()
            let sent = method.map { String(cString: $0) } ?? ""
            let exchange = Exchange(
                method: HTTPServer.knownMethods.contains(sent) ? sent : "OTHER",
                path: url.map { String(cString: $0) } ?? "/")
            exchange.clientAddress = HTTPServer.clientAddress(connection)
            if options.tlsTrustPEM != nil { exchange.clientCertificateName = HTTPServer.certificateName(connection) }
            let pointer = Unmanaged.passRetained(exchange).toOpaque()
            requestContext.pointee = pointer
            let stopping = lock.withLock { () -> Bool in
                inFlight += 1
                return self.stopping
            }
            MHD_get_connection_values_n(connection, .HEADER_KIND, HTTPServer.collect, pointer)
            MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, HTTPServer.collect, pointer)
            let request = HTTPRequest(method: exchange.method, path: exchange.path)
            exchange.route = handler.route(for: request)
            exchange.maxBody = handler.maxBodyBytes(route: exchange.route) ?? options.maxBodyBytes
            if stopping {
                exchange.answered = true
                return queue(
                    connection, exchange, .error(.unavailable("the server is stopping: retry in a few seconds")))
            }
            if let problem = HTTPServer.framingProblem(exchange.headers) {
                exchange.answered = true
                return queue(connection, exchange, .error(.missingParameters(problem)))
            }
            if let declared = exchange.headers.first(where: { $0.name == "content-length" }),
                let size = Int(declared.value), size > exchange.maxBody
            {
                // Refused before a byte of the body is read (curl's Expect: 100-continue is never
                // answered); the unread body is then read and thrown away by a lingering close
                // (see `done`), so that a client that writes before it reads still sees the 413.
                exchange.answered = true
                return queue(connection, exchange, .error(.payloadTooLarge(limit: exchange.maxBody)))
            }
            return .YES
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeUnretainedValue()
        // Body chunks.
        if uploadDataSize.pointee > 0 {
            let size = uploadDataSize.pointee
            uploadDataSize.pointee = 0
            exchange.received += size
            if exchange.refused != nil {
                // MHD can only answer once the body has ended (a body without a declared length);
                // past this much more, the client is not listening: close the connection.
                return exchange.received > exchange.maxBody + options.lingerBytes ? .NO : .YES
            }
            if exchange.body.count + size > exchange.maxBody {
                exchange.body = []
                exchange.refused = .error(.payloadTooLarge(limit: exchange.maxBody))
                return .YES
            }
            if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                    exchange.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
                }
            }
            return .YES
        }
        if let refused = exchange.refused {
            exchange.refused = nil
            exchange.answered = true
            return queue(connection, exchange, refused)
        }
        // Resumed after a delay: the response is ready.
        if let ready = exchange.ready {
            exchange.ready = nil
            return queue(connection, exchange, ready)
        }
        if exchange.suspended || exchange.answered { return .YES }
        let request = HTTPRequest(
            method: exchange.method, path: exchange.path, headers: exchange.headers, query: exchange.query,
            body: exchange.body, clientAddress: exchange.clientAddress,
            clientCertificateName: exchange.clientCertificateName)
        exchange.body = []
        // English unless a handler says otherwise (the staff API answers in its client's
        // language): the phones' and hospitals' APIs speak their specs' words whatever the
        // server's locale.
        switch Language.$scoped.withValue(.en, operation: { handler.handle(request, route: exchange.route) }) {
        case .now(let response):
            return queue(connection, exchange, response)
        case .after(let delay, let produce):
            let handle = Connection(pointer: connection)
            // No delay configured (benchmarks), or the server is past its grace: answer on this
            // thread, without a suspend/resume round.
            let suspend = lock.withLock { () -> Bool in
                guard delay > .zero, !swept else { return false }
                suspendedNow += 1
                suspendedPeak = max(suspendedPeak, suspendedNow)
                waiting[ObjectIdentifier(exchange)] = (exchange, handle)
                timersPending += 1
                return true
            }
            guard suspend else {
                return queue(connection, exchange, Language.$scoped.withValue(.en, operation: produce))
            }
            exchange.suspended = true
            MHD_suspend_connection(connection)
            // The answer may need the store: produced by a bounded set of workers, so a store that
            // stays locked holds `threads` threads at most, not one per waiting request.
            let answer: @Sendable () -> Void = {
                self.workers.addOperation {
                    self.finish(exchange, handle, produce)
                    self.lock.withLock { self.timersPending -= 1 }
                }
            }
            if let delays = options.delays {
                // Not cancelled: a timer always runs out (or its request is already answered).
                Task.detached {
                    try? await delays.sleep(delay)
                    answer()
                }
            } else {
                let nanoseconds = max(
                    0, delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000)
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds)), execute: answer)
            }
            return .YES
        case .suspended(let start):
            let handle = Connection(pointer: connection)
            // Claimed from the start: `stop` waits for the answer rather than replacing it (an
            // account may be added by the work; its admin must hear so).
            let suspend = lock.withLock { () -> Bool in
                guard !swept else { return false }
                suspendedNow += 1
                suspendedPeak = max(suspendedPeak, suspendedNow)
                claimed += 1
                return true
            }
            guard suspend else {
                return queue(
                    connection, exchange, .error(.unavailable("the server is stopping: retry in a few seconds")))
            }
            exchange.suspended = true
            MHD_suspend_connection(connection)
            start { response in self.resume(exchange, handle, response) }
            return .YES
        }
    }

    /// Answers a request suspended by a `.suspended` result (once; a second call is ignored).
    private func resume(_ exchange: Exchange, _ handle: Connection, _ response: HTTPResponse) {
        let first = lock.withLock { () -> Bool in
            guard exchange.suspended, exchange.ready == nil else { return false }
            exchange.ready = response
            exchange.suspended = false
            suspendedNow -= 1
            return true
        }
        guard first else { return }
        MHD_resume_connection(handle.pointer)
        lock.withLock { claimed -= 1 }
    }

    /// Produces the answer of a request whose delay is over, and resumes its connection.
    private func finish(_ exchange: Exchange, _ handle: Connection, _ produce: @Sendable () -> HTTPResponse) {
        // Claim it first: once claimed, `stop` waits for the answer instead of replacing it
        // (an upload may be stored by `produce`; its phone must hear 204, not 503).
        let mine = lock.withLock { () -> Bool in
            guard waiting.removeValue(forKey: ObjectIdentifier(exchange)) != nil else { return false }
            claimed += 1
            return true
        }
        guard mine else { return }
        resume(exchange, handle, Language.$scoped.withValue(.en, operation: produce))
    }

    private func queue(_ connection: OpaquePointer, _ exchange: Exchange, _ response: HTTPResponse) -> MHD_Result {
        let body = response.body
        let made = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let made else { return .NO }
        for header in response.headers {
            MHD_add_response_header(made, header.name, header.value)
        }
        if exchange.answered || oneRequestPerConnection || lock.withLock({ stopping }) {
            // Refused early (the body may be unread), stopping, or a plain listener (whose next
            // head the gate would not see): this connection ends here.
            MHD_add_response_header(made, "Connection", "close")
        }
        exchange.status = response.status
        let result = MHD_queue_response(connection, UInt32(response.status), made)
        MHD_destroy_response(made)
        return result
    }
}
