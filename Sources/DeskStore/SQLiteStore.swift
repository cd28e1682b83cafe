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
/// migrations.
///
/// Threading rule: safe from any thread; one connection, serialised by a lock.
/// Privacy rule: codes arrive as hashes; errors never include bound values.
public final class SQLiteStore: Store, @unchecked Sendable {
    public let path: String
    let connection: SQLiteConnection
    let lock = SimpleLock()
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
                try connection.execute(
                    "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA cache_size = -16384",
                    operation: "configure")
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

    // MARK: Store

    public func authorize(
        otpHash: OtpHash, symptomsStartedOn: CivilDay, by actor: String, now: Date, lifetime: Duration
    ) throws(StoreError) -> AuthorizeOutcome {
        let nowMs = now.unixMilliseconds
        let lifetimeMs = lifetime.components.seconds * 1000 + lifetime.components.attoseconds / 1_000_000_000_000_000
        // The code's stored form, made once and outside the write lock (a SHA-256 each time).
        let stored = otpHash.stored
        return try lock.withLock { () throws(StoreError) -> AuthorizeOutcome in
            try connection.transaction(operation: "authorize") { () throws(StoreError) -> AuthorizeOutcome in
                if let existing = try StoreReads(db: connection, sql: .sqlite).authorization(
                    storedKey: stored, naming: otpHash),
                    existing.isUsable(at: now)
                {
                    return .alreadyAuthorized(existing)
                }
                // Instants are kept as whole milliseconds: return exactly what a later read gives.
                let record = OtpAuthorization(
                    otpHash: otpHash, symptomsStartedOn: symptomsStartedOn, authorizedAt: Date(unixMilliseconds: nowMs),
                    expiresAt: Date(unixMilliseconds: nowMs + max(1, lifetimeMs)), authorizedBy: actor)
                try connection.run(
                    SQL.upsertAuthorization,
                    [
                        .text(stored.hex), .text(symptomsStartedOn.iso), .integer(nowMs),
                        .integer(record.expiresAt.unixMilliseconds), .text(actor),
                    ], operation: "authorize")
                try work.appendEvent(
                    kind: .otpAuthorized, at: nowMs, storedKey: stored, actor: actor,
                    detail: record.storedDetail)
                try staffWork.auditAuthorization(record)
                return .authorized(record)
            }
        }
    }

    public func authorization(for otpHash: OtpHash) throws(StoreError) -> OtpAuthorization? {
        try lock.withLock { () throws(StoreError) -> OtpAuthorization? in try fetchAuthorization(otpHash) }
    }

    public func events(after afterID: Int64, limit: Int) throws(StoreError) -> [DeskEvent] {
        try lock.withLock { () throws(StoreError) -> [DeskEvent] in try eventWork.events(after: afterID, limit: limit) }
    }

    public func latestEventID() throws(StoreError) -> Int64 {
        try lock.withLock { () throws(StoreError) -> Int64 in try eventWork.latest() }
    }

    // MARK: The phone API

    public func recordCheck(otpHash: OtpHash, now: Date) throws(StoreError) -> OtpStatus {
        try lock.withLock { () throws(StoreError) -> OtpStatus in
            try connection.transaction(operation: "record check") { () throws(StoreError) -> OtpStatus in
                try work.recordCheck(otpHash: otpHash, now: now)
            }
        }
    }

    public func consumeForUpload(
        otpHash: OtpHash, now: Date, evaluate: (OtpAuthorization) -> UploadRecord
    ) throws(StoreError) -> UploadOutcome {
        let nowMs = now.unixMilliseconds
        // The code's stored form, made once and outside the write lock (a SHA-256 each time).
        let stored = otpHash.stored
        return try lock.withLock { () throws(StoreError) -> UploadOutcome in
            try connection.transaction(operation: "store upload") { () throws(StoreError) -> UploadOutcome in
                let record = try StoreReads(db: connection, sql: .sqlite).authorization(
                    storedKey: stored, naming: otpHash)
                guard let record, record.isUsable(at: now) else {
                    let status = OtpStatus(record, now: now)
                    try work.refuseUpload(otpHash: otpHash, status: status, at: nowMs)
                    return .refused(status)
                }
                // Consume first, conditionally: the one-time guarantee does not rest on the read above.
                let changed = try connection.run(
                    SQL.consumeAuthorization, [.integer(nowMs), .text(stored.hex), .integer(nowMs)],
                    operation: "consume code")
                guard changed == 1 else { return .refused(OtpStatus(try fetchAuthorization(otpHash), now: now)) }
                let upload = evaluate(record)
                let evaluation = upload.evaluation
                let reasons = evaluation.droppedCounts.map { #""\#($0.reason.rawValue)":\#($0.count)"# }
                    .joined(separator: ",")
                try connection.run(
                    SQL.insertUpload,
                    [
                        .text(stored.hex), .integer(nowMs), .text(upload.symptomsStartedOn.iso),
                        upload.province.map { .text($0.code) } ?? .null, .integer(upload.clientClock),
                        .integer(evaluation.clockSkewSeconds), .integer(Int64(evaluation.accepted.count)),
                        .integer(Int64(evaluation.dropped.count)), .text("{\(reasons)}"),
                        .integer(Int64(upload.summaryCount)), .text(upload.summariesJSON),
                    ], operation: "store upload")
                let uploadID = connection.lastInsertRowID
                for accepted in evaluation.accepted {
                    try connection.run(
                        SQL.insertKey,
                        [
                            .integer(uploadID), .blob(accepted.key.keyData), .integer(accepted.key.rollingStartNumber),
                            .integer(accepted.key.rollingPeriod), .integer(Int64(accepted.transmissionRiskLevel)),
                            .integer(Int64(accepted.reportType.rawValue)),
                            .integer(Int64(accepted.daysSinceOnsetOfSymptoms)),
                            .integer(accepted.key.expiresAtSeconds),
                        ], operation: "store keys")
                }
                try work.appendEvent(
                    kind: .uploadAccepted, at: nowMs, storedKey: stored, actor: nil,
                    detail: DeskEvent.Detail.UploadAccepted(
                        uploadID: uploadID, keysAccepted: evaluation.accepted.count,
                        keysDropped: evaluation.dropped.count,
                        dropped: evaluation.droppedCounts.map { .init($0.reason.rawValue, $0.count) },
                        province: upload.province?.code, clockSkewSeconds: evaluation.clockSkewSeconds,
                        clockSkewFlagged: evaluation.clockSkewFlagged, summaries: upload.summaryCount
                    ).json)
                return .stored(uploadID: uploadID, upload)
            }
        }
    }

    public func countDummy(route: String, now: Date) throws(StoreError) {
        try lock.withLock { () throws(StoreError) in try work.countDummy(route: route, now: now) }
    }

    public func recordGuessesLimited(route: String, retryAfterSeconds: Int, now: Date) throws(StoreError) {
        try lock.withLock { () throws(StoreError) in
            try work.appendEvent(
                kind: .otpGuessesLimited, at: now.unixMilliseconds, otpHash: nil, actor: nil,
                detail: PhoneWork<SQLiteConnection>.guessesLimitedDetail(
                    route: route, retryAfterSeconds: retryAfterSeconds))
        }
    }

    public func dummyCounts(since: Date) throws(StoreError) -> [String: Int64] {
        try lock.withLock { () throws(StoreError) -> [String: Int64] in try work.dummyCounts(since: since) }
    }

    // MARK: Analytics

    public func analyticsTokenAuthorized(tokenHash: String, month: CivilDay) throws(StoreError) -> Bool {
        try lock.withLock { () throws(StoreError) -> Bool in
            try work.analyticsTokenAuthorized(tokenHash: tokenHash, month: month)
        }
    }

    public func grantAnalyticsAllowances(_ allowances: [AnalyticsAllowance], expiresAt: Date) throws(StoreError) {
        try lock.withLock { () throws(StoreError) in
            try connection.transaction(operation: "grant analytics allowances") { () throws(StoreError) in
                try work.grantAnalyticsAllowances(allowances, expiresAt: expiresAt)
            }
        }
    }

    public func recordOperationalInfo(
        _ info: OperationalInfo, allowance: AnalyticsAllowance?, now: Date
    ) throws(StoreError) -> Bool {
        try lock.withLock { () throws(StoreError) -> Bool in
            try connection.transaction(operation: "store operational info") { () throws(StoreError) -> Bool in
                try work.recordOperationalInfo(info, allowance: allowance, now: now)
            }
        }
    }

    public func recordOperationalInfo(
        _ info: OperationalInfo, salt: String, now: Date, saltExpiresAt: Date
    ) throws(StoreError) -> Bool {
        try lock.withLock { () throws(StoreError) -> Bool in
            try connection.transaction(operation: "store operational info") { () throws(StoreError) -> Bool in
                try work.recordOperationalInfo(info, salt: salt, now: now, saltExpiresAt: saltExpiresAt)
            }
        }
    }

    public func attestationSaltUsed(_ salt: String, now: Date) throws(StoreError) -> Bool {
        try lock.withLock { () throws(StoreError) -> Bool in try work.attestationSaltUsed(salt, now: now) }
    }

    public func upload(id: Int64) throws(StoreError) -> StoredUpload? {
        try lock.withLock { () throws(StoreError) -> StoredUpload? in
            try connection.transaction(immediate: false, operation: "read upload") {
                () throws(StoreError) -> StoredUpload? in
                try StoreReads(db: connection, sql: .sqlite).upload(id: id)
            }
        }
    }

    // MARK: Internals (called with the lock held)

    private func fetchAuthorization(_ otpHash: OtpHash) throws(StoreError) -> OtpAuthorization? {
        try StoreReads(db: connection, sql: .sqlite).authorization(otpHash)
    }

    func appendEvent(
        kind: DeskEvent.Kind, at ms: Int64, otpHash: OtpHash?, actor: String?, detail: String
    ) throws(StoreError) {
        try work.appendEvent(kind: kind, at: ms, otpHash: otpHash, actor: actor, detail: detail)
    }

    /// The shared writes, on this store's connection (call with the lock held).
    var work: PhoneWork<SQLiteConnection> { PhoneWork(db: connection, sql: .sqlite, reads: .sqlite) }

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
        for migration in Migrations.all where migration.version <= schemaCeiling {
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
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
    static let selectUploadChunks = """
        SELECT DISTINCT chunk_index FROM exposure_keys WHERE upload_id = ? AND chunk_index IS NOT NULL
        ORDER BY chunk_index
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
