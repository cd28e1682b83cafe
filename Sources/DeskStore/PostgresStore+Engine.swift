#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// PostgreSQL as an engine: connections lent by the pool (which reconnects after a restart),
// transactions begun at the isolation each kind needs, advisory locks keyed by the schema, and
// events positioned by the sequencer (PostgresStore+Sequencer.swift).
extension PostgresStore: SQLStore {
    var dialect: SQLDialect { .postgres }

    func withConnection<T: Sendable>(_ body: (PGConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        try pool.withConnection(body)
    }

    func transaction<T>(
        _ db: PGConnection, _ kind: TransactionKind, _ operation: String, _ body: () throws(StoreError) -> T
    ) throws(StoreError) -> T {
        switch kind {
        case .write: return try db.transaction(operation: operation, body)
        case .writeReadCommitted: return try db.transaction(begin: PGSQL.beginReadCommitted, operation: operation, body)
        case .snapshot: return try db.transaction(begin: Self.snapshot, operation: operation, body)
        case .streamRead: return try body()
        }
    }

    func positionEvents(_ db: PGConnection) throws(StoreError) { try Self.assignPositions(db) }

    /// One publisher at a time across every server: the next one waits for the lock, then reads
    /// the index this one saved. The commit is synchronous whatever the server's default: a
    /// published chunk may already be on phones.
    func publishing<T>(_ db: PGConnection, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try db.transaction(operation: "publish chunk") { () throws(StoreError) -> T in
            try db.execute(
                "SET LOCAL synchronous_commit = on; SELECT pg_advisory_xact_lock(\(PGSQL.lockClass), \(PGSQL.publishLock))",
                operation: "publish chunk")
            return try body()
        }
    }

    func lockRollups(_ db: PGConnection, operation: String) throws(StoreError) {
        try db.execute("SELECT pg_advisory_xact_lock(\(PGSQL.lockClass), \(PGSQL.statsLock))", operation: operation)
    }

    /// Rollups from several servers are serialised by a transaction-level advisory lock, taken
    /// with a try (a server that finds it held counts the hours live meanwhile); the state is
    /// read after taking it (READ COMMITTED), so an hour another server rolled up meanwhile is
    /// not rolled up again. A rollup ends at the earlier of the caller's clock and the
    /// database's (clock_timestamp()): many machines share one database, and a caller whose
    /// clock runs ahead must not close an hour too early. A plain read first: no lock when no
    /// hour closed since the last rollup.
    func rollUp(_ connection: PGConnection, now: Date) throws(StoreError) -> Int {
        let work = statsWork(on: connection)
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

    func isBroken(_ db: PGConnection) -> Bool { db.broken }
}
