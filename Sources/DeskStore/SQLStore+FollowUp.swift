import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Contact follow-up, once for both engines (``FollowUpWork``). Every change is one write
// transaction that takes the audit log's lock first (on PostgreSQL an advisory lock, on SQLite
// the file's write lock of `BEGIN IMMEDIATE`): a follow-up read, rescheduled in Swift and written
// back meets no other writer, and the change, its history, audit entry and event commit together.
// The queue and a follow-up's detail are writes too: time settles what it ended before they read.
extension SQLStore {
    func followUpWork(on db: DB) -> FollowUpWork<DB> {
        FollowUpWork(db: db, sql: dialect == .sqlite ? .sqlite : .postgres, staff: staffWork(on: db))
    }

    public func openCase(_ request: CaseOpenRequest, now: Date, settings: FollowUpSettings) throws(StoreError)
        -> CaseOpening
    {
        try followUpWrite("open a case") { work throws(StoreError) in
            try work.openCase(request, now: now, settings: settings)
        }
    }

    public func cases(status: CaseStatusFilter, openedBy: String?, limit: Int) throws(StoreError) -> [TraceCase] {
        try snapshot("list cases") { db throws(StoreError) in
            try followUpWork(on: db).cases(status: status, openedBy: openedBy, limit: limit)
        }
    }

    public func caseDetail(id: Int64) throws(StoreError) -> CaseDetail? {
        try snapshot("read a case") { db throws(StoreError) in try followUpWork(on: db).caseDetail(id: id) }
    }

    public func closeCase(
        id: Int64, reason: CaseCloseReason, note: String, by actor: String, now: Date
    ) throws(StoreError) -> CaseClosing {
        try followUpWrite("close a case") { work throws(StoreError) in
            try work.closeCase(id: id, reason: reason, note: note, by: actor, now: now)
        }
    }

    public func addFollowUp(
        caseID: Int64, personUserID: Int64, reason: String, by actor: String, now: Date, settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpAddition {
        try followUpWrite("add a follow-up") { work throws(StoreError) in
            try work.addFollowUp(
                caseID: caseID, personUserID: personUserID, reason: reason, by: actor, now: now, settings: settings)
        }
    }

    public func followUpQueue(_ query: QueueQuery, now: Date, settings: FollowUpSettings) throws(StoreError)
        -> QueuePage
    {
        try followUpWrite("read the queue") { work throws(StoreError) in
            try work.queue(query, now: now, settings: settings)
        }
    }

    public func followUpDetail(id: Int64, now: Date, settings: FollowUpSettings) throws(StoreError)
        -> StoredFollowUpDetail?
    {
        try followUpWrite("read a follow-up") { work throws(StoreError) in
            try work.followUpDetail(id: id, now: now, settings: settings)
        }
    }

    public func recordAttempt(
        followUpID: Int64, outcome: CallOutcome, note: String, by actor: String, onlyAssignedTo: String?, now: Date,
        settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpChange {
        try followUpWrite("record a call attempt") { work throws(StoreError) in
            try work.recordAttempt(
                followUpID: followUpID, outcome: outcome, note: note, by: actor, onlyAssignedTo: onlyAssignedTo,
                now: now, settings: settings)
        }
    }

    public func recordCheck(
        followUpID: Int64, symptoms: Bool, isolating: Bool, note: String, by actor: String, onlyAssignedTo: String?,
        now: Date, settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpChange {
        try followUpWrite("record a daily check") { work throws(StoreError) in
            try work.recordCheck(
                followUpID: followUpID, symptoms: symptoms, isolating: isolating, note: note, by: actor,
                onlyAssignedTo: onlyAssignedTo, now: now, settings: settings)
        }
    }

    public func assignFollowUps(ids: [Int64], to tracer: String, by actor: String, now: Date) throws(StoreError)
        -> FollowUpAssignment
    {
        try followUpWrite("assign follow-ups") { work throws(StoreError) in
            try work.assign(ids: ids, to: tracer, by: actor, now: now)
        }
    }

    public func deleteClosedCases(closedBefore: Date) throws(StoreError) -> Int {
        try followUpWrite("delete closed cases") { work throws(StoreError) in
            try work.deleteClosedCases(closedBefore: closedBefore)
        }
    }

    /// `body` in one write transaction.
    private func followUpWrite<T: Sendable>(
        _ operation: String, _ body: (FollowUpWork<DB>) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try write(operation) { db throws(StoreError) in try body(followUpWork(on: db)) }
    }
}
