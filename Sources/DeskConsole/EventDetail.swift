import DeskCore
import Foundation
import TerminalKit

/// The `detail` of a ``MonitorEvent`` read for people: a one-line summary for the monitor's
/// table and every field as `key: value` for its detail pane.
///
/// The detail is a small JSON object written by the store (counts, reasons, a chunk index);
/// a newer server may add keys or kinds. Anything that does not parse is shown raw: reading a
/// detail never fails and never traps. Privacy: details hold no code, key or phone number, and
/// nothing here adds one.
public enum EventDetail {
    /// One field of a parsed detail, its value already in words ("too_old 2, future 1").
    public struct Field: Hashable, Sendable {
        public var key: String
        public var value: String
    }

    /// The detail's JSON object, or nil when it is not one.
    static func object(_ detail: String) -> [String: Any]? {
        guard let data = detail.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return nil }
        return object as? [String: Any]
    }

    /// Every field, sorted by key, nested values flattened to text; nil when the detail is not
    /// a JSON object (the caller shows it raw).
    public static func fields(_ detail: String) -> [Field]? {
        guard let object = object(detail) else { return nil }
        return object.keys.sorted().map { Field(key: $0, value: text(object[$0] as Any)) }
    }

    /// A JSON value as text: numbers without a needless ".0", true/false, nested objects as
    /// "key value, key value", arrays comma-separated, null as "none".
    static func text(_ value: Any) -> String {
        switch value {
        case let string as String:
            return string
        case let number as NSNumber:
            if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
            let double = number.doubleValue
            if double == double.rounded(), abs(double) < 1e15 { return String(Int64(double)) }
            return String(double)
        case let object as [String: Any]:
            return object.keys.sorted().map { "\($0) \(text(object[$0] as Any))" }.joined(separator: ", ")
        case let array as [Any]:
            return array.map { text($0) }.joined(separator: ", ")
        case is NSNull:
            return "none"
        default:
            return String(describing: value)
        }
    }

    static func int(_ object: [String: Any], _ key: String) -> Int64? { integer(object[key] as Any) }

    /// A whole number, or nil (a boolean, a fraction, out of range: never a trap).
    static func integer(_ value: Any) -> Int64? {
        guard let number = value as? NSNumber else { return nil }
        switch String(cString: number.objCType) {
        case "c": return nil
        case "d", "f":
            let double = number.doubleValue
            guard double.isFinite, double == double.rounded(), abs(double) < 9e15 else { return nil }
            return Int64(double)
        default:
            return number.int64Value
        }
    }

    static func string(_ object: [String: Any], _ key: String) -> String? { object[key] as? String }

    static func bool(_ object: [String: Any], _ key: String) -> Bool? {
        guard let number = object[key] as? NSNumber, String(cString: number.objCType) == "c" else { return nil }
        return number.boolValue
    }

    /// The one-line summary of `event` for the monitor's table; `zone` for clock times.
    public static func summary(_ event: MonitorEvent, zone: TimeZone) -> String {
        guard let kind = event.known else {
            return event.kind + (event.detail.isEmpty || event.detail == "{}" ? "" : " " + event.detail)
        }
        guard let object = object(event.detail) else { return event.detail }
        switch kind {
        case .otpAuthorized:
            var parts: [String] = []
            if let day = string(object, "symptoms_started_on") { parts.append("symptoms from \(day)") }
            if let ms = int(object, "expires_at_ms") {
                parts.append("valid until " + AuthorizeScreen.clock(Date(unixMilliseconds: ms), zone))
            }
            return parts.isEmpty ? fallback(event.detail) : parts.joined(separator: ", ")
        case .otpChecked:
            return string(object, "status").map { "status: \($0)" } ?? fallback(event.detail)
        case .uploadRefused:
            return string(object, "reason").map { "refused: \($0)" } ?? fallback(event.detail)
        case .uploadAccepted:
            return uploadSummary(object) ?? fallback(event.detail)
        case .analyticsReceived:
            var parts: [String] = []
            if let platform = string(object, "platform") { parts.append(platform) }
            if let province = string(object, "province") { parts.append("province \(province)") }
            if let notified = bool(object, "exposure_notification") {
                parts.append(notified ? "exposure notified" : "no exposure notification")
            }
            return parts.isEmpty ? fallback(event.detail) : parts.joined(separator: ", ")
        case .chunkPublished:
            guard let chunk = int(object, "chunk") else { return fallback(event.detail) }
            var text = "chunk \(chunk)"
            if let keys = int(object, "keys") {
                text += ": " + count(Int(keys), "key")
                if let padding = int(object, "padding"), padding > 0 { text += " + \(padding) padding" }
            }
            return text
        case .staffAction:
            guard let action = string(object, "action") else { return fallback(event.detail) }
            var text = action
            if let target = string(object, "target") { text += " → \(target)" }
            if bool(object, "unknown_name") == true { text += " (unknown name)" }
            return text
        case .apricotRegistered:
            guard let ids = int(object, "pseudo_ids") else { return fallback(event.detail) }
            let who = bool(object, "returning") == true ? "returning app user" : "new app user"
            return "\(who), \(count(Int(ids), "pseudo-id"))"
        case .contactFileReceived:
            guard let day = string(object, "day"), let records = int(object, "records") else {
                return fallback(event.detail)
            }
            var text = "day \(day): \(count(Int(records), "record"))"
            if let distinct = int(object, "distinct_beacons") {
                text += ", \(count(Int(distinct), "beacon"))"
                if let unknown = int(object, "unknown_beacons"), unknown > 0 { text += " (\(unknown) unknown)" }
            }
            if let skew = int(object, "clock_skew_s") { text += ", phone " + clockOffset(skew: skew) }
            if bool(object, "replaced") == true { text += ", replaced the day's earlier file" }
            return text
        case .otpGuessesLimited:
            let route = string(object, "route").map { " on \($0)" } ?? ""
            let wait = int(object, "retry_after_s").map { " for \($0) s" } ?? ""
            return "WARNING: too many wrong codes from one address\(route): answered 429\(wait)"
        }
    }

    /// "12 accepted, 2 dropped (too_old: 2), province RM, clock +3 s": short, the table's
    /// column is narrow.
    static func uploadSummary(_ object: [String: Any]) -> String? {
        guard let accepted = int(object, "keys_accepted") else { return nil }
        var text = "\(accepted) accepted"
        let dropped = int(object, "keys_dropped") ?? 0
        text += ", \(dropped) dropped"
        if let reasons = object["dropped"] as? [String: Any], !reasons.isEmpty {
            let counts = reasons.compactMapValues { integer($0).map { Int(clamping: $0) } }
            text += " (" + droppedText(counts) + ")"
        }
        if let province = string(object, "province") { text += ", province \(province)" }
        if let skew = int(object, "clock_skew_s") { text += ", phone " + clockOffset(skew: skew) }
        return text
    }

    /// Dropped keys per reason in the upload rules' order: "too_old: 2, future: 1".
    public static func droppedText(_ reasons: [String: Int]) -> String {
        func rank(_ name: String) -> Int {
            KeyDropReason(rawValue: name).flatMap { KeyDropReason.allCases.firstIndex(of: $0) } ?? Int.max
        }
        return reasons.keys.sorted { (rank($0), $0) < (rank($1), $1) }
            .map { "\($0): \(reasons[$0] ?? 0)" }.joined(separator: ", ")
    }

    /// "+3", "-12", "0".
    static func signed(_ value: Int64) -> String { value > 0 ? "+\(value)" : String(value) }

    /// The phone's clock against the server's, from the upload rules' skew (server minus
    /// phone): "3 s behind", "4 s ahead", "on time".
    public static func clockOffset(skew: Int64) -> String {
        if skew == 0 { return "on time" }
        return skew > 0 ? "\(skew) s behind" : "\(skew.magnitude) s ahead"
    }

    /// "1 key", "3 keys".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)" + (n == 1 ? "" : "s") }

    /// A detail the summary could not read: shown as it is (without braces when empty).
    static func fallback(_ detail: String) -> String { detail == "{}" ? "" : detail }
}
