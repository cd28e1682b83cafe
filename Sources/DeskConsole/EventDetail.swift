import DeskCore
import Foundation
import TerminalKit

/// The `detail` of a ``MonitorEvent`` read for people: a one-line summary for the monitor's
/// table and the lines of its detail pane, both from the typed ``DeskEvent/Detail``.
///
/// What the screen shows are words ("valid until 14:04:30"), never the stored key names. A
/// newer server may add kinds, and a row may not read as its kind's detail: those are shown as
/// stored, so reading a detail never fails and never traps. Privacy: details hold no code, key
/// or phone number, and nothing here adds one.
public enum EventDetail {
    /// The one-line summary of `event` for the monitor's table; `zone` for clock times.
    public static func summary(_ event: MonitorEvent, zone: TimeZone) -> String {
        guard let kind = event.known else {
            return event.kind + (event.detail.isEmpty || event.detail == "{}" ? "" : " " + event.detail)
        }
        guard let detail = DeskEvent.Detail(kind: kind, json: event.detail) else { return fallback(event.detail) }
        switch detail {
        case .otpAuthorized(let d):
            return "symptoms from \(d.symptomsStartedOn.iso), valid until " + AuthorizeScreen.clock(d.expiresAt, zone)
        case .otpChecked(let d): return "status: \(d.status)"
        case .uploadRefused(let d): return "refused: \(d.reason)"
        case .uploadAccepted(let d):
            var text = "\(d.keysAccepted) accepted, \(d.keysDropped) dropped"
            if !d.dropped.isEmpty { text += " (" + droppedText(d.dropped) + ")" }
            if let province = d.province { text += ", province \(province)" }
            if let skew = d.clockSkewSeconds { text += ", phone " + clockOffset(skew: skew) }
            return text
        case .analyticsReceived(let d):
            return "\(d.platform), province \(d.province), "
                + (d.exposureNotification ? "exposure notified" : "no exposure notification")
        case .chunkPublished(let d):
            return "chunk \(d.chunk): " + count(d.keys, "key") + (d.padding > 0 ? " + \(d.padding) padding" : "")
        case .staffAction(let d):
            return d.action.rawValue + (d.target.map { " → \($0)" } ?? "") + (d.unknownName ? " (unknown name)" : "")
        case .apricotRegistered(let d):
            return (d.returning ? "returning app user" : "new app user") + ", " + count(d.pseudoIDs, "pseudo-id")
        case .contactFileReceived(let d):
            var text = "day \(d.day.iso): \(count(d.records, "record"))"
            if let distinct = d.distinctBeacons {
                text += ", \(count(distinct, "beacon"))"
                if let unknown = d.unknownBeacons, unknown > 0 { text += " (\(unknown) unknown)" }
            }
            if let skew = d.clockSkewSeconds { text += ", phone " + clockOffset(skew: skew) }
            if d.replaced { text += ", replaced the day's earlier file" }
            return text
        case .otpGuessesLimited(let d):
            return
                "WARNING: too many wrong codes from one address on \(d.route): answered 429 for \(d.retryAfterSeconds) s"
        }
    }

    /// The detail pane's lines for `event`, in words; nil when the detail does not read as its
    /// kind's (the caller shows it as stored), empty when there is nothing to say.
    public static func lines(_ event: MonitorEvent, zone: TimeZone) -> [String]? {
        guard let kind = event.known, let detail = DeskEvent.Detail(kind: kind, json: event.detail) else {
            return event.detail == "{}" ? [] : nil
        }
        func time(_ date: Date) -> String { ConsoleText.dateTime(date, zone, seconds: true) + " local" }
        switch detail {
        case .otpAuthorized(let d):
            return ["symptoms started on \(d.symptomsStartedOn.iso)", "valid until \(time(d.expiresAt))"]
        case .otpChecked(let d): return ["the code was \(d.status) when checked"]
        case .uploadRefused(let d): return ["refused: the code was \(d.reason)"]
        case .uploadAccepted(let d):
            var lines = d.uploadID.map { ["upload \($0)"] } ?? []
            lines.append(count(d.keysAccepted, "key") + " accepted, \(d.keysDropped) dropped")
            if !d.dropped.isEmpty { lines.append("dropped for " + droppedText(d.dropped)) }
            lines.append(d.province.map { "province \($0)" } ?? "no province given")
            if let skew = d.clockSkewSeconds {
                lines.append(
                    "phone clock " + clockOffset(skew: skew) + (d.clockSkewFlagged == true ? " (flagged)" : ""))
            }
            if let summaries = d.summaries, summaries > 0 {
                lines.append(count(summaries, "exposure summary", plural: "exposure summaries"))
            }
            return lines
        case .analyticsReceived(let d):
            return [
                "platform \(d.platform)", "province \(d.province)",
                d.exposureNotification ? "exposure notified" : "no exposure notification",
            ]
        case .chunkPublished(let d):
            var lines = ["chunk \(d.chunk)", count(d.keys, "key") + ", \(d.padding) padding"]
            if let copies = d.copiesSkipped, copies > 0 {
                lines.append("\(count(copies, "copy", plural: "copies")) skipped")
            }
            if let start = d.windowStart, let end = d.windowEnd {
                lines.append(
                    "keys from " + time(Date(timeIntervalSince1970: TimeInterval(start))) + " to "
                        + time(Date(timeIntervalSince1970: TimeInterval(end))))
            }
            if !d.uploadIDs.isEmpty {
                lines.append("from uploads " + d.uploadIDs.map(String.init).joined(separator: ", "))
            }
            return lines
        case .staffAction(let d):
            var lines = ["action \(d.action.rawValue)"]
            if let target = d.target { lines.append("account \(target)") }
            if d.unknownName { lines.append("a name no account has (what was typed is not kept)") }
            return lines
        case .apricotRegistered(let d):
            return [d.returning ? "returning app user" : "new app user", count(d.pseudoIDs, "pseudo-id")]
        case .contactFileReceived(let d):
            var lines = ["day \(d.day.iso)", count(d.records, "record")]
            if let distinct = d.distinctBeacons {
                lines.append(count(distinct, "beacon") + " heard" + (d.unknownBeacons.map { ", \($0) unknown" } ?? ""))
            }
            if let skew = d.clockSkewSeconds { lines.append("phone clock " + clockOffset(skew: skew)) }
            lines.append(d.replaced ? "replaced the day's earlier file" : "the day's first file")
            return lines
        case .otpGuessesLimited(let d):
            return [
                "too many wrong codes from one address", "route \(d.route)",
                "answered 429 for \(d.retryAfterSeconds) s",
            ]
        }
    }

    /// Dropped keys per reason in the upload rules' order: "too_old: 2, future: 1".
    public static func droppedText(_ reasons: [String: Int]) -> String {
        droppedText(reasons.map { DeskEvent.Detail.Count($0.key, $0.value) })
    }

    static func droppedText(_ reasons: [DeskEvent.Detail.Count]) -> String {
        func rank(_ name: String) -> Int {
            KeyDropReason(rawValue: name).flatMap { KeyDropReason.allCases.firstIndex(of: $0) } ?? Int.max
        }
        return reasons.sorted { (rank($0.key), $0.key) < (rank($1.key), $1.key) }
            .map { "\($0.key): \($0.count)" }.joined(separator: ", ")
    }

    /// The phone's clock against the server's, from the upload rules' skew (server minus
    /// phone): "3 s behind", "4 s ahead", "on time".
    public static func clockOffset(skew: Int64) -> String {
        if skew == 0 { return "on time" }
        return skew > 0 ? "\(skew) s behind" : "\(skew.magnitude) s ahead"
    }

    /// "1 key", "3 keys".
    static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
    }

    /// A detail the summary could not read: shown as it is (without braces when empty).
    static func fallback(_ detail: String) -> String { detail == "{}" ? "" : detail }
}
