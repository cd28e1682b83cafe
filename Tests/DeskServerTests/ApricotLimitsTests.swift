import DeskAPI
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskServer
import DeskStore
import Foundation
import Testing

/// The limits on `POST /apricot/v1/otp`: per server, per client address, and a full SMS queue.
@Suite("APRICOT code-request limits") struct ApricotLimitsTests {
    static func ask(_ f: ApricotFixture, _ index: Int) async throws -> Reply {
        try await f.requestCode("+39333100\(String(1_000 + index))")
    }

    @Test("one client address: apricot_otp_per_address_per_hour codes, then 429 (3009) with Retry-After")
    func perAddress() async throws {
        let clock = FixedClock(Date())
        let f = try ApricotFixture(sockets: false, clock: clock) { $0.apricotOTPPerAddressPerHour = 2 }
        #expect(try await Self.ask(f, 1).status == 204)
        #expect(try await Self.ask(f, 2).status == 204)
        let third = try await Self.ask(f, 3)
        #expect(third.status == 429)
        #expect(third.errorCode == 3009)
        #expect(third.text.contains("network address"))
        // Two an hour: the next token comes in about half an hour.
        let wait = try #require(third.header("Retry-After").flatMap { Int($0) })
        #expect(wait > 60 && wait <= 1_800)
        // Nothing was made or sent for the refused request.
        #expect(try f.store.smsOutbox(limit: 10).count == 2)
        // Another address is not held back; once the wait is over, this one is answered again.
        #expect(try await f.requestCode("+393331009999", from: "192.0.2.7").status == 204)
        clock.advance(seconds: Double(wait) - 1)
        #expect(try await Self.ask(f, 4).status == 429)
        clock.advance(seconds: 2)
        #expect(try await Self.ask(f, 5).status == 204)
    }

    @Test("the whole server: apricot_otp_per_minute codes, then 429 (3009) whatever the address")
    func perServer() async throws {
        // The server's clock stands still: the bucket (one code a minute) does not refill however
        // slow the first request is.
        let f = try ApricotFixture(sockets: false, clock: FixedClock(Date())) { $0.apricotOTPPerMinute = 1 }
        #expect(try await Self.ask(f, 1).status == 204)
        let second = try await Self.ask(f, 2)
        #expect(second.status == 429)
        #expect(second.errorCode == 3009)
        #expect(second.text.contains("the server is sending as many codes"))
        #expect(second.header("Retry-After").flatMap { Int($0) }.map { $0 >= 1 && $0 <= 60 } == true)
    }

    @Test("the buckets refill with time; an IPv6 client counts by its /64")
    func buckets() {
        let limiter = CodeRequestLimiter(perMinute: 0, perAddressPerHour: 2)
        #expect(limiter.admit(address: "2001:db8:1:2::5", now: 0) == .admitted)
        #expect(limiter.admit(address: "2001:db8:1:2:ffff::9", now: 1) == .admitted)
        #expect(limiter.admit(address: "2001:db8:1:2::77", now: 2) == .addressBusy(retryAfter: 1_798))
        #expect(limiter.admit(address: "2001:db8:1:3::5", now: 2) == .admitted)
        #expect(limiter.admit(address: "2001:db8:1:2::5", now: 1_800) == .admitted)
        let server = CodeRequestLimiter(perMinute: 2, perAddressPerHour: 0)
        #expect(server.admit(address: "192.0.2.1", now: 0) == .admitted)
        #expect(server.admit(address: "192.0.2.2", now: 0) == .admitted)
        #expect(server.admit(address: "192.0.2.3", now: 0) == .serverBusy(retryAfter: 30))
        #expect(server.admit(address: "192.0.2.3", now: 30) == .admitted)
        // A refusal by one bucket takes no token from the other.
        let both = CodeRequestLimiter(perMinute: 2, perAddressPerHour: 1)
        #expect(both.admit(address: "192.0.2.1", now: 0) == .admitted)
        #expect(both.admit(address: "192.0.2.1", now: 0) == .addressBusy(retryAfter: 3_600))
        #expect(both.admit(address: "192.0.2.2", now: 0) == .admitted)
    }

    @Test("the per-address table stays bounded under many addresses; refilled ones are forgotten")
    func bounded() {
        let limiter = CodeRequestLimiter(perMinute: 0, perAddressPerHour: 10, maxAddresses: 100)
        for index in 0..<1_000 {
            _ = limiter.admit(address: "10.0.\(index / 256).\(index % 256)", now: 0)
        }
        #expect(limiter.trackedAddresses == 100)
        // An hour on, every bucket has refilled: the sweep makes room for new addresses.
        #expect(limiter.admit(address: "10.9.9.9", now: 3_600) == .admitted)
        #expect(limiter.trackedAddresses == 1)
    }

    @Test(
        "a full SMS queue: 503 with Retry-After and no code made; the message refused by the gateway makes no attempt")
    func queueFull() async throws {
        // A provider that holds every request longer than the gateway waits.
        struct Slow: HTTPHandler {
            func route(for request: HTTPRequest) -> String { "/send" }
            func handle(_ request: HTTPRequest, route: String) -> HandlerResult {
                .after(.seconds(3), { HTTPResponse(status: 202) })
            }
        }
        let provider = HTTPServer(options: .init(name: "slow", port: 0), handler: Slow())
        try provider.start()
        defer { provider.stop(grace: .zero) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apricot-queue-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("s.sqlite").path)
        let gateway = HTTPSmsGateway(
            store: store,
            options: .init(
                url: URL(string: "http://127.0.0.1:\(provider.port)/send")!, apiKey: "k", maxAttempts: 1,
                timeout: .seconds(1), maxQueued: 1),
            log: { _ in })
        let desk = ApricotDesk(
            store: store, settings: ApricotSettings(), codeSecret: SecureRandom.bytes(32), gateway: gateway,
            log: { _ in })
        let api = ApricotAPI(desk: desk, metrics: Metrics(), uploadsPerHour: 60, log: { _ in })
        func ask(_ number: String) -> HTTPResponse {
            let body = #"{"phone":"\#(number)","app_id":"it.apricot.app","device_id":"d1"}"#
            let request = HTTPRequest(
                method: "POST", path: "/apricot/v1/otp", headers: [("Content-Type", "application/json")],
                body: Array(body.utf8), clientAddress: "192.0.2.1")
            guard case .now(let response) = api.handle(request, route: api.route(for: request)) else {
                return HTTPResponse(status: 0)
            }
            return response
        }
        #expect(ask("+393331000001").status == 204)
        let busy = ask("+393331000002")
        #expect(busy.status == 503)
        #expect(busy.headers.filter { $0.name == "Retry-After" }.map(\.value) == ["30"])
        #expect(String(decoding: busy.body, as: UTF8.self).contains("SMS provider is behind"))
        // No code was made for the second phone: it may ask again at once when the queue drains.
        #expect(try store.smsOutbox(limit: 10).count == 1)
        // The gateway itself, full: the message is kept as failed, with no attempt counted.
        #expect(throws: ServiceError.unavailable(HTTPSmsGateway.queueFull)) {
            try gateway.send(
                to: PhoneNumber(e164: "+393331000003")!,
                message: SmsCodeText(code: "123456", template: "code {code}"))
        }
        let refused = try #require(try store.smsOutbox(limit: 1).first)
        #expect(refused.status == .failed && refused.attempts == 0)
        #expect(refused.detail.contains("already waiting"))
        #expect(refused.text == "code ******")
        await gateway.waitUntilIdle()
    }
}
