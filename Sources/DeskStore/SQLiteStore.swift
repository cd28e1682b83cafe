import CivilCalendar
import DeskCore

#if canImport(Glibc)
    import Glibc
#endif
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
/// migrations. The operations are ``SQLStore``'s, written once for both engines; this class is
/// the SQLite engine (SQLiteStore+Engine.swift): the lock, `BEGIN IMMEDIATE`, the busy timeout.
///
/// Threading rule: safe from any thread; one connection, serialised by a lock.
/// Privacy rule: codes arrive as hashes; errors never include bound values.
public final class SQLiteStore: Store, @unchecked Sendable {
    public let path: String
    let connection: SQLiteConnection
    let lock = SimpleLock()
    /// Authorisations and uploads waiting for the write lock together commit together.
    let group = GroupCommit()
    /// Jobs running in this process (a job lock on SQLite is per process: two servers on one
    /// file are still safe, because each chunk is published in one write transaction).
    let jobs = SimpleLock()
    var jobsRunning = Set<StoreJob>()

    /// How many pseudo-ids may exist: ``PseudoID/capacity``; lower only in tests of a full space.
    let pseudoIDLimit: Int64
    /// The last migration to apply: ``Migrations/latestVersion`` but in tests that write rows
    /// as an older version left them.
    let schemaCeiling: Int

    /// Opens (creating if needed) the store at `path`.
    ///
    /// - Parameter busyTimeoutMilliseconds: how long to wait for another process's write lock.
    public convenience init(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws(StoreError) {
        try self.init(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, pseudoIDLimit: PseudoID.capacity)
    }

    /// As ``init(path:busyTimeoutMilliseconds:)``, with the pseudo-id space cut to `pseudoIDLimit`
    /// (tests of registration refused when full).
    init(
        path: String, busyTimeoutMilliseconds: Int32, pseudoIDLimit: Int64,
        schemaCeiling: Int = Migrations.latestVersion
    ) throws(StoreError) {
        self.path = path
        self.pseudoIDLimit = pseudoIDLimit
        self.schemaCeiling = schemaCeiling
        connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        // Several processes opening a new file at once can meet SQLite's immediate SQLITE_BUSY
        // (a read lock that would have to become a write lock, a journal-mode switch), which the
        // busy handler does not wait out. Every step here is idempotent, so wait and start over,
        // within the same busy timeout.
        let deadline = Date().addingTimeInterval(Double(busyTimeoutMilliseconds) / 1000)
        while true {
            do {
                try checkIdentity()
                try connection.execute("PRAGMA journal_mode = WAL", operation: "enable WAL")
                try connection.execute(SQL.connectionPragmas, operation: "configure")
                try migrate()
                return
            } catch .locked where Date() < deadline {
                usleep(20_000)
            }
        }
    }

    /// The schema version the file is at.
    public func schemaVersion() throws(StoreError) -> Int {
        try lock.withLock { () throws(StoreError) -> Int in try currentVersion() }
    }

    func currentVersion() throws(StoreError) -> Int {
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
        if found >= schemaCeiling { return }
        for migration in Migrations.all(for: .sqlite) where migration.version <= schemaCeiling {
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
                try migration.sqliteStep?(connection)
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
    /// Every connection's settings after WAL (the write-path benchmark's raw connections too).
    static let connectionPragmas = "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -16384"
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
            state = 'authorized', consumed_at_ms = NULL, checked_at_ms = NULL, check_count = 0,
            last_checked_at_ms = NULL, check_event_at_ms = NULL
        """
    /// Counts a check on the authorisation (`check_count`, `last_checked_at_ms`) and marks the
    /// first one that answered "authorised" since the latest authorisation (`checked_at_ms`,
    /// the statistics' "checked"; the second parameter is 1 when it did).
    static let markChecked = """
        UPDATE otp_authorizations SET check_count = check_count + 1, last_checked_at_ms = ?,
            checked_at_ms = CASE WHEN checked_at_ms IS NULL AND ? = 1 THEN ? ELSE checked_at_ms END
        WHERE otp_hash = ?
        """
    /// Claims the right to write this check's `otp_checked` event: one row changed when the
    /// last one is older than the interval (a conditional update, so that checks racing on
    /// several servers claim it once).
    static let claimCheckEvent = """
        UPDATE otp_authorizations SET check_event_at_ms = ?
        WHERE otp_hash = ? AND (check_event_at_ms IS NULL OR check_event_at_ms <= ?)
        """
    static let insertEvent = "INSERT INTO events (at_ms, kind, otp_hash, actor, detail) VALUES (?, ?, ?, ?, ?)"

    static let consumeAuthorization = """
        UPDATE otp_authorizations SET state = 'consumed', consumed_at_ms = ?
        WHERE otp_hash = ? AND state = 'authorized' AND expires_at_ms > ?
        """
    static let insertUpload = """
        INSERT INTO uploads (otp_hash, received_at_ms, symptoms_started_on, province, client_clock_s, clock_skew_s,
            keys_accepted, keys_dropped, dropped_reasons, summary_count, summaries)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
        """
    static let insertKey = """
        INSERT INTO exposure_keys (upload_id, key_data, rolling_start_number, rolling_period, transmission_risk_level,
            report_type, days_since_onset, expires_at_s)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let selectUpload = """
        SELECT otp_hash, received_at_ms, symptoms_started_on, province, client_clock_s, clock_skew_s, keys_dropped,
            dropped_reasons, summary_count
        FROM uploads WHERE id = ?
        """
    static let selectKeys = """
        SELECT key_data, rolling_start_number, rolling_period, transmission_risk_level, report_type, days_since_onset
        FROM exposure_keys WHERE upload_id = ? ORDER BY id
        """
    /// The chunks that published an upload's keys (ChunkSQL: a key's mark, or its sweep's range).
    static let selectUploadChunks = """
        SELECT DISTINCT chunk FROM (
            SELECT \(ChunkSQL.chunkOf("k")) AS chunk FROM exposure_keys k
            WHERE k.upload_id = ? AND \(ChunkSQL.isPublished("k", sweptTo: ChunkSQL.sweptTo))) c
        WHERE chunk IS NOT NULL ORDER BY chunk
        """
    static let countDummy = """
        INSERT INTO dummy_traffic (hour_ms, route, requests) VALUES (?, ?, 1)
        ON CONFLICT (hour_ms, route) DO UPDATE SET requests = requests + 1
        """
    static let dummyCounts = "SELECT route, sum(requests) FROM dummy_traffic WHERE hour_ms >= ? GROUP BY route"
    static let allowanceExists =
        "SELECT count(*) FROM analytics_allowances WHERE token_hash = ? AND month = ? AND expires_at_ms > ?"
    static let grantAllowance = """
        INSERT INTO analytics_allowances (token_hash, month, with_exposure, expires_at_ms) VALUES (?, ?, ?, ?)
        ON CONFLICT (token_hash, month, with_exposure) DO NOTHING
        """
    static let useAllowance = """
        DELETE FROM analytics_allowances
        WHERE token_hash = ? AND month = ? AND with_exposure = ? AND expires_at_ms > ?
        """
    static let insertOperationalInfo = """
        INSERT INTO operational_info (received_at_ms, platform, province, build, exposure_permission, bluetooth_active,
            notification_permission, exposure_notification, last_risky_exposure_on)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let dropExpiredSalts = "DELETE FROM attestation_salts WHERE expires_at_ms <= ?"
    static let saltUsed = "SELECT count(*) FROM attestation_salts WHERE salt = ? AND expires_at_ms > ?"
    static let claimSalt =
        "INSERT INTO attestation_salts (salt, expires_at_ms) VALUES (?, ?) ON CONFLICT (salt) DO NOTHING"
}
