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
    ///
    /// Which keys have committed: at READ COMMITTED an upload still in flight may hold a lower
    /// id than one that committed, and a sweep past it would never see it. So first, in a short
    /// transaction of its own, the publisher takes `exposure_keys` in SHARE mode, which waits
    /// for every transaction that inserted keys and is still open (new uploads wait the few
    /// milliseconds until it commits), and reads the highest id then: every lower id has
    /// committed or rolled back, and a later upload's ids are higher (the identity's sequence
    /// has no per-session cache). The publishing transaction begins after, so it sees them all.
    func publishing<T>(
        _ db: PGConnection, _ body: (_ committedKeys: Int64) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        let op = "publish chunk"
        // A table never analysed (a new database, until autovacuum comes) has no statistics: the
        // planner then guesses hundreds of copies of each key data and reads them by bitmap, and
        // the duplicate check of a 10 000-key chunk takes 4 to 6 times as long. The first
        // publishing analyses it at once (about 0.1 s for 100 000 keys; it blocks no upload).
        let analysed =
            try db.query(
                "SELECT CASE WHEN reltuples < 0 THEN 0 ELSE 1 END FROM pg_class WHERE oid = 'exposure_keys'::regclass",
                operation: op
            ) { $0.integer(0) }.first ?? 1
        if analysed == 0 { try db.execute("ANALYZE exposure_keys", operation: op) }
        let committed = try db.transaction(begin: PGSQL.beginReadCommitted, operation: op) {
            () throws(StoreError) -> Int64 in
            // Uploads queue behind a waiting SHARE request: if a long writer (a retention
            // cleanup) holds the table, give up after a second and let the next run publish.
            try db.execute("SET LOCAL lock_timeout = '1s'; LOCK TABLE exposure_keys IN SHARE MODE", operation: op)
            return try db.query(ChunkSQL.highestKey, operation: op) { $0.integer(0) }.first ?? 0
        }
        return try db.transaction(operation: op) { () throws(StoreError) -> T in
            try db.execute(
                "SET LOCAL synchronous_commit = on; SELECT pg_advisory_xact_lock(\(PGSQL.lockClass), \(PGSQL.publishLock))",
                operation: op)
            return try body(committed)
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
