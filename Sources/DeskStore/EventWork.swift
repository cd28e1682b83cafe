import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The SQL of the event stream's reads, the watch, traffic and job runs. Written once: the text
/// means the same in SQLite and PostgreSQL (PostgreSQL gets it with numbered placeholders).
///
/// Every read goes by position (`seq`), never by id: on PostgreSQL ids are not commit order, and
/// a row has no position until it is committed and a reader has given it one. Because positions
/// are given in commit order, every position below a visible one is visible too: `seq > ?` never
/// skips a row that shows up later.
enum EventSQL {
    static let columns = "seq, at_ms, kind, otp_hash, actor, detail"
    static let latest = "SELECT coalesce(max(seq), 0) FROM events"
    static let eventsAfter = "SELECT \(columns) FROM events WHERE seq > ? ORDER BY seq LIMIT ?"
    /// The first position after a cursor: an operator's stretch starts there, not in a gap
    /// that retention left.
    static let firstAfter = "SELECT min(seq) FROM events WHERE seq > ?"
    static let page = "SELECT \(columns) FROM events WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?"
    /// What an operator may see: the events of codes their current authorisation covers (from
    /// its moment on, and its own `otp_authorized` only: a code authorised again by another
    /// operator after it expired keeps its earlier events with no one), published chunks, their
    /// own staff actions.
    static let visibleTo = """
        (e.kind = 'chunk_published' OR (e.kind = 'staff_action' AND e.actor = ?)
            OR EXISTS (SELECT 1 FROM otp_authorizations a WHERE a.otp_hash = e.otp_hash AND a.authorized_by = ?
                AND e.at_ms >= a.authorized_at_ms AND (e.kind <> 'otp_authorized' OR e.actor = a.authorized_by)))
        """
    static let pageVisibleTo = """
        SELECT e.seq, e.at_ms, e.kind, e.otp_hash, e.actor, e.detail FROM events e
        WHERE e.seq > ? AND e.seq <= ? AND \(visibleTo)
        ORDER BY e.seq LIMIT ?
        """
    /// The newest events (newest first), above a lower bound.
    static let tail = "SELECT \(columns) FROM events WHERE seq > ? ORDER BY seq DESC LIMIT ?"
    static let tailVisibleTo = """
        SELECT e.seq, e.at_ms, e.kind, e.otp_hash, e.actor, e.detail FROM events e
        WHERE e.seq > ? AND \(visibleTo)
        ORDER BY e.seq DESC LIMIT ?
        """
    static let codeOfEvent = "SELECT otp_hash FROM events WHERE seq = ?"

    // The watch: everything by the code's hash (events_by_otp_hash, uploads_by_otp_hash), since
    // its latest authorisation (a consumed code can be authorised again).
    static let latestAbout = "SELECT coalesce(max(seq), 0) FROM events WHERE otp_hash = ?"
    /// Every check is counted on the authorisation; events are coalesced (PhoneWork.recordCheck),
    /// but the first check always has one.
    static let checks = """
        SELECT check_count, (SELECT min(at_ms) FROM events
            WHERE otp_hash = ? AND kind = 'otp_checked' AND at_ms >= ?), last_checked_at_ms
        FROM otp_authorizations WHERE otp_hash = ?
        """
    static let refusals = """
        SELECT count(*) FROM events WHERE otp_hash = ? AND kind = 'upload_refused' AND at_ms >= ?
        """
    static let lastRefusal = """
        SELECT detail FROM events WHERE otp_hash = ? AND kind = 'upload_refused' AND at_ms >= ?
        ORDER BY at_ms DESC, id DESC LIMIT 1
        """
    static let watchedUpload = """
        SELECT id, received_at_ms, keys_accepted, keys_dropped, dropped_reasons, province, clock_skew_s
        FROM uploads WHERE otp_hash = ? AND received_at_ms >= ? ORDER BY id DESC LIMIT 1
        """
    /// Keys in no chunk that may still be published (ended after the age bound), and the
    /// earliest end among them.
    static let keysWaiting = """
        SELECT count(*), min(k.expires_at_s) FROM exposure_keys k
        WHERE k.upload_id = ? AND k.expires_at_s > ? AND NOT \(ChunkSQL.isPublished("k", sweptTo: ChunkSQL.sweptTo))
        """

    // Traffic: the at_ms index bounds the count to the period.
    static let realRequests = """
        SELECT count(*) FROM events
        WHERE at_ms >= ? AND kind IN ('otp_checked', 'upload_accepted', 'upload_refused', 'analytics_received')
        """
    /// The cast: PostgreSQL's sum of a BIGINT is a NUMERIC.
    static let dummyRequests = "SELECT CAST(coalesce(sum(requests), 0) AS BIGINT) FROM dummy_traffic WHERE hour_ms >= ?"

    static let recordJobRun = """
        INSERT INTO job_runs (job, last_run_ms, next_run_ms) VALUES (?, ?, ?)
        ON CONFLICT (job) DO UPDATE SET last_run_ms = excluded.last_run_ms, next_run_ms = excluded.next_run_ms
        """
    static let jobRun = "SELECT last_run_ms, next_run_ms FROM job_runs WHERE job = ?"
}

/// The statements of ``EventWork`` in one adapter's dialect.
struct EventStatements: Sendable {
    var latest, eventsAfter, firstAfter, page, pageVisibleTo, tail, tailVisibleTo, codeOfEvent: String
    var latestAbout, checks, refusals, lastRefusal, watchedUpload, keysWaiting: String
    var realRequests, dummyRequests, recordJobRun, jobRun: String

    static let sqlite = EventStatements(.sqlite)
    static let postgres = EventStatements(.postgres)

    private init(_ sql: SQLDialect) {
        let dialect = sql.text
        latest = dialect(EventSQL.latest)
        eventsAfter = dialect(EventSQL.eventsAfter)
        firstAfter = dialect(EventSQL.firstAfter)
        page = dialect(EventSQL.page)
        pageVisibleTo = dialect(EventSQL.pageVisibleTo)
        tail = dialect(EventSQL.tail)
        tailVisibleTo = dialect(EventSQL.tailVisibleTo)
        codeOfEvent = dialect(EventSQL.codeOfEvent)
        latestAbout = dialect(EventSQL.latestAbout)
        checks = dialect(EventSQL.checks)
        refusals = dialect(EventSQL.refusals)
        lastRefusal = dialect(EventSQL.lastRefusal)
        watchedUpload = dialect(EventSQL.watchedUpload)
        keysWaiting = dialect(EventSQL.keysWaiting)
        realRequests = dialect(EventSQL.realRequests)
        dummyRequests = dialect(EventSQL.dummyRequests)
        recordJobRun = dialect(EventSQL.recordJobRun)
        jobRun = dialect(EventSQL.jobRun)
    }
}

/// The event stream's reads, the watch, traffic and job runs: one implementation for every
/// adapter, run on the connection (and in the transaction, where there is one) the adapter
/// provides. PostgreSQL's adapter gives committed rows their positions before it calls these
/// (``PostgresStore``'s sequencer); SQLite's rows have theirs from the moment they are written.
struct EventWork<DB: SQLRunning> {
    let db: DB
    let sql: EventStatements
    let reads: ReadStatements

    /// How many positions an operator's page examines at most: their events can be rare among
    /// everyone's, and a page must not read the whole table to find a few.
    static var operatorStretch: Int64 { 10_000 }

    func latest() throws(StoreError) -> Int64 {
        try db.query(sql.latest, operation: "read events") { $0.integer(0) }.first ?? 0
    }

    func events(after afterID: Int64, limit: Int) throws(StoreError) -> [DeskEvent] {
        try db.query(
            sql.eventsAfter, [.integer(afterID), .integer(Int64(max(0, limit)))], operation: "read events",
            StoreReads<DB>.event)
    }

    /// The highest visible position is read first: every position up to it is visible from then
    /// on, so a page that comes back short may move its cursor there without skipping a row.
    func page(after: Int64, limit: Int, visibleTo operatorName: String?) throws(StoreError) -> StoredEventPage {
        let op = "read events"
        guard limit > 0 else { return StoredEventPage(events: [], cursor: after) }
        let visible = try latest()
        guard visible > after else { return StoredEventPage(events: [], cursor: after) }
        var end = visible
        var parameters: [SQLValue]
        let statement: String
        if let operatorName {
            guard
                let first = try db.query(sql.firstAfter, [.integer(after)], operation: op, { $0.optionalInteger(0) })
                    .first ?? nil
            else { return StoredEventPage(events: [], cursor: visible) }
            end = min(visible, first - 1 + Self.operatorStretch)
            parameters = [.integer(after), .integer(end), .text(operatorName), .text(operatorName)]
            statement = sql.pageVisibleTo
        } else {
            parameters = [.integer(after), .integer(end)]
            statement = sql.page
        }
        parameters.append(.integer(Int64(limit)))
        let events = try db.query(statement, parameters, operation: op, Self.storedEvent)
        // A full page may stop short of the stretch: go on from its last event.
        let cursor = events.count == limit ? (events.last?.position ?? end) : end
        return StoredEventPage(events: events, cursor: max(after, cursor))
    }

    /// The newest `limit` events (oldest first) and the latest position as the cursor: where a
    /// console starts following, instead of reading the whole history to show its last page.
    /// An operator's are looked for among the newest ``operatorTail`` positions only.
    func tail(limit: Int, visibleTo operatorName: String?) throws(StoreError) -> StoredEventPage {
        let visible = try latest()
        guard limit > 0, visible > 0 else { return StoredEventPage(events: [], cursor: visible) }
        let events: [StoredEvent]
        if let operatorName {
            events = try db.query(
                sql.tailVisibleTo,
                [
                    .integer(max(0, visible - Self.operatorTail)), .text(operatorName), .text(operatorName),
                    .integer(Int64(limit)),
                ], operation: "read events", Self.storedEvent)
        } else {
            events = try db.query(
                sql.tail, [.integer(0), .integer(Int64(limit))], operation: "read events", Self.storedEvent)
        }
        // Positions above `visible` may have come meanwhile (SQLite outside a transaction):
        // the cursor is the newest returned or `visible`, whichever is higher, never past what
        // was read.
        let newest = events.first?.position ?? 0
        return StoredEventPage(events: events.reversed(), cursor: max(visible, newest))
    }

    /// How far back an operator's first page looks for their events.
    static var operatorTail: Int64 { 100_000 }

    func code(ofEvent position: Int64) throws(StoreError) -> EventCode {
        let rows = try db.query(sql.codeOfEvent, [.integer(position)], operation: "read event") { $0.optionalText(0) }
        guard let row = rows.first else { return .noSuchEvent }
        guard let hex = row, let hash = OtpHash(hex: hex) else { return .notAboutACode }
        return .code(hash)
    }

    /// In one read snapshot.
    /// `storedKey` is the code as the store keeps it (``OtpHash/stored``).
    func watch(storedKey: OtpHash, now: Date, policy: PublishingPolicy) throws(StoreError) -> StoredCodeWatch? {
        let op = "read the watch of a code"
        guard
            let authorization = try StoreReads(db: db, sql: reads).authorization(
                storedKey: storedKey, naming: storedKey)
        else { return nil }
        let code: SQLValue = .text(storedKey.hex)
        let since: SQLValue = .integer(authorization.authorizedAt.unixMilliseconds)
        let checks = try db.query(sql.checks, [code, since, code], operation: op) {
            (count: Int($0.integer(0)), first: $0.optionalInteger(1), last: $0.optionalInteger(2))
        }.first
        let refused = try db.query(sql.refusals, [code, since], operation: op) { Int($0.integer(0)) }.first ?? 0
        let lastRefusal = try db.query(sql.lastRefusal, [code, since], operation: op) { $0.text(0) }.first
        let asOf = try db.query(sql.latestAbout, [code], operation: op) { $0.integer(0) }.first ?? 0
        var upload = try db.query(sql.watchedUpload, [code, since], operation: op) { row in
            StoredWatchUpload(
                id: row.integer(0), receivedAt: Date(unixMilliseconds: row.integer(1)),
                keysAccepted: Int(row.integer(2)), keysDropped: Int(row.integer(3)), droppedReasons: row.text(4),
                province: row.optionalText(5), clockSkewSeconds: row.integer(6), publishedInChunks: [],
                keysWaiting: 0, embargoEndsAt: nil)
        }.first
        if let id = upload?.id {
            upload?.publishedInChunks = try db.query(reads.selectUploadChunks, [.integer(id)], operation: op) {
                $0.integer(0)
            }
            // The same bound as publishing's: keys past the age limit are never published.
            let ageBound = ChunkWork<DB>.eligibility(nowS: now.unixMilliseconds / 1000, policy: policy)[1]
            let waiting = try db.query(sql.keysWaiting, [.integer(id), ageBound], operation: op) {
                (count: Int($0.integer(0)), earliestEnd: $0.optionalInteger(1))
            }.first
            upload?.keysWaiting = waiting?.count ?? 0
            upload?.embargoEndsAt = waiting?.earliestEnd.map {
                Date(unixMilliseconds: ($0 + policy.embargoSeconds) * 1000)
            }
        }
        return StoredCodeWatch(
            authorization: authorization, checks: checks?.count ?? 0,
            firstCheckedAt: checks?.first.map(Date.init(unixMilliseconds:)),
            lastCheckedAt: checks?.last.map(Date.init(unixMilliseconds:)), refusedUploads: refused,
            lastRefusalDetail: lastRefusal, upload: upload, asOf: asOf)
    }

    func traffic(since: Date) throws(StoreError) -> TrafficShare {
        let hour = since.unixMilliseconds / 3_600_000 * 3_600_000
        let op = "read traffic"
        let real = try db.query(sql.realRequests, [.integer(hour)], operation: op) { $0.integer(0) }.first ?? 0
        let dummy = try db.query(sql.dummyRequests, [.integer(hour)], operation: op) { $0.integer(0) }.first ?? 0
        return TrafficShare(since: Date(unixMilliseconds: hour), realRequests: real, dummyRequests: dummy)
    }

    func recordJobRun(_ job: StoreJob, ranAt: Date, nextRunAt: Date) throws(StoreError) {
        try db.run(
            sql.recordJobRun,
            [.text(job.name), .integer(ranAt.unixMilliseconds), .integer(nextRunAt.unixMilliseconds)],
            operation: "record the \(job.name) run")
    }

    func jobRun(_ job: StoreJob) throws(StoreError) -> JobRun? {
        try db.query(sql.jobRun, [.text(job.name)], operation: "read the \(job.name) run") {
            JobRun(lastRun: Date(unixMilliseconds: $0.integer(0)), nextRun: Date(unixMilliseconds: $0.integer(1)))
        }.first
    }

    static func storedEvent(_ row: DB.Row) -> StoredEvent {
        StoredEvent(
            position: row.integer(0), at: Date(unixMilliseconds: row.integer(1)), kind: row.text(2),
            otpHash: row.optionalText(3).flatMap(OtpHash.init(hex:)), actor: row.optionalText(4), detail: row.text(5))
    }
}
