import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The monitor's reads and the job runs on the embedded store. Writes are serialised by the
// file's write lock and each event's position is its id (migration 5's virtual column), so positions
// are in commit order already: nothing to assign before reading.
extension SQLiteStore {
    public func eventPage(
        after: Int64, limit: Int, visibleTo operatorName: String?
    ) throws(StoreError) -> StoredEventPage {
        try lock.withLock { () throws(StoreError) -> StoredEventPage in
            try connection.transaction(immediate: false, operation: "read events") {
                () throws(StoreError) -> StoredEventPage in
                try eventWork.page(after: after, limit: limit, visibleTo: operatorName)
            }
        }
    }

    public func eventTail(limit: Int, visibleTo operatorName: String?) throws(StoreError) -> StoredEventPage {
        try lock.withLock { () throws(StoreError) -> StoredEventPage in
            try connection.transaction(immediate: false, operation: "read events") {
                () throws(StoreError) -> StoredEventPage in
                try eventWork.tail(limit: limit, visibleTo: operatorName)
            }
        }
    }

    public func code(ofEvent position: Int64) throws(StoreError) -> EventCode {
        try lock.withLock { () throws(StoreError) -> EventCode in try eventWork.code(ofEvent: position) }
    }

    public func codeWatch(
        storedKey: OtpHash, now: Date, policy: PublishingPolicy
    ) throws(StoreError) -> StoredCodeWatch? {
        try lock.withLock { () throws(StoreError) -> StoredCodeWatch? in
            try connection.transaction(immediate: false, operation: "read the watch of a code") {
                () throws(StoreError) -> StoredCodeWatch? in
                try eventWork.watch(storedKey: storedKey, now: now, policy: policy)
            }
        }
    }

    public func traffic(since: Date) throws(StoreError) -> TrafficShare {
        try lock.withLock { () throws(StoreError) -> TrafficShare in
            try connection.transaction(immediate: false, operation: "read traffic") {
                () throws(StoreError) -> TrafficShare in
                try eventWork.traffic(since: since)
            }
        }
    }

    public func recordJobRun(_ job: StoreJob, ranAt: Date, nextRunAt: Date) throws(StoreError) {
        try lock.withLock { () throws(StoreError) in
            try eventWork.recordJobRun(job, ranAt: ranAt, nextRunAt: nextRunAt)
        }
    }

    public func jobRun(_ job: StoreJob) throws(StoreError) -> JobRun? {
        try lock.withLock { () throws(StoreError) -> JobRun? in try eventWork.jobRun(job) }
    }

    /// The shared event reads on this store's connection (call with the lock held).
    var eventWork: EventWork<SQLiteConnection> { EventWork(db: connection, sql: .sqlite, reads: .sqlite) }
}
