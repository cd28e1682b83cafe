import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The phone API's busiest writes on SQLite, committed in groups (``GroupCommit``): an
// authorisation (`POST /v1/otp`) and an upload wait for the write lock together, not one by one.
// The work is ``SQLStore``'s (`authorizeWork`, `consumeWork`), the same as PostgreSQL's
// fallback; only how transactions are grouped differs.
extension SQLiteStore {
    public func authorize(
        otpHash: OtpHash, symptomsStartedOn: CivilDay, by actor: String, now: Date, lifetime: Duration
    ) throws(StoreError) -> AuthorizeOutcome {
        let lifetimeMs = lifetime.components.seconds * 1000 + lifetime.components.attoseconds / 1_000_000_000_000_000
        // The code's stored form, made once and outside the write lock (a SHA-256 each time).
        let stored = otpHash.stored
        return try groupWrite("authorize") { db throws(StoreError) in
            try authorizeWork(
                db, otpHash: otpHash, stored: stored, symptomsStartedOn: symptomsStartedOn, by: actor, now: now,
                lifetimeMs: lifetimeMs)
        }
    }

    public func consumeForUpload(
        otpHash: OtpHash, now: Date, evaluate: (OtpAuthorization) -> UploadRecord
    ) throws(StoreError) -> UploadOutcome {
        let stored = otpHash.stored
        return try groupWrite("store upload") { db throws(StoreError) in
            try consumeWork(db, otpHash: otpHash, stored: stored, now: now, evaluate: evaluate)
        }
    }

    /// `body` in a write transaction shared with the writes queued meanwhile (``GroupCommit``).
    func groupWrite<T: Sendable>(_ operation: String, _ body: (SQLiteConnection) throws(StoreError) -> T)
        throws(StoreError)
        -> T
    {
        guard Self.grouping else {
            return try lock.withLock { () throws(StoreError) -> T in
                try connection.transaction(operation: operation) { () throws(StoreError) -> T in try body(connection) }
            }
        }
        return try group.submit(operation, body) { batch in
            lock.withLock { GroupCommit.write(batch, on: connection) }
        }
    }
}

// The HIS client of every `POST /v1/otp` is read on a connection of its own: in WAL mode a
// reader never waits for the writer, so the lookup does not queue behind the batch being
// committed on the main connection (nor hold it up). It still reads the file on every request,
// so a revocation by any process holds at once.
extension SQLiteStore {
    public func hisClient(keyHash: String) throws(StoreError) -> StoredHISClient? {
        try reading { db throws(StoreError) in
            try HISClientWork(db: db, staff: staffWork(on: db)).find(keyHash: keyHash)
        }
    }

    /// `body` on the reading connection (opened on first use; the main one for a store in memory,
    /// where a second connection would be another database).
    func reading<T: Sendable>(_ body: (SQLiteConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        if !Self.separateReader || path.isEmpty || path == ":memory:" || path.hasPrefix("file:") {
            return try lock.withLock { () throws(StoreError) -> T in try body(connection) }
        }
        return try readerLock.withLock { () throws(StoreError) -> T in
            if reader == nil {
                let opened = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                try opened.execute(SQL.connectionPragmas, operation: "configure")
                reader = opened
            }
            return try body(reader!)
        }
    }
}

extension SQLiteStore {
    /// `TRACEDESK_GROUP_COMMIT=0`: every write in a transaction of its own, and
    /// `TRACEDESK_HIS_READER=0`: HIS lookups on the main connection, as before issue 23. Only for
    /// measuring what each change is worth (Benchmarks/write-path.sh, docs/benchmarks.md).
    static let grouping = ProcessInfo.processInfo.environment["TRACEDESK_GROUP_COMMIT"] != "0"
    static let separateReader = ProcessInfo.processInfo.environment["TRACEDESK_HIS_READER"] != "0"
}
