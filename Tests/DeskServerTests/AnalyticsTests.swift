import DeskContract
import DeskCore
import DeskCrypto
import DeskServer
import DeskTestSupport
import Foundation
import Testing

/// The analytics endpoints of the phone listener, on its handler as values.
@Suite("Analytics")
struct AnalyticsTests {
    static let token = String(repeating: "ab", count: 64)
    static let device = Data("device".utf8).base64EncodedString()

    func appleToken(_ f: ServerFixture, token: String = token) async throws -> Reply {
        try await f.send(
            "POST", f.phone.appendingPathComponent("v1/analytics/apple/token"),
            headers: ["Content-Type": "application/json"],
            body: Data(#"{"analytics_token":"\#(token)","device_token":"\#(Self.device)"}"#.utf8))
    }

    func record(exposure: Int = 0, province: String = "RM", extra: String = "") -> Data {
        Data(
            #"{"province":"\#(province)","exposure_permission":1,"bluetooth_active":1,"notification_permission":0,"exposure_notification":\#(exposure),"last_risky_exposure_on":"\#(Date().utcDay.iso)"\#(extra)}"#
                .utf8)
    }

    func appleInfo(_ f: ServerFixture, body: Data, token: String = token, dummy: String = "0") async throws -> Reply {
        try await f.send(
            "POST", f.phone.appendingPathComponent("v1/analytics/apple/operational-info"),
            headers: [
                "Content-Type": "application/json", "Authorization": "Bearer \(token)", "Immuni-Dummy-Data": dummy,
            ],
            body: body)
    }

    func googleInfo(_ f: ServerFixture, body: Data, dummy: String = "0") async throws -> Reply {
        try await f.send(
            "POST", f.phone.appendingPathComponent("v1/analytics/google/operational-info"),
            headers: ["Content-Type": "application/json", "Immuni-Dummy-Data": dummy], body: body)
    }

    @Test("without DeviceCheck configured, tokens are refused loudly: 202, never authorised, a warning")
    func appleNotConfigured() async throws {
        // Once a minute on the server's clock, which moves only when the test moves it.
        let clock = FixedClock(Date())
        let f = try ServerFixture(sockets: false, clock: clock)
        let warnings = { f.logLines.all.filter { $0.contains("DeviceCheck is not configured") }.count }
        #expect(try await appleToken(f).status == 202)
        clock.advance(seconds: 59)
        #expect(try await appleToken(f).status == 202)
        #expect(warnings() == 1)
        clock.advance(seconds: 1)
        #expect(try await appleToken(f).status == 202)
        #expect(warnings() == 2, "again a minute later: still loud")
        #expect(try await appleInfo(f, body: record()).status == 204)
        #expect(try f.count("operational_info") == 0)
    }

    @Test("27–28: a checked token gets 201 and one record with and one without exposure per month")
    func appleFlow() async throws {
        let f = try ServerFixture(sockets: false, deviceCheck: { _ in .authorized })
        #expect(try await appleToken(f).status == 202)
        try await eventually(within: .seconds(60), "the checked token answered 201") {
            try await appleToken(f).status == 201
        }
        #expect(try await appleInfo(f, body: record(exposure: 0)).status == 204)
        #expect(try await appleInfo(f, body: record(exposure: 0)).status == 204)
        #expect(try await appleInfo(f, body: record(exposure: 1, extra: #","build":4001"#)).status == 204)
        #expect(try f.count("operational_info") == 2)
        #expect(try f.events().filter { $0.kind == .analyticsReceived }.count == 2)
        // The token itself is never stored.
        #expect(
            try SQLiteLockHolder(path: f.store.path, lock: false).integer(
                "SELECT count(*) FROM analytics_allowances WHERE token_hash = '\(Self.token.prefix(64))'") == 0)
    }

    @Test("a token whose device check fails stays unauthorised")
    func appleRefused() async throws {
        let f = try ServerFixture(sockets: false, deviceCheck: { _ in .discarded("test: Apple answered 400") })
        #expect(try await appleToken(f).status == 202)
        try await eventually(within: .seconds(60), "the device check's refusal counted") {
            f.server.metrics.render().contains(#"result="device_check_discarded"} 1"#)
        }
        #expect(try await appleToken(f).status == 202)
    }

    @Test("28: invalid records are 400 {1100}; dummies are 204 and stored nowhere")
    func invalidRecords() async throws {
        let f = try ServerFixture(sockets: false, deviceCheck: { _ in .authorized })
        let bad: [(Data, String)] = [
            (record(province: "XX"), Self.token), (record(extra: #","build":0"#), Self.token),
            (record(extra: #","build":20001"#), Self.token), (record(extra: #","build":null"#), Self.token),
            (Data(#"{"province":"RM"}"#.utf8), Self.token),
            (record(), "short"), (record(), Self.token.uppercased()),
            (
                Data(
                    String(decoding: record(), as: UTF8.self).replacingOccurrences(
                        of: #""bluetooth_active":1"#, with: #""bluetooth_active":"1""#
                    ).utf8), Self.token
            ),
            (
                Data(
                    String(decoding: record(), as: UTF8.self).replacingOccurrences(
                        of: #""bluetooth_active":1"#, with: #""bluetooth_active":true"#
                    ).utf8), Self.token
            ),
        ]
        for (body, token) in bad {
            let reply = try await appleInfo(f, body: body, token: token)
            #expect(reply.status == 400)
            #expect(reply.errorCode == 1100)
        }
        #expect(try await appleToken(f, token: "abc").errorCode == 1100)
        #expect(try await appleInfo(f, body: record(), dummy: "1").status == 204)
        #expect(try f.count("operational_info") == 0)
        #expect(try f.events().isEmpty)
    }

    @Test("Google: verified records are stored once per salt; failed or unconfigured attestations are discarded")
    func google() async throws {
        let salt = Data([UInt8](repeating: 7, count: 16)).base64EncodedString()
        func body(_ attestation: String, salt: String = salt) -> Data {
            record(extra: #","salt":"\#(salt)","signed_attestation":"\#(attestation)""#)
        }
        let unconfigured = try ServerFixture(sockets: false)
        #expect(try await googleInfo(unconfigured, body: body("a.b.c")).status == 204)
        #expect(unconfigured.logLines.all.contains { $0.contains("no attestation root") })
        #expect(try unconfigured.count("operational_info") == 0)

        let f = try ServerFixture(
            sockets: false,
            attestationCheck: { attestation, nonce in
                attestation == "good" && nonce == "RM-\(salt)" ? .success(()) : .failure(.signatureInvalid)
            })
        #expect(try await googleInfo(f, body: body("good")).status == 204)
        #expect(try await googleInfo(f, body: body("good")).status == 204)
        #expect(
            try await googleInfo(
                f, body: body("bad", salt: Data([UInt8](repeating: 8, count: 16)).base64EncodedString())
            ).status == 204)
        #expect(try await googleInfo(f, body: body("good", salt: "short")).status == 400)
        // Verified off the request path: wait for the three verdicts (stored, salt reused,
        // attestation failed), each counted once.
        try await eventually(within: .seconds(60), "three Android records verified") {
            Self.googleVerdicts(f.server.metrics.render()) == 3
        }
        #expect(try f.count("operational_info") == 1)
    }

    /// The Android records given a verdict so far: the sum of the google_operational_info counters.
    static func googleVerdicts(_ metrics: String) -> Int {
        metrics.split(separator: "\n").filter { $0.hasPrefix("tracedesk_analytics_total{") }
            .filter { $0.contains(#"kind="google_operational_info""#) }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +)
    }
}
