import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The SQL of the supervisor's statistics. Most of it means the same in SQLite and PostgreSQL;
/// reading a JSON detail does not, so the statements that do are built from a ``Dialect``.
///
/// Event-time figures come from one family of "figure rows": `(slot_ms, figure, key, n, s1,
/// s2, s3)` grouped by a slot of `?` milliseconds over `[?, ?)` (parameters: slot, slot, from,
/// to). The rollup inserts them per hour into `stats_hourly`; a query counts the part not rolled
/// up with the very same statements. What a figure row holds:
///
/// | figure            | key               | n                        | s1, s2, s3                       |
/// |-------------------|-------------------|--------------------------|----------------------------------|
/// | `real`            | ""                | real phone requests      |                                  |
/// | `registered`      | ""                | new APRICOT users        |                                  |
/// | `returning`       | ""                | returning sign-ins       |                                  |
/// | `contact_files`   | ""                | contact files received   |                                  |
/// | `refused`         | the reason        | uploads refused          |                                  |
/// | `uploads`         | ""                | uploads accepted         | keys accepted, keys dropped      |
/// | `keys_per_upload` | keys (cap 15)     | uploads                  |                                  |
/// | `dropped`         | the reason        | keys dropped             |                                  |
/// | `province`        | the province code | reports                  | Bluetooth, notifications, exposure |
/// | `lookups`         | the tracer        | trace lookups            |                                  |
enum StatsSQL {
    /// How a dialect reads JSON details.
    struct Dialect {
        /// The `reason` of an event's detail, as text.
        let reason: String
        /// True when an `apricot_registered` event's detail says `"returning":true`.
        let returning: String
        /// The rows of `u.dropped_reasons` (a ``KeyDropCounts``: reason → count), as `j` with a text column `key`.
        let droppedReasons: String
        /// The count of a row of `j`, as an integer.
        let droppedCount: String
    }

    /// The detail keys the statistics read, as DeskCore's typed details spell them (keys are
    /// plain snake_case words, safe inside an SQL string literal).
    private static let reasonKey = DeskEvent.Detail.UploadRefused.Key.reason
    private static let returningKey = DeskEvent.Detail.ApricotRegistered.Key.returning

    static let sqliteDialect = Dialect(
        reason: "json_extract(detail, '$.\(reasonKey)')", returning: "json_extract(detail, '$.\(returningKey)') = 1",
        droppedReasons: "json_each(u.dropped_reasons) j", droppedCount: "j.value")
    static let postgresDialect = Dialect(
        reason: "detail::jsonb ->> '\(reasonKey)'", returning: "(detail::jsonb ->> '\(returningKey)') = 'true'",
        droppedReasons: "jsonb_each_text(u.dropped_reasons::jsonb) j", droppedCount: "CAST(j.value AS BIGINT)")

    /// The figure rows, one statement per source table (see the table above).
    static func sources(_ d: Dialect) -> [String] {
        let cap = StatsReport.keysPerUploadCap
        return [
            """
            SELECT at_ms / ? * ? AS slot,
                CASE kind WHEN 'apricot_registered' THEN (CASE WHEN \(d.returning) THEN 'returning' ELSE 'registered' END)
                    WHEN 'contact_file_received' THEN 'contact_files' ELSE 'real' END AS figure,
                '' AS key, count(*) AS n, 0 AS s1, 0 AS s2, 0 AS s3
            FROM events
            WHERE at_ms >= ? AND at_ms < ? AND kind IN ('otp_checked', 'upload_accepted', 'upload_refused',
                'analytics_received', 'apricot_registered', 'contact_file_received')
            GROUP BY 1, 2
            """,
            """
            SELECT at_ms / ? * ? AS slot, 'refused' AS figure, coalesce(\(d.reason), '') AS key, count(*) AS n,
                0 AS s1, 0 AS s2, 0 AS s3
            FROM events WHERE at_ms >= ? AND at_ms < ? AND kind = 'upload_refused'
            GROUP BY 1, 3
            """,
            """
            SELECT received_at_ms / ? * ? AS slot, 'uploads' AS figure, '' AS key, count(*) AS n,
                CAST(sum(keys_accepted) AS BIGINT) AS s1, CAST(sum(keys_dropped) AS BIGINT) AS s2, 0 AS s3
            FROM uploads WHERE received_at_ms >= ? AND received_at_ms < ?
            GROUP BY 1
            """,
            """
            SELECT received_at_ms / ? * ? AS slot, 'keys_per_upload' AS figure,
                CASE WHEN keys_accepted >= \(cap) THEN '\(cap)' ELSE CAST(keys_accepted AS TEXT) END AS key,
                count(*) AS n, 0 AS s1, 0 AS s2, 0 AS s3
            FROM uploads WHERE received_at_ms >= ? AND received_at_ms < ?
            GROUP BY 1, 3
            """,
            """
            SELECT u.received_at_ms / ? * ? AS slot, 'dropped' AS figure, j.key AS key,
                CAST(sum(\(d.droppedCount)) AS BIGINT) AS n, 0 AS s1, 0 AS s2, 0 AS s3
            FROM uploads u, \(d.droppedReasons)
            WHERE u.received_at_ms >= ? AND u.received_at_ms < ? AND u.dropped_reasons <> '{}'
            GROUP BY 1, 3
            """,
            """
            SELECT received_at_ms / ? * ? AS slot, 'province' AS figure, province AS key, count(*) AS n,
                CAST(sum(bluetooth_active) AS BIGINT) AS s1, CAST(sum(notification_permission) AS BIGINT) AS s2,
                CAST(sum(exposure_notification) AS BIGINT) AS s3
            FROM operational_info WHERE received_at_ms >= ? AND received_at_ms < ?
            GROUP BY 1, 3
            """,
            """
            SELECT at_ms / ? * ? AS slot, 'lookups' AS figure, actor AS key, count(*) AS n, 0 AS s1, 0 AS s2, 0 AS s3
            FROM audit_log WHERE at_ms >= ? AND at_ms < ? AND action = 'trace_lookup'
            GROUP BY 1, 3
            """,
        ]
    }

    static let insertRolled = "INSERT INTO stats_hourly (hour_ms, figure, key, n, s1, s2, s3) "
    /// Rolled-up hours as figure rows per bucket: (from, size, size, from, start, end).
    static let rolled = """
        SELECT (hour_ms - ?) / ? * ? + ? AS slot, figure, key, CAST(sum(n) AS BIGINT), CAST(sum(s1) AS BIGINT),
            CAST(sum(s2) AS BIGINT), CAST(sum(s3) AS BIGINT)
        FROM stats_hourly WHERE hour_ms >= ? AND hour_ms < ?
        GROUP BY 1, 2, 3
        """
    static let rollupState = "SELECT from_ms, to_ms FROM stats_rollup WHERE id = 1"
    static let saveRollupState = """
        INSERT INTO stats_rollup (id, from_ms, to_ms) VALUES (1, ?, ?)
        ON CONFLICT (id) DO UPDATE SET from_ms = excluded.from_ms, to_ms = excluded.to_ms
        """
    static let deleteRolledBefore = "DELETE FROM stats_hourly WHERE hour_ms < ?"
    /// Retention: the rolled range starts no earlier than the cutoff (4 times the cutoff).
    static let trimRollupState = """
        UPDATE stats_rollup SET from_ms = ?, to_ms = CASE WHEN to_ms < ? THEN ? ELSE to_ms END WHERE from_ms < ?
        """

    // Read live (indexes: otp_authorizations_by_time, chunks_by_time, dummy_traffic's key).
    // Parameters: (from, size, start, end).

    /// Per bucket and operator: authorised, checked, uploaded.
    static let funnel = """
        SELECT (authorized_at_ms - ?) / ? AS bucket, authorized_by, count(*), count(checked_at_ms),
            CAST(sum(CASE WHEN state = 'consumed' THEN 1 ELSE 0 END) AS BIGINT)
        FROM otp_authorizations WHERE authorized_at_ms >= ? AND authorized_at_ms < ?
        GROUP BY 1, 2
        """
    /// The funnel row by row, from the covering index (start, end): SQLite's GROUP BY over
    /// a fortnight's codes sorts them all in a temporary B-tree, three times slower than this.
    static let funnelRows = """
        SELECT authorized_at_ms, authorized_by, checked_at_ms IS NOT NULL, state = 'consumed',
            coalesce(consumed_at_ms - authorized_at_ms, 0)
        FROM otp_authorizations WHERE authorized_at_ms >= ? AND authorized_at_ms < ?
        """
    /// The lower median's value: (start, end, offset).
    static let medianToUpload = """
        SELECT (consumed_at_ms - authorized_at_ms) / 1000 AS seconds FROM otp_authorizations
        WHERE authorized_at_ms >= ? AND authorized_at_ms < ? AND state = 'consumed'
        ORDER BY 1 LIMIT 1 OFFSET ?
        """
    static let chunks = """
        SELECT (published_at_ms - ?) / ? AS bucket, count(*), CAST(sum(key_count) AS BIGINT),
            CAST(sum(padding_count) AS BIGINT)
        FROM chunks WHERE published_at_ms >= ? AND published_at_ms < ?
        GROUP BY 1
        """
    static let dummy = """
        SELECT (hour_ms - ?) / ? AS bucket, CAST(sum(requests) AS BIGINT)
        FROM dummy_traffic WHERE hour_ms >= ? AND hour_ms < ?
        GROUP BY 1
        """
}

/// The statements of ``StatsWork`` in one adapter's dialect.
struct StatsStatements: Sendable {
    var sources, rollUp: [String]
    var rolled, rollupState, saveRollupState, deleteRolledBefore, trimRollupState: String
    var funnel, funnelRows, medianToUpload, chunks, dummy: String
    /// Whether the funnel is grouped by the database (PostgreSQL) or row by row here (SQLite).
    var groupsFunnel: Bool

    static let sqlite = StatsStatements(.sqlite)
    static let postgres = StatsStatements(.postgres)

    private init(_ sql: SQLDialect) {
        let dialect = sql.text
        let json = sql == .sqlite ? StatsSQL.sqliteDialect : StatsSQL.postgresDialect
        groupsFunnel = sql == .postgres
        funnelRows = dialect(StatsSQL.funnelRows)
        let sources = StatsSQL.sources(json)
        self.sources = sources.map(dialect)
        rollUp = sources.map { dialect(StatsSQL.insertRolled + $0) }
        rolled = dialect(StatsSQL.rolled)
        rollupState = dialect(StatsSQL.rollupState)
        saveRollupState = dialect(StatsSQL.saveRollupState)
        deleteRolledBefore = dialect(StatsSQL.deleteRolledBefore)
        trimRollupState = dialect(StatsSQL.trimRollupState)
        funnel = dialect(StatsSQL.funnel)
        medianToUpload = dialect(StatsSQL.medianToUpload)
        chunks = dialect(StatsSQL.chunks)
        dummy = dialect(StatsSQL.dummy)
    }
}

/// The supervisor's statistics and their hourly rollup: one implementation for every adapter,
/// run on the connection (and in the transaction) the adapter provides. The adapter serialises
/// rollups (SQLite: the write lock of `BEGIN IMMEDIATE`; PostgreSQL: an advisory lock) and reads
/// a report in one read transaction.
struct StatsWork<DB: SQLRunning> {
    let db: DB
    let sql: StatsStatements

    static var hourMs: Int64 { StatsBucket.hour.milliseconds }
    /// An hour is rolled up this long after it ended: a server whose clock lags by less cannot
    /// add to an hour already rolled up.
    static var graceMs: Int64 { 120_000 }
    /// How far back rollups (and what retention keeps of them) go: the longest query.
    static var keptMs: Int64 { Int64(StatsQuery.maximumDays) * 86_400_000 }

    /// The hours rolled up, `[from, to)`; nil before the first rollup.
    func rolledHours() throws(StoreError) -> Range<Int64>? {
        try db.query(sql.rollupState, operation: "read the statistics rollup") {
            $0.integer(0)..<max($0.integer(0), $0.integer(1))
        }.first
    }

    /// The closed hours a rollup at `now` would add (empty when none): a cheap check before
    /// taking the write lock.
    static func pending(_ rolled: Range<Int64>?, now: Date) -> Range<Int64> {
        let nowMs = now.unixMilliseconds
        let end = StatsBucket.hour.floor(nowMs - graceMs)
        let earliest = StatsBucket.hour.floor(nowMs) - keptMs
        let start = max(rolled?.upperBound ?? earliest, earliest)
        return start..<max(start, end)
    }

    /// Rolls up the closed hours not rolled up yet, in the caller's write transaction (with the
    /// rollup serialised: the state is read here, under it). Returns how many hours it added.
    func rollUp(now: Date) throws(StoreError) -> Int {
        let op = "roll up statistics"
        let rolled = try rolledHours()
        let hours = Self.pending(rolled, now: now)
        guard !hours.isEmpty else { return 0 }
        var from = rolled?.lowerBound ?? hours.lowerBound
        if let rolled, rolled.upperBound < hours.lowerBound {
            // Not rolled up for longer than the rollups keep: start afresh, contiguous.
            try db.run(sql.deleteRolledBefore, [.integer(hours.lowerBound)], operation: op)
            from = hours.lowerBound
        }
        let parameters: [SQLValue] = [
            .integer(Self.hourMs), .integer(Self.hourMs), .integer(hours.lowerBound), .integer(hours.upperBound),
        ]
        for statement in sql.rollUp { try db.run(statement, parameters, operation: op) }
        try db.run(sql.saveRollupState, [.integer(from), .integer(hours.upperBound)], operation: op)
        return Int((hours.upperBound - hours.lowerBound) / Self.hourMs)
    }

    /// Retention (in the cleanup's transaction): rolled-up hours older than the longest query go.
    func cleanup(now: Date) throws(StoreError) -> Int {
        let op = "clean up"
        let cutoff = StatsBucket.hour.floor(now.unixMilliseconds) - Self.keptMs
        let deleted = try db.run(sql.deleteRolledBefore, [.integer(cutoff)], operation: op)
        try db.run(sql.trimRollupState, Array(repeating: .integer(cutoff), count: 4), operation: op)
        return deleted
    }

    /// Every figure of `query` but the pseudo-id capacity, in the caller's read transaction.
    /// Five-minute buckets (a day at most) are counted from the source rows; hour and day
    /// buckets read the rolled-up hours in the range and count the rest from the source rows.
    func report(_ query: StatsQuery, now: Date) throws(StoreError) -> StatsReport {
        let op = "read statistics"
        var tally = Tally(query: query, report: StatsReport(query: query, generatedAt: now))
        let (from, to) = (query.fromMs, query.toMs)
        var live: [Range<Int64>] = [from..<to]
        if query.bucket != .fiveMinutes, let rolled = try rolledHours() {
            // A rolled row holds its whole hour: only whole hours of the range are read from the
            // rollup (`from` is an hour or day boundary; `to` often is not), the rest live.
            let start = max(StatsBucket.hour.floor(from + Self.hourMs - 1), rolled.lowerBound)
            let end = min(StatsBucket.hour.floor(to), rolled.upperBound)
            if start < end {
                let size = query.bucket.milliseconds
                let rows = try db.query(
                    sql.rolled,
                    [.integer(from), .integer(size), .integer(size), .integer(from), .integer(start), .integer(end)],
                    operation: op, Self.figureRow)
                for row in rows { tally.add(row) }
                live = [from..<start, end..<to].filter { !$0.isEmpty }
            }
        }
        let slot = query.bucket == .fiveMinutes ? query.bucket.milliseconds : Self.hourMs
        for range in live {
            let parameters: [SQLValue] = [
                .integer(slot), .integer(slot), .integer(range.lowerBound), .integer(range.upperBound),
            ]
            for statement in sql.sources {
                for row in try db.query(statement, parameters, operation: op, Self.figureRow) { tally.add(row) }
            }
        }
        let bounds: [SQLValue] = [
            .integer(from), .integer(query.bucket.milliseconds), .integer(from), .integer(to),
        ]
        var report = tally.finished()
        // The funnel, by authorisation time.
        var operators: [String: OperatorStats] = [:]
        func count(_ bucket: Int, _ name: String, _ authorized: Int64, _ checked: Int64, _ uploaded: Int64) {
            guard report.authorized.values.indices.contains(bucket) else { return }
            report.authorized.values[bucket] += authorized
            report.checked.values[bucket] += checked
            report.uploaded.values[bucket] += uploaded
            operators[name, default: OperatorStats(name: name, authorized: 0, checked: 0, uploaded: 0)]
                .authorized += authorized
            operators[name]?.checked += checked
            operators[name]?.uploaded += uploaded
        }
        if sql.groupsFunnel {
            let funnel = try db.query(sql.funnel, bounds, operation: op) {
                (
                    bucket: Int($0.integer(0)), name: $0.text(1), authorized: $0.integer(2), checked: $0.integer(3),
                    uploaded: $0.integer(4)
                )
            }
            for row in funnel { count(row.bucket, row.name, row.authorized, row.checked, row.uploaded) }
            let uploaded = report.uploaded.total
            if uploaded > 0 {
                report.medianSecondsToUpload = try db.query(
                    sql.medianToUpload, [.integer(from), .integer(to), .integer((uploaded - 1) / 2)], operation: op
                ) { $0.integer(0) }.first
            }
        } else {
            let size = query.bucket.milliseconds
            var seconds: [Int64] = []
            _ = try db.query(sql.funnelRows, [.integer(from), .integer(to)], operation: op) { row -> Bool in
                let uploaded = row.integer(3)
                count(Int((row.integer(0) - from) / size), row.text(1), 1, row.integer(2), uploaded)
                if uploaded == 1 { seconds.append(row.integer(4) / 1000) }
                return true
            }
            if !seconds.isEmpty {
                seconds.sort()
                report.medianSecondsToUpload = seconds[(seconds.count - 1) / 2]
            }
        }
        report.operators = operators.values.sorted {
            $0.authorized != $1.authorized ? $0.authorized > $1.authorized : $0.name < $1.name
        }
        // Chunks and dummy traffic: few rows, read live.
        for row in try db.query(
            sql.chunks, bounds, operation: op, { ($0.integer(0), $0.integer(1), $0.integer(2), $0.integer(3)) })
        where report.chunks.values.indices.contains(Int(row.0)) {
            report.chunks.values[Int(row.0)] += row.1
            report.keysPublished.values[Int(row.0)] += row.2
            report.paddingPublished += row.3
        }
        for row in try db.query(sql.dummy, bounds, operation: op, { ($0.integer(0), $0.integer(1)) })
        where report.dummyRequests.values.indices.contains(Int(row.0)) {
            report.dummyRequests.values[Int(row.0)] += row.1
        }
        return report
    }

    /// `(slot_ms, figure, key, n, s1, s2, s3)`.
    static func figureRow(_ row: DB.Row) -> FigureRow {
        FigureRow(
            slot: row.integer(0), figure: row.text(1), key: row.text(2), n: row.integer(3), s1: row.integer(4),
            s2: row.integer(5), s3: row.integer(6))
    }
}

/// One row of the event-time figures (``StatsSQL``'s table says what each holds).
struct FigureRow {
    var slot: Int64
    var figure: String
    var key: String
    var n, s1, s2, s3: Int64
}

/// Adds figure rows into a report; the keyed figures are sorted at the end.
private struct Tally {
    let query: StatsQuery
    var report: StatsReport
    var refused: [String: Int64] = [:]
    var dropped: [String: Int64] = [:]
    var provinces: [String: ProvinceStats] = [:]
    var tracers: [String: Int64] = [:]

    mutating func add(_ row: FigureRow) {
        guard let b = query.bucketIndex(row.slot) else { return }
        switch row.figure {
        case "real": report.realRequests.values[b] += row.n
        case "registered": report.registrations.values[b] += row.n
        case "returning": report.returningSignIns += row.n
        case "contact_files": report.contactFiles.values[b] += row.n
        case "refused": refused[row.key, default: 0] += row.n
        case "uploads":
            report.uploads.values[b] += row.n
            report.keysAccepted.values[b] += row.s1
            report.keysDropped.values[b] += row.s2
        case "keys_per_upload":
            let keys = min(max(Int(row.key) ?? 0, 0), StatsReport.keysPerUploadCap)
            report.keysPerUpload[keys] += row.n
        case "dropped": dropped[row.key, default: 0] += row.n
        case "province":
            report.analyticsReports.values[b] += row.n
            var province =
                provinces[row.key]
                ?? ProvinceStats(
                    code: row.key, reports: 0, bluetoothActive: 0, notificationsAllowed: 0, exposureNotifications: 0)
            province.reports += row.n
            province.bluetoothActive += row.s1
            province.notificationsAllowed += row.s2
            province.exposureNotifications += row.s3
            provinces[row.key] = province
        case "lookups":
            report.lookups.values[b] += row.n
            tracers[row.key, default: 0] += row.n
        default: break
        }
    }

    func finished() -> StatsReport {
        var report = report
        report.uploadsRefused = Self.reasons(refused)
        report.keysDroppedByReason = Self.reasons(dropped)
        report.provinces = provinces.values.sorted {
            $0.reports != $1.reports ? $0.reports > $1.reports : $0.code < $1.code
        }
        report.tracers = tracers.map { TracerStats(name: $0.key, lookups: $0.value) }.sorted {
            $0.lookups != $1.lookups ? $0.lookups > $1.lookups : $0.name < $1.name
        }
        return report
    }

    static func reasons(_ counts: [String: Int64]) -> [ReasonCount] {
        counts.map { ReasonCount(reason: $0.key, count: $0.value) }.sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.reason < $1.reason
        }
    }
}
