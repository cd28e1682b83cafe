import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A page of the follow-up queue as CSV (RFC 4180, lines end in CRLF, escaped as ``TraceCSV``):
/// what `tracedesk queue --csv` prints. One line per follow-up, in the queue's order (due time,
/// then id). Times are UTC in the staff API's form, days ISO 8601.
///
/// The evidence columns (`minutes`, `days`, `most_minutes_on_one_day`, `close_contact`,
/// `added_by_hand`) are those of the case with the latest exposure; `cases` and `case_ids` name
/// every case the follow-up belongs to, oldest first, separated by `;`.
public enum QueueCSV {
    public static let columns = [
        "follow_up_id", "urgency", "next_due_at", "phone", "person_user_id", "cases", "case_ids", "state",
        "assigned_to", "attempts", "last_outcome", "last_attempt_at", "reached_at", "last_exposure_day",
        "period_ends_on", "minutes", "days", "most_minutes_on_one_day", "close_contact", "added_by_hand",
        "checked_days", "last_check_day", "symptoms_flagged",
    ]

    /// The header and one line per row of the page; urgency is measured at the page's `readAt`.
    public static func encode(_ page: QueuePage, settings: FollowUpSettings = .standard) -> String {
        var text = columns.joined(separator: ",") + "\r\n"
        for row in page.rows {
            text += fields(row, readAt: page.readAt, settings: settings).map(TraceCSV.field).joined(separator: ",")
            text += "\r\n"
        }
        return text
    }

    static func fields(_ row: FollowUp, readAt: Date, settings: FollowUpSettings) -> [String] {
        let reason = latestReason(row)
        return [
            String(row.id),
            row.nextDueAt.map { QueueUrgency.of(dueAt: $0, now: readAt, settings: settings).rawValue } ?? "",
            row.nextDueAt.map(UTCTime.text) ?? "", row.phone.e164, String(row.personUserID),
            row.reasons.map { TraceCSV.typed($0.caseReference) }.joined(separator: ";"),
            row.reasons.map { String($0.caseID) }.joined(separator: ";"), row.state.rawValue,
            TraceCSV.typed(row.assignedTo ?? ""), String(row.attempts), row.lastOutcome?.rawValue ?? "",
            row.lastAttemptAt.map(UTCTime.text) ?? "", row.reachedAt.map(UTCTime.text) ?? "",
            row.lastExposureDay.iso, row.periodEndsOn.iso, reason.map { String($0.minutes) } ?? "",
            reason.map { String($0.days) } ?? "", reason.map { String($0.mostMinutesOnOneDay) } ?? "",
            reason.map { $0.isCloseContact ? "yes" : "no" } ?? "", TraceCSV.typed(reason?.addedByHand ?? ""),
            String(row.checkedDays), row.lastCheckDay?.iso ?? "", row.symptomsFlagged ? "yes" : "no",
        ]
    }

    /// The reason of the case with the latest exposure (the first such, oldest case first):
    /// the evidence a row shows.
    public static func latestReason(_ followUp: FollowUp) -> FollowUpReason? {
        followUp.reasons.reduce(nil) { best, reason in
            guard let best else { return reason }
            return reason.lastExposureDay > best.lastExposureDay ? reason : best
        }
    }
}
