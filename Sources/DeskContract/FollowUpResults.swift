import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The answer to ``DeskService/openCase(_:phone:reference:indexDay:indexKind:assignToMe:)``.
public struct CaseOpening: Hashable, Sendable {
    public var trace: TraceCase
    /// The patient already had an open case: this is it, unchanged (the reference typed was
    /// not used).
    public var existing: Bool
    /// Follow-ups made for this case, and open follow-ups of other cases it joined.
    public var followUpsCreated: Int
    public var followUpsJoined: Int

    public init(trace: TraceCase, existing: Bool, followUpsCreated: Int, followUpsJoined: Int) {
        self.trace = trace
        self.existing = existing
        self.followUpsCreated = followUpsCreated
        self.followUpsJoined = followUpsJoined
    }
}

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

/// A case with its follow-ups (active first, then by id) and its history (oldest first).
public struct CaseDetail: Hashable, Sendable {
    public var trace: TraceCase
    public var followUps: [FollowUp]
    public var history: [CaseHistoryEntry]

    public init(trace: TraceCase, followUps: [FollowUp], history: [CaseHistoryEntry]) {
        self.trace = trace
        self.followUps = followUps
        self.history = history
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
