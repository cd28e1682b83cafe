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

extension SQLiteStore {
    /// `TRACEDESK_GROUP_COMMIT=0`: every write in a transaction of its own, as before issue 23.
    /// Only for measuring what group commit is worth (Benchmarks/write-path-ab.sh,
    /// docs/benchmarks.md).
    static let grouping = ProcessInfo.processInfo.environment["TRACEDESK_GROUP_COMMIT"] != "0"
}
