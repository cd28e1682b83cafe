import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The embedded store: one SQLite file in WAL mode, shared by any number of processes.
///
/// WAL lets readers (a live monitor, a second console) run while one process writes; the busy
/// timeout makes a writer wait its turn instead of failing. Every public method is one
/// transaction. Opening a file checks that it is a TraceDesk store and applies pending
/// migrations.
///
/// Threading rule: safe from any thread; one connection, serialised by a lock.
/// Privacy rule: codes arrive as hashes; errors never include bound values.
public final class SQLiteStore: Store, @unchecked Sendable {
    public let path: String
    private let connection: SQLiteConnection
    private let lock = SimpleLock()

    /// Opens (creating if needed) the store at `path`.
    ///
    /// - Parameter busyTimeoutMilliseconds: how long to wait for another process's write lock.
    public init(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws(StoreError) {
        self.path = path
        connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try checkIdentity()
        try connection.execute("PRAGMA journal_mode = WAL", operation: "enable WAL")
        try connection.execute("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON", operation: "configure")
        try migrate()
    }

    /// The schema version the file is at.
    public func schemaVersion() throws(StoreError) -> Int {
        try lock.withLock { () throws(StoreError) -> Int in try currentVersion() }
    }

    // MARK: Store

    public func authorize(
        otpHash: OtpHash, symptomsStartedOn: CivilDay, by actor: String, now: Date, lifetime: Duration
    ) throws(StoreError) -> AuthorizeOutcome {
        let nowMs = now.unixMilliseconds
        let lifetimeMs = lifetime.components.seconds * 1000 + lifetime.components.attoseconds / 1_000_000_000_000_000
        return try lock.withLock { () throws(StoreError) -> AuthorizeOutcome in
            try connection.transaction(operation: "authorize") { () throws(StoreError) -> AuthorizeOutcome in
                if let existing = try fetchAuthorization(otpHash), existing.isUsable(at: now) {
                    return .alreadyAuthorized(existing)
                }
                // Instants are kept as whole milliseconds: return exactly what a later read gives.
                let record = OtpAuthorization(
                    otpHash: otpHash, symptomsStartedOn: symptomsStartedOn, authorizedAt: Date(unixMilliseconds: nowMs),
                    expiresAt: Date(unixMilliseconds: nowMs + max(1, lifetimeMs)), authorizedBy: actor)
                try connection.run(
                    SQL.upsertAuthorization,
                    [
                        .text(otpHash.hex), .text(symptomsStartedOn.iso), .integer(nowMs),
                        .integer(record.expiresAt.unixMilliseconds), .text(actor),
                    ], operation: "authorize")
                try appendEvent(
                    kind: .otpAuthorized, at: nowMs, otpHash: otpHash, actor: actor,
                    detail:
                        #"{"symptoms_started_on":"\#(symptomsStartedOn.iso)","expires_at_ms":\#(record.expiresAt.unixMilliseconds)}"#
                )
                return .authorized(record)
            }
        }
    }

    public func authorization(for otpHash: OtpHash) throws(StoreError) -> OtpAuthorization? {
        try lock.withLock { () throws(StoreError) -> OtpAuthorization? in try fetchAuthorization(otpHash) }
    }

    public func events(after afterID: Int64, limit: Int) throws(StoreError) -> [DeskEvent] {
        try lock.withLock { () throws(StoreError) -> [DeskEvent] in
            try connection.query(
                SQL.eventsAfter, [.integer(afterID), .integer(Int64(max(0, limit)))], operation: "read events"
            ) {
                row in
                DeskEvent(
                    id: row.integer(0), at: Date(unixMilliseconds: row.integer(1)),
                    kind: DeskEvent.Kind(rawValue: row.text(2)) ?? .analyticsReceived,
                    otpHash: row.optionalText(3).flatMap(OtpHash.init(hex:)), actor: row.optionalText(4),
                    detail: row.text(5))
            }
        }
    }

    public func latestEventID() throws(StoreError) -> Int64 {
        try lock.withLock { () throws(StoreError) -> Int64 in
            try connection.query(SQL.latestEventID, operation: "read events") { $0.integer(0) }.first ?? 0
        }
    }

    // MARK: Internals (called with the lock held)

    private func fetchAuthorization(_ otpHash: OtpHash) throws(StoreError) -> OtpAuthorization? {
        let rows = try connection.query(SQL.selectAuthorization, [.text(otpHash.hex)], operation: "read authorization")
        {
            row -> OtpAuthorization? in
            guard let day = CivilDay(iso: row.text(1)) else { return nil }
            return OtpAuthorization(
                otpHash: otpHash, symptomsStartedOn: day, authorizedAt: Date(unixMilliseconds: row.integer(2)),
                expiresAt: Date(unixMilliseconds: row.integer(3)), authorizedBy: row.text(4),
                state: OtpAuthorization.State(rawValue: row.text(5)) ?? .consumed,
                consumedAt: row.optionalInteger(6).map(Date.init(unixMilliseconds:)))
        }
        return rows.first ?? nil
    }

    private func appendEvent(
        kind: DeskEvent.Kind, at ms: Int64, otpHash: OtpHash?, actor: String?, detail: String
    ) throws(StoreError) {
        try connection.run(
            SQL.insertEvent,
            [
                .integer(ms), .text(kind.rawValue), otpHash.map { .text($0.hex) } ?? .null,
                actor.map { .text($0) } ?? .null, .text(detail),
            ],
            operation: "append event")
    }

    private func currentVersion() throws(StoreError) -> Int {
        let exists = try connection.query(SQL.migrationsTableExists, operation: "read schema version") { $0.integer(0) }
        guard exists.first == 1 else { return 0 }
        return Int(
            try connection.query(SQL.maxMigration, operation: "read schema version") { $0.integer(0) }.first ?? 0)
    }

    /// Refuses files that are SQLite but not ours; claims empty files.
    private func checkIdentity() throws(StoreError) {
        // One read transaction, so a process creating the store meanwhile is seen whole or not at all.
        let (applicationID, tables) = try connection.transaction(immediate: false, operation: "identify file") {
            () throws(StoreError) -> (Int32, Int64) in
            let id =
                try connection.query("PRAGMA application_id", operation: "identify file") {
                    Int32(truncatingIfNeeded: $0.integer(0))
                }.first ?? 0
            let count = try connection.query(SQL.countTables, operation: "identify file") { $0.integer(0) }.first ?? 0
            return (id, count)
        }
        if applicationID == Migrations.applicationID { return }
        if applicationID != 0 || tables > 0 { throw StoreError.notTraceDesk(path: path) }
        try connection.execute("PRAGMA application_id = \(Migrations.applicationID)", operation: "claim file")
    }

    private func migrate() throws(StoreError) {
        // Up to date: a plain read, so a store can be opened while another process writes.
        let found = try currentVersion()
        if found > Migrations.latestVersion {
            throw StoreError.schemaTooNew(path: path, found: found, known: Migrations.latestVersion)
        }
        if found == Migrations.latestVersion { return }
        for migration in Migrations.all {
            try connection.transaction(operation: "migration \(migration.name)") { () throws(StoreError) in
                // Re-read inside the write lock: another process may have migrated meanwhile.
                let version = try currentVersion()
                if version > Migrations.latestVersion {
                    throw StoreError.schemaTooNew(path: path, found: version, known: Migrations.latestVersion)
                }
                guard version < migration.version else { return }
                if version == 0 {
                    try connection.execute(SQL.createMigrationsTable, operation: "create schema_migrations")
                }
                try connection.execute(migration.sql, operation: "migration \(migration.name)")
                try connection.run(
                    SQL.recordMigration,
                    [.integer(Int64(migration.version)), .text(migration.name), .integer(Date().unixMilliseconds)],
                    operation: "migration \(migration.name)")
            }
        }
    }
}

/// The SQL text of ``SQLiteStore``, kept apart from the orchestration.
enum SQL {
    static let countTables = "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
    static let migrationsTableExists =
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    static let createMigrationsTable =
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL)"
    static let maxMigration = "SELECT coalesce(max(version), 0) FROM schema_migrations"
    static let recordMigration = "INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)"

    static let selectAuthorization = """
        SELECT otp_hash, symptoms_started_on, authorized_at_ms, expires_at_ms, authorized_by, state, consumed_at_ms
        FROM otp_authorizations WHERE otp_hash = ?
        """
    static let upsertAuthorization = """
        INSERT INTO otp_authorizations
            (otp_hash, symptoms_started_on, authorized_at_ms, expires_at_ms, authorized_by, state, consumed_at_ms)
        VALUES (?, ?, ?, ?, ?, 'authorized', NULL)
        ON CONFLICT (otp_hash) DO UPDATE SET
            symptoms_started_on = excluded.symptoms_started_on, authorized_at_ms = excluded.authorized_at_ms,
            expires_at_ms = excluded.expires_at_ms, authorized_by = excluded.authorized_by,
            state = 'authorized', consumed_at_ms = NULL
        """
    static let insertEvent = "INSERT INTO events (at_ms, kind, otp_hash, actor, detail) VALUES (?, ?, ?, ?, ?)"
    static let eventsAfter =
        "SELECT id, at_ms, kind, otp_hash, actor, detail FROM events WHERE id > ? ORDER BY id LIMIT ?"
    static let latestEventID = "SELECT coalesce(max(id), 0) FROM events"
}
