// PostgreSQL as an engine: connections lent by the pool (which reconnects after a restart),
// transactions begun at the isolation each kind needs, events positioned by the sequencer.
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
}
