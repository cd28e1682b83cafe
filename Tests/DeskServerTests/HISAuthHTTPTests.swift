import CivilCalendar
import DeskCore
import DeskCrypto
import DeskServer
import DeskStore
import Foundation
import Testing

/// Who may authorise codes: `POST /v1/otp` with and without an HIS client's key, the actor
/// recorded, the per-client rate limit (a clock the test moves) and counters, on the internal
/// handler as values; the HIS listener of its own and `his_auth none` (warned at start) over
/// loopback.
@Suite("POST /v1/otp: HIS clients over HTTP")
struct HISAuthHTTPTests {
    static func body(_ otp: String) -> Data {
        Data(#"{"otp":"\#(otp)","symptoms_started_on":"\#(Date().utcDay.iso)"}"#.utf8)
    }

    /// A valid code not used before: nine random characters and their check character.
    static func freshCode() -> String {
        let alphabet = OtpRules.alphabet
        let prefix = String((0..<9).map { _ in alphabet[Int.random(in: 0..<alphabet.count)] })
        return prefix + String(OtpRules.checkCharacter(for: prefix)!)
    }

    static func post(
        _ f: ServerFixture, _ base: URL, _ otp: String, key: String?, authorization: String? = nil
    ) async throws -> Reply {
        var headers = ["Content-Type": "application/json"]
        if let key { headers["Authorization"] = "Bearer \(key)" }
        if let authorization { headers["Authorization"] = authorization }
        return try await f.send("POST", base.appendingPathComponent("v1/otp"), headers: headers, body: body(otp))
    }

    @Test("no key, a malformed, unknown or revoked key: 401 {1402} with WWW-Authenticate, nothing stored")
    func refused() async throws {
        let f = try ServerFixture(sockets: false)
        let revokedKey = HISKey.make()
        _ = try f.store.addHISClient(
            name: "old-his", keyHash: HISKey.hash(revokedKey), ratePerMinute: nil, by: "boss", now: Date())
        _ = try f.store.revokeHISClient(name: "old-his", by: "boss", now: Date())
        let cases: [(String?, String?, String)] = [
            (nil, nil, "send the HIS client's API key as Authorization: Bearer KEY"),
            (nil, "Basic dXNlcjpwYXNz", "send the HIS client's API key"),
            ("not-a-key", nil, "the API key is not one of this server's HIS clients"),
            (HISKey.make(), nil, "the API key is not one of this server's HIS clients"),
            (revokedKey, nil, "this HIS client was revoked by an admin"),
        ]
        for (key, authorization, detail) in cases {
            let reply = try await Self.post(f, f.internalURL, "KJ23IWY5UJ", key: key, authorization: authorization)
            #expect(reply.status == 401, "\(detail)")
            #expect(reply.errorCode == 1402, "\(detail)")
            #expect(reply.detail?.hasPrefix(detail) == true, "\(reply.detail ?? "")")
            #expect(reply.header("WWW-Authenticate") == #"Bearer realm="tracedesk-his""#)
            if let key { #expect(!reply.text.contains(key)) }
        }
        #expect(try f.events().isEmpty)
        let metrics = f.server.metrics.render()
        #expect(metrics.contains(#"tracedesk_his_auth_failures_total{reason="missing"} 2"#))
        #expect(metrics.contains(#"tracedesk_his_auth_failures_total{reason="unknown"} 2"#))
        #expect(metrics.contains(#"tracedesk_his_auth_failures_total{reason="revoked"} 1"#))
    }

    @Test("with a key: 204, and the event, the audit entry and the statistics name the client")
    func actorRecorded() async throws {
        let f = try ServerFixture(sockets: false)
        let reply = try await Self.post(f, f.internalURL, "KJ23IWY5UJ", key: f.hisKey)
        #expect(reply.status == 204)
        let events = try f.events().filter { $0.kind == .otpAuthorized }
        #expect(events.map(\.actor) == ["his:test-his"])
        let audit = try f.store.auditEntries(matching: AuditQuery(action: .otpAuthorized))
        #expect(audit.map(\.actor) == ["his:test-his"])
        let report = try f.store.statistics(.last(.day, now: Date()), now: Date())
        #expect(report.operators.map(\.name) == ["his:test-his"])
        #expect(
            f.server.metrics.render().contains(
                #"tracedesk_his_authorizations_total{client="test-his",result="authorized"} 1"#))
    }

    @Test("a key revoked while the server runs is refused from the next request on")
    func revokedAtOnce() async throws {
        let f = try ServerFixture(sockets: false)
        #expect(try await Self.post(f, f.internalURL, "KJ23IWY5UJ", key: f.hisKey).status == 204)
        _ = try f.store.revokeHISClient(name: "test-his", by: "boss", now: Date())
        let reply = try await Self.post(f, f.internalURL, "59FU36KR46", key: f.hisKey)
        #expect(reply.status == 401)
        #expect(reply.errorCode == 1402)
    }

    @Test("past its authorisations a minute a client gets 429 {1429} with Retry-After; others are not held back")
    func rateLimit() async throws {
        // The server's clock stands still: the bucket refills only when the test moves it, not
        // while a slow machine takes seconds over a request (one code each 30 s at 2 a minute).
        let clock = FixedClock(Date())
        let f = try ServerFixture(sockets: false, clock: clock)
        let slowKey = HISKey.make()
        _ = try f.store.addHISClient(
            name: "slow-his", keyHash: HISKey.hash(slowKey), ratePerMinute: 2, by: "boss", now: Date())
        #expect(try await Self.post(f, f.internalURL, "KJ23IWY5UJ", key: slowKey).status == 204)
        #expect(try await Self.post(f, f.internalURL, "59FU36KR46", key: slowKey).status == 204)
        let limited = try await Self.post(f, f.internalURL, "9K2RAY8UUQ", key: slowKey)
        #expect(limited.status == 429)
        #expect(limited.errorCode == 1429)
        // The clock stands still, so the wait is exactly that for the next code: 30 s.
        #expect(limited.header("Retry-After") == "30")
        #expect(limited.detail?.contains("2 codes a minute") == true)
        // Another client has its own bucket.
        #expect(try await Self.post(f, f.internalURL, "9K2RAY8UUQ", key: f.hisKey).status == 204)
        let metrics = f.server.metrics.render()
        #expect(metrics.contains(#"tracedesk_his_authorizations_total{client="slow-his",result="authorized"} 2"#))
        #expect(metrics.contains(#"tracedesk_his_authorizations_total{client="slow-his",result="rate_limited"} 1"#))
        #expect(metrics.contains(#"tracedesk_his_authorizations_total{client="test-his",result="authorized"} 1"#))
        // Just over half a minute on, the bucket holds one code again: one more, and no further.
        clock.advance(seconds: 31)
        #expect(try await Self.post(f, f.internalURL, Self.freshCode(), key: slowKey).status == 204)
        #expect(try await Self.post(f, f.internalURL, Self.freshCode(), key: slowKey).status == 429)
    }

    @Test("the server's his_rate_per_minute applies to clients without a rate of their own")
    func defaultRate() async throws {
        // A clock that stands still: no refill however slow the two requests are.
        let f = try ServerFixture(sockets: false, configure: { $0.hisRatePerMinute = 1 }, clock: FixedClock(Date()))
        let key = HISKey.make()
        _ = try f.store.addHISClient(
            name: "plain-his", keyHash: HISKey.hash(key), ratePerMinute: nil, by: "boss", now: Date())
        #expect(try await Self.post(f, f.internalURL, "KJ23IWY5UJ", key: key).status == 204)
        #expect(try await Self.post(f, f.internalURL, "59FU36KR46", key: key).status == 429)
    }

    @Test("--his-listen serves POST /v1/otp alone; the internal listener then does not")
    func hisListener() async throws {
        let f = try ServerFixture(configure: { $0.hisListen = ListenAddress(host: "127.0.0.1", port: 0) })
        let port = try #require(f.server.hisPort)
        let his = URL(string: "http://127.0.0.1:\(port)")!
        #expect(try await Self.post(f, his, "KJ23IWY5UJ", key: f.hisKey).status == 204)
        #expect(try await Self.post(f, his, "59FU36KR46", key: nil).status == 401)
        for path in ["/staff/v1", "/staff/v1/setup", "/metrics", "/v1/settings?platform=ios&build=1"] {
            let reply = try await f.send("GET", URL(string: his.absoluteString + path)!)
            #expect(reply.status == 404, "\(path)")
        }
        let onInternal = try await Self.post(f, f.internalURL, "59FU36KR46", key: f.hisKey)
        #expect(onInternal.status == 404)
        #expect(onInternal.detail?.contains("his_listen") == true)
        // The staff API stays on the internal listener.
        #expect(try await f.send("GET", f.internalURL.appendingPathComponent("staff/v1")).status == 200)
        #expect(try f.events().filter { $0.kind == .otpAuthorized }.count == 1)
    }

    @Test("his_auth none: anyone who reaches the listener authorises as his-api, and the server warns at start")
    func none() async throws {
        let f = try ServerFixture(configure: { $0.hisAuth = "none" })
        #expect(f.logLines.all.contains { $0.hasPrefix("WARNING: his_auth is none") })
        #expect(try await Self.post(f, f.internalURL, "KJ23IWY5UJ", key: nil).status == 204)
        #expect(try f.events().filter { $0.kind == .otpAuthorized }.map(\.actor) == ["his-api"])
    }

    @Test("his_auth key (the default) does not warn")
    func keyDoesNotWarn() async throws {
        let f = try ServerFixture()
        #expect(!f.logLines.all.contains { $0.contains("his_auth") })
    }
}

/// The HIS settings' rules between settings.
@Suite("HIS settings")
struct HISSettingsTests {
    @Test("his_auth certificate needs his_ca_file and TLS; his_listen must differ from the other listeners")
    func crossCheck() {
        var config = ServerConfig()
        config.hisAuth = "certificate"
        config.hisListen = config.internalListen
        #expect(
            config.crossCheck() == [
                "his_listen must differ from listen and internal_listen (127.0.0.1:8081)",
                "his_auth certificate needs his_ca_file (the authority that signs the hospitals' client certificates)",
                "his_auth certificate needs tls_cert and tls_key: client certificates come only over TLS",
            ])
        config.hisListen = ListenAddress(host: "127.0.0.1", port: 8082)
        config.hisCAFile = "/etc/tracedesk/his-ca.pem"
        config.tlsCert = "/etc/tracedesk/cert.pem"
        config.tlsKey = "/etc/tracedesk/key.pem"
        #expect(config.crossCheck().isEmpty)
    }

    @Test(
        "his_auth takes key, certificate or none; anything else is a problem naming them",
        arguments: [
            ("key", nil), ("certificate", nil), ("none", nil), ("open", "must be one of key, certificate, none"),
        ] as [(String, String?)])
    func values(_ value: String, _ problem: String?) {
        let (config, problems) = ServerConfig.read(file: nil, environment: ["TRACEDESK_HIS_AUTH": value])
        if let problem {
            #expect(problems == ["TRACEDESK_HIS_AUTH \(problem)"])
        } else {
            #expect(problems.isEmpty)
            #expect(config.hisAuth == value)
        }
    }
}
