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

    /// The words of a state, an outcome, a close reason and an index day's kind: the console's.
    static func word(_ state: FollowUpState) -> String { tr("console.queue.state.\(state.rawValue)") }
    static func word(_ outcome: CallOutcome) -> String { tr("console.queue.outcome.\(outcome.rawValue)") }
    static func word(_ reason: CaseCloseReason) -> String { tr("console.case.reason.\(reason.rawValue)") }
    static func word(_ kind: IndexDayKind) -> String { tr("console.case.indexKind.\(kind.rawValue)") }

    static func status(_ status: CaseStatus) -> String {
        switch status {
        case .open: return tr("cli.followup.status.open")
        case .closed(let reason, _, _): return tr("cli.followup.status.closed", ["reason": word(reason)])
        }
    }

    static func index(_ trace: TraceCase) -> String { "\(trace.indexDay.iso) (\(word(trace.indexKind)))" }

    /// "case 3 (ASL-1) through follow-up 44".
    static func link(_ link: CaseLink) -> String {
        tr(
            "cli.followup.link",
            ["case": String(link.caseID), "reference": link.reference, "followUp": String(link.followUpID)])
    }

    /// Why the person is followed for one case: "45 min over 2 days (most 30 on one day), last
    /// exposure 2026-11-30, close contact", or the reason typed for one added by hand.
    static func reason(_ reason: FollowUpReason) -> String {
        if let byHand = reason.addedByHand { return tr("cli.followup.reason.byHand", ["reason": byHand]) }
        return tr(
            "cli.followup.reason.exposure",
            [
                "minutes": String(reason.minutes), "days": trCount("cli.followup.days", reason.days),
                "most": String(reason.mostMinutesOnOneDay), "last": reason.lastExposureDay.iso,
            ]) + (reason.isCloseContact ? tr("cli.followup.reason.close") : "")
    }

    /// A queue row's short why: "45 min, 2 days, last 11-30".
    static func shortReason(_ followUp: FollowUp) -> String {
        guard let reason = QueueCSV.latestReason(followUp) else { return "" }
        if reason.addedByHand != nil { return tr("cli.followup.short.byHand", ["last": reason.lastExposureDay.iso]) }
        return tr(
            "cli.followup.short.exposure",
            ["minutes": String(reason.minutes), "days": String(reason.days), "last": reason.lastExposureDay.iso])
    }

    /// The cases a follow-up names: "ASL-1", or "ASL-1 +2" for three cases.
    static func cases(_ followUp: FollowUp) -> String {
        guard let first = followUp.reasons.first else { return "" }
        return first.caseReference + (followUp.reasons.count > 1 ? " +\(followUp.reasons.count - 1)" : "")
    }

    static func due(_ followUp: FollowUp, now: Date) -> String {
        guard let due = followUp.nextDueAt else { return tr("cli.followup.ended") }
        let urgency = QueueUrgency.of(dueAt: due, now: now, settings: .standard)
        return tr("cli.followup.urgency.\(urgency.rawValue)") + " " + localTime(due)
    }

    /// What an attempt or a check left the follow-up waiting for.
    static func next(_ followUp: FollowUp) -> String {
        if !followUp.state.isActive { return tr("cli.followup.next.ended", ["state": word(followUp.state)]) }
        guard let due = followUp.nextDueAt else { return word(followUp.state) }
        let what = followUp.state == .monitoring ? "check" : "call"
        let urgency = QueueUrgency.of(dueAt: due, now: Date(), settings: .standard)
        return urgency == .due || urgency == .overdue
            ? tr("cli.followup.next.\(what).now") : tr("cli.followup.next.\(what).at", ["time": localTime(due)])
    }

    // MARK: Cases

    static func printCases(_ cases: [TraceCase], listed: CaseQuery.Status) {
        guard !cases.isEmpty else {
            switch listed {
            case .open: say(tr("cli.case.list.noOpen"))
            case .closed: say(tr("cli.case.list.noClosed"))
            case .all: say(tr("cli.case.list.none"))
            }
            return
        }
        var rows = [
            ["id", "reference", "patient", "indexDay", "openedBy", "opened", "contacts", "status"].map {
                tr("cli.case.column.\($0)")
            }
        ]
        for trace in cases {
            rows.append([
                String(trace.id), trace.reference, trace.phone.spaced, index(trace), trace.openedBy,
                localTime(trace.openedAt), String(trace.contacts), status(trace.status),
            ])
        }
        printColumns(rows)
    }

    static func printCaseHeader(_ trace: TraceCase) {
        say(
            tr(
                "cli.case.show.title",
                ["id": String(trace.id), "reference": trace.reference, "status": status(trace.status)]))
        say(
            tr(
                "cli.case.show.patient",
                ["phone": trace.phone.spaced, "user": String(trace.patientUserID), "index": index(trace)]))
        var opened = tr("cli.case.show.opened", ["by": trace.openedBy, "at": localTime(trace.openedAt)])
        if case .closed(let reason, let by, let at) = trace.status {
            opened += tr("cli.case.show.closed", ["by": by, "at": localTime(at), "reason": word(reason)])
        }
        say(opened + " · " + trCount("cli.case.show.contacts", trace.contacts))
        for from in trace.cameFrom { say(tr("cli.case.show.cameFrom", ["link": link(from)])) }
        for to in trace.ledTo { say(tr("cli.case.show.ledTo", ["link": link(to)])) }
    }

    static func printCaseDetail(_ detail: CaseDetail) {
        printCaseHeader(detail.trace)
        say("")
        if detail.followUps.isEmpty {
            say(tr("cli.case.show.noFollowUps"))
        } else {
            say(tr("cli.case.show.followUps", ["count": String(detail.followUps.count)]))
            printFollowUps(detail.followUps, now: Date(), withAssignee: true)
        }
        say("")
        say(tr("cli.case.show.history"))
        for entry in detail.history {
            say("  \(localTime(entry.at))  \(entry.actor)  \(CaseHistoryLine.shown(entry.text))")
        }
        if detail.history.isEmpty { say("  " + tr("cli.case.show.nothingYet")) }
    }

    /// Follow-ups as a table (a case's, the queue's).
    static func printFollowUps(_ followUps: [FollowUp], now: Date, withAssignee: Bool) {
        var header = ["id", "due", "phone", "case", "state", "attempts", "lastOutcome"].map {
            tr("cli.followup.column.\($0)")
        }
        if withAssignee { header.append(tr("cli.followup.column.assigned")) }
        header.append(tr("cli.followup.column.why"))
        var rows = [header]
        for followUp in followUps {
            var row = [
                String(followUp.id) + (followUp.symptomsFlagged ? "!" : ""), due(followUp, now: now),
                followUp.phone.spaced, cases(followUp), word(followUp.state), String(followUp.attempts),
                followUp.lastOutcome.map(word) ?? "-",
            ]
            if withAssignee { row.append(followUp.assignedTo ?? tr("cli.followup.nobody")) }
            row.append(shortReason(followUp))
            rows.append(row)
        }
        printColumns(rows)
        if followUps.contains(where: \.symptomsFlagged) {
            say(tr("cli.followup.symptomsMark"))
        }
    }

    // MARK: Follow-ups

    static func printFollowUpDetail(_ detail: FollowUpDetail) {
        let f = detail.followUp
        say(
            tr(
                "cli.followup.show.title",
                [
                    "id": String(f.id), "phone": f.phone.spaced, "user": String(f.personUserID),
                    "state": word(f.state), "assignee": f.assignedTo ?? tr("cli.followup.nobody"),
                ]))
        var timing =
            f.nextDueAt.map { _ in tr("cli.followup.show.due", ["due": due(f, now: Date())]) }
            ?? tr("cli.followup.show.ended", ["at": f.endedAt.map(localTime) ?? ""])
        timing += tr("cli.followup.show.period", ["last": f.lastExposureDay.iso, "ends": f.periodEndsOn.iso])
        say(timing)
        var progress = tr("cli.followup.show.attempts", ["count": String(f.attempts)])
        if let last = f.lastOutcome, let at = f.lastAttemptAt {
            progress += tr("cli.followup.show.lastAttempt", ["outcome": word(last), "at": localTime(at)])
        }
        progress += tr("cli.followup.show.reached", ["at": f.reachedAt.map(localTime) ?? tr("cli.followup.notYet")])
        progress += " · " + trCount("cli.followup.show.checkedDays", f.checkedDays)
        say(progress)
        if f.symptomsFlagged { say(tr("cli.followup.show.symptoms")) }
        if let became = f.becameCaseID { say(tr("cli.followup.show.becameCase", ["case": String(became)])) }
        say("")
        say(tr("cli.followup.show.cases"))
        for reason in f.reasons {
            say(
                "  "
                    + tr(
                        "cli.followup.show.case",
                        [
                            "case": String(reason.caseID), "reference": reason.caseReference,
                            "why": self.reason(reason),
                        ]))
        }
        say("")
        say(tr("cli.followup.show.attemptsHeading"))
        for attempt in detail.attempts {
            say(
                "  \(localTime(attempt.at))  \(attempt.by)  \(word(attempt.outcome))\(attempt.note.isEmpty ? "" : "  \(attempt.note)")"
            )
        }
        if detail.attempts.isEmpty {
            say("  " + tr("cli.followup.show.noAttempts", ["id": String(f.id)]))
        }
        say("")
        say(tr("cli.followup.show.checksHeading"))
        for check in detail.checks {
            let answers = tr(
                "cli.followup.show.check",
                [
                    "symptoms": tr(check.symptoms ? "common.yes" : "common.no"),
                    "isolating": tr(check.isolating ? "common.yes" : "common.no"),
                ])
            say("  \(check.day.iso)  \(check.by)  \(answers)\(check.note.isEmpty ? "" : "  \(check.note)")")
        }
        if detail.checks.isEmpty { say("  " + tr("cli.followup.show.noneYet")) }
    }

    static func printQueue(_ page: QueuePage, scope: QueueScope, user: String, includeLater: Bool) {
        let whose: String
        switch scope {
        case .mine: whose = tr("cli.queue.of", ["name": user])
        case .tracer(let name): whose = tr("cli.queue.of", ["name": name])
        case .unassigned: whose = tr("cli.queue.unassigned")
        case .everyone: whose = tr("cli.queue.everyone")
        }
        let c = page.counts
        var counts = tr(
            "cli.queue.counts",
            ["overdue": String(c.overdue), "due": String(c.due), "laterToday": String(c.laterToday)])
        counts +=
            includeLater
            ? tr("cli.queue.later", ["count": String(c.later)])
            : (c.later > 0 ? tr("cli.queue.laterHint", ["count": String(c.later)]) : "")
        say("\(whose): \(counts)")
        guard !page.rows.isEmpty else {
            say(
                page.counts == QueueCounts()
                    ? tr("cli.queue.empty")
                    : tr(includeLater ? "cli.queue.nothingToday" : "cli.queue.nothingTodayHint"))
            return
        }
        say("")
        let withAssignee: Bool
        if case .mine = scope { withAssignee = false } else { withAssignee = true }
        printFollowUps(page.rows, now: page.readAt, withAssignee: withAssignee)
        if let next = page.next {
            say("")
            say(tr("cli.queue.more", ["cursor": next.text]))
        }
    }
}
