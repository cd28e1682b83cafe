import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The supervisor's statistics on PostgreSQL (StatsWork). Rollups from several servers are
// serialised by a transaction-level advisory lock, taken with a try (a server that finds it
// held counts the hours live meanwhile); the state is read after taking it (READ COMMITTED),
// so an hour another server rolled up meanwhile is not rolled up again. A rollup ends at the
// earlier of the caller's clock and the database's (clock_timestamp()): many machines share
// one database, and a caller whose clock runs ahead must not close an hour too early. The
// retention cleanup takes the same lock for its statistics part. A report is read in one
// REPEATABLE READ snapshot.
extension PostgresStore {
    public func statistics(_ query: StatsQuery, now: Date) throws(StoreError) -> StatsReport {
        try pool.withConnection { connection throws(StoreError) in
            // A rollup that fails (a lock, a full disk) must not fail the read: the hours it
            // would add are counted live, giving the same figures. The server's rollup job logs
            // and counts its failures. A connection the failure broke (a restarted database) is
            // not swallowed: the pool retries the call on a fresh one.
            do throws(StoreError) {
                _ = try Self.rollUp(connection, now: now)
            } catch {
                if connection.broken { throw error }
            }
            return try connection.transaction(begin: Self.snapshot, operation: "read statistics") {
                () throws(StoreError) -> StatsReport in
                var report = try Self.statsWork(connection).report(query, now: now)
                report.pseudoIDs = try apricotWork(on: connection).pseudoIDCapacity()
                return report
            }
        }
    }

    @discardableResult
    public func rollUpStatistics(now: Date) throws(StoreError) -> Int {
        try pool.withConnection { connection throws(StoreError) in try Self.rollUp(connection, now: now) }
    }

    /// A plain read first: no lock when no hour closed since the last rollup.
    static func rollUp(_ connection: PGConnection, now: Date) throws(StoreError) -> Int {
        let work = statsWork(connection)
        guard !StatsWork<PGConnection>.pending(try work.rolledHours(), now: now).isEmpty else { return 0 }
        let op = "roll up statistics"
        return try connection.transaction(begin: PGSQL.beginReadCommitted, operation: op) {
            () throws(StoreError) -> Int in
            // Another server rolling up holds the lock: leave it to them. The hours not rolled up
            // yet are counted live meanwhile, so the figures are the same, only slower.
            let taken =
                try connection.query(
                    "SELECT pg_try_advisory_xact_lock(\(PGSQL.lockClass), \(PGSQL.statsLock))", operation: op
                ) { $0.integer(0) }.first == 1
            guard taken else { return 0 }
            // The database's clock decides which hours are closed, not the caller's: a console
            // whose clock runs ahead must not freeze an hour the servers still write to.
            let database =
                try connection.query(
                    "SELECT CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS BIGINT)", operation: op
                ) { $0.integer(0) }.first ?? now.unixMilliseconds
            return try work.rollUp(now: min(now, Date(unixMilliseconds: database)))
        }
    }

    /// The statistics, on `connection`.
    static func statsWork(_ connection: PGConnection) -> StatsWork<PGConnection> {
        StatsWork(db: connection, sql: .postgres)
    }
}
