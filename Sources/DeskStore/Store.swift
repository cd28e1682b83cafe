import CivilCalendar
import DeskCore
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The system of record: authorisations and the event stream.
///
/// Every method is one transaction. Methods are named for intentions, not tables. The protocol
/// mentions no database types, so the embedded ``SQLiteStore`` and a PostgreSQL adapter are
/// interchangeable behind it (a contract test suite runs against each).
///
/// Threading rule: implementations are safe to call from any thread.
/// Privacy rule: codes arrive only as ``OtpHash``; errors never carry bound values.
public protocol Store: StaffStore, ApricotStore, FollowUpStore, StatsStore, HISClientStore {
    /// Where the store is, for people: a file path, or a PostgreSQL URL without its password.
    var location: String { get }

    /// The schema version the store is at (its highest applied migration).
    func schemaVersion() throws(StoreError) -> Int

    /// The adapter, the version and the sizes, for `tracedesk store info`.
    func info() throws(StoreError) -> StoreInfo

    /// Takes the lock that lets one server at a time run `job`; nil when another holds it.
    /// The lease lasts until ``JobLease/release()`` (or until the process or its database
    /// connection ends).
    func acquireJobLock(_ job: StoreJob) throws(StoreError) -> JobLease?

    /// Records a new authorisation of `otpHash`, unless an earlier one is still usable at
    /// `now` (then nothing changes and that one is returned). Appends an `otp_authorized` event
    /// and, in the same transaction, an `otp_authorized` audit entry (actor `actor`, target the
    /// first 6 hex digits of the hash, the tag the console shows; detail the symptom-onset day and expiry).
    func authorize(
        otpHash: OtpHash, symptomsStartedOn: CivilDay, by actor: String, now: Date, lifetime: Duration
    ) throws(StoreError) -> AuthorizeOutcome

    /// The latest authorisation of `otpHash`, whatever its state; nil if there is none.
    func authorization(for otpHash: OtpHash) throws(StoreError) -> OtpAuthorization?

    /// Events with a position (``DeskEvent/id``) above `afterID`, oldest first, at most `limit`.
    func events(after afterID: Int64, limit: Int) throws(StoreError) -> [DeskEvent]

    /// The highest event position visible now (0 when there are none). Cheap enough to poll a
    /// few times a second: one indexed read when every committed event has its position.
    func latestEventID() throws(StoreError) -> Int64

    // MARK: The monitor

    /// Events with a position above `after`, oldest first, at most `limit`. With `operatorName`,
    /// only what that operator may see: events about codes their authorisation covers,
    /// published chunks, and their own staff actions. The cursor moves past every event
    /// examined, the ones filtered out included, so an operator's next page does not examine
    /// them again; an operator's page examines a bounded stretch of positions, so its cursor
    /// can advance with no event returned while more lie ahead.
    func eventPage(after: Int64, limit: Int, visibleTo operatorName: String?) throws(StoreError) -> StoredEventPage

    /// The newest `limit` events (oldest first; with `operatorName`, what that operator may
    /// see, among the newest 100 000 positions) and the latest position as the cursor: where a
    /// console starts following without reading the whole history.
    func eventTail(limit: Int, visibleTo operatorName: String?) throws(StoreError) -> StoredEventPage

    /// What the event at `position` is about.
    func code(ofEvent position: Int64) throws(StoreError) -> EventCode

    /// The watch of the latest authorisation of `otpHash`, read in one snapshot; nil when the
    /// code has none. Keys wait for the chunks of `policy` (embargo, age limit) at `now`.
    /// `storedKey` is the code as the store keeps it (``OtpHash/stored``, or an event's
    /// `otpHash`); ``codeWatch(otpHash:now:policy:)`` takes the token.
    func codeWatch(storedKey: OtpHash, now: Date, policy: PublishingPolicy) throws(StoreError) -> StoredCodeWatch?

    /// Phone requests since the start of the hour `since` falls in: real ones (`otp_checked`,
    /// `upload_accepted`, `upload_refused` and `analytics_received` events) and dummy ones.
    func traffic(since: Date) throws(StoreError) -> TrafficShare

    /// Records that `job` ran at `ranAt` and will run next at `nextRunAt` (the server's
    /// scheduled jobs, after each run).
    func recordJobRun(_ job: StoreJob, ranAt: Date, nextRunAt: Date) throws(StoreError)

    /// The last recorded run of `job`; nil when no server has recorded one.
    func jobRun(_ job: StoreJob) throws(StoreError) -> JobRun?

    // MARK: The phone API

    /// An app checks `otpHash` (does not consume it). When the code is known here, appends an
    /// `otp_checked` event with what the app was told. Returns the code's status at `now`.
    func recordCheck(otpHash: OtpHash, now: Date) throws(StoreError) -> OtpStatus

    /// An upload: in one transaction, consumes the code if it is usable at `now`, then stores
    /// the upload that `evaluate` builds from the authorisation, with its accepted keys, and an
    /// `upload_accepted` event. Otherwise stores nothing but, for a code known here, an
    /// `upload_refused` event. Exactly one of any number of concurrent uploads with one code
    /// (in any process) gets `.stored`.
    func consumeForUpload(
        otpHash: OtpHash, now: Date, evaluate: (OtpAuthorization) -> UploadRecord
    ) throws(StoreError) -> UploadOutcome

    /// Counts one dummy request on `route` in the 5-minute slot of `now` (dummy traffic is never
    /// an event; rows from before migration 7 are per hour).
    func countDummy(route: String, now: Date) throws(StoreError)

    /// Dummy requests per route since the start of the hour of `since`.
    func dummyCounts(since: Date) throws(StoreError) -> [String: Int64]

    /// An `otp_guesses_limited` event: a client address filled the guess limit of `route` and is
    /// answered 429 for `retryAfterSeconds` (the monitor's warning). Never the address.
    func recordGuessesLimited(route: String, retryAfterSeconds: Int, now: Date) throws(StoreError)

    // MARK: Analytics

    /// Whether the token has any unused allowance for `month` (the 201 of the token API).
    func analyticsTokenAuthorized(tokenHash: String, month: CivilDay) throws(StoreError) -> Bool

    /// Grants allowances (after a successful device check), usable until `expiresAt`.
    func grantAnalyticsAllowances(_ allowances: [AnalyticsAllowance], expiresAt: Date) throws(StoreError)

    /// Stores an operational-info record; with an `allowance`, only if that allowance is still
    /// unused (it is then used up, atomically). Appends an `analytics_received` event when stored.
    /// Returns whether the record was stored.
    func recordOperationalInfo(
        _ info: OperationalInfo, allowance: AnalyticsAllowance?, now: Date
    ) throws(StoreError) -> Bool

    /// Whether the salt is marked as used at `now`.
    func attestationSaltUsed(_ salt: String, now: Date) throws(StoreError) -> Bool

    /// Claims the salt and stores the record, in one transaction; false (nothing stored) when
    /// the salt was already used. Appends an `analytics_received` event when stored.
    func recordOperationalInfo(
        _ info: OperationalInfo, salt: String, now: Date, saltExpiresAt: Date
    ) throws(StoreError) -> Bool

    /// The stored upload with this id (its keys included), for staff and tests.
    func upload(id: Int64) throws(StoreError) -> StoredUpload?

    // MARK: TEK chunks

    /// Publishes one chunk, in one transaction: takes up to `policy.realKeysPerChunk` keys that
    /// are past their embargo at `now` (those held back for their embargo first, then in order of
    /// arrival; a key already published, or twice in the batch, is not repeated), gives the next
    /// index and a window that starts where the last one ended, calls `build` for the finished
    /// chunk, stores it with its padding keys and the range of keys it swept, and appends a
    /// `chunk_published` event.
    /// If `build` throws, nothing is stored and no index is used. Nil when no key is ready.
    func publishChunk(
        now: Date, policy: PublishingPolicy, build: (ChunkDraft) throws(StoreError) -> ChunkBuild
    ) throws(StoreError) -> ChunkSummary?

    /// Keys not yet published, at `now`.
    func publishingBacklog(now: Date, policy: PublishingPolicy) throws(StoreError) -> PublishingBacklog

    /// Oldest and newest index of the chunks published since `since`; nil when there are none.
    func chunkIndexRange(since: Date) throws(StoreError) -> ClosedRange<Int64>?

    /// The stored zip of chunk `index`, if it was published since `since` and is still kept.
    func chunkZip(index: Int64, since: Date) throws(StoreError) -> (zip: [UInt8], publishedAt: Date)?

    /// Every chunk still kept, oldest first, without bytes.
    func chunks() throws(StoreError) -> [ChunkSummary]

    /// One chunk with its zip, if still kept.
    func chunk(index: Int64) throws(StoreError) -> (summary: ChunkSummary, zip: [UInt8])?

    /// The highest index ever given (0 before the first chunk); retention never lowers it.
    func lastChunkIndex() throws(StoreError) -> Int64

    /// Deletes what the retention policy no longer allows to keep, in one transaction.
    func cleanup(now: Date, policy: RetentionPolicy) throws(StoreError) -> CleanupReport
}

/// A job that runs on one server at a time.
public enum StoreJob: Int, Sendable, CaseIterable {
    case publishing = 1
    case cleanup = 2

    public var name: String {
        switch self {
        case .publishing: return "publishing"
        case .cleanup: return "cleanup"
        }
    }
}

/// A held job lock. Release it once; releasing again does nothing.
public final class JobLease: @unchecked Sendable {
    private let lock = SimpleLock()
    private var onRelease: (() -> Void)?

    public init(onRelease: @escaping () -> Void) {
        self.onRelease = onRelease
    }

    deinit { onRelease?() }

    public func release() {
        let action = lock.withLock { () -> (() -> Void)? in
            defer { onRelease = nil }
            return onRelease
        }
        action?()
    }
}

/// What `tracedesk store info` shows.
public struct StoreInfo: Sendable {
    public struct Table: Sendable, Hashable {
        public var name: String
        public var rows: Int64
        /// Bytes on disk with indexes (nil where the adapter cannot tell per table).
        public var bytes: Int64?

        public init(name: String, rows: Int64, bytes: Int64?) {
            self.name = name
            self.rows = rows
            self.bytes = bytes
        }
    }

    /// "SQLite 3.40.1", "PostgreSQL 15.18".
    public var adapter: String
    public var location: String
    public var schemaVersion: Int
    /// The newest schema this binary knows.
    public var knownVersion: Int
    /// The whole store on disk: the file and its WAL, or the PostgreSQL schema's relations.
    public var totalBytes: Int64
    public var tables: [Table]

    public init(
        adapter: String, location: String, schemaVersion: Int, knownVersion: Int, totalBytes: Int64, tables: [Table]
    ) {
        self.adapter = adapter
        self.location = location
        self.schemaVersion = schemaVersion
        self.knownVersion = knownVersion
        self.totalBytes = totalBytes
        self.tables = tables
    }
}

/// The tables a TraceDesk store has at the latest schema (the same in every adapter).
enum StoreTables {
    static let all = [
        "otp_authorizations", "events", "uploads", "exposure_keys", "dummy_traffic", "analytics_allowances",
        "operational_info", "attestation_salts", "chunks", "padding_keys", "publishing_state", "staff",
        "staff_sessions", "audit_log", "job_runs", "apricot_sms_codes", "apricot_users", "pseudo_ids",
        "apricot_counters", "apricot_tokens", "contact_files", "contact_outcomes", "sms_messages",
        "stats_hourly", "stats_rollup", "cases", "follow_ups", "follow_up_cases", "follow_up_attempts",
        "follow_up_checks", "case_history", "key_sweep", "held_keys", "schema_migrations",
    ]
}

/// An upload read back from the store.
public struct StoredUpload: Hashable, Sendable {
    public var id: Int64
    /// The code as the store keeps it (``OtpHash/stored``), not the bearer token.
    public var otpHash: OtpHash
    public var receivedAt: Date
    public var symptomsStartedOn: CivilDay
    public var province: String?
    public var clientClock: Int64
    public var clockSkewSeconds: Int64
    public var keysDropped: Int
    /// The stored ``KeyDropCounts`` text (`{"reason": count}`); read it with ``KeyDropCounts/init(json:)``.
    public var droppedReasons: String
    public var summaryCount: Int
    public var keys: [AcceptedKey]
    /// The chunks that carried this upload's keys, in order (empty until published).
    public var publishedInChunks: [Int64] = []
}

/// Why the store could not do what was asked. Messages say what to do; they never contain
/// a code, a key or any bound value.
public enum StoreError: Error, Hashable, Sendable {
    /// The database file cannot be opened or created (missing folder, permissions…).
    case cannotOpen(path: String, reason: String)
    /// The file exists but is read-only for us.
    case readOnly(path: String)
    /// Another process holds the write lock longer than the busy timeout.
    case locked(path: String)
    /// Not an SQLite database, or damaged.
    case corrupt(path: String)
    /// An SQLite database, but not one of ours.
    case notTraceDesk(path: String)
    /// Made by a newer TraceDesk: its schema is ahead of this binary's migrations.
    case schemaTooNew(path: String, found: Int, known: Int)
    /// The database server cannot be reached or went away (PostgreSQL): temporary, retry later.
    case unavailable(location: String, reason: String)
    /// A write collided with another one (a unique key taken meanwhile).
    case conflict(operation: String, reason: String)
    /// Anything else, with the operation that failed (for the log).
    case failed(operation: String, reason: String)

    public var message: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return tr("messages.store.cannotOpen", ["path": path, "reason": reason])
        case .readOnly(let path): return tr("messages.store.readOnly", ["path": path])
        case .locked(let path): return tr("messages.store.locked", ["path": path])
        case .corrupt(let path): return tr("messages.store.corrupt", ["path": path])
        case .notTraceDesk(let path): return tr("messages.store.notTraceDesk", ["path": path])
        case .schemaTooNew(let path, let found, let known):
            return tr("messages.store.schemaTooNew", ["path": path, "found": String(found), "known": String(known)])
        case .unavailable(let location, let reason):
            return tr("messages.store.unavailable", ["location": location, "reason": reason])
        case .conflict(let operation, let reason):
            return tr("messages.store.conflict", ["operation": operation, "reason": reason])
        case .failed(let operation, let reason):
            return tr("messages.store.failed", ["operation": operation, "reason": reason])
        }
    }
}
