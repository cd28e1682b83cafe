import DeskHTTPClient
import DeskTestSupport
import Foundation
import Testing

/// The one HTTP client against real sockets on 127.0.0.1: what it sends, its two timeouts, the
/// size cap, redirects, cancellation and the kinds of failure. Waits are generous and nothing
/// is timed: a timeout test gives the other limit a minute, so only the kind of error tells
/// which limit ended the request.
@Suite("HTTP client")
struct HTTPClientTests {
    let client = HTTPClient()

    func outcome(_ request: HTTPClient.Request) async -> Result<HTTPClient.Response, HTTPClientError> {
        await client.result(request)
    }

    @Test("method, URL, headers and body arrive as given; the answer's status, headers and body come back")
    func roundTrip() async throws {
        let seen = Seen()
        let peer = try TestPeer { client, peer in
            seen.set(peer.readHead(client))
            TestPeer.write(client, "HTTP/1.1 201 Created\r\nX-Answer: yes\r\nContent-Length: 5\r\n\r\nhello")
            peer.hangUp(client)
        }
        defer { peer.stop() }
        let response = try await client.send(
            .init(
                "PUT", peer.url, headers: [("X-Probe", "42"), ("Content-Type", "text/plain")], body: Array("abc".utf8)))
        #expect(response.status == 201)
        #expect(response.header("x-answer") == "yes")
        #expect(response.body == Array("hello".utf8))
        let head = seen.value
        #expect(head.hasPrefix("PUT /path HTTP/1.1\r\n"))
        #expect(head.contains("X-Probe: 42\r\n"))
        #expect(head.contains("Content-Type: text/plain\r\n"))
        #expect(!head.lowercased().contains("expect:"))
        #expect(head.hasSuffix("\r\n\r\nabc"))
    }

    @Test("connecting to a peer that never completes the handshake ends at the connect timeout")
    func connectTimeout() async throws {
        let peer = try TestPeer(blackholed: ())
        defer { peer.stop() }
        let result = await outcome(
            .init("GET", peer.url, connectTimeout: .milliseconds(300), deadline: .seconds(60)))
        #expect(throws: HTTPClientError.timedOut(connecting: true)) { try result.get() }
    }

    @Test("an answer that trickles forever ends at the whole-request deadline, not at the connect timeout")
    func deadline() async throws {
        let peer = try TestPeer { client, peer in
            _ = peer.readHead(client)
            TestPeer.write(client, "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n")
            // A byte every 50 ms until the client hangs up (or the peer stops): a pace, not a
            // wait; any pace keeps the answer unfinished past the deadline.
            while TestPeer.write(client, "x") { usleep(50_000) }
        }
        defer { peer.stop() }
        let result = await outcome(.init("GET", peer.url, connectTimeout: .seconds(60), deadline: .seconds(1)))
        #expect(throws: HTTPClientError.timedOut(connecting: false)) { try result.get() }
    }

    @Test(
        "an answer larger than the cap is refused, declared or not; one at the cap is read", arguments: [true, false])
    func sizeCap(declared: Bool) async throws {
        let peer = try TestPeer { client, peer in
            let head = peer.readHead(client)
            let size = head.contains("GET /path?big") ? 2_000 : 1_000
            let body = String(repeating: "y", count: size)
            if declared {
                TestPeer.write(client, "HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\r\n\(body)")
            } else {
                TestPeer.write(client, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n\(body)")
            }
            peer.hangUp(client)
        }
        defer { peer.stop() }
        let big = URL(string: "http://127.0.0.1:\(peer.port)/path?big")!
        let result = await outcome(.init("GET", big, maxAnswerBytes: 1_000))
        #expect(throws: HTTPClientError.tooLarge(limit: 1_000)) { try result.get() }
        let atCap = try await client.send(.init("GET", peer.url, maxAnswerBytes: 1_000))
        #expect(atCap.body.count == 1_000)
    }

    @Test("a redirect is the answer: not followed, the other address gets no connection")
    func noRedirect() async throws {
        let elsewhere = try TestPeer()
        defer { elsewhere.stop() }
        let peer = try TestPeer { client, peer in
            _ = peer.readHead(client)
            TestPeer.write(
                client,
                "HTTP/1.1 307 Temporary Redirect\r\nLocation: \(elsewhere.url.absoluteString)\r\nContent-Length: 0\r\n\r\n"
            )
            peer.hangUp(client)
        }
        defer { peer.stop() }
        let response = try await client.send(.init("POST", peer.url, body: Array("secret".utf8)))
        #expect(response.status == 307)
        #expect(response.header("Location") == elsewhere.url.absoluteString)
        // A second request on the same client: had the first been followed, it would be there.
        _ = await outcome(.init("GET", peer.url))
        #expect(elsewhere.connections == 0)
    }

    @Test("a cancelled task ends its request with .cancelled, and the connection is closed")
    func cancellation() async throws {
        let peer = try TestPeer()
        defer { peer.stop() }
        let client = self.client
        let task = Task {
            await client.result(.init("GET", peer.url, connectTimeout: .seconds(60), deadline: .seconds(600)))
        }
        try await eventually(within: .seconds(60), "the peer read the request") { peer.requests == 1 }
        task.cancel()
        let result = await task.value
        #expect(throws: HTTPClientError.cancelled) { try result.get() }
        try await eventually(within: .seconds(60), "the peer saw the connection closed") { peer.closed == 1 }
    }

    @Test("a task cancelled before sending sends nothing")
    func cancelledBefore() async throws {
        let peer = try TestPeer()
        defer { peer.stop() }
        let client = self.client
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await client.result(.init("GET", peer.url))
        }
        let result = await task.value
        #expect(throws: HTTPClientError.cancelled) { try result.get() }
    }

    /// The cancellation reaches the engine's thread before the request does: the engine may end
    /// the transfer before its caller waits for it. Each such caller must still get its answer
    /// (a lost one left the demo's quit waiting forever, 4 times in 6).
    @Test("many tasks cancelled before sending: every one ends with .cancelled, none waits forever")
    func cancelledBeforeMany() async throws {
        let peer = try TestPeer()
        defer { peer.stop() }
        let client = self.client
        let ended = Tally()
        let count = 2_000
        for _ in 0..<count {
            Task {
                withUnsafeCurrentTask { $0?.cancel() }
                if case .failure(.cancelled) = await client.result(.init("GET", peer.url)) { ended.add() }
            }
        }
        try await eventually(within: .seconds(60), "\(count) cancelled requests ended, .cancelled") {
            ended.value == count
        }
        #expect(ended.value == count)
    }

    @Test("nobody listening: cannot connect, connection refused")
    func refused() async throws {
        let held = try ReservedLoopbackPort()
        defer { held.release() }
        let result = await outcome(.init("GET", URL(string: "http://127.0.0.1:\(held.port)/")!))
        #expect(throws: HTTPClientError.cannotConnect(reason: HTTPClientError.connectionRefused)) { try result.get() }
    }

    @Test(
        "closed without answering, cut off mid-answer, not HTTP: each its own kind",
        arguments: [
            ("", HTTPClientError.cutOff(beforeAnswer: true)),
            ("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this", .cutOff(beforeAnswer: false)),
            ("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n", .notHTTP),
        ])
    func brokenAnswers(answer: String, expected: HTTPClientError) async throws {
        let peer = try TestPeer { client, peer in
            _ = peer.readHead(client)
            TestPeer.write(client, answer)
            peer.hangUp(client)
        }
        defer { peer.stop() }
        let result = await outcome(.init("GET", peer.url))
        #expect(throws: expected) { try result.get() }
    }

    @Test("https to a plain listener is a TLS failure; a URL that is not http(s) is refused before sending")
    func tlsAndScheme() async throws {
        // What a plain HTTP server says to a TLS hello: an HTTP error, at once.
        // It then reads what the client sent (the TLS hello) until the client gives up and
        // closes: closing over unread bytes would reset the connection, a failure of another kind.
        let peer = try TestPeer { client, peer in
            TestPeer.write(client, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            peer.drain(client)
        }
        defer { peer.stop() }
        let result = await outcome(.init("GET", URL(string: "https://127.0.0.1:\(peer.port)/")!))
        guard case .failure(.tls) = result else {
            Issue.record("expected a TLS failure, got \(result)")
            return
        }
        let ftp = await outcome(.init("GET", URL(string: "ftp://127.0.0.1:\(peer.port)/")!))
        guard case .failure(.invalidRequest) = ftp else {
            Issue.record("expected invalidRequest, got \(ftp)")
            return
        }
    }
}

/// A value set by a peer's thread, read by the test.
final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func set(_ value: String) { lock.withLock { text = value } }
    var value: String { lock.withLock { text } }
}
