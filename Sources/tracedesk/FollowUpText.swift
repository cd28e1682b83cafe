import CivilCalendar
import DeskContract
import DeskCore
import Foundation

/// The readable output of `tracedesk case …`, `queue` and `followup …`: summaries and tables,
/// times local (as `tracedesk trace` prints them), every line through ``say(_:)`` (terminal-safe:
/// a case reference or a note cannot drive the terminal).
enum FollowUpText {
    static func localTime(_ date: Date) -> String { StaffCommand.localTime(date) }

    /// `rows` (the first one the header) in columns two spaces apart; the last column unpadded.
    static func printColumns(_ rows: [[String]]) {
        guard let header = rows.first else { return }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let line = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
            say(String(line.reversed().drop(while: { $0 == " " }).reversed()))
        }
    }

    static func status(_ status: CaseStatus) -> String {
        switch status {
        case .open: return "open"
        case .closed(let reason, _, _): return "closed (\(reason.label))"
        }
    }

    static func index(_ trace: TraceCase) -> String { "\(trace.indexDay.iso) (\(trace.indexKind.label))" }

    /// "case 3 (ASL-1) through follow-up 44".
    static func link(_ link: CaseLink) -> String {
        "case \(link.caseID) (\(link.reference)) through follow-up \(link.followUpID)"
    }

    /// Why the person is followed for one case: "45 min over 2 days (most 30 on one day), last
    /// exposure 2026-11-30, close contact", or the reason typed for one added by hand.
    static func reason(_ reason: FollowUpReason) -> String {
        if let byHand = reason.addedByHand { return "added by hand: \(byHand)" }
        let days = reason.days == 1 ? "1 day" : "\(reason.days) days"
        return
            "\(reason.minutes) min over \(days) (most \(reason.mostMinutesOnOneDay) on one day), last exposure \(reason.lastExposureDay.iso)\(reason.isCloseContact ? ", close contact" : "")"
    }

    /// A queue row's short why: "45 min, 2 days, last 11-30".
    static func shortReason(_ followUp: FollowUp) -> String {
        guard let reason = QueueCSV.latestReason(followUp) else { return "" }
        if reason.addedByHand != nil { return "by hand, last \(reason.lastExposureDay.iso)" }
        return "\(reason.minutes) min, \(reason.days) d, last \(reason.lastExposureDay.iso)"
    }

    /// The cases a follow-up names: "ASL-1", or "ASL-1 +2" for three cases.
    static func cases(_ followUp: FollowUp) -> String {
        guard let first = followUp.reasons.first else { return "" }
        return first.caseReference + (followUp.reasons.count > 1 ? " +\(followUp.reasons.count - 1)" : "")
    }

    static func due(_ followUp: FollowUp, now: Date) -> String {
        guard let due = followUp.nextDueAt else { return "ended" }
        return "\(QueueUrgency.of(dueAt: due, now: now, settings: .standard).label) \(localTime(due))"
    }

    /// What an attempt or a check left the follow-up waiting for.
    static func next(_ followUp: FollowUp) -> String {
        if !followUp.state.isActive { return "the follow-up has ended: \(followUp.state.label)" }
        guard let due = followUp.nextDueAt else { return followUp.state.label }
        let what = followUp.state == .monitoring ? "daily check" : "call"
        let urgency = QueueUrgency.of(dueAt: due, now: Date(), settings: .standard)
        return urgency == .due || urgency == .overdue
            ? "next \(what) due now" : "next \(what) due \(localTime(due))"
    }

    // MARK: Cases

    static func printCases(_ cases: [TraceCase], listed: CaseQuery.Status) {
        guard !cases.isEmpty else {
            switch listed {
            case .open: say("No open cases. Open one with: tracedesk case open PHONE --reference TEXT")
            case .closed: say("No closed cases.")
            case .all: say("No cases yet. Open one with: tracedesk case open PHONE --reference TEXT")
            }
            return
        }
        var rows = [["ID", "REFERENCE", "PATIENT", "INDEX DAY", "OPENED BY", "OPENED", "CONTACTS", "STATUS"]]
        for trace in cases {
            rows.append([
                String(trace.id), trace.reference, trace.phone.spaced, index(trace), trace.openedBy,
                localTime(trace.openedAt), String(trace.contacts), status(trace.status),
            ])
        }
        printColumns(rows)
    }

    static func printCaseHeader(_ trace: TraceCase) {
        say("Case \(trace.id) · \(trace.reference) · \(status(trace.status))")
        say("Patient \(trace.phone.spaced) · user \(trace.patientUserID) · index day \(index(trace))")
        var opened = "Opened by \(trace.openedBy) at \(localTime(trace.openedAt))"
        if case .closed(let reason, let by, let at) = trace.status {
            opened += " · closed by \(by) at \(localTime(at)): \(reason.label)"
        }
        say(opened + " · \(trace.contacts) \(trace.contacts == 1 ? "contact" : "contacts")")
        for from in trace.cameFrom { say("Came from \(link(from)): the patient was that case's contact") }
        for to in trace.ledTo { say("Led to \(link(to)): that contact became a case") }
    }

    static func printCaseDetail(_ detail: CaseDetail) {
        printCaseHeader(detail.trace)
        say("")
        if detail.followUps.isEmpty {
            say("Follow-ups: none (no close contact in the patient's files; add one with tracedesk case add)")
        } else {
            say("Follow-ups (\(detail.followUps.count), active first):")
            printFollowUps(detail.followUps, now: Date(), withAssignee: true)
        }
        say("")
        say("History (oldest first):")
        for entry in detail.history { say("  \(localTime(entry.at))  \(entry.actor)  \(entry.text)") }
        if detail.history.isEmpty { say("  (nothing yet)") }
    }

    /// Follow-ups as a table (a case's, the queue's).
    static func printFollowUps(_ followUps: [FollowUp], now: Date, withAssignee: Bool) {
        var header = ["ID", "DUE", "PHONE", "CASE", "STATE", "ATTEMPTS", "LAST OUTCOME"]
        if withAssignee { header.append("ASSIGNED") }
        header.append("WHY")
        var rows = [header]
        for followUp in followUps {
            var row = [
                String(followUp.id) + (followUp.symptomsFlagged ? "!" : ""), due(followUp, now: now),
                followUp.phone.spaced, cases(followUp), followUp.state.label, String(followUp.attempts),
                followUp.lastOutcome?.label ?? "-",
            ]
            if withAssignee { row.append(followUp.assignedTo ?? "nobody") }
            row.append(shortReason(followUp))
            rows.append(row)
        }
        printColumns(rows)
        if followUps.contains(where: \.symptomsFlagged) {
            say("(! = symptoms reported at a daily check: tell the supervisor and the case's tracer)")
        }
    }

    // MARK: Follow-ups

    static func printFollowUpDetail(_ detail: FollowUpDetail) {
        let f = detail.followUp
        say(
            "Follow-up \(f.id) · \(f.phone.spaced) · user \(f.personUserID) · \(f.state.label) · assigned to \(f.assignedTo ?? "nobody")"
        )
        var timing = f.nextDueAt.map { _ in "Due \(due(f, now: Date()))" } ?? "Ended \(f.endedAt.map(localTime) ?? "")"
        timing += " · last exposure \(f.lastExposureDay.iso) · period ends \(f.periodEndsOn.iso)"
        say(timing)
        var progress = "Attempts \(f.attempts)"
        if let last = f.lastOutcome, let at = f.lastAttemptAt {
            progress += " (last: \(last.label) at \(localTime(at)))"
        }
        progress += " · reached \(f.reachedAt.map(localTime) ?? "not yet")"
        progress += " · checked on \(f.checkedDays) \(f.checkedDays == 1 ? "day" : "days")"
        say(progress)
        if f.symptomsFlagged { say("! Symptoms reported at a daily check: tell the supervisor and the case's tracer") }
        if let became = f.becameCaseID { say("The person became case \(became).") }
        say("")
        say("Cases:")
        for reason in f.reasons { say("  case \(reason.caseID) \(reason.caseReference): \(self.reason(reason))") }
        say("")
        say("Attempts (oldest first):")
        for attempt in detail.attempts {
            say(
                "  \(localTime(attempt.at))  \(attempt.by)  \(attempt.outcome.label)\(attempt.note.isEmpty ? "" : "  \(attempt.note)")"
            )
        }
        if detail.attempts.isEmpty {
            say("  none yet: tracedesk followup attempt \(f.id) --outcome reached|no-answer|…")
        }
        say("")
        say("Daily checks:")
        for check in detail.checks {
            say(
                "  \(check.day.iso)  \(check.by)  symptoms \(check.symptoms ? "yes" : "no"), isolating \(check.isolating ? "yes" : "no")\(check.note.isEmpty ? "" : "  \(check.note)")"
            )
        }
        if detail.checks.isEmpty { say("  none yet") }
    }

    static func printQueue(_ page: QueuePage, scope: QueueScope, user: String, includeLater: Bool) {
        let whose: String
        switch scope {
        case .mine: whose = "Queue of \(user)"
        case .tracer(let name): whose = "Queue of \(name)"
        case .unassigned: whose = "Unassigned follow-ups"
        case .everyone: whose = "Everyone's queue"
        }
        let c = page.counts
        var counts = "\(c.overdue) overdue · \(c.due) due now · \(c.laterToday) later today"
        counts += includeLater ? " · \(c.later) later" : (c.later > 0 ? " (\(c.later) on later days: --later)" : "")
        say("\(whose): \(counts)")
        guard !page.rows.isEmpty else {
            say(
                page.counts == QueueCounts()
                    ? "Nobody to call: the queue is empty."
                    : "Nothing due today\(includeLater ? "" : ": --later shows the days ahead")."
            )
            return
        }
        say("")
        let withAssignee: Bool
        if case .mine = scope { withAssignee = false } else { withAssignee = true }
        printFollowUps(page.rows, now: page.readAt, withAssignee: withAssignee)
        if let next = page.next {
            say("")
            say("More: tracedesk queue --after \(next.text) (with the same options)")
        }
    }
}
