import DeskCore
import Foundation

/// The `detail` of an ``AuditEntry`` read for people: a short summary for the audit table's
/// Detail column and the lines of its detail pane, both from the typed ``AuditEntry/Detail``.
///
/// Words, never the stored key names or JSON ("session until 14:05:00", "reason: locked"), and
/// action names as words ("password reset", ``actionWords(_:)``). An action this build does not
/// know, or a detail that does not read as its action's, says so in words (`tracedesk audit
/// list` prints it as stored): reading never fails and never traps. Privacy: audit details hold
/// no password, token, code or phone number, and nothing here adds one; a purpose is shown as
/// typed.
public enum AuditDetailText {
    /// The table's one-line summary; `zone` for clock times.
    public static func summary(_ entry: AuditEntry, zone: TimeZone) -> String {
        guard let detail = AuditEntry.Detail(kind: entry.action, json: entry.detail) else {
            return entry.detail == "{}" || entry.detail.isEmpty ? "" : "details this version does not read"
        }
        return words(detail, time: { AuthorizeScreen.clock($0, zone) }).joined(separator: ", ")
    }

    /// The detail pane's lines; nil when the detail does not read as its action's (the caller
    /// shows it as stored), empty when there is nothing to say.
    public static func lines(_ entry: AuditEntry, zone: TimeZone) -> [String]? {
        guard let detail = AuditEntry.Detail(kind: entry.action, json: entry.detail) else {
            return entry.detail == "{}" || entry.detail.isEmpty ? [] : nil
        }
        return words(detail, time: { ConsoleText.dateTime($0, zone, seconds: true) + " local" })
    }

    /// The detail pane's line for a detail this version does not read.
    static func unreadable(_ entry: AuditEntry) -> String {
        "details in a form this version does not read (\(entry.detail.utf8.count) bytes; `tracedesk audit list` prints them as stored)"
    }

    /// An action in words, for the table, the entry pane and the filter's picker: "sign-in",
    /// "password reset", "code authorised". An action this build does not know: its name with
    /// spaces ("vaccine pass issued").
    public static func actionWords(_ action: AuditAction) -> String {
        switch action {
        case .signIn: return "sign-in"
        case .signInFailed: return "sign-in failed"
        case .signInRefused: return "sign-in refused"
        case .accountLocked: return "account locked"
        case .signOut: return "sign-out"
        case .otpAuthorized: return "code authorised"
        case .staffAdded: return "account added"
        case .staffDisabled: return "account disabled"
        case .passwordReset: return "password reset"
        case .traceLookup: return "contact lookup"
        case .traceExport: return "lookup exported"
        case .contactOutcome: return "call outcome"
        case .smsOutboxRead: return "SMS outbox read"
        case .hisClientAdded: return "HIS client added"
        case .hisClientRevoked: return "HIS client revoked"
        case .phoneCopied: return "phone copied"
        case .caseOpened: return "case opened"
        case .followUpViewed: return "follow-up read"
        case .caseClosed: return "case closed"
        case .followUpAdded: return "follow-up added"
        case .followUpAttempt: return "call recorded"
        case .followUpCheck: return "daily check"
        case .followUpAssigned: return "assigned"
        default: return action.rawValue.replacingOccurrences(of: "_", with: " ")
        }
    }

    /// The parts of a detail in words, times written by `time`.
    static func words(_ detail: AuditEntry.Detail, time: (Date) -> String) -> [String] {
        switch detail {
        case .signIn(let d):
            return ["session until \(time(d.expiresAt))"] + (d.passwordRehashed ? ["password hash renewed"] : [])
        case .signInFailed(let d):
            var parts: [String] = []
            if let reason = d.reason { parts.append("reason: \(reason)") }
            if let failures = d.failures { parts.append(EventDetail.count(failures, "failure") + " in a row") }
            return parts
        case .signInRefused(let d): return ["reason: account \(d.reason)"]
        case .accountLocked(let d):
            var parts = ["after " + EventDetail.count(d.failures, "failure")]
            if let abandoned = d.abandoned, abandoned > 0 {
                parts.append(EventDetail.count(abandoned, "abandoned attempt") + " counted")
            }
            return parts
        case .signOut, .hisClientRevoked: return []
        case .otpAuthorized(let d):
            return ["symptoms from \(d.symptomsStartedOn.iso)", "valid until \(time(d.expiresAt))"]
        case .staffAdded(let d): return ["role \(d.role)"]
        case .phoneCopied(let d): return ["contact of \(d.patient)", "purpose “\(d.purpose)”"]
        case .caseOpened(let d):
            return [
                "case \(d.caseID) “\(d.reference)”", EventDetail.count(d.followUpsCreated, "new follow-up"),
                "\(d.followUpsJoined) joined",
            ] + (d.cameFromFollowUp.map { ["was follow-up \($0)"] } ?? [])
        case .followUpViewed(let d):
            return [d.view.replacingOccurrences(of: "_", with: " ")] + (d.reference.map { ["case “\($0)”"] } ?? [])
                + [EventDetail.count(d.persons, "person")] + (d.scope.map { ["scope \($0)"] } ?? [])
        case .caseClosed(let d):
            return [
                "case “\(d.reference)”", d.reason.label, EventDetail.count(d.followUpsEnded, "follow-up") + " ended",
            ]
        case .followUpAdded(let d):
            return ["case \(d.caseID) “\(d.reference)”", "follow-up \(d.followUpID)"] + (d.joined ? ["joined"] : [])
        case .followUpAttempt(let d): return [d.person, d.outcome.label, "now \(d.state.label)"]
        case .followUpCheck(let d):
            return [
                d.person, d.symptoms ? "symptoms" : "no symptoms", d.isolating ? "isolating" : "not isolating",
                "now \(d.state.label)",
            ]
        case .followUpAssigned(let d):
            return [EventDetail.count(d.followUpIDs.count, "follow-up"), "\(d.reassigned) reassigned"]
        case .staffDisabled(let d): return [EventDetail.count(d.sessionsEnded, "session") + " ended"]
        case .passwordReset(let d):
            return [EventDetail.count(d.sessionsEnded, "session") + " ended"] + (d.wasLocked ? ["was locked"] : [])
        case .traceLookup(let d):
            let purpose = "purpose “\(d.purpose)”"
            switch d.read {
            case .notFound: return [purpose, "no app user has the number"]
            case .patient(let days, let sightings, let contacts, let close, let unresolved):
                var parts = [
                    purpose, EventDetail.count(days, "day") + " of files", EventDetail.count(sightings, "sighting"),
                    EventDetail.count(contacts, "contact") + " (\(close) close)",
                ]
                if unresolved > 0 { parts.append("\(unresolved) without an owner") }
                return parts
            case .sightings(let of, let offset, let count, let total):
                let whose = of == "all" ? "all contacts" : of
                return [purpose, "sightings of \(whose)", "\(count) of \(total) from #\(offset + 1)"]
            }
        case .traceExport(let d):
            return ["purpose “\(d.purpose)”", "\(exportKind(d.kind)), " + EventDetail.count(d.rows, "row")]
        case .contactOutcome(let d):
            let outcome =
                ContactOutcome(rawValue: d.outcome)?.label ?? d.outcome.replacingOccurrences(of: "_", with: " ")
            return ["contact of \(d.patient)", "outcome: \(outcome)", "purpose “\(d.purpose)”"]
        case .smsOutboxRead(let d): return [EventDetail.count(d.messages, "message") + " shown"]
        case .hisClientAdded(let d):
            return [d.ratePerMinute.map { "at most \($0) requests a minute" } ?? "the server's default rate"]
        }
    }

    /// What an export kind is called on screen.
    static func exportKind(_ kind: String) -> String {
        switch kind {
        case "contacts_csv": return "contacts as CSV"
        case "sightings_csv": return "sightings as CSV"
        case "json": return "JSON"
        default: return kind
        }
    }
}
