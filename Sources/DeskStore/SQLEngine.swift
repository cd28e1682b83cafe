import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the store reaches one SQL database: a connection, the transactions, the locks that order
/// writers across processes. ``SQLStore`` writes every operation of ``Store`` once over it, so
/// SQLite and PostgreSQL differ only here, in the ``SQLDialect`` of their statements, and in the
/// few fast paths an engine overrides (PostgreSQL's one-statement authorisation and upload).
///
/// SQLite (``SQLiteStore``): one connection behind a lock, writes in `BEGIN IMMEDIATE` (the
/// file's write lock from the first statement), the busy timeout and the retry of opening.
/// PostgreSQL (``PostgresStore``): a pool of connections, advisory locks, and the sequencer that
/// gives committed events their positions before the stream is read.
///
/// Threading rule: safe from any thread; `body` runs on the calling thread, with the connection
/// lent to it alone.
protocol SQLEngine: AnyObject, Sendable {
    associatedtype DB: SQLRunning

    /// The dialect of every statement this engine runs.
    var dialect: SQLDialect { get }
    /// How many pseudo-ids may exist: ``PseudoID/capacity``; lower only in tests of a full space.
    var pseudoIDLimit: Int64 { get }

    /// Lends a connection to `body` (SQLite: under the lock; PostgreSQL: from the pool). Each
    /// statement is its own transaction unless `body` opens one with ``transaction(_:_:_:_:)``.
    func withConnection<T: Sendable>(_ body: (DB) throws(StoreError) -> T) throws(StoreError) -> T

    /// Runs `body` in one transaction of `kind` on `db`: committed when it returns, rolled back
    /// when it throws.
    func transaction<T>(
        _ db: DB, _ kind: TransactionKind, _ operation: String, _ body: () throws(StoreError) -> T
    ) throws(StoreError) -> T

    /// Before the event stream is read by position: PostgreSQL gives committed events their
    /// positions (see ``PostgresStore/assignPositions(_:pending:)``); SQLite's have theirs
    /// from the moment they are written.
    func positionEvents(_ db: DB) throws(StoreError)

    /// Runs `body` as the one transaction that publishes a chunk: one publisher at a time, and a
    /// commit that survives a power loss (its index must never be given again to other bytes).
    /// `body` gets the highest key id below which every key has committed or never will, so the
    /// publisher's sweep may pass them (SQLite: the highest id, read inside its exclusive
    /// transaction; PostgreSQL: read after the uploads in flight finished).
    func publishing<T>(_ db: DB, _ body: (_ committedKeys: Int64) throws(StoreError) -> T) throws(StoreError) -> T

    /// Inside a write transaction: waits until no statistics rollup runs (PostgreSQL's advisory
    /// lock; SQLite's write transaction is exclusive already).
    func lockRollups(_ db: DB, operation: String) throws(StoreError)

    /// Rolls up the hours that closed before `now` (``StatsWork/rollUp(now:)``), serialised
    /// across processes, in a transaction of its own; returns how many hours it added.
    func rollUp(_ db: DB, now: Date) throws(StoreError) -> Int

    /// Whether a failure broke `db` (a restarted database): the call must then fail, so that the
    /// pool retries it on a fresh connection.
    func isBroken(_ db: DB) -> Bool
}

/// What a transaction is for; each engine begins it its own way.
enum TransactionKind {
    /// A write. SQLite: `BEGIN IMMEDIATE`. PostgreSQL: `BEGIN`, at the server's isolation.
    case write
    /// A write whose every statement must see what committed before it (the audit log's
    /// appends, registrations that waited for a row lock). SQLite: `BEGIN IMMEDIATE`.
    /// PostgreSQL: READ COMMITTED whatever the server's default.
    case writeReadCommitted
    /// Reads of one consistent state. SQLite: `BEGIN`. PostgreSQL: REPEATABLE READ READ ONLY.
    case snapshot
    /// Reads of the event stream by position. SQLite: `BEGIN`. PostgreSQL: none: READ
    /// COMMITTED statement by statement is enough, since the highest position is read first
    /// and every position up to it stays visible to the statements after.
    case streamRead
}

extension SQLEngine {
    /// `body` on a connection, each statement its own transaction.
    func read<T: Sendable>(_ body: (DB) throws(StoreError) -> T) throws(StoreError) -> T {
        try withConnection(body)
    }

    /// `body` in one transaction of `kind` on a lent connection.
    func inTransaction<T: Sendable>(
        _ kind: TransactionKind, _ operation: String, _ body: (DB) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try withConnection { db throws(StoreError) in
            try transaction(db, kind, operation) { () throws(StoreError) -> T in try body(db) }
        }
    }

    /// `body` in one write transaction (``TransactionKind/writeReadCommitted``).
    func write<T: Sendable>(_ operation: String, _ body: (DB) throws(StoreError) -> T) throws(StoreError) -> T {
        try inTransaction(.writeReadCommitted, operation, body)
    }

    /// `body` in one read snapshot.
    func snapshot<T: Sendable>(_ operation: String, _ body: (DB) throws(StoreError) -> T) throws(StoreError) -> T {
        try inTransaction(.snapshot, operation, body)
    }

    // The shared code, on a lent connection.

    func staffWork(on db: DB) -> StaffWork<DB> { StaffWork(db: db, sql: dialect.staff) }
    func phoneWork(on db: DB) -> PhoneWork<DB> { PhoneWork(db: db, sql: dialect.phone, reads: dialect.reads) }
    func eventWork(on db: DB) -> EventWork<DB> { EventWork(db: db, sql: dialect.events, reads: dialect.reads) }
    func statsWork(on db: DB) -> StatsWork<DB> { StatsWork(db: db, sql: dialect.stats) }
    func apricotWork(on db: DB) -> ApricotWork<DB> {
        ApricotWork(db: db, sql: dialect.apricot, staff: staffWork(on: db), capacity: pseudoIDLimit)
    }
}

/// The one SQL adapter: every operation of ``Store`` written once, over its ``SQLEngine``
/// (the `SQLStore+Concern` files). ``SQLiteStore`` and ``PostgresStore`` are its two engines.
protocol SQLStore: Store, SQLEngine {}

extension SQLDialect {
    /// `sql`, written with `?` placeholders, as this dialect takes it (PostgreSQL numbers them).
    func text(_ sql: String) -> String {
        switch self {
        case .sqlite: return sql
        case .postgres: return PGSQL.numbered(sql)
        }
    }

    /// How this dialect reads a list of ids bound as one text value (``idList(_:)``): SQLite's
    /// `json_each` over `[1,2]`, PostgreSQL's array `{1,2}`.
    var inList: String { self == .sqlite ? "IN (SELECT value FROM json_each(?))" : "= ANY(?::text::bigint[])" }

    /// `sql` with each `IN_LIST` read as ``inList``, in this dialect.
    func listing(_ sql: String) -> String { text(sql.replacing("IN_LIST", with: inList)) }

    /// `ids` as the one value ``inList`` reads.
    func idList(_ ids: some Sequence<Int64>) -> SQLValue {
        let joined = ids.lazy.map { String($0) }.joined(separator: ",")
        return .text(self == .sqlite ? "[" + joined + "]" : "{" + joined + "}")
    }

    // Each statement set is built once per dialect (`XStatements(dialect)`), here picked.
    var reads: ReadStatements { self == .sqlite ? .sqlite : .postgres }
    var phone: PhoneStatements { self == .sqlite ? .sqlite : .postgres }
    var events: EventStatements { self == .sqlite ? .sqlite : .postgres }
    var chunks: ChunkStatements { self == .sqlite ? .sqlite : .postgres }
    var staff: StaffStatements { self == .sqlite ? .sqlite : .postgres }
    var apricot: ApricotStatements { self == .sqlite ? .sqlite : .postgres }
    var stats: StatsStatements { self == .sqlite ? .sqlite : .postgres }
}
