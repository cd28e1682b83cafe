import DeskCore
import DeskText
import Foundation
import JSONText
import TerminalKit

/// The `detail` of a ``MonitorEvent`` read for people: a one-line summary for the monitor's
/// table and the lines of its detail pane, both from the typed ``DeskEvent/Detail``.
///
/// What the screen shows are words and local times ("valid until 14:04:30", "the code was
/// already used", "2 too old"), never the stored key names, codes or JSON. A newer server may
/// add kinds: their plain fields are shown in words ("province MI"); a detail that does not
/// read is said to be unreadable. Reading a detail never fails and never traps. The filter
/// also finds the stored forms (``storedForms(_:)``), so `too_old` or `status: authorized`
/// typed from habit still find their events. Privacy: details hold no code, key
/// or phone number, and nothing here adds one.
public enum EventDetail {
    /// The one-line summary of `event` for the monitor's table; `zone` for clock times.
    public static func summary(_ event: MonitorEvent, zone: TimeZone) -> String {
        guard let kind = event.known else {
            let name = words(event.kind)
            return fields(event.detail).map { $0.isEmpty ? name : name + ": " + $0.joined(separator: ", ") }
                ?? name + ": " + unreadable
        }
        guard let detail = DeskEvent.Detail(kind: kind, json: event.detail) else { return fallback(event.detail) }
        switch detail {
        case .otpAuthorized(let d):
            return tr(
                "console.frame.event.authorised",
                ["day": d.symptomsStartedOn.iso, "time": AuthorizeScreen.clock(d.expiresAt, zone)])
        case .otpChecked(let d): return tr("console.frame.event.codeWas", ["status": status(d.status)])
        case .uploadRefused(let d): return tr("console.frame.event.refused", ["status": status(d.reason)])
        case .uploadAccepted(let d):
            var text = tr(
                "console.frame.event.acceptedDropped",
                [
                    "accepted": trCount("console.frame.count.accepted", d.keysAccepted),
                    "dropped": trCount("console.frame.count.dropped", d.keysDropped),
                ])
            if !d.dropped.isEmpty { text += " (" + droppedText(d.dropped) + ")" }
            if let province = d.province { text += tr("console.frame.watch.province", ["province": province]) }
            if let skew = d.clockSkewSeconds {
                text += tr("console.frame.event.phone", ["offset": clockOffset(skew: skew)])
            }
            return text
        case .analyticsReceived(let d):
            return tr("console.frame.event.analytics", ["platform": platform(d.platform), "province": d.province])
                + (d.exposureNotification ? tr("console.frame.event.exposure") : tr("console.frame.event.noExposure"))
        case .chunkPublished(let d):
            return tr("console.frame.event.chunk", ["chunk": String(d.chunk), "keys": count(d.keys, "key")])
                + (d.padding > 0 ? tr("console.frame.event.padding", ["count": String(d.padding)]) : "")
        case .staffAction(let d):
            return action(d.action) + (d.target.map { ": \($0)" } ?? "")
                + (d.unknownName ? tr("console.frame.event.unknownName") : "")
        case .apricotRegistered(let d):
            return (d.returning ? tr("console.frame.event.returning") : tr("console.frame.event.newUser")) + ", "
                + count(d.pseudoIDs, "pseudo-id")
        case .contactFileReceived(let d):
            var text = tr("console.frame.event.dayRecords", ["day": d.day.iso, "records": count(d.records, "record")])
            if let distinct = d.distinctBeacons {
                text += ", \(count(distinct, "beacon"))"
                if let unknown = d.unknownBeacons, unknown > 0 {
                    text += trCount("console.frame.event.unknownBeacons", unknown)
                }
            }
            if let skew = d.clockSkewSeconds {
                text += tr("console.frame.event.phone", ["offset": clockOffset(skew: skew)])
            }
            if d.replaced { text += ", " + tr("console.frame.event.replaced") }
            return text
        case .otpGuessesLimited(let d):
            return tr(
                "console.frame.event.guesses",
                ["route": route(d.route), "seconds": String(d.retryAfterSeconds)])
        case .caseOpened(let d), .caseClosed(let d), .followUpChanged(let d):
            return followUpLines(d).joined(separator: ", ")
        }
    }

    /// The detail pane's lines for `event`, in words; nil when the detail does not read as its
    /// kind's (the caller says so, without the stored text), empty when there is nothing to say.
    /// A kind this build does not know shows its fields ("province MI") when they are plain.
    public static func lines(_ event: MonitorEvent, zone: TimeZone) -> [String]? {
        guard let kind = event.known else { return fields(event.detail) }
        guard let detail = DeskEvent.Detail(kind: kind, json: event.detail) else {
            return event.detail == "{}" ? [] : nil
        }
        func time(_ date: Date) -> String {
            tr("console.frame.event.local", ["time": ConsoleText.dateTime(date, zone, seconds: true)])
        }
        switch detail {
        case .otpAuthorized(let d):
            return [
                tr("console.frame.event.symptomsOn", ["day": d.symptomsStartedOn.iso]),
                tr("console.frame.event.validUntil", ["time": time(d.expiresAt)]),
            ]
        case .otpChecked(let d): return [tr("console.frame.event.codeWasChecked", ["status": status(d.status)])]
        case .uploadRefused(let d): return [tr("console.frame.event.refused", ["status": status(d.reason)])]
        case .uploadAccepted(let d):
            var lines = d.uploadID.map { [tr("console.frame.event.upload", ["id": String($0)])] } ?? []
            lines.append(
                tr(
                    "console.frame.watch.received.keys",
                    [
                        "accepted": trCount("console.frame.count.keysAccepted", d.keysAccepted),
                        "dropped": trCount("console.frame.count.dropped", d.keysDropped),
                    ]))
            if !d.dropped.isEmpty {
                lines.append(tr("console.frame.event.droppedList", ["reasons": droppedText(d.dropped)]))
            }
            lines.append(
                d.province.map { tr("console.frame.event.province", ["province": $0]) }
                    ?? tr("console.frame.event.noProvince"))
            if let skew = d.clockSkewSeconds {
                lines.append(
                    tr("console.frame.event.phoneClock", ["offset": clockOffset(skew: skew)])
                        + (d.clockSkewFlagged == true ? tr("console.frame.event.flagged") : ""))
            }
            if let summaries = d.summaries, summaries > 0 {
                lines.append(count(summaries, "exposure summary", plural: "exposure summaries"))
            }
            return lines
        case .analyticsReceived(let d):
            return [
                tr("console.frame.event.platform", ["platform": platform(d.platform)]),
                tr("console.frame.event.province", ["province": d.province]),
                d.exposureNotification ? tr("console.frame.event.exposure") : tr("console.frame.event.noExposure"),
            ]
        case .chunkPublished(let d):
            var lines = [
                tr("console.frame.watch.chunk", ["chunk": String(d.chunk)]),
                tr("console.frame.event.keysPadding", ["keys": count(d.keys, "key"), "padding": String(d.padding)]),
            ]
            if let copies = d.copiesSkipped, copies > 0 {
                lines.append(trCount("console.frame.event.skipped", copies))
            }
            if let start = d.windowStart, let end = d.windowEnd {
                lines.append(
                    tr(
                        "console.frame.event.window",
                        [
                            "from": time(Date(timeIntervalSince1970: TimeInterval(start))),
                            "to": time(Date(timeIntervalSince1970: TimeInterval(end))),
                        ]))
            }
            if !d.uploadIDs.isEmpty {
                lines.append(
                    tr("console.frame.event.fromUploads", ["ids": d.uploadIDs.map(String.init).joined(separator: ", ")])
                )
            }
            return lines
        case .staffAction(let d):
            var lines = [action(d.action)]
            if let target = d.target { lines.append(targetWords(d.action, target)) }
            if d.unknownName { lines.append(tr("console.frame.event.unknownNameLine")) }
            return lines
        case .apricotRegistered(let d):
            return [
                d.returning ? tr("console.frame.event.returning") : tr("console.frame.event.newUser"),
                count(d.pseudoIDs, "pseudo-id"),
            ]
        case .contactFileReceived(let d):
            var lines = [tr("console.frame.event.day", ["day": d.day.iso]), count(d.records, "record")]
            if let distinct = d.distinctBeacons {
                lines.append(
                    trCount("console.frame.event.heard", distinct)
                        + (d.unknownBeacons.map { trCount("console.frame.event.unknownAfter", $0) } ?? "")
                )
            }
            if let skew = d.clockSkewSeconds {
                lines.append(tr("console.frame.event.phoneClock", ["offset": clockOffset(skew: skew)]))
            }
            lines.append(d.replaced ? tr("console.frame.event.replaced") : tr("console.frame.event.firstFile"))
            return lines
        case .otpGuessesLimited(let d):
            return [
                tr("console.frame.event.tooMany"), tr("console.frame.event.on", ["route": route(d.route)]),
                tr("console.frame.event.refusedFor", ["seconds": String(d.retryAfterSeconds)]),
            ]
        case .caseOpened(let d), .caseClosed(let d), .followUpChanged(let d):
            return followUpLines(d)
        }
    }

    /// A case or follow-up event in words (issue 21): "case 5 opened", "12 new follow-ups".
    static func followUpLines(_ d: DeskEvent.Detail.FollowUpActivity) -> [String] {
        var lines: [String] = []
        let state = d.state.flatMap(FollowUpState.init(rawValue:)).map(TracingWords.state)
        switch d.what {
        case "opened":
            lines.append(
                d.caseID.map { tr("console.frame.event.caseOpened", ["id": String($0)]) }
                    ?? tr("console.frame.event.caseOpenedNoID"))
            if let made = d.followUps { lines.append(count(made, "new follow-up")) }
            if let joined = d.joined, joined > 0 {
                lines.append(trCount("console.frame.event.joined", joined))
            }
        case "closed":
            lines.append(
                d.caseID.map { tr("console.frame.event.caseClosed", ["id": String($0)]) }
                    ?? tr("console.frame.event.caseClosedNoID"))
            if let ended = d.followUps {
                lines.append(trCount("console.frame.event.ended", ended))
            }
        default:
            let what: String
            switch d.what {
            case "attempt": what = tr("console.frame.event.what.attempt")
            case "check": what = tr("console.frame.event.what.check")
            case "assigned": what = tr("console.frame.event.what.assigned")
            case "added": what = tr("console.frame.event.what.added")
            case "settled": what = tr("console.frame.event.what.settled")
            case "became_case": what = tr("console.frame.event.what.becameCase")
            default: what = d.what.replacingOccurrences(of: "_", with: " ")
            }
            if let id = d.followUpID {
                lines.append(tr("console.frame.event.followUp", ["id": String(id), "what": what]))
            } else {
                lines.append(
                    (d.followUps.map { count($0, "follow-up") } ?? tr("console.frame.event.followUps")) + " " + what)
            }
            if let caseID = d.caseID { lines.append(tr("console.frame.event.case", ["id": String(caseID)])) }
        }
        if let state { lines.append(tr("console.frame.event.now", ["state": state])) }
        return lines
    }

    /// What the table and the pane say of a detail they cannot read (never the stored text).
    public static var unreadable: String { tr("console.frame.event.unreadable") }

    // MARK: Words for stored names

    /// A code's status as stored (``OtpStatus/name``) in words: "valid", "expired",
    /// "already used"; a name this build does not know with spaces for its underscores.
    public static func status(_ name: String) -> String {
        switch name {
        case "authorized": return tr("console.frame.event.status.authorized")
        case "expired": return tr("console.frame.event.status.expired")
        case "consumed": return tr("console.frame.event.status.consumed")
        case "unknown": return tr("console.frame.event.status.unknown")
        default: return words(name)
        }
    }

    /// Why a key was dropped, short: "too old", "in the future" (``KeyDropReason``).
    public static func dropReason(_ name: String) -> String {
        guard let reason = KeyDropReason(rawValue: name) else { return words(name) }
        return tr("console.frame.event.drop.\(reason.catalogueName)")
    }

    /// "2 too old", "1 key length": a count of keys dropped for a reason, agreeing in number
    /// ("2 troppo vecchie", "1 troppo vecchia"); a reason this build does not know as stored.
    static func droppedCount(_ count: Int, _ name: String) -> String {
        guard let reason = KeyDropReason(rawValue: name) else { return "\(count) \(words(name))" }
        return trCount("console.dashboard.dropped.\(reason.catalogueName)", count)
    }

    /// A staff action in words: "signed in", "added an account" (``AuditAction``).
    public static func action(_ action: AuditAction) -> String {
        switch action {
        case .signIn: return tr("console.frame.event.action.signIn")
        case .signInFailed: return tr("console.frame.event.action.signInFailed")
        case .signInRefused: return tr("console.frame.event.action.signInRefused")
        case .accountLocked: return tr("console.frame.event.action.accountLocked")
        case .signOut: return tr("console.frame.event.action.signOut")
        case .otpAuthorized: return tr("console.frame.event.action.otpAuthorized")
        case .staffAdded: return tr("console.frame.event.action.staffAdded")
        case .staffDisabled: return tr("console.frame.event.action.staffDisabled")
        case .passwordReset: return tr("console.frame.event.action.passwordReset")
        case .traceLookup: return tr("console.frame.event.action.traceLookup")
        case .traceExport: return tr("console.frame.event.action.traceExport")
        case .contactOutcome: return tr("console.frame.event.action.contactOutcome")
        case .smsOutboxRead: return tr("console.frame.event.action.smsOutboxRead")
        case .hisClientAdded: return tr("console.frame.event.action.hisClientAdded")
        case .hisClientRevoked: return tr("console.frame.event.action.hisClientRevoked")
        case .phoneCopied: return tr("messages.action.phoneCopied")
        case .caseOpened: return tr("messages.action.caseOpened")
        case .caseClosed: return tr("messages.action.caseClosed")
        case .followUpViewed: return tr("messages.action.followUpViewed")
        case .followUpAdded: return tr("messages.action.followUpAdded")
        case .followUpAttempt: return tr("messages.action.followUpAttempt")
        case .followUpCheck: return tr("messages.action.followUpCheck")
        case .followUpAssigned: return tr("messages.action.followUpAssigned")
        default: return words(action.rawValue)
        }
    }

    /// Whom or what a staff action was about, as the pane's line.
    static func targetWords(_ action: AuditAction, _ target: String) -> String {
        switch action {
        case .traceLookup, .traceExport, .contactOutcome, .phoneCopied, .caseOpened, .caseClosed, .followUpViewed,
            .followUpAdded, .followUpAttempt, .followUpCheck, .followUpAssigned:
            return tr("console.frame.event.about", ["target": AuditDetailText.subject(target)])
        case .hisClientAdded, .hisClientRevoked: return tr("console.frame.event.his", ["target": target])
        default: return tr("console.frame.event.account", ["target": target])
        }
    }

    /// The phone API's route in words: "the code check", "uploads".
    static func route(_ route: String) -> String {
        if route.hasSuffix("check-otp") { return tr("console.frame.event.routeCheck") }
        if route.hasSuffix("upload") { return tr("console.frame.event.routeUpload") }
        return route
    }

    /// "iOS", "Android"; another platform as sent.
    static func platform(_ name: String) -> String {
        switch name.lowercased() {
        case "ios": return "iOS"
        case "android": return "Android"
        default: return name
        }
    }

    /// A stored name with spaces for its underscores: "vaccine pass issued".
    static func words(_ name: String) -> String { name.replacingOccurrences(of: "_", with: " ") }

    /// The plain fields of a detail this build does not know, in words ("province MI"); nil
    /// when it is not an object of plain values (empty for `{}`).
    static func fields(_ detail: String) -> [String]? {
        guard let value = try? JSONReader.parse(detail), case .object(let members) = value else { return nil }
        var lines: [String] = []
        for member in members {
            guard let text = plain(member.value) else { return nil }
            lines.append(words(member.key) + " " + text)
        }
        return lines
    }

    private static func plain(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let text): return text
        case .bool(let flag): return flag ? tr("common.yes") : tr("common.no")
        case .null: return tr("console.frame.event.none")
        case .object, .array: return nil
        }
    }

    /// The stored forms of an event the filter also finds, so what was typed before the words
    /// (and scripts) still works: the kind's code (`upload_accepted`) and every field of the
    /// detail as stored, "name: value" (`status: authorized`, `too_old: 2`, `expires_at_ms`).
    public static func storedForms(_ event: MonitorEvent) -> String {
        var parts = [event.kind]
        if let value = try? JSONReader.parse(event.detail) {
            flatten(value, into: &parts)
        } else {
            parts.append(event.detail)
        }
        return parts.joined(separator: " ")
    }

    private static func flatten(_ value: JSONValue, into parts: inout [String]) {
        switch value {
        case .object(let members):
            for member in members {
                if let text = plain(member.value) {
                    parts.append(member.key + ": " + text)
                } else {
                    parts.append(member.key)
                    flatten(member.value, into: &parts)
                }
            }
        case .array(let values):
            for value in values { flatten(value, into: &parts) }
        default:
            if let text = plain(value) { parts.append(text) }
        }
    }

    // MARK: Counts

    /// Dropped keys per reason in the upload rules' order: "2 too old, 1 in the future".
    public static func droppedText(_ reasons: [String: Int]) -> String {
        droppedText(reasons.map { DeskEvent.Detail.Count($0.key, $0.value) })
    }

    static func droppedText(_ reasons: [DeskEvent.Detail.Count]) -> String {
        func rank(_ name: String) -> Int {
            KeyDropReason(rawValue: name).flatMap { KeyDropReason.allCases.firstIndex(of: $0) } ?? Int.max
        }
        return reasons.sorted { (rank($0.key), $0.key) < (rank($1.key), $1.key) }
            .map { droppedCount($0.count, $0.key) }.joined(separator: ", ")
    }

    /// The phone's clock against the server's, from the upload rules' skew (server minus
    /// phone): "3 s behind", "4 s ahead", "on time".
    public static func clockOffset(skew: Int64) -> String {
        if skew == 0 { return tr("console.frame.event.onTime") }
        return skew > 0
            ? tr("console.frame.event.behind", ["seconds": String(skew)])
            : tr("console.frame.event.ahead", ["seconds": String(skew.magnitude)])
    }

    /// "1 key", "3 keys".
    static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        let key = "console.frame.count." + noun.replacingOccurrences(of: " ", with: "-")
        // A noun the catalogue does not have yet stays English rather than showing no words.
        guard Catalogue.raw(key + ".other", in: .en) != nil else {
            return "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
        }
        return trCount(key, n)
    }

    /// A detail the summary could not read: said so, never shown as stored (empty for `{}`).
    static func fallback(_ detail: String) -> String { detail == "{}" ? "" : unreadable }
}
