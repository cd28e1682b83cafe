import DeskServer
import DeskTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 18, points 7-9 over real loopback HTTP: framing a proxy could read differently, a 413
/// a client sees although it writes before it reads, header trickles, and a log that fails.
@Suite("Strict HTTP, slow clients, failing logs")
struct StrictHTTPTests {
    /// The three lenient framings libmicrohttpd accepted, each with a request hidden after it.
    static let smuggled = [
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nX-A: b\r\n c\r\nContent-Length: 0\r\n\r\n",
        "POST / HTTP/1.1\nHost: x\nContent-Length: 5\n\nhello",
    ].map { $0 + "GET /hidden HTTP/1.1\r\nHost: x\r\n\r\n" }

    @Test(
        "space before a colon, a folded line, bare LFs: 400 with the error body, closed, the hidden request unanswered")
    func smuggling() async throws {
        let f = try ServerFixture()
        for request in Self.smuggled {
            for port in [f.server.phonePort, f.server.internalPort] {
                let reply = try await HTTP.rawAsync(port, Array(request.utf8))
                #expect(reply.status == 400, "\(request.debugDescription)")
                #expect(reply.errorCode == 1100)
                #expect(reply.header("Connection")?.lowercased() == "close")
                let text = String(decoding: reply.body, as: UTF8.self)
                #expect(!text.contains("HTTP/1.1"), "one answer only: \(text)")
                #expect(!text.contains("hello") && !text.contains("hidden"), "nothing sent is echoed")
            }
        }
        // Nothing reached a handler: the only requests logged are none at all.
        #expect(f.accessLines.all.isEmpty, "\(f.accessLines.all)")
        let metrics = try await HTTP.send("GET", f.internalURL.appendingPathComponent("metrics"))
        #expect(
            String(decoding: metrics.body, as: UTF8.self).contains(
                #"tracedesk_http_heads_refused_total{reason="malformed"} 6"#))
    }

    @Test("a head longer than max_head_bytes: 400 {1100} naming the limit, and the server serves on")
    func longHead() async throws {
        let f = try ServerFixture(configure: { $0.maxHeadBytes = 4_096 })
        let head = "GET / HTTP/1.1\r\nHost: x\r\nX-Long: \(String(repeating: "a", count: 5_000))\r\n\r\n"
        let reply = try await HTTP.rawAsync(f.server.phonePort, Array(head.utf8))
        #expect(reply.status == 400 && reply.errorCode == 1100)
        #expect(reply.detail?.contains("longer than 4096 bytes") == true, "\(reply.detail ?? "")")
        let fits =
            "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Long: \(String(repeating: "a", count: 3_000))\r\n\r\n"
        #expect(try await HTTP.rawAsync(f.server.phonePort, Array(fits.utf8)).status == 200)
    }

    @Test("a client that writes a whole 2 MB body before it reads gets the 413, not a reset")
    func tooLargeWrittenFirst() async throws {
        let f = try ServerFixture()
        let body = [UInt8](repeating: UInt8(ascii: "a"), count: 2_000_000)
        let request = HTTP.request("POST", "/v1/ingestion/upload", headers: HardeningTests.phoneHeaders, body: body)
        let (sentAll, reply) = try await offPool { () throws -> (Bool, Reply) in
            let fd = try HTTP.connect(f.server.phonePort, readTimeout: 60)
            defer { close(fd) }
            var sent = 0
            while sent < request.count {
                let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sent += n
            }
            var response: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                response += buffer[0..<n]
            }
            return (sent == request.count, HTTP.parse(response))
        }
        #expect(sentAll, "the server read (and threw away) the whole body instead of resetting")
        #expect(reply.status == 413 && reply.errorCode == 1013)
        // The server is still there.
        #expect(try await HTTP.send("GET", f.phone).status == 200)
    }

    @Test("a head that trickles in steadily is closed at the head deadline, while others are served")
    func headDeadline() async throws {
        let f = try ServerFixture(configure: { $0.headDeadlineSeconds = 1 })
        let port = f.server.phonePort
        let outcome = try await offPool { () throws -> (closed: Bool, lines: Int) in
            let fd = try HTTP.connect(port, readTimeout: 1)
            defer { close(fd) }
            var lines = 0
            var closed = false
            let head = Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8)
            _ = head.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // A line every few tenths of a second, always within the idle timeout (15 s), until
            // the server ends the connection: a loud failure if it has not within a minute.
            try eventuallyBlocking(within: .seconds(60), "the server ending the trickling head") {
                var byte: UInt8 = 0
                var watch = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                // Readable: the server closed (0) or reset the connection (-1: it closed with this
                // test's last line still unread, which makes the kernel send a reset).
                if poll(&watch, 1, 200) > 0 {
                    closed = recv(fd, &byte, 1, 0) <= 0
                    return true
                }
                let line = Array("X-Line-\(lines): x\r\n".utf8)
                if line.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) <= 0 {
                    closed = true
                    return true
                }
                lines += 1
                return false
            }
            return (closed, lines)
        }
        #expect(outcome.closed, "the server ended the connection (after \(outcome.lines) lines)")
        #expect(try await HTTP.send("GET", f.phone).status == 200)
        let metrics = try await HTTP.send("GET", f.internalURL.appendingPathComponent("metrics"))
        #expect(
            String(decoding: metrics.body, as: UTF8.self).contains(
                #"tracedesk_http_heads_refused_total{reason="timeout"} 1"#))
    }

    @Test("past the cap on connections reading their head, the busiest address gives way: a fresh client is served")
    func trickleCap() async throws {
        let f = try ServerFixture(configure: { $0.maxConnectionsReadingHead = 16 })
        let port = f.server.phonePort
        // 40 unfinished heads from 127.0.0.2 (bounded: closed at the end of the test).
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        for _ in 0..<40 {
            let fd = try Self.connect(port, from: "127.0.0.2")
            let head = Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8)
            _ = head.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            held.append(fd)
        }
        // Wait for the gate to have taken them all (24 evicted), then a fresh client comes.
        let metricsURL = f.internalURL.appendingPathComponent("metrics")
        try await eventually(within: .seconds(60), "24 trickling heads evicted (heads_refused evicted 24)") {
            let text = String(decoding: try await HTTP.send("GET", metricsURL).body, as: UTF8.self)
            return text.contains(#"tracedesk_http_heads_refused_total{reason="evicted"} 24"#)
        }
        let fresh = try await offPool { () throws -> Reply in
            let fd = try Self.connect(port, from: "127.0.0.1")
            defer { close(fd) }
            let request = Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var response: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                response += buffer[0..<n]
            }
            return HTTP.parse(response)
        }
        #expect(fresh.status == 200)
    }

    @Test(
        "slow bodies past max_connections and max_connections_per_address are answered 503 by the gate, and once they go every place is free again"
    )
    func connectionCaps() async throws {
        let f = try ServerFixture(configure: {
            $0.maxConnections = 20
            $0.maxConnectionsPerAddress = 12
            $0.headDeadlineSeconds = 600
            $0.connectionTimeoutSeconds = 600
        })
        let port = f.server.phonePort
        // Whole heads, then bodies that never come: 12 from 127.0.0.2 (its cap), 8 from
        // 127.0.0.3 (the total), then one more from each address and one from 127.0.0.4.
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        @Sendable func open(_ source: String) throws -> Int32 { try Self.slowBody(port, from: source) }
        func waitHeld(_ count: Int) async throws {
            try await eventually(
                within: .seconds(60), "\(count) connections held (held: \(f.server.phoneConnectionsHeld))"
            ) {
                f.server.phoneConnectionsHeld == count
            }
        }
        for _ in 0..<12 { held.append(try open("127.0.0.2")) }
        try await waitHeld(12)
        let overAddress = try await offPool { () throws -> Reply in
            let fd = try open("127.0.0.2")
            defer { close(fd) }
            return HTTP.parse(Self.readAll(fd))
        }
        #expect(overAddress.status == 503 && overAddress.errorCode == 1003)
        #expect(overAddress.text.contains("max_connections_per_address"))
        for _ in 0..<8 { held.append(try open("127.0.0.3")) }
        try await waitHeld(20)
        let overTotal = try await offPool { () throws -> Reply in
            let fd = try open("127.0.0.4")
            defer { close(fd) }
            return HTTP.parse(Self.readAll(fd))
        }
        #expect(overTotal.status == 503 && overTotal.text.contains("max_connections"))
        // The slow bodies go: every place comes back, and a fresh client is served.
        for fd in held { close(fd) }
        held = []
        try await waitHeld(0)
        #expect(try await HTTP.send("GET", f.phone).status == 200)
    }

    /// A connection from `source` with a whole head whose body never comes.
    static func slowBody(_ port: UInt16, from source: String) throws -> Int32 {
        let fd = try connect(port, from: source)
        let head = Array(
            "POST /v1/ingestion/check-otp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
                .utf8)
        _ = head.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return fd
    }

    /// Everything the server sends until it closes (bounded by the socket's read timeout).
    static func readAll(_ fd: Int32) -> [UInt8] {
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            response += buffer[0..<n]
        }
        return response
    }

    @Test("with TLS (no head gate) a space before a header's colon is still 400 {1100}, from the names MHD hands over")
    func tlsHeaderName() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem").path
        let cert = directory.appendingPathComponent("cert.pem").path
        _ = try await offPool {
            try ProtocolTests.run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
                    "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
                ])
        }
        let f = try ServerFixture(configure: {
            $0.tlsCert = cert
            $0.tlsKey = key
        })
        let port = f.server.phonePort
        let output = try await offPool { () throws -> String in
            // -quiet implies -ign_eof: it reads until the server closes.
            let out = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tracedesk-tls-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: out) }
            let request =
                "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\nGET /hidden HTTP/1.1\r\nHost: x\r\n\r\n"
            try ChildProcess.run(
                "/usr/bin/openssl", ["s_client", "-quiet", "-connect", "127.0.0.1:\(port)", "-CAfile", cert],
                input: .bytes(Array(request.utf8)), stdout: .file(out.path))
            let data = try Data(contentsOf: out)
            return String(decoding: data, as: UTF8.self)
        }
        #expect(output.hasPrefix("HTTP/1.1 400"), "\(output)")
        #expect(output.contains(#""error_code":1100"#))
        #expect(output.components(separatedBy: "HTTP/1.1").count == 2, "one answer only")
    }

    @Test("a log on a full disk or a gone reader: the line is dropped and counted, nothing traps")
    func logFailures() throws {
        LogWriter.ignoreBrokenPipes()
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0)
        defer { close(full) }
        let toFull = LogWriter(descriptor: full)
        #expect(!toFull.line("incident 1: the store is full"))
        #expect(!toFull.write(Array("a\nb\n".utf8), lines: 2))
        #expect(toFull.failures == 3)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let toPipe = LogWriter(descriptor: ends[1])
        #expect(toPipe.line("read"))
        close(ends[0])
        #expect(!toPipe.line("nobody reads this"))
        #expect(toPipe.failures == 1)
        close(ends[1])
    }

    /// A socket connected to 127.0.0.1:`port` from the source address `source` (127.x.y.z).
    static func connect(_ port: UInt16, from source: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = port.bigEndian
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &local) { l in
            withUnsafePointer(to: &remote) { r in
                l.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                } == 0
                    && r.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    } == 0
            }
        }
        guard fd >= 0, ok else {
            close(fd)
            throw CocoaError(.fileReadUnknown)
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }
}
