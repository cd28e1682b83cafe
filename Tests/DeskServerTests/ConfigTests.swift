import DeskCore
import DeskServer
import Foundation
import Testing

@Suite("Server settings")
struct ConfigTests {
    func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).json")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("defaults are Immuni's")
    func defaults() throws {
        let config = try ServerConfig.load(file: nil, environment: [:]).get()
        #expect(config.otpTTLSeconds == 150)
        #expect(config.checkDelayMeanMs == 150)
        #expect(config.checkDelaySdMs == 20)
        #expect(config.listen.description == "127.0.0.1:8080")
        #expect(config.internalListen.description == "127.0.0.1:8081")
        #expect(config.riskProfile.transmissionRiskLevel == 8)
    }

    @Test("chunk settings: Immuni's labels by default; bad identifiers, ranges and padding that cannot fit are refused")
    func chunkSettings() throws {
        let config = try ServerConfig.load(file: nil, environment: [:]).get()
        #expect(config.signingKeyID == "222" && config.signingKeyVersion == "v1" && config.region == "222")
        #expect(config.appBundleID == "it.ministerodellasalute.immuni")
        #expect(config.signingKeyRequired)
        #expect(config.publishingPolicy.maxKeysPerChunk == 10_000)
        #expect(config.publishingPolicy.minimumKeys == 0)
        #expect(config.retentionPolicy == RetentionPolicy(days: 14, analyticsDays: 30))
        let environment = [
            "TRACEDESK_SIGNING_KEY_ID": "2 22", "TRACEDESK_SIGNING_KEY_VERSION": "", "TRACEDESK_RETENTION_DAYS": "5",
            "TRACEDESK_CHUNK_MAX_KEYS": "1000", "TRACEDESK_CHUNK_MIN_KEYS": "950",
            "TRACEDESK_CHUNK_PADDING_JITTER": "100",
        ]
        guard case .failure(let error) = ServerConfig.load(file: nil, environment: environment) else {
            Issue.record("bad chunk settings were accepted")
            return
        }
        #expect(error.problems.contains("TRACEDESK_SIGNING_KEY_ID must be 1 to 64 letters, digits, _ or ."))
        #expect(error.problems.contains("TRACEDESK_SIGNING_KEY_VERSION must be 1 to 64 letters, digits, _ or ."))
        #expect(error.problems.contains("TRACEDESK_RETENTION_DAYS must be a whole number from 10 to 30"))
        #expect(
            error.problems.contains {
                $0.hasPrefix("chunk_min_keys (950) plus chunk_padding_jitter (100) must not exceed")
            })
        let tooBig = ["TRACEDESK_CHUNK_MAX_KEYS": "750000", "TRACEDESK_RISK_REPORT_TYPE": "revoked"]
        guard case .failure(let big) = ServerConfig.load(file: nil, environment: tooBig) else {
            Issue.record("a chunk size over 16 MiB and revoked keys were accepted")
            return
        }
        #expect(big.problems.contains("TRACEDESK_CHUNK_MAX_KEYS must be a whole number from 100 to 400000"))
        #expect(big.problems.contains { $0.hasPrefix("TRACEDESK_RISK_REPORT_TYPE must be one of confirmed_test,") })
        let longRetention = try ServerConfig.load(file: nil, environment: ["TRACEDESK_RETENTION_DAYS": "30"]).get()
        #expect(longRetention.publishingPolicy.chunkLifetimeDays == 14)
        let fits = [
            "TRACEDESK_CHUNK_MAX_KEYS": "1000", "TRACEDESK_CHUNK_MIN_KEYS": "900", "TRACEDESK_APP_BUNDLE_ID": "",
        ]
        let padded = try ServerConfig.load(file: nil, environment: fits).get()
        #expect(padded.publishingPolicy.realKeysPerChunk == 900)
        #expect(padded.appBundleID == nil)
    }

    @Test("the file, then the environment: the environment wins")
    func layering() throws {
        let path = try file(
            #"{"_note": "ok", "otp_ttl_seconds": 300, "listen": "127.0.0.1:9000", "access_log": false}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let config = try ServerConfig.load(file: path, environment: ["TRACEDESK_OTP_TTL_SECONDS": "200"]).get()
        #expect(config.otpTTLSeconds == 200)
        #expect(config.listen.port == 9000)
        #expect(!config.accessLog)
    }

    @Test("every problem is reported at once")
    func problems() throws {
        let path = try file(
            #"{"otp_ttl_secnds": 1, "max_body_bytes": "big", "risk_report_type": "maybe", "tls_cert": "/x.pem"}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = ServerConfig.load(
            file: path,
            environment: ["TRACEDESK_CHECK_DELAY_MEAN_MS": "-1", "TRACEDESK_INTERNAL_LISTEN": "localhost:1"])
        guard case .failure(let error) = result else {
            Issue.record("accepted bad settings")
            return
        }
        let text = error.message
        #expect(error.problems.count == 6)
        #expect(text.contains(#"unknown setting "otp_ttl_secnds" (did you mean "otp_ttl_seconds"?)"#))
        #expect(text.contains("max_body_bytes must be a whole number from 1024 to 16777216"))
        #expect(text.contains("risk_report_type must be one of"))
        #expect(text.contains("TRACEDESK_CHECK_DELAY_MEAN_MS must be"))
        #expect(text.contains("TRACEDESK_INTERNAL_LISTEN must be an IPv4 address"))
        #expect(text.contains("tls_cert and tls_key must be given together"))
    }

    @Test("a file that is not JSON, or missing, is one clear problem")
    func badFiles() throws {
        let path = try file("{ nope")
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard case .failure(let broken) = ServerConfig.load(file: path, environment: [:]) else {
            Issue.record("accepted a file that is not JSON")
            return
        }
        #expect(broken.message.contains("is not valid JSON at byte 2"))
        guard case .failure(let missing) = ServerConfig.load(file: "/nonexistent/x.json", environment: [:]) else {
            Issue.record("accepted a missing file")
            return
        }
        #expect(missing.message.contains("cannot be read"))
    }

    @Test("the follow-up settings: defaults, the environment, refused values, the retention they set")
    func followUpSettings() throws {
        let defaults = try ServerConfig.load(file: nil, environment: [:]).get()
        #expect(defaults.followUpSettings == .standard)
        #expect(defaults.retentionPolicy.closedCaseDays == 30)
        let environment = [
            "TRACEDESK_FOLLOW_UP_PERIOD_DAYS": "10", "TRACEDESK_FOLLOW_UP_RETRY_MINUTES": "30",
            "TRACEDESK_FOLLOW_UP_ATTEMPTS_PER_DAY": "5", "TRACEDESK_FOLLOW_UP_LOST_AFTER_DAYS": "2",
            "TRACEDESK_CLOSED_CASE_RETENTION_DAYS": "90",
        ]
        let config = try ServerConfig.load(file: nil, environment: environment).get()
        #expect(config.followUpSettings.periodDays == 10)
        #expect(config.followUpSettings.retrySeconds == 1_800)
        #expect(config.followUpSettings.attemptsPerDay == 5)
        #expect(config.followUpSettings.lostAfterDays == 2)
        #expect(config.retentionPolicy.closedCaseDays == 90)
        #expect(try ServerConfig.followUpSettings(environment: environment).get() == config.followUpSettings)
        guard
            case .failure(let error) = ServerConfig.followUpSettings(
                environment: ["TRACEDESK_FOLLOW_UP_PERIOD_DAYS": "0"])
        else {
            Issue.record("accepted a period of 0 days")
            return
        }
        #expect(error.message.contains("TRACEDESK_FOLLOW_UP_PERIOD_DAYS"))
    }

    @Test("every setting has an environment variable and help")
    func listing() {
        #expect(ServerConfig.settings.count >= 25)
        #expect(ServerConfig.settings.allSatisfy { $0.environmentName.hasPrefix("TRACEDESK_") && !$0.help.isEmpty })
        #expect(Set(ServerConfig.settings.map(\.name)).count == ServerConfig.settings.count)
    }

    @Test("the app settings file reports every broken entry")
    func appSettingsProblems() {
        let text = #"{"entries": [{"platform": "web", "starting_build": 0, "settings": 3}, {"platform": "ios"}]}"#
        guard case .failure(let error) = AppSettingsTable.parse(Array(text.utf8)) else {
            Issue.record("accepted a broken settings file")
            return
        }
        #expect(error.problems.count == 5)
    }
}
