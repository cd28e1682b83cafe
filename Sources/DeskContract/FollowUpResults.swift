import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Which cases ``DeskService/cases(_:query:)`` lists.
public struct CaseQuery: Hashable, Sendable {
    public enum Status: String, Hashable, Sendable, CaseIterable {
        case open, closed, all
    }

    public var status: Status
    /// Only cases this tracer opened (a supervisor's filter; a tracer always sees their own).
    public var openedBy: String?
    /// 1…``maximumLimit``, newest first.
    public var limit: Int

    public static let maximumLimit = 1_000

    public init(status: Status = .open, openedBy: String? = nil, limit: Int = 200) {
        self.status = status
        self.openedBy = openedBy
        self.limit = limit
    }
}

/// A follow-up with every attempt and check (oldest first).
public struct FollowUpDetail: Hashable, Sendable {
    public var followUp: FollowUp
    public var attempts: [CallAttempt]
    public var checks: [DailyCheck]

    public init(followUp: FollowUp, attempts: [CallAttempt], checks: [DailyCheck]) {
        self.followUp = followUp
        self.attempts = attempts
        self.checks = checks
    }
}
