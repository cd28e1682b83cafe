#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The embedded store as an engine: one connection serialised by the lock, `BEGIN IMMEDIATE` for
// every write (the file's write lock is held from the first statement, so no two processes
// deadlock upgrading a read lock), the busy timeout for waiting on other processes.
extension SQLiteStore: SQLStore {
    var dialect: SQLDialect { .sqlite }

    func withConnection<T: Sendable>(_ body: (SQLiteConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        try lock.withLock { () throws(StoreError) -> T in try body(connection) }
    }

    func transaction<T>(
        _ db: SQLiteConnection, _ kind: TransactionKind, _ operation: String, _ body: () throws(StoreError) -> T
    ) throws(StoreError) -> T {
        switch kind {
        case .write, .writeReadCommitted: return try db.transaction(operation: operation, body)
        case .snapshot, .streamRead: return try db.transaction(immediate: false, operation: operation, body)
        }
    }

    /// Each event's position is its id (migration 5's virtual column), and writes are serialised
    /// by the file's write lock: positions are in commit order already.
    func positionEvents(_ db: SQLiteConnection) {}

    /// The write transaction is exclusive already, so every key it sees has committed; its
    /// commit is made durable (`synchronous = FULL` for it alone), so that a power loss cannot
    /// take back a chunk phones may have.
    func publishing<T>(
        _ db: SQLiteConnection, _ body: (_ committedKeys: Int64) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        let op = "publish chunk"
        try db.execute("PRAGMA synchronous = FULL", operation: op)
        defer { _ = try? db.execute("PRAGMA synchronous = NORMAL", operation: op) }
        return try db.transaction(operation: op) { () throws(StoreError) -> T in
            try body(try db.query(ChunkSQL.highestKey, operation: op) { $0.integer(0) }.first ?? 0)
        }
    }

    /// The write transaction is exclusive already.
    func lockRollups(_ db: SQLiteConnection, operation: String) {}

    /// A plain read first: no write lock when no hour closed since. The caller's clock decides
    /// which hours are closed: the file is on this machine, so every process writing to it shares
    /// that clock (unlike PostgreSQL, which uses its own).
    func rollUp(_ db: SQLiteConnection, now: Date) throws(StoreError) -> Int {
        let work = statsWork(on: db)
        guard !StatsWork<SQLiteConnection>.pending(try work.rolledHours(), now: now).isEmpty else { return 0 }
        return try db.transaction(operation: "roll up statistics") { () throws(StoreError) -> Int in
            try work.rollUp(now: now)
        }
    }

    func isBroken(_ db: SQLiteConnection) -> Bool { false }
}
