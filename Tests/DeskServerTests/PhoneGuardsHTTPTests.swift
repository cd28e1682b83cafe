import DeskCore
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// Issue 18, point 10: the guess limit of check-otp and upload per client address (127.0.0.x
/// stand for separate clients: on values, and once over sockets bound to those addresses), and
/// the numbers SMS codes go to.
@Suite("Phones guessing and pumping")
struct PhoneGuardsHTTPTests {
    static let otp = "9K2RAY8UUQ"
    static let wrong = Phone.hash("KJ23IWY5UJ")

    /// A check-otp from `source` with `token`; `dummy` marks Immuni's dummy traffic.
    static func check(_ f: ServerFixture, token: String, from source: String, dummy: Bool = false) async throws
        -> Reply
    {
        try await send(
            f, "/v1/ingestion/check-otp",
            headers: [
                "Content-Type": "application/json", "Authorization": "Bearer \(token)",
                "Immuni-Dummy-Data": "\(dummy ? 1 : 0)",
            ], body: Array(#"{"padding":"ab12"}"#.utf8), from: source)
    }

    static func upload(_ f: ServerFixture, token: String, from source: String) async throws -> Reply {
        let body = Phone.uploadBody(keys: Phone.dailyKeys(3))
        return try await send(
            f, "/v1/ingestion/upload",
            headers: [
                "Content-Type": "application/json", "Authorization": "Bearer \(token)", "Immuni-Dummy-Data": "0",
                "Immuni-Client-Clock": "\(Int(Date().timeIntervalSince1970))",
            ], body: Array(body), from: source)
    }

    /// A POST to the phone listener from `source`: over a socket bound to that loopback address
    /// (the address the server reads off the connection), or on values.
    static func send(
        _ f: ServerFixture, _ path: String, headers: [String: String], body: [UInt8], from source: String
    ) async throws -> Reply {
        guard f.sockets else {
            return try await f.send(
                "POST", f.phone.appendingPathComponent(path), headers: headers, body: Data(body), from: source)
        }
        let request = HTTP.request("POST", path, headers: headers.map { "\($0.key): \($0.value)" }, body: body)
        return try await offPool { try HTTP.raw(UInt16(f.server.phonePort), request, from: source) }
    }

    @Test("past otp_guess_limit wrong codes an address gets 429 (1102) with Retry-After; another address is answered")
    func guessLimit() async throws {
        let f = try ServerFixture(configure: { $0.otpGuessLimit = 5 })
        try f.authorize(Self.otp)
        for n in 0..<5 {
            let reply = try await Self.check(f, token: Self.wrong, from: "127.0.0.2")
            #expect(reply.status == 401, "guess \(n + 1)")
        }
        let refused = try await Self.check(f, token: Self.wrong, from: "127.0.0.2")
        #expect(refused.status == 429)
        #expect(refused.errorCode == 1102)
        #expect(refused.detail?.contains("wrong codes came from this network address") == true)
        #expect(Int(refused.header("Retry-After") ?? "") ?? 0 >= 1)
        // The right code from the same address waits too; upload is counted with check-otp.
        #expect(try await Self.check(f, token: Phone.hash(Self.otp), from: "127.0.0.2").status == 429)
        #expect(try await Self.upload(f, token: Self.wrong, from: "127.0.0.2").status == 429)
        // A phone on another address is answered as before.
        #expect(try await Self.check(f, token: Phone.hash(Self.otp), from: "127.0.0.3").status == 204)
        #expect(try await Self.check(f, token: Self.wrong, from: "127.0.0.3").status == 401)
        // Seen: a metric, one warning line without any code, one monitor event.
        let metrics = try await f.send("GET", f.internalURL.appendingPathComponent("metrics")).text
        #expect(metrics.contains(#"tracedesk_otp_guesses_limited_total{route="/v1/ingestion/check-otp"} 2"#))
        let warnings = f.logLines.all.filter { $0.contains("otp_guess_limit") }
        #expect(warnings.count == 1)
        #expect(!f.logLines.all.joined().contains(Self.wrong))
        #expect(try f.events().filter { $0.kind == .otpGuessesLimited }.count == 1)
    }

    @Test("the guess limit drains with the server's clock: past Retry-After the address is answered again")
    func guessLimitDrains() async throws {
        let clock = FixedClock(Date())
        let f = try ServerFixture(sockets: false, configure: { $0.otpGuessLimit = 3 }, clock: clock)
        try f.authorize(Self.otp, lifetime: .seconds(3_600))
        for n in 0..<3 {
            #expect(try await Self.check(f, token: Self.wrong, from: "127.0.0.6").status == 401, "guess \(n + 1)")
        }
        let refused = try await Self.check(f, token: Self.wrong, from: "127.0.0.6")
        #expect(refused.status == 429 && refused.errorCode == 1102)
        // Three failures drain in the default ten minutes: room for one more after 200 s.
        let wait = try #require(Int(refused.header("Retry-After") ?? ""))
        #expect((200...201).contains(wait))
        clock.advance(seconds: 199)
        #expect(try await Self.check(f, token: Phone.hash(Self.otp), from: "127.0.0.6").status == 429)
        clock.advance(seconds: Double(wait) - 199 + 1)
        #expect(try await Self.check(f, token: Phone.hash(Self.otp), from: "127.0.0.6").status == 204)
    }

    @Test("dummy requests never count towards the guess limit")
    func dummiesDoNotCount() async throws {
        let f = try ServerFixture(sockets: false, configure: { $0.otpGuessLimit = 3 })
        for _ in 0..<10 {
            #expect(try await Self.check(f, token: Self.wrong, from: "127.0.0.4", dummy: true).status != 429)
        }
        #expect(try await Self.check(f, token: Self.wrong, from: "127.0.0.4").status == 401)
    }

    @Test("otp_guess_limit 0 turns the limit off")
    func limitOff() async throws {
        let f = try ServerFixture(sockets: false, configure: { $0.otpGuessLimit = 0 })
        for _ in 0..<20 {
            #expect(try await Self.check(f, token: Self.wrong, from: "127.0.0.5").status == 401)
        }
    }

    @Test(
        "SMS codes go only to the country's numbers: premium, satellite, foreign and unassigned are refused (422, 3010)",
        arguments: ["+19005550100", "+88213000001", "+447700900123", "+999123456789"])
    func pumpingRefused(_ number: String) async throws {
        // The http gateway: +999 test numbers are refused too (its endpoint is never reached).
        let f = try ApricotFixture(
            sockets: false,
            configure: {
                $0.smsGateway = "http"
                $0.smsHTTPURL = "http://127.0.0.1:9/send"
                $0.smsHTTPAPIKey = "key"
            })
        let reply = try await f.requestCode(number)
        #expect(reply.status == 422)
        #expect(reply.errorCode == 3010)
        #expect(reply.detail?.isEmpty == false)
        #expect(reply.detail?.contains(number) == false, "the detail never echoes the number")
        #expect(try f.store.smsOutbox(limit: 10).isEmpty, "nothing queued")
    }

    @Test("the +999 test numbers are served where the gateway is the outbox; the country's numbers always")
    func testNumbersWithOutbox() async throws {
        let f = try ApricotFixture(sockets: false)
        #expect(try await f.requestCode("+999123456789").status == 204)
        #expect(try await f.requestCode("+393331234567").status == 204)
        #expect(try await f.requestCode("+19005550100").status == 422)
    }
}
