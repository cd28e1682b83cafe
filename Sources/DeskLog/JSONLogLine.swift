import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How the server writes its log: `text` (a line a person reads, the default) or `json` (one
/// JSON object per line, for a log shipper).
public enum LogFormat: String, CaseIterable, Sendable {
    case text
    case json
}

/// One log line as a JSON object: `time` (UTC, milliseconds), `level`, `event`, then the
/// line's own fields in the order given. Strings are escaped as RFC 8259 says (quote,
/// backslash, every control character), so no message can break a line in two or forge a
/// field; whatever a field holds was already fit for the log (no code, token, key or phone).
public struct JSONLogLine: Sendable {
    /// A field's value.
    public enum Value: Sendable, Hashable {
        case string(String)
        case integer(Int)
        case number(Double)
        case bool(Bool)
    }

    public var time: Date
    public var level: String
    public var event: String
    public var fields: [(String, Value)]

    public init(time: Date = Date(), level: String, event: String, fields: [(String, Value)] = []) {
        self.time = time
        self.level = level
        self.event = event
        self.fields = fields
    }

    /// The object, without a newline.
    public var text: String {
        var out = "{\"time\":\"\(Self.time(time))\",\"level\":"
        Self.append(level, to: &out)
        out += ",\"event\":"
        Self.append(event, to: &out)
        for (name, value) in fields {
            out += ","
            Self.append(name, to: &out)
            out += ":"
            switch value {
            case .string(let text): Self.append(text, to: &out)
            case .integer(let n): out += String(n)
            case .number(let x): out += x.isFinite ? String(format: "%.3f", x) : "null"
            case .bool(let flag): out += flag ? "true" : "false"
            }
        }
        return out + "}"
    }

    /// `text` as a JSON string, quotes included.
    public static func quoted(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }

    static func append(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value):
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// `2026-12-02T06:40:00.123Z`.
    public static func time(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = Int(milliseconds % 1000)
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):"
            + "\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }
}
