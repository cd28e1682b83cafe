import DeskServer
import DeskTestSupport
import Foundation
import Testing

/// Inputs found by fuzzing the server: each once misbehaved.
@Suite("HTTP hardening")
struct HardeningTests {
    static let token = Phone.hash("9K2RAY8UUQ")
    static let phoneHeaders = [
        "Content-Type: application/json", "Authorization: Bearer \(token)", "Immuni-Dummy-Data: 0",
    ]

    @Test("a %00 in a path or a query value never cuts it short")
    func nulBytes() async throws {
        let f = try ServerFixture()
        let path = try await HTTP.send(
            "POST", URL(string: "\(f.internalURL.absoluteString)/v1/otp%00junk")!,
            headers: ["Content-Type": "application/json"], body: Data(#"{"otp":"9K2RAY8UUQ"}"#.utf8))
        #expect(path.status == 404)
        let query = try await HTTP.send(
            "GET", URL(string: "\(f.phone.absoluteString)/v1/settings?platform=android%00junk&build=1")!)
        #expect(query.status == 400)
    }

    @Test("two Content-Lengths, or a Transfer-Encoding other than chunked: 400, and the connection ends")
    func framing() async throws {
        let f = try ServerFixture()
        let smuggled =
            "POST /v1/otp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 0\r\nContent-Length: 53\r\n\r\n"
            + "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let reply = try await HTTP.rawAsync(f.server.internalPort, Array(smuggled.utf8))
        #expect(reply.status == 400)
        #expect(reply.detail?.contains("Content-Length must be sent once") == true)
        #expect(!reply.text.contains("tracedesk_"))
        let gzip =
            "POST /v1/ingestion/check-otp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\nContent-Type: application/json\r\n\r\nxx"
        // Answered at all (the client reads for 10 s, the server would wait 15 s for a body):
        // refused on the header, without waiting for a body.
        let encoded = try await HTTP.rawAsync(f.server.phonePort, Array(gzip.utf8))
        #expect(encoded.status == 400)
    }

    @Test("an odd method is 405, logged and counted as OTHER: no code in the log, no new metrics series")
    func methods() async throws {
        let f = try ServerFixture()
        for i in 0..<50 {
            let reply = try await HTTP.rawAsync(
                f.server.phonePort,
                Array("9K2RAY8U\(String(format: "%02d", i)) / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            #expect(reply.status == 405 || reply.status == 400)
        }
        let quoted = try await HTTP.rawAsync(
            f.server.phonePort, Array("X\"}\\ / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(quoted.status == 405 || quoted.status == 400)
        // A last, ordinary request: once its line is in the access log, so are the others'.
        let marker = try await HTTP.rawAsync(
            f.server.phonePort, Array("GET /?after-odd-methods HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        #expect(marker.status == 200)
        try await eventually(within: .seconds(30), "the last request's access-log line") {
            f.accessLines.all.contains { $0.contains("public GET / 200") }
        }
        #expect(f.accessLines.all.allSatisfy { !$0.contains("9K2RAY8U") && !$0.contains("\"") })
        let metrics = f.server.metrics.render()
        #expect(!metrics.contains("9K2RAY8U"))
        #expect(!metrics.contains(#"X"}"#))
        #expect(metrics.components(separatedBy: #"method="OTHER""#).count - 1 <= 2)
    }

    @Test("JSON numbers with leading zeros are malformed; huge chunk indexes are 400")
    func numbers() async throws {
        let f = try ServerFixture()
        try f.authorize("9K2RAY8UUQ")
        let body =
            #"{"teks":[{"key_data":"AAECAwQFBgcICQoLDA0ODw==","rolling_start_number":02993040,"rolling_period":0144}]}"#
        let reply = try await HTTP.send(
            "POST", f.phone.appendingPathComponent("v1/ingestion/upload"),
            headers: Phone.headers(token: Self.token, clock: Phone.now), body: Data(body.utf8))
        #expect(reply.status == 400)
        #expect(reply.detail?.contains("may not start with 0") == true)
        for index in ["2147483648", "9223372036854775807"] {
            #expect(try await HTTP.send("GET", f.phone.appendingPathComponent("v1/keys/\(index)")).status == 400)
        }
    }

    @Test("trailing spaces after a header value are not part of it")
    func trailingSpaces() async throws {
        let f = try ServerFixture()
        let reply = try await HTTP.rawAsync(
            f.server.phonePort,
            HTTP.request(
                "POST", "/v1/ingestion/check-otp",
                headers: [
                    "Content-Type: application/json ", "Authorization: Bearer \(Self.token) ", "Immuni-Dummy-Data: 1 ",
                ],
                body: Array(#"{"padding":""}"#.utf8)))
        #expect(reply.status == 204 || reply.status == 401)
    }

    @Test("operational-info answers carry Cache-Control: no-store, like every 204")
    func operationalInfoNoStore() async throws {
        let f = try ServerFixture()
        let body =
            #"{"province":"RM","exposure_permission":1,"bluetooth_active":1,"notification_permission":1,"exposure_notification":0,"last_risky_exposure_on":"\#(Date().utcDay.iso)"}"#
        for dummy in ["0", "1"] {
            let reply = try await HTTP.send(
                "POST", f.phone.appendingPathComponent("v1/analytics/apple/operational-info"),
                headers: [
                    "Content-Type": "application/json", "Authorization": "Bearer \(String(repeating: "ab", count: 64))",
                    "Immuni-Dummy-Data": dummy,
                ], body: Data(body.utf8))
            #expect(reply.status == 204)
            #expect(reply.header("Cache-Control") == "no-store")
        }
    }

    @Test("stopping while requests wait out a long delay answers them 503 instead of crashing")
    func stopWithSuspended() async throws {
        // The delays wait on the test's clock, which lets them run out only when the test says so:
        // however slow the machine, they are still running when the grace ends.
        let delays = HeldDelays()
        let f = try ServerFixture(delayMs: 30_000, delays: delays.clock)
        let url = f.phone.appendingPathComponent("v1/ingestion/check-otp")
        let pending = (0..<3).map { _ in
            Task {
                try await HTTP.send(
                    "POST", url, headers: Phone.headers(token: Self.token, dummy: "1"),
                    body: Data(#"{"padding":""}"#.utf8))
            }
        }
        try await eventually(within: .seconds(60), "three requests waiting out their delay") {
            f.server.phonePeakSuspended >= 3 && delays.waiting == 3
        }
        // The configured delay (30 s, give or take its spread) is what each waits out.
        #expect(delays.asked.allSatisfy { $0 > .seconds(29) }, "\(delays.asked)")
        let server = f.server
        try await offPool { server.stop(grace: .milliseconds(300)) }
        // Stop returned with the three delays still running: it did not wait them out.
        #expect(server.phoneDelaysPending == 3)
        #expect(delays.waiting == 3)
        // And it answered them itself (a request whose delay ran out is answered 204 or 401).
        for task in pending {
            let reply = try await task.value
            #expect(reply.status == 503)
            #expect(reply.errorCode == 1003)
        }
        // The timers that run out after the stop find nothing to resume (and crash nothing).
        delays.release()
        try await eventually(within: .seconds(60), "the three delays' timers ran out after the stop") {
            server.phoneDelaysPending == 0
        }
    }

    @Test("during the grace, a new request on an open connection is told to go away (503, Connection: close)")
    func newRequestWhileStopping() async throws {
        // Both connections wait on the test, which a loaded machine (the whole suite on two
        // cores) may pause for many seconds: neither the head deadline nor the idle timeout may
        // end them meanwhile.
        // The phone port stays held after the stop (bound, not listening), so the refused
        // connection below cannot reach another test's listener given the freed port.
        let held = try ReservedLoopbackPort()
        defer { held.release() }
        let f = try ServerFixture(configure: {
            $0.headDeadlineSeconds = 600
            $0.connectionTimeoutSeconds = 600
            $0.listen = ListenAddress(host: "127.0.0.1", port: held.port)
        })
        // The request in flight is held by the test, not by a timer: its body is sent only after
        // the late request was answered, so however slow the machine, the grace is still running.
        let body = Array(#"{"padding":""}"#.utf8)
        var head = "POST /v1/ingestion/check-otp HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        for (name, value) in Phone.headers(token: Self.token, dummy: "1") { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        let slow = try KeepAlive(port: f.server.phonePort, readTimeout: 30)
        defer { slow.close() }
        slow.send(Array(head.utf8) + body[..<4])
        try await eventually(within: .seconds(60), "the slow request in flight (its head read, its body not)") {
            f.server.phoneRequestsInFlight == 1
        }
        // A keep-alive connection, used once before the stop (and kept: HTTP/1.1's default).
        let client = try KeepAlive(port: f.server.phonePort, readTimeout: 30)
        defer { client.close() }
        let health = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
        let first = try await offPool { try client.exchange(health) }
        #expect(first.status == 200)
        #expect(first.header("Connection") == nil)
        let server = f.server
        let port = server.phonePort
        // A grace no machine runs out of: `stop` returns as soon as nothing is in flight, which is
        // when the test lets the slow request finish (waited for below, with a cap), so the rest
        // of the test finds the grace running however slow the machine.
        let stopped = Latch()
        let stopping = Task {
            try await offPool { server.stop(grace: .seconds(3_600)) }
            stopped.set()
        }
        try await eventually(within: .seconds(60), "the server's grace begun") { server.phoneStopping }
        // No new connection from the start of the grace; a new request on an open one is refused.
        #expect(throws: (any Error).self) { try HTTP.connect(port) }
        let late = try await offPool { try client.exchange(health) }
        #expect(late.status == 503)
        #expect(late.header("Connection")?.lowercased() == "close")
        #expect(try await offPool { client.receiveEnd() } == 0, "the server closed the connection")
        // The request that was in flight still gets its real answer.
        let finished = try await offPool { try slow.exchange(Array(body[4...])) }
        #expect(finished.status == 204 || finished.status == 401, "\(finished.status)")
        // With nothing left in flight, stop returns (not at the end of its grace).
        try await eventually(within: .seconds(60), "stop returning once the slow request was answered") {
            stopped.isSet
        }
        try await stopping.value
    }
}

/// One connection kept open across requests (answers with a Content-Length body).
final class KeepAlive: @unchecked Sendable {
    let fd: Int32

    init(port: UInt16, readTimeout: Int = 10) throws {
        fd = try HTTP.connect(port, readTimeout: readTimeout)
    }

    /// A socket already connected (from a chosen source address, say).
    init(fd: Int32) { self.fd = fd }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func exchange(_ request: String) throws -> Reply { try exchange(Array(request.utf8)) }

    func exchange(_ bytes: [UInt8]) throws -> Reply {
        send(bytes)
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            data += buffer[0..<n]
            let text = String(decoding: data, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let reply = HTTP.parse(data)
                let length = Int(reply.header("Content-Length") ?? "0") ?? 0
                if text[end.upperBound...].utf8.count >= length { return reply }
            }
        }
        return HTTP.parse(data)
    }

    /// What one more read returns after an answer: 0 when the server closed the connection.
    func receiveEnd() -> Int {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0)
    }

    func close() { Glibc.close(fd) }
}
