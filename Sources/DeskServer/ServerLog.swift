import DeskLog
import Foundation

/// The server's messages (startup, warnings, jobs, incidents) as `log_format` wants them.
///
/// Every part of the server logs a sentence through one `(String) -> Void`; in the JSON format
/// each sentence becomes one object whose `level` and `event` are read off the sentence's
/// start (the forms the server writes: `WARNING: …`, `note: …`, `incident ID: …`, `publishing: …`),
/// with the sentence itself in `message`. The access log writes its own objects (``AccessLog``),
/// with `route`, `status` and `duration_ms`.
public enum ServerLog {
    /// The function `tracedesk serve --log-format json` logs through: one object a line,
    /// through the one log writer (the text format is the command line's `serve: MESSAGE`).
    public static func jsonWriter(_ writer: LogWriter = .standardError) -> @Sendable (String) -> Void {
        { message in writer.line(json(message).text) }
    }

    /// A failure that stops the server before it serves (bad settings, a store it cannot open,
    /// an address it cannot bind): level error, the event given.
    public static func failure(_ message: String, event: String, time: Date = Date()) -> JSONLogLine {
        JSONLogLine(time: time, level: "error", event: event, fields: [("message", .string(message))])
    }

    /// Events read off a message's first words, first match wins.
    static let events: [(prefix: String, event: String)] = [
        ("phone API on ", "listening"), ("internal API ", "listening"), ("HIS API ", "listening"),
        ("APRICOT on ", "listening"), ("store ", "store"), ("chunks signed ", "signing"),
        ("no signing key", "signing"), ("audit checkpoints", "audit_checkpoint"),
        ("audit checkpoint", "audit_checkpoint"), ("no audit checkpoints", "audit_checkpoint"),
        ("publishing", "publishing"), ("cleanup", "cleanup"), ("statistics", "stats_rollup"),
        ("SMS ", "sms"), ("sms_gateway", "sms"), ("app settings", "app_settings"),
        ("no staff account yet", "setup"), ("SIGTERM", "stopping"), ("SIGINT", "stopping"),
        ("stopped", "stopped"), ("his_auth", "his_auth"), ("Apple DeviceCheck", "analytics"),
        ("no SafetyNet", "analytics"), ("analytics", "analytics"), ("operational info", "analytics"),
        ("the APRICOT", "apricot"), ("APRICOT", "apricot"), ("no apricot_code_secret_file", "apricot"),
        ("systemd", "systemd"), ("the store file", "store"), ("the signing key", "signing"),
        ("the audit key", "audit_checkpoint"), ("the audit checkpoint", "audit_checkpoint"),
    ]

    /// The object for one message: `level` error for incidents and failures, warning for
    /// `WARNING:`, notice for `note:`, else info; `incident` when the message names one.
    public static func json(_ message: String, time: Date = Date()) -> JSONLogLine {
        var rest = Substring(message)
        var level = "info"
        var fields: [(String, JSONLogLine.Value)] = []
        var event: String?
        if rest.hasPrefix("WARNING: ") {
            level = "warning"
            rest = rest.dropFirst(9)
        } else if rest.hasPrefix("note: ") {
            level = "notice"
            rest = rest.dropFirst(6)
        } else if rest.hasPrefix("incident "), let colon = rest.firstIndex(of: ":") {
            let id = rest[rest.index(rest.startIndex, offsetBy: 9)..<colon]
            if !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) {
                level = "error"
                event = "incident"
                fields.append(("incident", .string(String(id))))
                rest = rest[rest.index(after: colon)...].drop(while: { $0 == " " })
            }
        }
        if level == "info", rest.contains("FAILED") || rest.contains("STOPPED") { level = "error" }
        let found = event ?? events.first(where: { rest.hasPrefix($0.prefix) })?.event ?? "message"
        return JSONLogLine(
            time: time, level: level, event: found, fields: [("message", .string(String(rest)))] + fields)
    }
}
