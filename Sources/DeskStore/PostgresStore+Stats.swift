import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The supervisor's statistics on PostgreSQL (StatsWork). Rollups from several servers are
// serialised by a transaction-level advisory lock, taken with a try (a server that finds it
// held counts the hours live meanwhile); the state is read after taking it (READ COMMITTED),
// so an hour another server rolled up meanwhile is not rolled up again. A report
// is read in one REPEATABLE READ snapshot.
extension PostgresStore {
    public func statistics(_ query: StatsQuery, now: Date) throws(StoreError) -> StatsReport {
        try pool.withConnection { connection throws(StoreError) in
            try Self.rollUp(connection, now: now)
            return try connection.transaction(begin: Self.snapshot, operation: "read statistics") {
                () throws(StoreError) -> StatsReport in
                var report = try Self.statsWork(connection).report(query, now: now)
                report.pseudoIDs = try apricotWork(connection).pseudoIDCapacity()
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
            return try work.rollUp(now: now)
        }
    }

    /// The statistics, on `connection`.
    static func statsWork(_ connection: PGConnection) -> StatsWork<PGConnection> {
        StatsWork(db: connection, sql: .postgres)
    }
}
