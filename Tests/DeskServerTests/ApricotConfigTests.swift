import DeskCore
import DeskServer
import Foundation
import Testing

@Suite("APRICOT and SMS settings")
struct ApricotConfigTests {
    @Test("defaults are the design's; the outbox gateway; the staff desk and retention follow them")
    func defaults() throws {
        let config = try ServerConfig.load(file: nil, environment: [:]).get()
        #expect(config.apricotSettings == ApricotSettings())
        #expect(config.smsGateway == "outbox")
        #expect(config.apricotCodeSecretFile == nil)
        #expect(config.retentionPolicy.contactHistoryDays == 30)
        let changed = try ServerConfig.load(
            file: nil,
            environment: [
                "TRACEDESK_NUM_PSEUDO_IDS": "500", "TRACEDESK_CONTACT_HISTORY_MAX": "21",
                "TRACEDESK_CONTACT_TIMESTAMP_OPTION": "false", "TRACEDESK_CLOSE_CONTACT_MINUTES": "20",
                "TRACEDESK_DEFAULT_COUNTRY_CODE": "+44", "TRACEDESK_BEACON_DETECT_INTERVAL": "30",
            ]
        ).get()
        #expect(changed.apricotSettings.pseudoIDsPerUser == 500)
        #expect(changed.apricotSettings.contactHistoryDays == 21 && changed.retentionPolicy.contactHistoryDays == 21)
        #expect(!changed.apricotSettings.contactTimestamps)
        #expect(changed.apricotSettings.closeContactMinutes == 20)
        #expect(changed.apricotSettings.defaultCountryCode == "+44")
        #expect(changed.apricotSettings.beaconDetectSeconds == 30)
    }

    @Test("every problem at once: ranges, a country code, the http gateway without its URL and key")
    func problems() {
        let environment = [
            "TRACEDESK_NUM_PSEUDO_IDS": "0", "TRACEDESK_DEFAULT_COUNTRY_CODE": "39",
            "TRACEDESK_SMS_GATEWAY": "http", "TRACEDESK_CONTACT_HISTORY_MAX": "365",
        ]
        guard case .failure(let error) = ServerConfig.load(file: nil, environment: environment) else {
            Issue.record("bad settings were accepted")
            return
        }
        let text = error.message
        #expect(text.contains("TRACEDESK_NUM_PSEUDO_IDS must be a whole number from 1 to 10000"))
        #expect(text.contains("TRACEDESK_DEFAULT_COUNTRY_CODE must be + and 1 to 3 digits"))
        #expect(text.contains("TRACEDESK_CONTACT_HISTORY_MAX"))
        #expect(text.contains("sms_gateway http needs sms_http_url"))
        #expect(text.contains("sms_gateway http needs sms_http_api_key"))
        let badURL = ServerConfig.load(
            file: nil,
            environment: [
                "TRACEDESK_SMS_GATEWAY": "http", "TRACEDESK_SMS_HTTP_URL": "ftp://x", "TRACEDESK_SMS_HTTP_API_KEY": "k",
            ])
        guard case .failure(let urlError) = badURL else {
            Issue.record("an ftp URL was accepted")
            return
        }
        #expect(urlError.message.contains("sms_http_url must be an http(s) URL"))
    }

    @Test("sms_http_url: https anywhere, plain http only to a loopback host")
    func httpsRequired() {
        func problems(_ url: String) -> [String] {
            let environment = [
                "TRACEDESK_SMS_GATEWAY": "http", "TRACEDESK_SMS_HTTP_URL": url, "TRACEDESK_SMS_HTTP_API_KEY": "k",
            ]
            guard case .failure(let error) = ServerConfig.load(file: nil, environment: environment) else { return [] }
            return error.problems
        }
        let refused = problems("http://sms.example.org/send")
        #expect(refused.contains { $0.contains("sms_http_url must use https") && $0.contains("127.0.0.1") })
        #expect(problems("http://10.0.0.5/send").contains { $0.contains("sms_http_url must use https") })
        #expect(problems("https://sms.example.org/send").isEmpty)
        #expect(problems("http://127.0.0.1:8080/send").isEmpty)
        #expect(problems("http://localhost:8080/send").isEmpty)
        #expect(problems("http://[::1]:8080/send").isEmpty)
    }

    @Test("the provider's API key is never shown by --settings")
    func keyRedacted() throws {
        let config = try ServerConfig.load(
            file: nil,
            environment: [
                "TRACEDESK_SMS_GATEWAY": "http", "TRACEDESK_SMS_HTTP_URL": "https://sms.example.org/send",
                "TRACEDESK_SMS_HTTP_API_KEY": "very-secret-key",
            ]
        ).get()
        let shown = ServerConfig.settings.map { $0.value(in: config) }.joined(separator: "\n")
        #expect(!shown.contains("very-secret-key"))
        #expect(shown.contains("(set, redacted)"))
        #expect(shown.contains("https://sms.example.org/send"))
    }
}
