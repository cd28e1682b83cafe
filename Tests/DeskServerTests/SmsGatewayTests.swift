import DeskAPI
import DeskContract
import DeskCore
import DeskLocal
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// The `http` SMS gateway against a real provider stand-in: our own HTTPServer on 127.0.0.1
/// that fails first and then accepts, over a real SQLite store.
@Suite("SMS gateway over HTTP") struct SmsGatewayTests {
    /// A provider that answers `failures` times with `failStatus`, then 202; it keeps what it got.
    final class Provider: HTTPHandler, @unchecked Sendable {
        let failures: Int
        let failStatus: Int
        /// Moved forward by `step` seconds on every request (a provider that takes minutes).
        let clock: FixedClock?
        let step: Double
        private let lock = NSLock()
        private(set) var received: [HTTPRequest] = []

        init(failures: Int, failStatus: Int = 503, clock: FixedClock? = nil, step: Double = 0) {
            self.failures = failures
            self.failStatus = failStatus
            self.clock = clock
            self.step = step
        }

        var count: Int { lock.withLock { received.count } }
        var requests: [HTTPRequest] { lock.withLock { received } }

        func route(for request: HTTPRequest) -> String { "/send" }

        func handle(_ request: HTTPRequest, route: String) -> HandlerResult {
            let n = lock.withLock {
                received.append(request)
                return received.count
            }
            clock?.advance(seconds: step)
            return .now(HTTPResponse(status: n <= failures ? failStatus : 202))
        }
    }

    struct Setup {
        let directory: URL
        let store: SQLiteStore
        let server: HTTPServer
        let provider: Provider
        let logs = LogLines()

        init(failures: Int, failStatus: Int = 503, clock: FixedClock? = nil, step: Double = 0) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tracedesk-sms-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            store = try SQLiteStore(path: directory.appendingPathComponent("s.sqlite").path)
            provider = Provider(failures: failures, failStatus: failStatus, clock: clock, step: step)
            server = HTTPServer(options: .init(name: "provider", port: 0), handler: provider)
            try server.start()
        }

        func gateway(port: UInt16? = nil, attempts: Int = 5, clock: (any DeskCore.Clock)? = nil) -> HTTPSmsGateway {
            let logs = self.logs
            return HTTPSmsGateway(
                store: store, clock: clock ?? SystemClock(),
                options: .init(
                    url: URL(string: "http://127.0.0.1:\(port ?? server.port)/send")!, apiKey: "provider-key-123",
                    maxAttempts: attempts, firstRetry: .milliseconds(20), timeout: .seconds(5)),
                log: { logs.append($0) })
        }

        func finish() {
            server.stop(grace: .zero)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static let phone = PhoneNumber(e164: "+393331234567")!
    static let message = SmsCodeText(code: "424242", template: "Your APRICOT code is {code}. It expires in 5 minutes.")
    static let text = "Your APRICOT code is 424242. It expires in 5 minutes."

    @Test("5xx twice, then accepted: three attempts, status sent, the JSON and the key as the provider got them")
    func retriesThenSent() async throws {
        let setup = try Setup(failures: 2)
        defer { setup.finish() }
        let gateway = setup.gateway()
        try gateway.send(to: Self.phone, message: Self.message)
        await gateway.waitUntilIdle()
        #expect(setup.provider.count == 3)
        let message = try #require(try setup.store.smsOutbox(limit: 10).first)
        #expect(message.gateway == "http" && message.status == .sent)
        #expect(message.attempts == 3)
        #expect(message.detail.contains("202"))
        #expect(message.text == "Your APRICOT code is ******. It expires in 5 minutes.")
        let request = try #require(setup.provider.requests.last)
        #expect(request.headerValues("authorization") == ["Bearer provider-key-123"])
        let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String])
        #expect(body == ["to": "+393331234567", "text": Self.text])
        let lines = setup.logs.all.joined(separator: "\n")
        #expect(!lines.contains("424242") && !lines.contains("3331234567"))
    }

    @Test("a provider that refuses (4xx) is not retried; one that stays down fails after the attempts")
    func refusedAndGivenUp() async throws {
        let refusing = try Setup(failures: 100, failStatus: 400)
        defer { refusing.finish() }
        let gateway = refusing.gateway()
        try gateway.send(to: Self.phone, message: Self.message)
        await gateway.waitUntilIdle()
        #expect(refusing.provider.count == 1)
        #expect(try refusing.store.smsOutbox(limit: 1).first?.status == .failed)

        let down = try Setup(failures: 100)
        defer { down.finish() }
        let tries = down.gateway(attempts: 3)
        try tries.send(to: Self.phone, message: Self.message)
        await tries.waitUntilIdle()
        #expect(down.provider.count == 3)
        let message = try #require(try down.store.smsOutbox(limit: 1).first)
        #expect(message.status == .failed && message.attempts == 3)
        #expect(message.detail.contains("gave up"))
        let lines = down.logs.all.joined(separator: "\n")
        #expect(lines.contains("not delivered after 3 attempts"))
        #expect(!lines.contains("424242") && !lines.contains("3331234567"))
    }

    /// A provider that answers every request with 307 to `location`.
    struct Redirecting: HTTPHandler {
        let location: String
        func route(for request: HTTPRequest) -> String { "/send" }
        func handle(_ request: HTTPRequest, route: String) -> HandlerResult {
            .now(HTTPResponse(status: 307, headers: [("Location", location)]))
        }
    }

    @Test("a provider that redirects (307): not followed, the key never reaches the other address, failed at once")
    func redirectRefused() async throws {
        // `setup.server` is where the redirect points: it must receive nothing.
        let setup = try Setup(failures: 0)
        defer { setup.finish() }
        let redirecting = HTTPServer(
            options: .init(name: "redirecting", port: 0),
            handler: Redirecting(location: "http://127.0.0.1:\(setup.server.port)/send"))
        try redirecting.start()
        defer { redirecting.stop(grace: .zero) }
        let gateway = setup.gateway(port: redirecting.port)
        try gateway.send(to: Self.phone, message: Self.message)
        await gateway.waitUntilIdle()
        #expect(setup.provider.count == 0)
        let message = try #require(try setup.store.smsOutbox(limit: 1).first)
        #expect(message.status == .failed && message.attempts == 1)
        #expect(message.detail.contains("307") && message.detail.contains("redirect"))
        let lines = setup.logs.all.joined(separator: "\n")
        #expect(lines.contains("redirect"))
        #expect(!lines.contains("424242") && !lines.contains("3331234567"))
    }

    @Test("a provider that fails for longer than a code lives: no attempt once the code has expired")
    func retriesStopWithTheCode() async throws {
        // Each answer takes two minutes of the gateway's clock: attempts at 0, 2 and 4 minutes;
        // the next would come after the code's 5 minutes.
        let clock = FixedClock(Date(timeIntervalSince1970: 1_800_000_000))
        let setup = try Setup(failures: 100, clock: clock, step: 120)
        defer { setup.finish() }
        let gateway = setup.gateway(attempts: 10, clock: clock)
        try gateway.send(to: Self.phone, message: Self.message)
        await gateway.waitUntilIdle()
        #expect(setup.provider.count == 3)
        let message = try #require(try setup.store.smsOutbox(limit: 1).first)
        #expect(message.status == .failed && message.attempts == 3)
        #expect(message.detail.contains("code expires"))
        let lines = setup.logs.all.joined(separator: "\n")
        #expect(lines.contains("its code expired"))
        #expect(!lines.contains("424242") && !lines.contains("3331234567"))
    }

    @Test("the wait between attempts doubles from the first and stops at its cap")
    func retryWaitCapped() {
        let waits = (1...8).map { HTTPSmsGateway.retryWait(after: $0, first: .seconds(2), cap: .seconds(60)) }
        #expect(waits == [2, 4, 8, 16, 32, 60, 60, 60].map { Duration.seconds($0) })
        #expect(HTTPSmsGateway.retryWait(after: 1_000, first: .seconds(2), cap: .seconds(60)) == .seconds(60))
    }

    @Test("no provider listening: connection failures are retried, then failed")
    func unreachable() async throws {
        let setup = try Setup(failures: 0)
        defer { setup.finish() }
        // A port held bound, not listening: refused for as long as the test runs (a port freed by
        // stopping a server could be given to another test's listener meanwhile).
        let nobody = try ReservedLoopbackPort()
        defer { nobody.release() }
        let gateway = setup.gateway(port: nobody.port, attempts: 2)
        try gateway.send(to: Self.phone, message: Self.message)
        await gateway.waitUntilIdle()
        let message = try #require(try setup.store.smsOutbox(limit: 1).first)
        #expect(message.status == .failed && message.attempts == 2)
        #expect(message.detail.contains("unreachable"))
    }

    @Test("through the server: sms_gateway http sends the code of POST /apricot/v1/otp in the background")
    func throughServer() async throws {
        let setup = try Setup(failures: 1)
        defer { setup.finish() }
        let port = setup.server.port
        let f = try ApricotFixture {
            $0.smsGateway = "http"
            $0.smsHTTPURL = "http://127.0.0.1:\(port)/send"
            $0.smsHTTPAPIKey = "provider-key-123"
        }
        let asked = try await f.requestCode("+393331234567")
        #expect(asked.status == 204)
        let gateway = try #require(f.server.smsGateway as? HTTPSmsGateway)
        await gateway.waitUntilIdle()
        let message = try #require(try f.store.smsOutbox(limit: 1).first)
        #expect(message.gateway == "http" && message.status == .sent && message.attempts == 2)
        let lines = (f.logLines.all + f.accessLines.all).joined(separator: "\n")
        #expect(!lines.contains("3331234567"))
        #expect(!lines.contains("provider-key-123"))
    }

    @Test("http gateway: the provider gets the code, and no row of the store holds it")
    func codeNotStored() async throws {
        let setup = try Setup(failures: 0)
        defer { setup.finish() }
        let port = setup.server.port
        let f = try ApricotFixture {
            $0.smsGateway = "http"
            $0.smsHTTPURL = "http://127.0.0.1:\(port)/send"
            $0.smsHTTPAPIKey = "provider-key-123"
        }
        #expect(try await f.requestCode("+393331234567").status == 204)
        let gateway = try #require(f.server.smsGateway as? HTTPSmsGateway)
        await gateway.waitUntilIdle()
        let sent = try #require(setup.provider.requests.first)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(sent.body)) as? [String: String])
        let code = try #require(SmsCodeText.code(in: body["text"] ?? ""))
        // Every byte SQLite wrote (the database file and its write-ahead log): no row, live or
        // freed, can hold the code.
        let files = try FileManager.default.contentsOfDirectory(atPath: f.directory.path).filter {
            $0.hasPrefix("tracedesk.sqlite")
        }
        var bytes: [UInt8] = []
        for file in files {
            bytes += (FileManager.default.contents(atPath: f.directory.appendingPathComponent(file).path) ?? Data())
        }
        let dump = String(decoding: bytes, as: UTF8.self)
        #expect(!dump.contains("is \(code)"))
        #expect(dump.contains("Your APRICOT code is ******"))
        #expect(try f.store.smsOutbox(limit: 10).allSatisfy { SmsCodeText.code(in: $0.text) == nil })
    }
}
