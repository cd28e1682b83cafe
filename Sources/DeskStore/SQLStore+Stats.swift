import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The supervisor's statistics (StatsWork), once for both engines. A report is read in one
// snapshot; a rollup is the engine's (``SQLEngine/rollUp(_:now:)``): it is serialised across
// processes (SQLite: the write lock of `BEGIN IMMEDIATE`, so of two processes rolling up at once
// the second reads the state the first committed; PostgreSQL: an advisory lock taken with a
// try), and the engine decides whose clock closes an hour.
extension SQLStore {
    public func statistics(_ query: StatsQuery, now: Date) throws(StoreError) -> StatsReport {
        try withConnection { db throws(StoreError) in
            // A rollup that fails (another process holding the write lock past the timeout, a
            // read-only file, a full disk) must not fail the read: the hours it would add are
            // counted live, giving the same figures. The server's rollup job logs and counts its
            // failures. A PostgreSQL connection the failure broke (a restarted database) is not
            // swallowed: the pool retries the call on a fresh one.
            do throws(StoreError) {
                _ = try rollUp(db, now: now)
            } catch {
                if isBroken(db) { throw error }
            }
            return try transaction(db, .snapshot, "read statistics") { () throws(StoreError) -> StatsReport in
                var report = try statsWork(on: db).report(query, now: now)
                report.pseudoIDs = try apricotWork(on: db).pseudoIDCapacity()
                return report
            }
        }
    }

    @discardableResult
    public func rollUpStatistics(now: Date) throws(StoreError) -> Int {
        try withConnection { db throws(StoreError) in try rollUp(db, now: now) }
    }
}
