import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The supervisor's statistics on the embedded store (StatsWork). A rollup is one write
// transaction: `BEGIN IMMEDIATE` takes the file's write lock first, so of two processes rolling
// up at once the second reads the state the first committed and finds nothing left to do.
// The caller's clock decides which hours are closed: the file is on this machine, so every
// process writing to it shares that clock (unlike PostgreSQL, which uses its own).
extension SQLiteStore {
    public func statistics(_ query: StatsQuery, now: Date) throws(StoreError) -> StatsReport {
        try lock.withLock { () throws(StoreError) -> StatsReport in
            // A rollup that fails (another process holding the write lock past the timeout, a
            // read-only file) must not fail the read: the hours it would add are counted live,
            // giving the same figures. The server's rollup job logs and counts its failures.
            _ = try? rollUp(now: now)
            return try connection.transaction(immediate: false, operation: "read statistics") {
                () throws(StoreError) -> StatsReport in
                var report = try statsWork.report(query, now: now)
                report.pseudoIDs = try apricotWork(on: connection).pseudoIDCapacity()
                return report
            }
        }
    }

    @discardableResult
    public func rollUpStatistics(now: Date) throws(StoreError) -> Int {
        try lock.withLock { () throws(StoreError) -> Int in try rollUp(now: now) }
    }

    /// Call with the lock held. A plain read first: no write lock when no hour closed since.
    private func rollUp(now: Date) throws(StoreError) -> Int {
        guard !StatsWork<SQLiteConnection>.pending(try statsWork.rolledHours(), now: now).isEmpty else { return 0 }
        return try connection.transaction(operation: "roll up statistics") { () throws(StoreError) -> Int in
            try statsWork.rollUp(now: now)
        }
    }

    /// The statistics on this store's connection (call with the lock held).
    var statsWork: StatsWork<SQLiteConnection> { StatsWork(db: connection, sql: .sqlite) }
}
