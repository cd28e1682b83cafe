import CivilCalendar
import DeskContract
import DeskCore
import Foundation
import JSONText

/// The JSON that `tracedesk case …`, `queue` and `followup … --json` print: one object per
/// answer, keys in a fixed order, snake_case, times UTC (`2026-11-29T10:00:00.000Z`), days ISO
/// 8601, absent values `null`, so that scripts can rely on it. docs/tracer-guide.md lists the
/// fields ("From the command line").
enum FollowUpJSON {
    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { JSONValue.Member(key: $0.0, value: $0.1) })
    }

    static func number<N: BinaryInteger>(_ n: N) -> JSONValue { .number(String(n)) }
    static func time(_ date: Date) -> JSONValue { .string(UTCTime.text(date)) }
    static func optionalTime(_ date: Date?) -> JSONValue { date.map(time) ?? .null }
    static func optionalString(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    static func link(_ link: CaseLink) -> JSONValue {
        object([
            ("case_id", number(link.caseID)), ("reference", .string(link.reference)),
            ("follow_up_id", number(link.followUpID)),
        ])
    }

    static func traceCase(_ trace: TraceCase) -> JSONValue {
        var closeReason: JSONValue = .null
        var closedBy: JSONValue = .null
        var closedAt: JSONValue = .null
        if case .closed(let reason, let by, let at) = trace.status {
            closeReason = .string(reason.rawValue)
            closedBy = .string(by)
            closedAt = time(at)
        }
        return object([
            ("id", number(trace.id)), ("reference", .string(trace.reference)),
            ("patient_user_id", number(trace.patientUserID)), ("phone", .string(trace.phone.e164)),
            ("index_day", .string(trace.indexDay.iso)), ("index_kind", .string(trace.indexKind.rawValue)),
            ("opened_by", .string(trace.openedBy)), ("opened_at", time(trace.openedAt)),
            ("status", .string(trace.status.isOpen ? "open" : "closed")), ("close_reason", closeReason),
            ("closed_by", closedBy), ("closed_at", closedAt), ("contacts", number(trace.contacts)),
            ("came_from", .array(trace.cameFrom.map(link))), ("led_to", .array(trace.ledTo.map(link))),
        ])
    }

    static func reason(_ reason: FollowUpReason) -> JSONValue {
        object([
            ("case_id", number(reason.caseID)), ("case_reference", .string(reason.caseReference)),
            ("last_exposure_day", .string(reason.lastExposureDay.iso)), ("minutes", number(reason.minutes)),
            ("days", number(reason.days)), ("most_minutes_on_one_day", number(reason.mostMinutesOnOneDay)),
            ("close_contact", .bool(reason.isCloseContact)), ("added_by_hand", optionalString(reason.addedByHand)),
        ])
    }

    /// A follow-up; with `readAt`, its urgency then (a queue row).
    static func followUp(_ followUp: FollowUp, readAt: Date? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", number(followUp.id)), ("person_user_id", number(followUp.personUserID)),
            ("phone", .string(followUp.phone.e164)), ("state", .string(followUp.state.rawValue)),
            ("assigned_to", optionalString(followUp.assignedTo)), ("created_at", time(followUp.createdAt)),
            ("next_due_at", optionalTime(followUp.nextDueAt)),
        ]
        if let readAt {
            members.append(
                (
                    "urgency",
                    followUp.nextDueAt.map {
                        .string(QueueUrgency.of(dueAt: $0, now: readAt, settings: .standard).rawValue)
                    } ?? .null
                ))
        }
        members += [
            ("last_exposure_day", .string(followUp.lastExposureDay.iso)),
            ("period_ends_on", .string(followUp.periodEndsOn.iso)), ("attempts", number(followUp.attempts)),
            ("attempts_on_last_day", number(followUp.attemptsOnLastDay)),
            ("last_outcome", optionalString(followUp.lastOutcome?.rawValue)),
            ("last_attempt_at", optionalTime(followUp.lastAttemptAt)), ("reached_at", optionalTime(followUp.reachedAt)),
            ("checked_days", number(followUp.checkedDays)),
            ("last_check_day", optionalString(followUp.lastCheckDay?.iso)),
            ("symptoms_flagged", .bool(followUp.symptomsFlagged)), ("ended_at", optionalTime(followUp.endedAt)),
            ("became_case_id", followUp.becameCaseID.map { number($0) } ?? .null),
            ("reasons", .array(followUp.reasons.map(reason))),
        ]
        return object(members)
    }

    static func opening(_ opening: CaseOpening) -> JSONValue {
        object([
            ("case", traceCase(opening.trace)), ("existing", .bool(opening.existing)),
            ("follow_ups_created", number(opening.followUpsCreated)),
            ("follow_ups_joined", number(opening.followUpsJoined)),
        ])
    }

    static func cases(_ cases: [TraceCase]) -> JSONValue {
        object([("cases", .array(cases.map(traceCase)))])
    }

    static func caseDetail(_ detail: CaseDetail) -> JSONValue {
        object([
            ("case", traceCase(detail.trace)), ("follow_ups", .array(detail.followUps.map { followUp($0) })),
            (
                "history",
                .array(
                    detail.history.map {
                        object([("at", time($0.at)), ("actor", .string($0.actor)), ("text", .string($0.text))])
                    })
            ),
        ])
    }

    static func followUpDetail(_ detail: FollowUpDetail) -> JSONValue {
        object([
            ("follow_up", followUp(detail.followUp)),
            (
                "attempts",
                .array(
                    detail.attempts.map {
                        object([
                            ("id", number($0.id)), ("at", time($0.at)), ("by", .string($0.by)),
                            ("outcome", .string($0.outcome.rawValue)), ("note", .string($0.note)),
                        ])
                    })
            ),
            (
                "checks",
                .array(
                    detail.checks.map {
                        object([
                            ("id", number($0.id)), ("day", .string($0.day.iso)), ("at", time($0.at)),
                            ("by", .string($0.by)), ("symptoms", .bool($0.symptoms)),
                            ("isolating", .bool($0.isolating)),
                            ("note", .string($0.note)),
                        ])
                    })
            ),
        ])
    }

    static func queue(_ page: QueuePage) -> JSONValue {
        object([
            ("read_at", time(page.readAt)),
            (
                "counts",
                object([
                    ("overdue", number(page.counts.overdue)), ("due", number(page.counts.due)),
                    ("later_today", number(page.counts.laterToday)), ("later", number(page.counts.later)),
                ])
            ),
            ("rows", .array(page.rows.map { followUp($0, readAt: page.readAt) })),
            ("next", optionalString(page.next?.text)),
        ])
    }

    static func followUps(_ followUps: [FollowUp]) -> JSONValue {
        object([("follow_ups", .array(followUps.map { followUp($0) }))])
    }
}
