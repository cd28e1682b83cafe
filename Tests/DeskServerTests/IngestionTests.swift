import DeskCore
import DeskStore
import Foundation
import Testing

/// check-otp and upload (facts §10 items 8–21 under our rules), on the phone handler as values;
/// a delayed upload over real HTTP.
@Suite("Ingestion over HTTP")
struct IngestionTests {
    static let otp = "9K2RAY8UUQ"
    static let token = Phone.hash(otp)

    func checkOtp(_ f: ServerFixture, token: String = token, dummy: String = "0", padding: String = "ab12") async throws
        -> Reply
    {
        try await f.send(
            "POST", f.phone.appendingPathComponent("v1/ingestion/check-otp"),
            headers: Phone.headers(token: token, dummy: dummy), body: Data(#"{"padding":"\#(padding)"}"#.utf8))
    }

    func upload(
        _ f: ServerFixture, token: String = token, dummy: String = "0", clock: Int64? = Phone.now, body: Data
    ) async throws -> Reply {
        try await f.send(
            "POST", f.phone.appendingPathComponent("v1/ingestion/upload"),
            headers: Phone.headers(token: token, dummy: dummy, clock: clock), body: body)
    }

    @Test("9: check-otp of an authorised code is 204 (twice: not consumed) and an event; unknown is 401 {1101}")
    func checkOtpAnswers() async throws {
        let f = try ServerFixture(sockets: false)
        try f.authorize(Self.otp)
        for _ in 0..<2 {
            let reply = try await checkOtp(f)
            #expect(reply.status == 204)
            #expect(reply.header("Cache-Control") == "no-store")
        }
        let unknown = try await checkOtp(f, token: Phone.hash("KJ23IWY5UJ"))
        #expect(unknown.status == 401)
        #expect(unknown.errorCode == 1101)
        #expect(unknown.text.contains("Unauthorized OTP."))
        // Two checks: both counted on the authorisation, one event when they came within 5 s
        // (issue 18, 10c; a machine slow enough to part them further writes two).
        let checks = try f.events().filter { $0.kind == .otpChecked }
        let token = try #require(OtpHash(hex: Self.token))
        let watch = try #require(try f.store.codeWatch(otpHash: token, now: Date(), policy: PublishingPolicy()))
        #expect(watch.checks == 2)
        let apart = (watch.lastCheckedAt ?? .distantFuture).timeIntervalSince(watch.firstCheckedAt ?? .distantPast)
        #expect(checks.count == (apart < 5 ? 1 : 2))
        #expect(checks.allSatisfy { $0.detail == #"{"status":"authorized"}"# })
        // An uppercase-hex token of an authorised code never matches (hashes are lowercase).
        #expect(try await checkOtp(f, token: Self.token.uppercased()).status == 401)
    }

    @Test("10–12, 17: bad tokens, headers and padding are 400 {1100} on both endpoints")
    func badHeaders() async throws {
        let f = try ServerFixture(sockets: false)
        try f.authorize(Self.otp)
        let body = Phone.uploadBody(keys: Phone.dailyKeys(3))
        for token in ["asd", "12345", "abcdefghijklmnopqrstuvwxy", Self.otp, String(Self.token.dropLast()) + "g"] {
            #expect(try await checkOtp(f, token: token).errorCode == 1100, "\(token)")
            #expect(try await upload(f, token: token, body: body).errorCode == 1100, "\(token)")
        }
        for dummy in ["other", "boh", "", "2", "true"] {
            #expect(try await checkOtp(f, dummy: dummy).errorCode == 1100, "\(dummy)")
            #expect(try await upload(f, dummy: dummy, body: body).errorCode == 1100, "\(dummy)")
        }
        let missingClock = try await upload(f, clock: nil, body: body)
        #expect(missingClock.errorCode == 1100)
        #expect(missingClock.detail?.contains("Immuni-Client-Clock") == true)
        for padding in [#"\\asd*&!@#"#, String(repeating: "a", count: 150_001)] {
            #expect(try await checkOtp(f, padding: padding).errorCode == 1100)
        }
        #expect(try await checkOtp(f, padding: String(repeating: "a", count: 150_000)).status == 204)
        var noDummy = Phone.headers(token: Self.token, clock: Phone.now)
        noDummy["Immuni-Dummy-Data"] = nil
        let reply = try await f.send(
            "POST", f.phone.appendingPathComponent("v1/ingestion/upload"), headers: noDummy, body: body)
        #expect(reply.errorCode == 1100)
        // None of these consumed the code or recorded an upload.
        #expect(try f.count("uploads") == 0)
        #expect(try await upload(f, body: body).status == 204)
    }

    @Test("13, 14, 21: schema problems are 400 {1100} with a detail, and the code stays usable")
    func schemaProblems() async throws {
        let f = try ServerFixture(sockets: false)
        try f.authorize(Self.otp)
        let keys = Phone.dailyKeys(3)
        var key = keys[0]
        key["rolling_period"] = nil
        var negative = keys[0]
        negative["rolling_start_number"] = -1
        var stringNumber = keys[0]
        stringNumber["rolling_period"] = "144"
        var huge = keys[0]
        huge["rolling_start_number"] = 99_999_999_999_999_999 as Int64
        var urlSafe = keys[0]
        urlSafe["key_data"] = "AAAAAAAAAAAAAAAAAAAA-_=="
        var unpadded = keys[0]
        unpadded["key_data"] = "AAAAAAAAAAAAAAAAAAAAAA"
        let bodies: [(String, Data)] = [
            ("province asd", Phone.uploadBody(keys: keys, province: "asd")),
            ("province ROMA", Phone.uploadBody(keys: keys, province: "ROMA")),
            ("province XX", Phone.uploadBody(keys: keys, province: "XX")),
            ("province rm", Phone.uploadBody(keys: keys, province: "rm")),
            ("province null", Phone.uploadBody(keys: keys, province: nil, extra: ["province": NSNull()])),
            ("teks null", Phone.uploadBody(keys: [], extra: ["teks": NSNull()])),
            ("summaries null", Phone.uploadBody(keys: keys, extra: ["exposure_detection_summaries": NSNull()])),
            ("15 keys", Phone.uploadBody(keys: Phone.dailyKeys(15))),
            ("31 keys", Phone.uploadBody(keys: Phone.dailyKeys(31))),
            ("no rolling_period", Phone.uploadBody(keys: [key])),
            ("negative start", Phone.uploadBody(keys: [negative])),
            ("string number", Phone.uploadBody(keys: [stringNumber])),
            ("huge number", Phone.uploadBody(keys: [huge])),
            ("url-safe base64", Phone.uploadBody(keys: [urlSafe])),
            ("unpadded base64", Phone.uploadBody(keys: [unpadded])),
            ("teks not a list", Phone.uploadBody(keys: [], extra: ["teks": "x"])),
            ("bad padding", Phone.uploadBody(keys: keys, extra: ["padding": "ab-cd"])),
            (
                "summary missing fields",
                Phone.uploadBody(keys: keys, extra: ["exposure_detection_summaries": [["date": Date().utcDay.iso]]])
            ),
            ("array body", Data("[]".utf8)),
            ("broken JSON", Data(#"{"teks": ["#.utf8)),
        ]
        for (name, body) in bodies {
            let reply = try await upload(f, body: body)
            #expect(reply.status == 400, "\(name)")
            #expect(reply.errorCode == 1100, "\(name)")
            #expect(reply.detail?.isEmpty == false, "\(name)")
        }
        #expect(try f.count("uploads") == 0)
        #expect(try f.events().filter { $0.kind == .uploadAccepted }.isEmpty)
        // Still usable.
        #expect(try await upload(f, body: Phone.uploadBody(keys: keys)).status == 204)
    }

    @Test("16: 14 daily keys are stored with their labels, the code is consumed, and the operator sees it")
    func fullUpload() async throws {
        // The server's clock stands still and the phone's agrees: the skew is exactly 0, however
        // long the request takes on a busy machine.
        let clock = FixedClock(Date())
        let f = try ServerFixture(sockets: false, clock: clock)
        let phoneClock = Int64(clock.now().timeIntervalSince1970)
        try f.authorize(Self.otp, daysAgo: 7)
        let summary: [String: Any] = [
            "date": Date().utcDay.adding(days: -2).iso, "matched_key_count": 2, "days_since_last_exposure": 1,
            "attenuation_durations": [300, 0, 0], "maximum_risk_score": 4,
            "exposure_info": [
                [
                    "date": Date().utcDay.adding(days: -2).iso, "duration": 5, "attenuation_value": 45,
                    "attenuation_durations": [300, 0, 0], "transmission_risk_level": 1, "total_risk_score": 4,
                ]
            ],
        ]
        let body = Phone.uploadBody(
            keys: Phone.dailyKeys(14).map {
                var k = $0
                k["transmission_risk_level"] = 1
                return k
            },
            province: "AG", extra: ["exposure_detection_summaries": [summary], "unknown_field": true])
        let reply = try await upload(f, clock: phoneClock, body: body)
        #expect(reply.status == 204)
        #expect(reply.header("Cache-Control") == "no-store")
        // Symptoms 7 days ago: keys from 9 days ago on are kept (10 of 14), older ones dropped.
        let accepted = try #require(f.events().first { $0.kind == .uploadAccepted })
        #expect(accepted.detail.contains(#""keys_accepted":10"#))
        #expect(accepted.detail.contains(#""keys_dropped":4"#))
        #expect(accepted.detail.contains(#""before_risk_window":4"#))
        #expect(accepted.detail.contains(#""province":"AG""#))
        #expect(accepted.detail.contains(#""summaries":1"#))
        #expect(accepted.otpHash == OtpHash(hex: Self.token)?.stored, "the store keeps the stored form, not the token")
        let upload = try #require(try f.store.upload(id: 1))
        #expect(upload.keys.count == 10)
        #expect(upload.keys.allSatisfy { $0.transmissionRiskLevel == 8 && $0.reportType == .confirmedTest })
        #expect(upload.keys.map(\.daysSinceOnsetOfSymptoms) == Array(-2...7))
        #expect(upload.province == "AG")
        #expect(upload.clockSkewSeconds == 0)
        // Consumed: a second upload and a check are refused, and the operator sees the refusal.
        let again = try await self.upload(f, clock: phoneClock, body: body)
        #expect(again.status == 401)
        #expect(again.errorCode == 1101)
        #expect(try await checkOtp(f).status == 401)
        #expect(try f.events().contains { $0.kind == .uploadRefused && $0.detail == #"{"reason":"consumed"}"# })
        #expect(try f.count("uploads") == 1)
    }

    @Test("14, 15, 19: broken keys are dropped one by one with reasons; the upload is still stored")
    func perKeyDrops() async throws {
        let f = try ServerFixture(sockets: false)
        try f.authorize(Self.otp, daysAgo: 1)
        var keys = Phone.dailyKeys(6)
        keys[0]["key_data"] = Data([UInt8](repeating: 9, count: 15)).base64EncodedString()
        keys[1]["rolling_period"] = 145
        keys[2]["rolling_start_number"] = (keys[2]["rolling_start_number"] as! Int64) + 10
        keys[3]["key_data"] = keys[4]["key_data"]
        let reply = try await upload(f, body: Phone.uploadBody(keys: keys))
        #expect(reply.status == 204)
        let event = try #require(f.events().first { $0.kind == .uploadAccepted })
        #expect(event.detail.contains(#""key_length":1"#))
        #expect(event.detail.contains(#""rolling_period":1"#))
        #expect(event.detail.contains(#""misaligned":1"#))
        #expect(event.detail.contains(#""duplicate_key_data":1"#))
        #expect(event.detail.contains(#""keys_accepted":2"#))
        let metrics = try await f.send("GET", f.internalURL.appendingPathComponent("metrics")).text
        #expect(metrics.contains(#"tracedesk_keys_dropped_total{reason="misaligned"} 1"#))
        #expect(metrics.contains("tracedesk_keys_accepted_total 2"))
    }

    @Test("an expired code: 401, and the operator sees the app tried too late")
    func expired() async throws {
        let f = try ServerFixture(sockets: false)
        let code = try Otp(validating: Self.otp)
        _ = try f.store.authorize(
            otpHash: code.hash, symptomsStartedOn: Date().utcDay, by: "rossi", now: Date().addingTimeInterval(-200),
            lifetime: .seconds(150))
        #expect(try await checkOtp(f).status == 401)
        #expect(try await upload(f, body: Phone.uploadBody(keys: Phone.dailyKeys(2))).status == 401)
        let kinds = try f.events().map(\.kind)
        #expect(kinds == [.otpAuthorized, .otpChecked, .uploadRefused])
        #expect(try f.events().last?.detail == #"{"reason":"expired"}"#)
    }

    @Test("18: dummy requests are validated, answered like real ones, counted, and never recorded")
    func dummies() async throws {
        let f = try ServerFixture(sockets: false)
        let random = Phone.hash("DUMMY")
        // The iOS dummy upload: padding only, clock 0.
        let ios = try await upload(f, token: random, dummy: "1", clock: 0, body: Data(#"{"padding":"0a0b"}"#.utf8))
        #expect(ios.status == 204)
        var answers: [Int] = []
        for _ in 0..<20 { answers.append(try await checkOtp(f, token: random, dummy: "1").status) }
        #expect(answers.allSatisfy { $0 == 204 || $0 == 401 })
        // Invalid dummies are refused like real ones.
        #expect(try await upload(f, token: "asd", dummy: "1", body: Data(#"{"padding":"0a"}"#.utf8)).status == 400)
        #expect(try f.events().isEmpty)
        #expect(try f.count("uploads") == 0)
        let counts = try f.store.dummyCounts(since: Date().addingTimeInterval(-3600))
        #expect(counts["/v1/ingestion/upload"] == 1)
        #expect(counts["/v1/ingestion/check-otp"] == 20)
        let metrics = try await f.send("GET", f.internalURL.appendingPathComponent("metrics")).text
        #expect(metrics.contains("tracedesk_dummy_share 1"))
    }

    @Test("a dummy upload of an authorised code does not consume it")
    func dummyDoesNotConsume() async throws {
        let f = try ServerFixture(sockets: false)
        try f.authorize(Self.otp)
        let body = Phone.uploadBody(keys: Phone.dailyKeys(2))
        #expect(try await upload(f, dummy: "1", body: body).status == 204)
        #expect(try await upload(f, body: body).status == 204)
    }

    @Test("a real upload waits out the same delay as a dummy one (suspended, like check-otp)")
    func realUploadsAreDelayed() async throws {
        let f = try ServerFixture(delayMs: 100)
        try f.authorize(Self.otp)
        #expect(try await upload(f, body: Phone.uploadBody(keys: Phone.dailyKeys(2))).status == 204)
        #expect(f.server.phonePeakSuspended == 1)
    }

    @Test("21, 11: an upload without padding is fine; check-otp without Immuni-Dummy-Data is 400")
    func optionalPaddingAndRequiredDummy() async throws {
        let f = try ServerFixture(sockets: false)
        try f.authorize(Self.otp)
        let body = try JSONSerialization.data(withJSONObject: ["teks": Phone.dailyKeys(2), "province": "RM"])
        #expect(try await upload(f, body: body).status == 204)
        var headers = Phone.headers(token: Self.token)
        headers["Immuni-Dummy-Data"] = nil
        let reply = try await f.send(
            "POST", f.phone.appendingPathComponent("v1/ingestion/check-otp"), headers: headers,
            body: Data(#"{"padding":"00"}"#.utf8))
        #expect(reply.status == 400)
        #expect(reply.errorCode == 1100)
    }

    @Test("14: keys of 0, 1, 15, 17 and 100 bytes are each dropped as key_length; the 16-byte one is kept")
    func keyLengths() async throws {
        let f = try ServerFixture(sockets: false)
        try f.authorize(Self.otp, daysAgo: 1)
        let today = Int64(Date().timeIntervalSince1970) / 86_400 * 144
        let lengths = [0, 1, 15, 17, 100, 16]
        let keys: [[String: Any]] = lengths.enumerated().map { i, length in
            [
                "key_data": Data([UInt8](repeating: UInt8(i + 1), count: length)).base64EncodedString(),
                "rolling_start_number": today - Int64(lengths.count - 1 - i) * 144, "rolling_period": 144,
            ]
        }
        #expect(try await upload(f, body: Phone.uploadBody(keys: keys)).status == 204)
        let event = try #require(f.events().first { $0.kind == .uploadAccepted })
        #expect(event.detail.contains(#""key_length":5"#))
        #expect(event.detail.contains(#""keys_accepted":1"#))
    }
}
