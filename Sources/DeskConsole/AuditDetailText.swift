import DeskCore
import DeskText
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
            return entry.detail == "{}" || entry.detail.isEmpty ? "" : tr("console.audit.detail.unread")
        }
        return words(detail, time: { AuthorizeScreen.clock($0, zone) }).joined(separator: ", ")
    }

    /// The detail pane's lines; nil when the detail does not read as its action's (the caller
    /// shows it as stored), empty when there is nothing to say.
    public static func lines(_ entry: AuditEntry, zone: TimeZone) -> [String]? {
        guard let detail = AuditEntry.Detail(kind: entry.action, json: entry.detail) else {
            return entry.detail == "{}" || entry.detail.isEmpty ? [] : nil
        }
        return words(
            detail, time: { tr("console.audit.detail.local", ["time": ConsoleText.dateTime($0, zone, seconds: true)]) })
    }

    /// The detail pane's line for a detail this version does not read.
    static func unreadable(_ entry: AuditEntry) -> String {
        tr("console.audit.detail.unreadable", ["bytes": String(entry.detail.utf8.count)])
    }

    /// Whom or what an entry is about, as stored (`case 3`, `user 16`, `follow-up 5`, `queue`,
    /// `cases`, `all`) in the current language; an account's or a hospital system's name as it is.
    public static func subject(_ target: String) -> String {
        switch target {
        case "cases": return tr("messages.audit.target.cases")
        case "queue": return tr("messages.audit.target.queue")
        case "all": return tr("messages.audit.target.all")
        default: break
        }
        for (prefix, key) in [("case ", "case"), ("user ", "user"), ("follow-up ", "followUp")]
        where target.hasPrefix(prefix) {
            let id = target.dropFirst(prefix.count)
            if !id.isEmpty, id.allSatisfy(\.isASCII), Int64(id) != nil {
                return tr("messages.audit.target.\(key)", ["id": String(id)])
            }
        }
        return target
    }

    /// A queue's scope as stored (`mine`, `tracer NAME`, `unassigned`, `everyone`) in words.
    static func scopeWords(_ scope: String) -> String {
        switch scope {
        case "mine": return tr("messages.audit.scope.mine")
        case "unassigned": return tr("messages.audit.scope.unassigned")
        case "everyone": return tr("messages.audit.scope.everyone")
        default:
            if scope.hasPrefix("tracer ") {
                return tr("messages.audit.scope.tracer", ["name": String(scope.dropFirst("tracer ".count))])
            }
            return scope
        }
    }

    /// An action in words, for the table, the entry pane and the filter's picker: "sign-in",
    /// "password reset", "code authorised". An action this build does not know: its name with
    /// spaces ("vaccine pass issued").
    public static func actionWords(_ action: AuditAction) -> String {
        let key: String
        switch action {
        case .signIn: key = "signIn"
        case .signInFailed: key = "signInFailed"
        case .signInRefused: key = "signInRefused"
        case .accountLocked: key = "accountLocked"
        case .signOut: key = "signOut"
        case .otpAuthorized: key = "otpAuthorized"
        case .staffAdded: key = "staffAdded"
        case .staffDisabled: key = "staffDisabled"
        case .passwordReset: key = "passwordReset"
        case .traceLookup: key = "traceLookup"
        case .traceExport: key = "traceExport"
        case .contactOutcome: key = "contactOutcome"
        case .smsOutboxRead: key = "smsOutboxRead"
        case .hisClientAdded: key = "hisClientAdded"
        case .hisClientRevoked: key = "hisClientRevoked"
        case .phoneCopied: key = "phoneCopied"
        case .caseOpened: key = "caseOpened"
        case .followUpViewed: key = "followUpViewed"
        case .caseClosed: key = "caseClosed"
        case .followUpAdded: key = "followUpAdded"
        case .followUpAttempt: key = "followUpAttempt"
        case .followUpCheck: key = "followUpCheck"
        case .followUpAssigned: key = "followUpAssigned"
        default: return action.rawValue.replacingOccurrences(of: "_", with: " ")
        }
        return tr("console.audit.action.\(key)")
    }

    /// A reason as stored, in words where this build knows it ("unknown account", "locked").
    static func reason(_ stored: String) -> String {
        switch stored {
        case AuditEntry.Detail.SignInFailed.unknownAccount: return tr("console.audit.reason.unknownAccount")
        case "locked", "disabled": return tr("console.audit.reason.\(stored)")
        default: return stored
        }
    }

    /// "purpose “…”", the purpose as typed.
    static func purpose(_ text: String) -> String { tr("console.audit.detail.purpose", ["purpose": text]) }

    /// The parts of a detail in words, times written by `time`.
    static func words(_ detail: AuditEntry.Detail, time: (Date) -> String) -> [String] {
        func t(_ key: String, _ arguments: [String: String] = [:]) -> String {
            tr("console.audit.detail.\(key)", arguments)
        }
        func n(_ key: String, _ count: Int, _ arguments: [String: String] = [:]) -> String {
            trCount("console.audit.detail.\(key)", count, arguments)
        }
        switch detail {
        case .signIn(let d):
            return [t("sessionUntil", ["time": time(d.expiresAt)])] + (d.passwordRehashed ? [t("rehashed")] : [])
        case .signInFailed(let d):
            var parts: [String] = []
            if let reason = d.reason { parts.append(t("reason", ["reason": self.reason(reason)])) }
            if let failures = d.failures { parts.append(n("failuresInARow", failures)) }
            return parts
        case .signInRefused(let d): return [t("reasonAccount", ["reason": reason(d.reason)])]
        case .accountLocked(let d):
            var parts = [n("afterFailures", d.failures)]
            if let abandoned = d.abandoned, abandoned > 0 { parts.append(n("abandonedCounted", abandoned)) }
            return parts
        case .signOut, .hisClientRevoked: return []
        case .otpAuthorized(let d):
            return [t("symptomsFrom", ["day": d.symptomsStartedOn.iso]), t("validUntil", ["time": time(d.expiresAt)])]
        case .staffAdded(let d): return [t("role", ["role": roleWords(d.role)])]
        case .phoneCopied(let d): return [t("contactOf", ["patient": subject(d.patient)]), purpose(d.purpose)]
        case .caseOpened(let d):
            return [
                t("case", ["id": String(d.caseID), "reference": d.reference]),
                EventDetail.count(d.followUpsCreated, "new follow-up"), n("joined", d.followUpsJoined),
            ] + (d.cameFromFollowUp.map { [t("wasFollowUp", ["id": String($0)])] } ?? [])
        case .followUpViewed(let d):
            return [viewWords(d.view)] + (d.reference.map { [t("caseReference", ["reference": $0])] } ?? [])
                + [EventDetail.count(d.persons, "person")]
                + (d.scope.map { [t("scope", ["scope": scopeWords($0)])] } ?? [])
        case .caseClosed(let d):
            return [
                t("caseReference", ["reference": d.reference]), TracingWords.closeReason(d.reason),
                n("followUpsEnded", d.followUpsEnded),
            ]
        case .followUpAdded(let d):
            return [
                t("case", ["id": String(d.caseID), "reference": d.reference]),
                t("followUp", ["id": String(d.followUpID)]),
            ] + (d.joined ? [t("joinedOne")] : [])
        case .followUpAttempt(let d):
            return [subject(d.person), TracingWords.call(d.outcome), t("now", ["state": TracingWords.state(d.state)])]
        case .followUpCheck(let d):
            return [
                subject(d.person), d.symptoms ? t("symptoms") : t("noSymptoms"),
                d.isolating ? t("isolating") : t("notIsolating"),
                t("now", ["state": TracingWords.state(d.state)]),
            ]
        case .followUpAssigned(let d):
            return [EventDetail.count(d.followUpIDs.count, "follow-up"), n("reassigned", d.reassigned)]
        case .staffDisabled(let d): return [n("sessionsEnded", d.sessionsEnded)]
        case .passwordReset(let d):
            return [n("sessionsEnded", d.sessionsEnded)] + (d.wasLocked ? [t("wasLocked")] : [])
        case .traceLookup(let d):
            let purpose = purpose(d.purpose)
            switch d.read {
            case .notFound: return [purpose, t("notFound")]
            case .patient(let days, let sightings, let contacts, let close, let unresolved):
                var parts = [
                    purpose, n("daysOfFiles", days), EventDetail.count(sightings, "sighting"),
                    n("contactsClose", contacts, ["close": n("close", close)]),
                ]
                if unresolved > 0 { parts.append(n("withoutOwner", unresolved)) }
                return parts
            case .sightings(let of, let offset, let count, let total):
                let whose = of == "all" ? t("allContacts") : of
                return [
                    purpose, t("sightingsOf", ["whose": whose]),
                    t("sightingsPage", ["count": String(count), "total": String(total), "from": String(offset + 1)]),
                ]
            }
        case .traceExport(let d):
            return [
                purpose(d.purpose),
                t("exportRows", ["kind": exportKind(d.kind), "rows": EventDetail.count(d.rows, "row")]),
            ]
        case .contactOutcome(let d):
            let outcome =
                ContactOutcome(rawValue: d.outcome).map(TracingWords.outcome)
                ?? d.outcome.replacingOccurrences(of: "_", with: " ")
            return [
                t("contactOf", ["patient": subject(d.patient)]), t("outcome", ["outcome": outcome]), purpose(d.purpose),
            ]
        case .smsOutboxRead(let d): return [n("messagesShown", d.messages)]
        case .hisClientAdded(let d):
            return [d.ratePerMinute.map { n("rate", $0) } ?? t("defaultRate")]
        }
    }

    /// A role as stored, in words ("operator", "operatore"); another name as stored.
    static func roleWords(_ stored: String) -> String {
        StaffRole(rawValue: stored).map(ConsoleApp.roleName) ?? stored
    }

    /// A view as stored ("person_view"), in words where this build knows it.
    static func viewWords(_ stored: String) -> String {
        let words = stored.replacingOccurrences(of: "_", with: " ")
        guard Catalogue.raw("console.audit.view.\(stored)", in: .en) != nil else { return words }
        return tr("console.audit.view.\(stored)")
    }

    /// What an export kind is called on screen.
    static func exportKind(_ kind: String) -> String {
        switch kind {
        case "contacts_csv": return tr("console.audit.export.contactsCSV")
        case "sightings_csv": return tr("console.audit.export.sightingsCSV")
        case "json": return "JSON"
        default: return kind
        }
    }
}
