import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The store for many servers: one PostgreSQL database (or anything speaking its protocol)
/// shared by any number of `tracedesk serve` processes.
///
/// Every public method is one transaction on a pooled connection. One-time guarantees rest on
/// row locks and conditional writes, so they hold across processes: of any number of
/// concurrent uploads with one code, exactly one consumes it. Chunk publishing is serialised
/// by a transaction-level advisory lock, and the scheduled jobs by session-level ones
/// (``acquireJobLock(_:)``). Migrations run under an advisory lock, so servers starting
/// together do not race. Advisory locks are keyed by the schema, so stores in two schemas of
/// one database (the tests) do not block each other. The operations are ``SQLStore``'s, written
/// once for both engines; this class is the PostgreSQL engine (PostgresStore+Engine.swift) and
/// keeps its fast paths as overrides (below).
///
/// Threading rule: safe from any thread; libpq calls block the calling thread.
/// Privacy rule: codes arrive as hashes; errors never include bound values or the password.
public final class PostgresStore: Store, @unchecked Sendable {
    let pool: PGPool
    let target: PGTarget
    /// How many pseudo-ids may exist: ``PseudoID/capacity``; lower only in tests of a full space.
    let pseudoIDLimit: Int64
    /// The last migration to apply: ``Migrations/latestVersion`` but in tests that write rows
    /// as an older version left them.
    let schemaCeiling: Int

    /// Whether `text` names a PostgreSQL store (`postgres://` or `postgresql://`).
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// `text` with any password replaced by `***` (URL userinfo, or `password=` anywhere), for
    /// showing settings.
    public static func redacted(_ text: String) -> String {
        var out = text
        if isURL(out), let scheme = out.firstRange(of: "://") {
            let authorityEnd = out[scheme.upperBound...].firstIndex(of: "/") ?? out.endIndex
            if let at = out[scheme.upperBound..<authorityEnd].lastIndex(of: "@"),
                let colon = out[scheme.upperBound..<at].firstIndex(of: ":")
            {
                out.replaceSubrange(out.index(after: colon)..<at, with: "***")
            }
        }
        var searchFrom = out.startIndex
        while let found = out[searchFrom...].firstRange(of: "password=") {
            let end = out[found.upperBound...].firstIndex(where: { $0 == "&" || $0 == " " }) ?? out.endIndex
            out.replaceSubrange(found.upperBound..<end, with: "***")
            searchFrom = out.index(found.upperBound, offsetBy: 3)
        }
        return out
    }

    /// Connects to `url`, checks that the schema is a TraceDesk store (or empty), and applies
    /// pending migrations.
    ///
    /// - Parameters:
    ///   - poolSize: connections kept open at most.
    ///   - waitMilliseconds: how long a caller waits for a free connection or a lock.
    public convenience init(
        url: String, poolSize: Int = 8, connectTimeoutSeconds: Int = 5, waitMilliseconds: Int = 5_000
    ) throws(StoreError) {
        try self.init(
            url: url, poolSize: poolSize, connectTimeoutSeconds: connectTimeoutSeconds,
            waitMilliseconds: waitMilliseconds, pseudoIDLimit: PseudoID.capacity)
    }

    /// As ``init(url:poolSize:connectTimeoutSeconds:waitMilliseconds:)``, with the pseudo-id
    /// space cut to `pseudoIDLimit` (tests of registration refused when full).
    init(
        url: String, poolSize: Int, connectTimeoutSeconds: Int, waitMilliseconds: Int, pseudoIDLimit: Int64,
        schemaCeiling: Int = Migrations.latestVersion
    ) throws(StoreError) {
        self.pseudoIDLimit = pseudoIDLimit
        self.schemaCeiling = schemaCeiling
        target = try PGTarget(url)
        pool = PGPool(
            target: target, size: poolSize, connectTimeoutSeconds: connectTimeoutSeconds,
            waitMilliseconds: waitMilliseconds)
        let first = try PGConnection(
            target: target, connectTimeoutSeconds: connectTimeoutSeconds, lockTimeoutMilliseconds: waitMilliseconds)
        try prepareSchema(first)
        pool.adopt(first)
    }

    public var location: String { target.description }

    public func schemaVersion() throws(StoreError) -> Int {
        try pool.withConnection { connection throws(StoreError) in try Self.currentVersion(connection) }
    }

    // MARK: Fast paths: one statement where the defaults (SQLStore+Phone.swift) take several

    public func authorize(
        otpHash: OtpHash, symptomsStartedOn: CivilDay, by actor: String, now: Date, lifetime: Duration
    ) throws(StoreError) -> AuthorizeOutcome {
        let nowMs = now.unixMilliseconds
        let lifetimeMs = lifetime.components.seconds * 1000 + lifetime.components.attoseconds / 1_000_000_000_000_000
        let record = OtpAuthorization(
            otpHash: otpHash, symptomsStartedOn: symptomsStartedOn, authorizedAt: Date(unixMilliseconds: nowMs),
            expiresAt: Date(unixMilliseconds: nowMs + max(1, lifetimeMs)), authorizedBy: actor)
        return try pool.withConnection { connection throws(StoreError) in
            try connection.transaction(begin: PGSQL.beginReadCommitted, operation: "authorize") {
                () throws(StoreError) -> AuthorizeOutcome in
                // One statement decides: it writes unless a usable authorisation is there, so two
                // servers authorising one code at once cannot both think they made it.
                let written = try connection.query(
                    PGSQL.authorize,
                    [
                        .text(otpHash.stored.hex), .text(symptomsStartedOn.iso), .integer(nowMs),
                        .integer(record.expiresAt.unixMilliseconds), .text(actor), .integer(nowMs),
                    ], operation: "authorize"
                ) { $0.integer(0) }
                guard !written.isEmpty else {
                    guard let existing = try fetchAuthorization(connection, otpHash) else {
                        throw StoreError.failed(operation: "authorize", reason: "the authorisation vanished")
                    }
                    return .alreadyAuthorized(existing)
                }
                try phoneWork(on: connection).appendEvent(
                    kind: .otpAuthorized, at: nowMs, otpHash: otpHash, actor: actor,
                    detail: record.storedDetail)
                // Then the log's lock, and its entry. Waiting for it holds only this code's row,
                // which no holder of the log's lock waits for.
                try staffWork(on: connection).auditAuthorization(record)
                return .authorized(record)
            }
        }
    }

    public func latestEventID() throws(StoreError) -> Int64 {
        try pool.withConnection { connection throws(StoreError) in
            // One indexed query when every committed event has its position (most polls).
            let (latest, pending) =
                try connection.query(PGSQL.latestAndPending, operation: "read events") {
                    ($0.integer(0), $0.integer(1))
                }.first ?? (0, 0)
            guard pending > 0 else { return latest }
            try Self.assignPositions(connection, pending: true)
            return try eventWork(on: connection).latest()
        }
    }

    public func consumeForUpload(
        otpHash: OtpHash, now: Date, evaluate: (OtpAuthorization) -> UploadRecord
    ) throws(StoreError) -> UploadOutcome {
        let nowMs = now.unixMilliseconds
        // The code's stored form, made once and before the transaction (a SHA-256 each time).
        let stored = SQLValue.text(otpHash.stored.hex)
        return try pool.withConnection { connection throws(StoreError) in
            try connection.transaction(operation: "store upload") { () throws(StoreError) -> UploadOutcome in
                // The conditional update takes the row lock: a concurrent upload with the same
                // code (on any server) waits here, then finds the code consumed and changes nothing.
                let consumed = try connection.query(
                    PGSQL.consumeReturning, [.integer(nowMs), stored, .integer(nowMs)],
                    operation: "consume code"
                ) { row -> OtpAuthorization? in
                    guard let day = CivilDay(iso: row.text(0)) else { return nil }
                    return OtpAuthorization(
                        otpHash: otpHash, symptomsStartedOn: day, authorizedAt: Date(unixMilliseconds: row.integer(1)),
                        expiresAt: Date(unixMilliseconds: row.integer(2)), authorizedBy: row.text(3))
                }
                guard let record = consumed.first ?? nil else {
                    let status = OtpStatus(try fetchAuthorization(connection, otpHash), now: now)
                    try phoneWork(on: connection).refuseUpload(otpHash: otpHash, status: status, at: nowMs)
                    return .refused(status)
                }
                let upload = evaluate(record)
                let evaluation = upload.evaluation
                let drops = KeyDropCounts(evaluation)
                let detail = DeskEvent.Detail.UploadAccepted(
                    uploadID: nil, keysAccepted: evaluation.accepted.count, keysDropped: evaluation.dropped.count,
                    dropped: drops.counts,
                    province: upload.province?.code, clockSkewSeconds: evaluation.clockSkewSeconds,
                    clockSkewFlagged: evaluation.clockSkewFlagged, summaries: upload.summaryCount
                ).jsonAroundUploadID
                var values: [SQLValue] = [
                    stored, .integer(nowMs), .text(upload.symptomsStartedOn.iso),
                    upload.province.map { .text($0.code) } ?? .null, .integer(upload.clientClock),
                    .integer(evaluation.clockSkewSeconds), .integer(Int64(evaluation.accepted.count)),
                    .integer(Int64(evaluation.dropped.count)), .text(drops.json),
                    .integer(Int64(upload.summaryCount)), .text(upload.summariesJSON),
                    .text(detail.before), .text(detail.after),
                    .text(DeskEvent.Kind.uploadAccepted.rawValue),
                ]
                values.reserveCapacity(values.count + evaluation.accepted.count * 7)
                for accepted in evaluation.accepted {
                    values += [
                        .blob(accepted.key.keyData), .integer(accepted.key.rollingStartNumber),
                        .integer(accepted.key.rollingPeriod), .integer(Int64(accepted.transmissionRiskLevel)),
                        .integer(Int64(accepted.reportType.rawValue)),
                        .integer(Int64(accepted.daysSinceOnsetOfSymptoms)), .integer(accepted.key.expiresAtSeconds),
                    ]
                }
                // The upload, its keys and its event in one statement: one round trip.
                let uploadID =
                    try connection.query(
                        PGSQL.storeUpload(keys: evaluation.accepted.count), values, operation: "store upload"
                    ) { $0.integer(0) }.first ?? 0
                return .stored(uploadID: uploadID, upload)
            }
        }
    }

    // MARK: Job locks

    public func acquireJobLock(_ job: StoreJob) throws(StoreError) -> JobLease? {
        // A session-level lock on a connection of its own, held for the whole run: if this
        // process dies, the database ends the session and the lock goes with it.
        let connection = try pool.dedicated()
        let taken =
            try connection.query(
                "SELECT pg_try_advisory_lock(\(PGSQL.lockClass), \(PGSQL.jobLockBase + job.rawValue))",
                operation: "take the \(job.name) lock"
            ) { $0.integer(0) }.first == 1
        guard taken else { return nil }
        return JobLease {
            // Closing the session releases the lock, even if the unlock cannot be sent.
            _ = try? connection.execute(
                "SELECT pg_advisory_unlock(\(PGSQL.lockClass), \(PGSQL.jobLockBase + job.rawValue))",
                operation: "release the \(job.name) lock")
            withExtendedLifetime(connection) {}
        }
    }

    // MARK: Internals

    func fetchAuthorization(_ connection: PGConnection, _ otpHash: OtpHash) throws(StoreError) -> OtpAuthorization? {
        try StoreReads(db: connection, sql: .postgres).authorization(otpHash)
    }

    static func currentVersion(_ connection: PGConnection) throws(StoreError) -> Int {
        let exists =
            try connection.query(PGSQL.migrationsTableExists, operation: "read schema version") { $0.integer(0) }
            .first ?? 0
        guard exists == 1 else { return 0 }
        return Int(
            try connection.query(PGSQL.maxMigration, operation: "read schema version") { $0.integer(0) }.first ?? 0)
    }

    /// Checks the schema is ours (or empty) and applies pending migrations, holding the
    /// migration lock so that servers starting together apply each migration once.
    private func prepareSchema(_ connection: PGConnection) throws(StoreError) {
        let schema =
            try connection.query("SELECT current_schema()::text IS NOT NULL", operation: "find the schema") {
                $0.integer(0)
            }.first ?? 0
        guard schema == 1 else {
            throw StoreError.cannotOpen(
                path: target.description,
                reason:
                    "no schema to create the tables in (the search_path names none that exists): create it, or fix options=-csearch_path in the URL"
            )
        }
        try connection.execute("SELECT pg_advisory_lock(\(PGSQL.lockClass), 0)", operation: "take the migration lock")
        defer {
            _ = try? connection.execute(
                "SELECT pg_advisory_unlock(\(PGSQL.lockClass), 0)", operation: "release the migration lock")
        }
        let found = try Self.currentVersion(connection)
        if found == 0 {
            let tables =
                try connection.query(PGSQL.countTables, operation: "identify the schema") { $0.integer(0) }.first ?? 0
            if tables > 0 {
                throw StoreError.cannotOpen(
                    path: target.description,
                    reason:
                        "its schema has tables but is not a TraceDesk store: give a database or schema of its own (options=-csearch_path=NAME)"
                )
            }
        }
        if found > Migrations.latestVersion {
            throw StoreError.schemaTooNew(path: target.description, found: found, known: Migrations.latestVersion)
        }
        guard found < schemaCeiling else { return }
        for migration in Migrations.all(for: .postgres)
        where migration.version > found && migration.version <= schemaCeiling {
            try connection.transaction(operation: "migration \(migration.name)") { () throws(StoreError) in
                if migration.version == 1 {
                    try connection.execute(PGSQL.createMigrationsTable, operation: "create schema_migrations")
                }
                try connection.execute(migration.sql, operation: "migration \(migration.name)")
                try connection.run(
                    PGSQL.recordMigration,
                    [.integer(Int64(migration.version)), .text(migration.name), .integer(Date().unixMilliseconds)],
                    operation: "migration \(migration.name)")
            }
        }
    }
}
