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
}
