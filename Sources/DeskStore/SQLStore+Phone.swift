import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Authorisations and the phone API, once for both engines. `authorize`, `consumeForUpload` and
// `latestEventID` here are the defaults (its write lock makes a read and then a write one
// decision); SQLite runs the same work in grouped commits (SQLiteStore+PhoneWrites.swift), and
// PostgreSQL overrides them with its fast paths (PostgresStore.swift):
// one statement that decides, the upload with its keys and event in one round trip, one
// indexed read for the poll.
extension SQLStore {
    public func authorize(
        otpHash: OtpHash, symptomsStartedOn: CivilDay, by actor: String, now: Date, lifetime: Duration
    ) throws(StoreError) -> AuthorizeOutcome {
        let lifetimeMs = lifetime.components.seconds * 1000 + lifetime.components.attoseconds / 1_000_000_000_000_000
        // The code's stored form, made once and outside the write lock (a SHA-256 each time).
        let stored = otpHash.stored
        return try inTransaction(.write, "authorize") { db throws(StoreError) in
            try authorizeWork(
                db, otpHash: otpHash, stored: stored, symptomsStartedOn: symptomsStartedOn, by: actor, now: now,
                lifetimeMs: lifetimeMs)
        }
    }

    /// The authorisation's transaction body, on `db` inside a write transaction (SQLite's group
    /// commit runs it inside a savepoint of a shared one). `stored` is `otpHash.stored`.
    func authorizeWork(
        _ db: DB, otpHash: OtpHash, stored: OtpHash, symptomsStartedOn: CivilDay, by actor: String, now: Date,
        lifetimeMs: Int64
    ) throws(StoreError) -> AuthorizeOutcome {
        let nowMs = now.unixMilliseconds
        if let existing = try StoreReads(db: db, sql: dialect.reads).authorization(
            storedKey: stored, naming: otpHash),
            existing.isUsable(at: now)
        {
            return .alreadyAuthorized(existing)
        }
        // Instants are kept as whole milliseconds: return exactly what a later read gives.
        let record = OtpAuthorization(
            otpHash: otpHash, symptomsStartedOn: symptomsStartedOn, authorizedAt: Date(unixMilliseconds: nowMs),
            expiresAt: Date(unixMilliseconds: nowMs + max(1, lifetimeMs)), authorizedBy: actor)
        try db.run(
            dialect.text(SQL.upsertAuthorization),
            [
                .text(stored.hex), .text(symptomsStartedOn.iso), .integer(nowMs),
                .integer(record.expiresAt.unixMilliseconds), .text(actor),
            ], operation: "authorize")
        try phoneWork(on: db).appendEvent(
            kind: .otpAuthorized, at: nowMs, storedKey: stored, actor: actor,
            detail: record.storedDetail)
        try staffWork(on: db).auditAuthorization(record)
        return .authorized(record)
    }

    public func authorization(for otpHash: OtpHash) throws(StoreError) -> OtpAuthorization? {
        try read { db throws(StoreError) in try StoreReads(db: db, sql: dialect.reads).authorization(otpHash) }
    }

    public func latestEventID() throws(StoreError) -> Int64 {
        try read { db throws(StoreError) in
            try positionEvents(db)
            return try eventWork(on: db).latest()
        }
    }

    // MARK: The phone API

    public func recordCheck(otpHash: OtpHash, now: Date) throws(StoreError) -> OtpStatus {
        try inTransaction(.write, "record check") { db throws(StoreError) in
            try phoneWork(on: db).recordCheck(otpHash: otpHash, now: now)
        }
    }

    public func consumeForUpload(
        otpHash: OtpHash, now: Date, evaluate: (OtpAuthorization) -> UploadRecord
    ) throws(StoreError) -> UploadOutcome {
        // The code's stored form, made once and outside the write lock (a SHA-256 each time).
        let stored = otpHash.stored
        return try inTransaction(.write, "store upload") { db throws(StoreError) in
            try consumeWork(db, otpHash: otpHash, stored: stored, now: now, evaluate: evaluate)
        }
    }

    /// The upload's transaction body, on `db` inside a write transaction (SQLite's group commit
    /// runs it inside a savepoint of a shared one). `stored` is `otpHash.stored`.
    func consumeWork(
        _ db: DB, otpHash: OtpHash, stored: OtpHash, now: Date, evaluate: (OtpAuthorization) -> UploadRecord
    ) throws(StoreError) -> UploadOutcome {
        let nowMs = now.unixMilliseconds
        let work = phoneWork(on: db)
        let record = try StoreReads(db: db, sql: dialect.reads).authorization(
            storedKey: stored, naming: otpHash)
        guard let record, record.isUsable(at: now) else {
            let status = OtpStatus(record, now: now)
            try work.refuseUpload(otpHash: otpHash, status: status, at: nowMs)
            return .refused(status)
        }
        // Consume first, conditionally: the one-time guarantee does not rest on the read above.
        let changed = try db.run(
            dialect.text(SQL.consumeAuthorization), [.integer(nowMs), .text(stored.hex), .integer(nowMs)],
            operation: "consume code")
        guard changed == 1 else {
            return .refused(OtpStatus(try StoreReads(db: db, sql: dialect.reads).authorization(otpHash), now: now))
        }
        let upload = evaluate(record)
        let evaluation = upload.evaluation
        let drops = KeyDropCounts(evaluation)
        let uploadID =
            try db.query(
                dialect.text(SQL.insertUpload),
                [
                    .text(stored.hex), .integer(nowMs), .text(upload.symptomsStartedOn.iso),
                    upload.province.map { .text($0.code) } ?? .null, .integer(upload.clientClock),
                    .integer(evaluation.clockSkewSeconds), .integer(Int64(evaluation.accepted.count)),
                    .integer(Int64(evaluation.dropped.count)), .text(drops.json),
                    .integer(Int64(upload.summaryCount)), .text(upload.summariesJSON),
                ], operation: "store upload"
            ) { $0.integer(0) }.first ?? 0
        for accepted in evaluation.accepted {
            try db.run(
                dialect.text(SQL.insertKey),
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
                uploadID: uploadID, keysAccepted: evaluation.accepted.count, keysDropped: evaluation.dropped.count,
                dropped: drops.counts,
                province: upload.province?.code, clockSkewSeconds: evaluation.clockSkewSeconds,
                clockSkewFlagged: evaluation.clockSkewFlagged, summaries: upload.summaryCount
            ).json)
        return .stored(uploadID: uploadID, upload)
    }

    public func countDummy(route: String, now: Date) throws(StoreError) {
        try read { db throws(StoreError) in try phoneWork(on: db).countDummy(route: route, now: now) }
    }

    public func recordGuessesLimited(route: String, retryAfterSeconds: Int, now: Date) throws(StoreError) {
        try read { db throws(StoreError) in
            try phoneWork(on: db).appendEvent(
                kind: .otpGuessesLimited, at: now.unixMilliseconds, otpHash: nil, actor: nil,
                detail: PhoneWork<DB>.guessesLimitedDetail(
                    route: route, retryAfterSeconds: retryAfterSeconds))
        }
    }

    public func dummyCounts(since: Date) throws(StoreError) -> [String: Int64] {
        try read { db throws(StoreError) in try phoneWork(on: db).dummyCounts(since: since) }
    }

    // MARK: Analytics

    public func analyticsTokenAuthorized(tokenHash: String, month: CivilDay) throws(StoreError) -> Bool {
        try read { db throws(StoreError) in
            try phoneWork(on: db).analyticsTokenAuthorized(tokenHash: tokenHash, month: month)
        }
    }

    public func grantAnalyticsAllowances(_ allowances: [AnalyticsAllowance], expiresAt: Date) throws(StoreError) {
        try inTransaction(.write, "grant analytics allowances") { db throws(StoreError) in
            try phoneWork(on: db).grantAnalyticsAllowances(allowances, expiresAt: expiresAt)
        }
    }

    public func recordOperationalInfo(
        _ info: OperationalInfo, allowance: AnalyticsAllowance?, now: Date
    ) throws(StoreError) -> Bool {
        try inTransaction(.write, "store operational info") { db throws(StoreError) in
            try phoneWork(on: db).recordOperationalInfo(info, allowance: allowance, now: now)
        }
    }

    public func recordOperationalInfo(
        _ info: OperationalInfo, salt: String, now: Date, saltExpiresAt: Date
    ) throws(StoreError) -> Bool {
        try inTransaction(.write, "store operational info") { db throws(StoreError) in
            try phoneWork(on: db).recordOperationalInfo(info, salt: salt, now: now, saltExpiresAt: saltExpiresAt)
        }
    }

    public func attestationSaltUsed(_ salt: String, now: Date) throws(StoreError) -> Bool {
        try read { db throws(StoreError) in try phoneWork(on: db).attestationSaltUsed(salt, now: now) }
    }

    public func upload(id: Int64) throws(StoreError) -> StoredUpload? {
        try snapshot("read upload") { db throws(StoreError) in try StoreReads(db: db, sql: dialect.reads).upload(id: id)
        }
    }
}
