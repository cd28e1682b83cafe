import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskHTTPClient
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// `tracedesk serve` with the real verifiers built from settings: a SafetyNet root file and a
/// DeviceCheck endpoint (the fake Apple service on 127.0.0.1), over HTTP and a real store.
@Suite("Server analytics with the real verifiers")
struct ServerAnalyticsTests {
    final class Running: @unchecked Sendable {
        static let client = HTTPClient()
        let directory: URL
        let store: SQLiteStore
        let server: TraceDeskServer
        init(_ configure: (inout ServerConfig, URL) throws -> Void) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "tracedesk-analytics-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            store = try SQLiteStore(path: directory.appendingPathComponent("s.sqlite").path)
            var config = ServerConfig()
            config.listen = ListenAddress(host: "127.0.0.1", port: 0)
            config.internalListen = ListenAddress(host: "127.0.0.1", port: 0)
            config.checkDelayMeanMs = 0
            config.checkDelaySdMs = 0
            try configure(&config, directory)
            let verifiers = try TraceDeskServer.analyticsVerifiers(config).get()
            server = try TraceDeskServer(
                config: config, store: store, appSettingsPath: nil, deviceCheck: verifiers.0,
                attestationCheck: verifiers.1, nonce: verifiers.2, accessLog: nil, log: { _ in })
            try server.start()
        }
        deinit {
            server.stop(grace: .seconds(1))
            try? FileManager.default.removeItem(at: directory)
        }
        func post(_ path: String, _ body: String, headers: [String: String]) async throws -> Int {
            let url = URL(string: "http://127.0.0.1:\(server.phonePort)\(path)")!
            let request = HTTPClient.Request(
                "POST", url, headers: [("Content-Type", "application/json")] + headers.map { ($0.key, $0.value) },
                body: Array(body.utf8), connectTimeout: .seconds(60), deadline: .seconds(120))
            return try await Self.client.send(request).status
        }
        func count(_ table: String) throws -> Int {
            // Read through the store's own API: operational-info events.
            try store.events(after: 0, limit: 1000).filter { $0.kind == .analyticsReceived }.count
        }
    }

    @Test("a genuine SafetyNet attestation is stored; a forged one and a reused salt are not")
    func google() async throws {
        let builder = try await AttestationBuilder()
        let running = try Running { config, directory in
            let root = directory.appendingPathComponent("root.pem")
            try Data(builder.fixture.rootPEM.utf8).write(to: root)
            config.googleAttestationRootFile = root.path
            config.googleApkCertificateDigest = AttestationBuilder.digest
        }
        // The attestation's nonce binds the record: AG, flags 1 1 0 1, today, the salt.
        let today = Date().utcDay.iso
        let good = try await builder.jws { fields in
            fields["nonce"] = SafetyNetVerifier.nonce(
                province: "AG", exposurePermission: 1, bluetoothActive: 1, notificationPermission: 0,
                exposureNotification: 1, lastRiskyExposureOn: today, salt: AttestationBuilder.salt)
        }
        func body(_ jws: String, salt: String = AttestationBuilder.salt) -> String {
            #"{"province":"AG","exposure_permission":1,"bluetooth_active":1,"notification_permission":0,"exposure_notification":1,"last_risky_exposure_on":"\#(today)","salt":"\#(salt)","signed_attestation":"\#(jws)"}"#
        }
        #expect(
            try await running.post(
                "/v1/analytics/google/operational-info", body(good), headers: ["Immuni-Dummy-Data": "0"]) == 204)
        // Verified and stored off the request path, after the answer.
        try await eventually(within: .seconds(60), "the attested record stored") {
            try running.count("operational_info") == 1
        }
        // The same salt again, and a forged signature: both 204, neither stored.
        #expect(
            try await running.post(
                "/v1/analytics/google/operational-info", body(good), headers: ["Immuni-Dummy-Data": "0"]) == 204)
        let forged = String(good.dropLast(4)) + "AAAA"
        #expect(
            try await running.post(
                "/v1/analytics/google/operational-info",
                body(forged, salt: Data("different salt1234".utf8).base64EncodedString()),
                headers: ["Immuni-Dummy-Data": "0"]) == 204)
        // Each is counted once its fate is decided, after the point where it would have been
        // stored: once both counts are there, nothing more can be stored.
        try await eventually(within: .seconds(60), "both records counted as refused") {
            let metrics = running.server.metrics.render()
            return metrics.contains(#"result="salt_reused""#)
                && metrics.contains(#"result="attestation_failed",reason="signatureInvalid""#)
        }
        #expect(try running.count("operational_info") == 1)
    }

    @Test("a token whose device passes Apple's two-bit check is authorised: 202, then 201")
    func apple() async throws {
        try await FakeDeviceCheck.with(#"{"state": null}"#) { fake async throws in
            let key = ECPrivateKey.generate()
            let running = try Running { config, directory in
                let keyFile = directory.appendingPathComponent("devicecheck.p8")
                try Data(key.pemPKCS8().utf8).write(to: keyFile)
                config.appleDeviceCheckURL = fake.baseURL.absoluteString
                config.appleTeamID = "TEAM123456"
                config.appleKeyID = "KEY1234567"
                config.applePrivateKeyFile = keyFile.path
                config.appleDeviceCheckWaitSeconds = 0
            }
            let token = String(repeating: "c0", count: 64)
            let body = #"{"analytics_token":"\#(token)","device_token":"ZGV2aWNl"}"#
            #expect(try await running.post("/v1/analytics/apple/token", body, headers: [:]) == 202)
            // 202 while the two-bit check runs (off the request path), 201 once it authorised.
            var status = 202
            try await eventually(within: .seconds(60), "the two-bit check done (an answer other than 202)") {
                status = try await running.post("/v1/analytics/apple/token", body, headers: [:])
                return status != 202
            }
            #expect(status == 201)
            #expect(try fake.calls().contains("update"))
        }
    }

    @Test("unreadable verifier files are settings problems, all reported")
    func badFiles() {
        var config = ServerConfig()
        config.googleAttestationRootFile = "/nonexistent/root.pem"
        config.googleApkCertificateDigest = "x"
        config.appleDeviceCheckURL = "ftp://nowhere"
        config.appleTeamID = "T"
        config.appleKeyID = "K"
        config.applePrivateKeyFile = "/nonexistent/key.p8"
        guard case .failure(let error) = TraceDeskServer.analyticsVerifiers(config) else {
            Issue.record("accepted unreadable verifier files")
            return
        }
        #expect(error.problems.count == 2)
        #expect(error.message.contains("apple_device_check_url must be an http(s) URL"))
        #expect(error.message.contains("google_attestation_root_file /nonexistent/root.pem cannot be read"))
    }
}
