import CivilCalendar
import DeskContract
import DeskCore
import DeskRemote
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// What only a remote desk can meet: a server that is down or restarting, a listener that is
/// not TraceDesk, TLS on one side only. Every case ends in a ServiceError that says what to do;
/// none may trap.
@Suite struct RemoteDeskFailureTests {
    static let someone = StaffSession(
        token: "tds_" + String(repeating: "A", count: 43), user: "ana", role: .operator, signedInAt: Date(),
        expiresAt: Date() + 3600, idleSeconds: 600)

    /// Every use case once, against `desk`: the errors, in order.
    static func everyCall(_ desk: RemoteDesk) async -> [ServiceError?] {
        let s = someone
        let day = CivilDay(iso: "2026-11-29")!
        return [
            await failure { () async throws(ServiceError) in try await desk.needsFirstAdmin() },
            await failure { () async throws(ServiceError) in
                try await desk.createFirstAdmin(name: "root", password: "admin-pass-1234")
            },
            await failure { () async throws(ServiceError) in try await desk.signIn(name: "ana", password: "pass-pass-1")
            },
            await failure { () async throws(ServiceError) in try await desk.signOut(s) },
            await failure { () async throws(ServiceError) in
                try await desk.authorize(s, code: "9K2RAY8UUQ", symptomsStartedOn: day)
            },
            await failure { () async throws(ServiceError) in try await desk.status(s, of: "9K2RAY8UUQ") },
            await failure { () async throws(ServiceError) in try await desk.staff(s) },
            await failure { () async throws(ServiceError) in
                try await desk.addStaff(s, name: "bob", role: .tracer, password: "pass-pass-1")
            },
            await failure { () async throws(ServiceError) in try await desk.disableStaff(s, name: "bob") },
            await failure { () async throws(ServiceError) in
                try await desk.resetPassword(s, name: "bob", password: "pass-pass-2")
            },
            await failure { () async throws(ServiceError) in try await desk.audit(s, query: AuditQuery()) },
            await failure { () async throws(ServiceError) in try await desk.verifyAudit(s) },
            await failure { () async throws(ServiceError) in try await desk.identify() },
        ]
    }

    static let fast = RemoteDesk.Options(
        connectTimeout: .seconds(3), requestTimeout: .seconds(5), attempts: 1, firstBackoff: .milliseconds(10))

    // MARK: Down

    @Test("a server that is down: every call is .unavailable naming the URL, and the title bar says so")
    func serverDown() async throws {
        let closed = try closedPort()
        defer { closed.release() }
        let port = closed.port
        let desk = RemoteDesk(url: URL(string: "http://127.0.0.1:\(port)")!, options: Self.fast)

        let errors = await Self.everyCall(desk)

        for error in errors {
            guard case .unavailable(let text) = error else {
                Issue.record("expected .unavailable, got \(String(describing: error))")
                continue
            }
            #expect(text.contains("http://127.0.0.1:\(port)"))
            #expect(text.contains("cannot be reached (connection refused)"))
        }
        #expect(desk.connectionProblem == "server unreachable")
    }

    @Test("reads are retried while the title bar says 'server unreachable, retrying'; a server back up ends it")
    func retriesUntilServerReturns() async throws {
        // At high priority: the desk's retries, the wait for them and the server's start are each
        // a job of Swift's two-thread pool, and at the default priority each would queue behind
        // every other suite's test cases (a whole run once left the retrying call unstarted for
        // the wait's 60 s); ahead of them, what the test waits for happens whatever the rest does.
        try await Task(priority: .high) { try await Self.retryUntilServerReturns() }.value
    }

    static func retryUntilServerReturns() async throws {
        // Held until the end: nobody else's listener can be given the port while the desk
        // retries, and our server takes it over while it is held (SO_REUSEADDR).
        let closed = try closedPort()
        defer { closed.release() }
        let port = closed.port
        let desk = RemoteDesk(
            url: URL(string: "http://127.0.0.1:\(port)")!,
            options: RemoteDesk.Options(
                // Enough attempts for minutes: however slow the machine is to bring the server
                // back, the desk is still retrying when it comes.
                attempts: 600, firstBackoff: .milliseconds(100), maximumBackoff: .milliseconds(200)))
        #expect(desk.connectionProblem == nil)

        let call = Task { () async -> Result<Bool, ServiceError> in
            do throws(ServiceError) {
                return .success(try await desk.needsFirstAdmin())
            } catch {
                return .failure(error)
            }
        }
        try await eventually(within: .seconds(60), "the desk telling of its retries") {
            desk.connectionProblem != nil
        }
        #expect(desk.connectionProblem == "server unreachable, retrying")

        // The server comes back on the same port while the desk retries.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-retry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var config = ServerConfig()
        config.listen = ListenAddress(host: "127.0.0.1", port: 0)
        config.internalListen = ListenAddress(host: "127.0.0.1", port: port)
        let server = try TraceDeskServer(
            config: config, store: try SQLiteStore(path: directory.appendingPathComponent("s.sqlite").path),
            appSettingsPath: nil, accessLog: nil, hasher: TestHashing.cheap, log: { _ in })
        try server.start(runningJobs: false)
        defer { server.stop(grace: .seconds(1)) }

        let answer = await call.value

        #expect(answer == .success(true))
        #expect(desk.connectionProblem == nil)
    }

    @Test("writes are never retried: one request each, while a read is tried again")
    func writesNotRetried() async throws {
        let server = try CannedServer(answer: [])
        defer { server.stop() }
        let desk = RemoteDesk(
            url: server.url,
            options: RemoteDesk.Options(attempts: 5, firstBackoff: .milliseconds(50), maximumBackoff: .milliseconds(50))
        )
        let day = CivilDay(iso: "2026-11-29")!
        let writes: [(String, @Sendable () async -> ServiceError?)] = [
            (
                "sign-in",
                {
                    await failure { () async throws(ServiceError) in
                        try await desk.signIn(name: "ana", password: "pass-pass-1")
                    }
                }
            ),
            (
                "first admin",
                {
                    await failure { () async throws(ServiceError) in
                        try await desk.createFirstAdmin(name: "root", password: "pass-pass-1")
                    }
                }
            ),
            (
                "authorise",
                {
                    await failure { () async throws(ServiceError) in
                        try await desk.authorize(Self.someone, code: "9K2RAY8UUQ", symptomsStartedOn: day)
                    }
                }
            ),
            (
                "add",
                {
                    await failure { () async throws(ServiceError) in
                        try await desk.addStaff(Self.someone, name: "bob", role: .tracer, password: "pass-pass-1")
                    }
                }
            ),
            (
                "disable",
                {
                    await failure { () async throws(ServiceError) in
                        try await desk.disableStaff(Self.someone, name: "bob")
                    }
                }
            ),
            (
                "reset",
                {
                    await failure { () async throws(ServiceError) in
                        try await desk.resetPassword(Self.someone, name: "bob", password: "pass-pass-2")
                    }
                }
            ),
        ]

        for (label, write) in writes {
            let before = server.received.count
            let error = await write()
            guard case .unavailable = error else {
                Issue.record("\(label): expected .unavailable, got \(String(describing: error))")
                continue
            }
            #expect(server.received.count == before + 1, "\(label): one request only")
            #expect(desk.connectionProblem == "server unreachable", "\(label)")
        }
        // Reads, the status lookup and sign-out are tried five times.
        let reads: [(String, @Sendable () async -> ServiceError?)] = [
            ("setup", { await failure { () async throws(ServiceError) in try await desk.needsFirstAdmin() } }),
            (
                "status",
                {
                    await failure { () async throws(ServiceError) in
                        try await desk.status(Self.someone, of: "9K2RAY8UUQ")
                    }
                }
            ),
            ("sign-out", { await failure { () async throws(ServiceError) in try await desk.signOut(Self.someone) } }),
            (
                "audit",
                {
                    await failure { () async throws(ServiceError) in
                        try await desk.audit(Self.someone, query: AuditQuery())
                    }
                }
            ),
        ]
        for (label, read) in reads {
            let before = server.received.count
            _ = await read()
            #expect(server.received.count == before + 5, "\(label): five tries")
        }
    }

    @Test("audited views are never retried, a GET included: one request each, so a lost answer audits nothing twice")
    func auditedViewsNotRetried() async throws {
        let server = try CannedServer(answer: [])
        defer { server.stop() }
        let desk = RemoteDesk(
            url: server.url,
            options: RemoteDesk.Options(attempts: 5, firstBackoff: .milliseconds(50), maximumBackoff: .milliseconds(50))
        )
        let views: [(String, @Sendable () async -> ServiceError?)] = [
            (
                "SMS outbox",
                { await failure { () async throws(ServiceError) in try await desk.smsOutbox(Self.someone, limit: 50) } }
            ),
            (
                "lookup",
                {
                    await failure { () async throws(ServiceError) in
                        try await desk.traceLookup(Self.someone, phone: "+393331234567", purpose: "case 1")
                    }
                }
            ),
            (
                "sightings",
                {
                    await failure { () async throws(ServiceError) in
                        try await desk.traceSightings(
                            Self.someone, patientUserID: 1, contactUserID: nil, purpose: "case 1", offset: 0, limit: 10)
                    }
                }
            ),
        ]
        for (label, view) in views {
            let before = server.received.count
            let error = await view()
            guard case .unavailable = error else {
                Issue.record("\(label): expected .unavailable, got \(String(describing: error))")
                continue
            }
            #expect(server.received.count == before + 1, "\(label): one request only")
        }
        #expect(server.received.contains { $0.hasPrefix("GET /staff/v1/sms/outbox?limit=50") }, "the outbox is a GET")
    }

    // MARK: Not TraceDesk

    static let impostors: [(String, String, [String], String)] = [
        ("an HTML page", "200 OK", ["Content-Type: text/html"], "<html><body><h1>Welcome to nginx!</h1></body></html>"),
        ("an HTML 404", "404 Not Found", ["Content-Type: text/html"], "<html><body>404 Not Found</body></html>"),
        ("another program's JSON", "200 OK", ["Content-Type: application/json"], #"{"status":"ok","version":"2.1.0"}"#),
        (
            "another program's JSON error", "401 Unauthorized", ["Content-Type: application/json"],
            #"{"error":"unauthorized","code":"E401"}"#
        ),
        ("JSON cut short", "200 OK", ["Content-Type: application/json"], #"{"needs_first_admin": tr"#),
        ("an empty 200", "200 OK", [], ""),
        ("a redirect", "302 Found", ["Location: http://127.0.0.1:1/elsewhere"], ""),
        ("a plain-text 500", "500 Internal Server Error", ["Content-Type: text/plain"], "oops"),
        (
            "an error code the staff API never uses", "400 Bad Request", ["Content-Type: application/json"],
            #"{"error_code":1101,"message":"Unauthorized OTP."}"#
        ),
    ]

    @Test("a listener that is not TraceDesk: a clear .failed for every call, no crash", arguments: 0..<impostors.count)
    func notTraceDesk(index: Int) async throws {
        let (label, status, headers, body) = Self.impostors[index]
        let server = try CannedServer(status: status, headers: headers, body: body)
        defer { server.stop() }
        let desk = RemoteDesk(url: server.url, options: Self.fast)

        let errors = await Self.everyCall(desk)

        for error in errors {
            guard case .failed(let text) = error else {
                Issue.record("\(label): expected .failed, got \(String(describing: error))")
                continue
            }
            #expect(text.hasPrefix("\(server.url.absoluteString) is not a TraceDesk server ("), "\(label)")
            #expect(
                text.hasSuffix("): check the URL and port; the staff API is on the internal listener"), "\(label)")
        }
        #expect(desk.connectionProblem == "not a TraceDesk server")
        // No request carried the password, the code or the token in its URL.
        for head in server.received {
            let line = head.split(separator: "\r\n").first ?? ""
            #expect(!line.contains("pass-pass"))
            #expect(!line.contains("9K2RAY8UUQ"))
            #expect(!line.contains("tds_"))
        }
    }

    @Test("bytes that are not HTTP at all, or a connection closed at once: an error, no crash")
    func notHTTP() async throws {
        for answer in [Array("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n".utf8), Array(repeating: 0xFF, count: 300), []] {
            let server = try CannedServer(answer: answer)
            defer { server.stop() }
            let desk = RemoteDesk(url: server.url, options: Self.fast)

            let errors = await Self.everyCall(desk)

            for error in errors {
                switch error {
                case .failed(let text)?: #expect(text.contains("is not a TraceDesk server"))
                case .unavailable(let text)?: #expect(text.contains(server.url.absoluteString))
                default: Issue.record("expected .failed or .unavailable, got \(String(describing: error))")
                }
            }
        }
    }

    @Test("a server that answers 503 without our body (a proxy with nothing behind it): .unavailable after the retries")
    func proxyUnavailable() async throws {
        let server = try CannedServer(
            status: "503 Service Unavailable", headers: ["Content-Type: text/html"], body: "<h1>503</h1>")
        defer { server.stop() }
        let desk = RemoteDesk(
            url: server.url, options: RemoteDesk.Options(attempts: 3, firstBackoff: .milliseconds(20)))

        let error = await failure { () async throws(ServiceError) in try await desk.needsFirstAdmin() }

        #expect(
            error
                == .unavailable(
                    "the TraceDesk server at \(server.url.absoluteString) is unavailable (HTTP 503): try again in a few seconds"
                ))
        #expect(server.received.count == 3)
        #expect(desk.connectionProblem == "server unavailable")
    }

    @Test("the public listener of a TraceDesk server is not the staff API: the message says to use the internal one")
    func publicListener() async throws {
        let f = try ContractFixture(.remote)
        let server = try #require(f.server)
        let desk = RemoteDesk(url: URL(string: "http://127.0.0.1:\(server.phonePort)")!, options: Self.fast)

        let error = await failure { () async throws(ServiceError) in try await desk.needsFirstAdmin() }

        #expect(
            error
                == .failed(
                    "http://127.0.0.1:\(server.phonePort) is not a TraceDesk server (it answers HTTP 404 {1004} on /staff/v1/setup): check the URL and port; the staff API is on the internal listener"
                ))
    }

    @Test("https:// to a listener that speaks plain HTTP: a TLS failure that says so")
    func tlsMismatch() async throws {
        let f = try ContractFixture(.remote)
        let server = try #require(f.server)
        let desk = RemoteDesk(url: URL(string: "https://127.0.0.1:\(server.internalPort)")!, options: Self.fast)

        let error = await failure { () async throws(ServiceError) in try await desk.needsFirstAdmin() }

        guard case .failed(let text) = error else {
            Issue.record("expected .failed, got \(String(describing: error))")
            return
        }
        #expect(text.contains("TLS"))
        #expect(desk.connectionProblem == "TLS failed")
    }

    @Test("the real staff API identifies itself")
    func identify() async throws {
        let f = try ContractFixture(.remote)
        let desk = try #require(f.desk as? RemoteDesk)

        try await desk.identify()

        #expect(desk.connectionProblem == nil)
        #expect(desk.location == "http://127.0.0.1:\(try #require(f.server).internalPort)")
    }

    @Test(
        "server URLs: http(s) with a host only",
        arguments: [
            ("http://127.0.0.1:8081", true), ("https://desk.example.org", true), ("http://127.0.0.1:8081/", true),
            ("ftp://127.0.0.1", false), ("127.0.0.1:8081", false), ("http://", false), ("http://u:p@host:1", false),
            ("http://host:1/?x=1", false), ("not a url", false),
        ])
    func parse(text: String, ok: Bool) {
        switch RemoteDesk.parse(text) {
        case .success: #expect(ok, "\(text)")
        case .failure(let error):
            #expect(!ok, "\(text): \(error.message)")
            guard case .invalid(let message) = error else {
                Issue.record("a bad URL is .invalid")
                return
            }
            #expect(!message.isEmpty)
        }
    }
}
