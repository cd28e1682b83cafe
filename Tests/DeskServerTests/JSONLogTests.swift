import DeskTestSupport
import Foundation
import Testing

@testable import DeskServer

/// `log_format` json: every line one JSON object with time, level and event, read back with a
/// JSON parser; messages keep their words, and no character can break a line or forge a field.
@Suite struct JSONLogTests {
    static func object(_ line: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(value as? [String: Any])
    }

    @Test func aMessageBecomesAnObjectWithLevelAndEvent() throws {
        let time = Date(timeIntervalSince1970: 1_796_000_000.123)
        let line = ServerLog.json("WARNING: no signing key (signing_key_required is false)", time: time).text
        #expect(!line.contains("\n"))
        let object = try Self.object(line)
        #expect(object["time"] as? String == "2026-11-30T00:53:20.123Z")
        #expect(object["level"] as? String == "warning")
        #expect(object["event"] as? String == "signing")
        #expect(object["message"] as? String == "no signing key (signing_key_required is false)")
    }

    @Test(arguments: [
        ("phone API on http://127.0.0.1:8080", "info", "listening"),
        ("note: no audit checkpoints (audit_key_path and audit_checkpoint_path unset)", "notice", "audit_checkpoint"),
        ("publishing FAILED (tried again in 60 s): disk I/O error", "error", "publishing"),
        ("SIGTERM: finishing requests in flight, then stopping", "info", "stopping"),
        ("stopped", "info", "stopped"),
        ("something new", "info", "message"),
    ])
    func levelsAndEventsAreReadOffTheMessage(message: String, level: String, event: String) throws {
        let object = try Self.object(ServerLog.json(message).text)
        #expect(object["level"] as? String == level)
        #expect(object["event"] as? String == event)
    }

    @Test func anIncidentCarriesItsID() throws {
        let object = try Self.object(ServerLog.json("incident 7f3a-12: staff API: database is locked").text)
        #expect(object["level"] as? String == "error")
        #expect(object["event"] as? String == "incident")
        #expect(object["incident"] as? String == "7f3a-12")
        #expect(object["message"] as? String == "staff API: database is locked")
    }

    @Test func controlCharactersQuotesAndNewlinesAreEscaped() throws {
        let nasty = "a \"quoted\" \\ path\nsecond line\u{1B}[2J\r\t\u{7F} é 🙂"
        let line = ServerLog.json(nasty).text
        #expect(!line.contains("\n") && !line.contains("\u{1B}") && !line.contains("\r"))
        #expect(try Self.object(line)["message"] as? String == nasty)
    }

    @Test func aFailureIsAnError() throws {
        let object = try Self.object(ServerLog.failure("listen 127.0.0.1:8080: in use", event: "listen_failed").text)
        #expect(object["level"] as? String == "error")
        #expect(object["event"] as? String == "listen_failed")
    }

    @Test func settingAndOption() throws {
        #expect(ServerConfig().logFormatChoice == .text)
        let (config, problems) = ServerConfig.read(file: nil, environment: ["TRACEDESK_LOG_FORMAT": "json"])
        #expect(problems.isEmpty)
        #expect(config.logFormatChoice == .json)
        let (_, bad) = ServerConfig.read(file: nil, environment: ["TRACEDESK_LOG_FORMAT": "xml"])
        #expect(bad.count == 1)
    }

    /// The access log's JSON: route, status and duration_ms; a 5xx is an error; a request left
    /// unanswered has `aborted` instead of a status.
    @Test func requestLines() throws {
        let lines = LogLines()
        let log = AccessLog(format: .json, write: { lines.append($0) })
        log.record(
            ExchangeSummary(
                listener: "public", method: "POST", route: "/v1/ingestion/upload", status: 204,
                durationNanoseconds: 1_500_000))
        log.record(
            ExchangeSummary(
                listener: "internal", method: "GET", route: "/staff/v1/me", status: 503, durationNanoseconds: 0))
        log.record(
            ExchangeSummary(
                listener: "public", method: "GET", route: "/v1/settings", status: 0, durationNanoseconds: 10))
        let objects = try lines.all.map(Self.object)
        #expect(objects.count == 3)
        #expect(objects[0]["event"] as? String == "request" && objects[0]["route"] as? String == "/v1/ingestion/upload")
        #expect(objects[0]["status"] as? Int == 204 && objects[0]["duration_ms"] as? Double == 1.5)
        #expect(objects[0]["level"] as? String == "info" && objects[1]["level"] as? String == "error")
        #expect(objects[2]["status"] == nil && objects[2]["aborted"] as? Bool == true)
    }
}
