import DeskServer
import DeskTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Kept-alive connections (issue 18, points 8 and 9 after the first head): the gate checks
/// only a connection's first head, so every later one is checked from what libmicrohttpd
/// parsed, and gets the same deadline and cap. Each framing is sent as the SECOND request.
@Suite("Kept-alive connections: later heads checked, timed and capped")
struct KeepAliveHTTPTests {
    static let health = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
    static let hidden = "GET /hidden HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Framings a proxy could read differently, as libmicrohttpd 0.9.75 shows them: whitespace
    /// before a colon stays in the name; a folded line is glued onto the name before it.
    static let framings = [
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length\t: 5\r\n\r\nhello",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding:\r\n chunked\r\n\r\nhello",
        "POST / HTTP/1.1\r\nHost: x\r\nX-A: b\r\n Transfer-Encoding: chunked\r\nContent-Length: 0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\tX-B: c\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
    ]

    @Test("a kept connection serves several requests, without Connection: close")
    func servesSeveral() async throws {
        // No head deadline to meet here (a loaded machine may pause the test between requests).
        let f = try ServerFixture(configure: { $0.headDeadlineSeconds = 600 })
        let client = try KeepAlive(port: f.server.phonePort, readTimeout: 30)
        defer { client.close() }
        let replies = try await offPool { try (0..<5).map { _ in try client.exchange(Self.health) } }
        for reply in replies {
            #expect(reply.status == 200)
            #expect(reply.header("Connection") == nil)
        }
    }

    @Test("on the second request: whitespace before a colon, folded lines, double or mixed lengths: 400 {1100}, closed")
    func secondRequestFramings() async throws {
        let f = try ServerFixture(configure: { $0.headDeadlineSeconds = 600 })
        for request in Self.framings {
            for port in [f.server.phonePort, f.server.internalPort] {
                let client = try KeepAlive(port: port, readTimeout: 30)
                defer { client.close() }
                let (first, rest) = try await offPool { () throws -> (Reply, [UInt8]) in
                    let first = try client.exchange(Self.health)
                    client.send(Array((request + Self.hidden).utf8))
                    return (first, client.receiveAll())
                }
                #expect(first.status == 200)
                let reply = HTTP.parse(rest)
                #expect(reply.status == 400, "\(request.debugDescription)")
                #expect(reply.errorCode == 1100)
                #expect(reply.header("Connection")?.lowercased() == "close")
                let text = String(decoding: rest, as: UTF8.self)
                #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer only: \(text)")
                #expect(!text.contains("hidden") && !text.contains("hello"), "nothing sent is echoed")
            }
        }
        // The hidden requests were never answered: two exchanges per connection were logged
        // (the log line of the last one may follow its close).
        try await eventually(within: .seconds(60), "two access-log lines per connection") {
            f.accessLines.all.count >= Self.framings.count * 4
        }
        #expect(f.accessLines.all.count == Self.framings.count * 4, "\(f.accessLines.all)")
    }

    @Test("a kept connection trickling its second head is cut at the head deadline, counted as a timeout")
    func secondHeadDeadline() async throws {
        let f = try ServerFixture(configure: { $0.headDeadlineSeconds = 1 })
        let client = try KeepAlive(port: f.server.phonePort, readTimeout: 1)
        defer { client.close() }
        #expect(try await offPool { try client.exchange(Self.health) }.status == 200)
        let outcome = try await offPool { () throws -> (closed: Bool, lines: Int) in
            var lines = 0
            client.send(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8))
            var closed = false
            // A line every few tenths of a second, always within the idle timeout (15 s), until
            // the server ends the connection: a loud failure if it has not within a minute.
            try eventuallyBlocking(within: .seconds(60), "the server ending the trickling second head") {
                var byte: UInt8 = 0
                var watch = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
                if poll(&watch, 1, 200) > 0 {
                    closed = recv(client.fd, &byte, 1, 0) <= 0
                    return true
                }
                let line = Array("X-Line-\(lines): x\r\n".utf8)
                if line.withUnsafeBytes({ send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) <= 0 {
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
        // At least this one (other idle kept connections of the test may have expired as well).
        let line = String(decoding: metrics.body, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix(#"tracedesk_http_heads_refused_total{reason="kept_timeout"}"#) }
        #expect((line?.split(separator: " ").last).flatMap { Int($0) } ?? 0 >= 1, "\(line ?? "none")")
    }

    @Test("idle kept connections count against the cap on heads being read: the busiest address gives way")
    func idleCap() async throws {
        // No expiry by the deadline meanwhile: the cap alone acts.
        let f = try ServerFixture(configure: {
            $0.maxConnectionsReadingHead = 16
            $0.headDeadlineSeconds = 600
        })
        let port = f.server.phonePort
        // 40 connections from 127.0.0.2, each served once and then left idle (closed at the end).
        // One at a time: connected, served, then idle.
        let held = try await offPool { () throws -> [(KeepAlive, Int)] in
            try (0..<40).map { _ in
                let client = KeepAlive(fd: try StrictHTTPTests.connect(port, from: "127.0.0.2"))
                return (client, try client.exchange(Self.health).status)
            }
        }.map { $0 }
        defer { for (client, _) in held { client.close() } }
        #expect(held.allSatisfy { $0.1 == 200 }, "\(held.map(\.1))")
        let metricsURL = f.internalURL.appendingPathComponent("metrics")
        try await eventually(within: .seconds(60), "24 kept connections evicted (heads_refused evicted 24)") {
            let text = String(decoding: try await HTTP.send("GET", metricsURL).body, as: UTF8.self)
            return text.contains(#"tracedesk_http_heads_refused_total{reason="evicted"} 24"#)
        }
        // The evicted ones were shut by the server; a fresh client is served.
        let oldest = held.prefix(24).map(\.0)
        let ended = try await offPool { oldest.map { $0.receiveEnd() } }
        #expect(ended.allSatisfy { $0 == 0 }, "\(ended)")
        let fresh = try StrictHTTPTests.connect(port, from: "127.0.0.3")
        let client = KeepAlive(fd: fresh)
        defer { client.close() }
        #expect(try await offPool { try client.exchange(Self.health) }.status == 200)
    }

    @Test("a request suspended longer than the head deadline (check-otp's delay) is answered, and its connection kept")
    func suspendedIsNotAHead() async throws {
        let f = try ServerFixture(configure: {
            $0.headDeadlineSeconds = 2
            $0.checkDelayMeanMs = 4_000
            $0.checkDelaySdMs = 0
        })
        let client = try KeepAlive(port: f.server.phonePort, readTimeout: 30)
        defer { client.close() }
        let body = Array(#"{"padding":""}"#.utf8)
        var head = "POST /v1/ingestion/check-otp HTTP/1.1\r\nHost: x\r\n"
        for (name, value) in Phone.headers(token: HardeningTests.token, dummy: "1") { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        // The next request is sent with it (pipelined), so the connection never waits on the
        // test's own speed: only the suspended time, twice the deadline, lies between the heads.
        let request = Array(head.utf8) + body + Array(Self.health.utf8)
        let replies = try await offPool { () -> [Reply] in
            client.send(request)
            return client.receiveReplies(2)
        }
        try #require(replies.count == 2, "both answered on the same connection")
        let checked = replies[0]
        #expect(checked.status == 200 || checked.status == 204 || checked.status == 401, "\(checked.status)")
        #expect(checked.header("Connection") == nil)
        #expect(replies[1].status == 200)
    }

    @Test("http_keep_alive false: every answer ends its connection")
    func keepAliveOff() async throws {
        let f = try ServerFixture(configure: { $0.httpKeepAlive = false })
        let client = try KeepAlive(port: f.server.phonePort, readTimeout: 30)
        defer { client.close() }
        let reply = try await offPool { try client.exchange(Self.health) }
        #expect(reply.status == 200)
        #expect(reply.header("Connection")?.lowercased() == "close")
        #expect(try await offPool { client.receiveEnd() } == 0, "the server closed the connection")
    }
}

extension KeepAlive {
    /// The next `count` answers (each framed by its Content-Length), fewer if the connection ends.
    func receiveReplies(_ count: Int) -> [Reply] {
        var data: [UInt8] = []
        var replies: [Reply] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while replies.count < count {
            // Take every whole answer at the front of `data`.
            while let end = data.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = HTTP.parse(Array(data[..<end.upperBound]))
                let length = Int(head.header("Content-Length") ?? "0") ?? 0
                guard data.count - end.upperBound >= length else { break }
                replies.append(HTTP.parse(Array(data[..<(end.upperBound + length)])))
                data.removeFirst(end.upperBound + length)
            }
            if replies.count >= count { break }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        return replies
    }

    /// Everything the server sends until it closes the connection (or the read timeout).
    func receiveAll() -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return data }
            data += buffer[0..<n]
        }
    }
}
