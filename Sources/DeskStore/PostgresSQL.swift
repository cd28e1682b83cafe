/// The SQL of ``PostgresStore``. Where SQLite's text means the same in PostgreSQL it is reused,
/// with its `?` placeholders numbered (`$1`, `$2`…); the rest is written for PostgreSQL.
enum PGSQL {
    /// `?` → `$n`, in order. Our SQL has no `?` inside string literals.
    static func numbered(_ sql: String) -> String {
        var out = ""
        out.reserveCapacity(sql.count + 16)
        var n = 0
        for character in sql {
            if character == "?" {
                n += 1
                out += "$\(n)"
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// The first key of every advisory lock: "TD" and a hash of the schema, so stores in two
    /// schemas of one database never share a lock.
    static let lockClass = "hashtext('tracedesk:' || current_schema())"
    /// Second keys: 0 migrations, 1 publishing transactions, 2 appending to the audit log,
    /// 3 giving events their positions, 4 rolling up statistics, 100 + job for the job locks.
    static let publishLock = 1
    static let auditLock = 2
    static let sequencerLock = 3
    static let statsLock = 4
    /// Transactions whose statements must each see the latest commits (the audit log's appends).
    static let beginReadCommitted = "BEGIN ISOLATION LEVEL READ COMMITTED"
    static let jobLockBase = 100

    static let countTables = """
        SELECT count(*) FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
        """
    static let migrationsTableExists = """
        SELECT count(*) FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_name = 'schema_migrations'
        """
    static let createMigrationsTable =
        "CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at_ms BIGINT NOT NULL)"
    static let maxMigration = SQL.maxMigration
    static let recordMigration = numbered(SQL.recordMigration)

    static let selectAuthorization = numbered(SQL.selectAuthorization)
    /// Writes unless the code has an authorisation still usable at `$6`; returns a row when it wrote.
    static let authorize = """
        INSERT INTO otp_authorizations AS a
            (otp_hash, symptoms_started_on, authorized_at_ms, expires_at_ms, authorized_by, state, consumed_at_ms)
        VALUES ($1, $2, $3, $4, $5, 'authorized', NULL)
        ON CONFLICT (otp_hash) DO UPDATE SET
            symptoms_started_on = excluded.symptoms_started_on, authorized_at_ms = excluded.authorized_at_ms,
            expires_at_ms = excluded.expires_at_ms, authorized_by = excluded.authorized_by,
            state = 'authorized', consumed_at_ms = NULL, checked_at_ms = NULL, check_count = 0,
            last_checked_at_ms = NULL, check_event_at_ms = NULL
        WHERE NOT (a.state = 'authorized' AND a.expires_at_ms > $6)
        RETURNING 1::bigint
        """
    static let insertEvent = numbered(SQL.insertEvent)
    static let markChecked = numbered(SQL.markChecked)
    static let claimCheckEvent = numbered(SQL.claimCheckEvent)

    // The sequencer. Identity values are taken before commit, so two transactions can commit in
    // the other order than their ids, and a reader paging by id would skip the one that commits
    // late. Readers give committed rows their positions instead, in short transactions that hold
    // a transaction-level advisory lock: these transactions run one at a time and commit in
    // order, so a position is visible only once every smaller one is. Readers take the lock
    // with a try: one that finds it held reads what is positioned, and the next read catches up.
    // Writers never wait for it.

    /// Whether any committed event waits for a position (the partial index on `seq IS NULL`).
    static let anyUnsequenced = "SELECT count(*) FROM (SELECT 1 FROM events WHERE seq IS NULL LIMIT 1) u"
    /// The highest position, and whether any event waits for one: the poll's one query.
    static let latestAndPending = """
        SELECT (SELECT coalesce(max(seq), 0) FROM events),
            (SELECT count(*) FROM (SELECT 1 FROM events WHERE seq IS NULL LIMIT 1) u)
        """
    static let trySequencerLock = "SELECT pg_try_advisory_xact_lock(\(lockClass), \(sequencerLock))"
    /// Positions for up to $1 waiting rows, in id order: `nextval` is evaluated as the ordered
    /// subquery's rows come out (a subquery with a volatile target list is never flattened), so
    /// events written by one transaction keep their order.
    static let assignPositions = """
        UPDATE events e SET seq = s.seq
        FROM (SELECT o.id, nextval('event_positions') AS seq
            FROM (SELECT id FROM events WHERE seq IS NULL ORDER BY id LIMIT $1) o ORDER BY o.id) s
        WHERE e.id = s.id
        """
    /// Rows given positions per sequencer transaction at most, to keep it short.
    static let positionsPerRound: Int64 = 10_000
    /// Consumes a usable code and returns what the upload is judged by; no row when the code
    /// is not usable (or another upload consumed it first: this one waited for its row lock).
    static let consumeReturning =
        numbered(SQL.consumeAuthorization) + """

            RETURNING symptoms_started_on, authorized_at_ms, expires_at_ms, authorized_by
            """
    /// The upload, its `keys` keys and its event in one statement (one round trip): $1…$11 the
    /// upload's columns, $12 and $13 the event's detail before and after the upload id, $14
    /// the event's kind, then 7 values per key. Returns the upload id.
    static func storeUpload(keys: Int) -> String {
        var sql = """
            WITH u AS (
                INSERT INTO uploads (otp_hash, received_at_ms, symptoms_started_on, province, client_clock_s,
                    clock_skew_s, keys_accepted, keys_dropped, dropped_reasons, summary_count, summaries)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id),
            e AS (
                INSERT INTO events (at_ms, kind, otp_hash, actor, detail)
                SELECT $2, $14, $1, NULL, $12 || u.id || $13 FROM u)
            """
        if keys > 0 {
            let rows = (0..<keys).map { row in
                "(" + (1...7).map { "$\(14 + row * 7 + $0)" }.joined(separator: ", ") + ")"
            }
            sql += """
                , k AS (
                    INSERT INTO exposure_keys (upload_id, key_data, rolling_start_number, rolling_period,
                        transmission_risk_level, report_type, days_since_onset, expires_at_s)
                    SELECT u.id, v.d, v.s, v.p, v.t, v.r, v.o, v.e FROM u,
                        (VALUES \(rows.joined(separator: ", "))) AS v (d, s, p, t, r, o, e))
                """
        }
        return sql + "\nSELECT id FROM u"
    }
    static let selectUpload = numbered(SQL.selectUpload)
    static let selectKeys = numbered(SQL.selectKeys)
    static let selectUploadChunks = numbered(SQL.selectUploadChunks)
    static let countDummy = """
        INSERT INTO dummy_traffic AS d (hour_ms, route, requests) VALUES ($1, $2, 1)
        ON CONFLICT (hour_ms, route) DO UPDATE SET requests = d.requests + 1
        """
    static let dummyCounts =
        "SELECT route, sum(requests)::bigint FROM dummy_traffic WHERE hour_ms >= $1 GROUP BY route"
    static let allowanceExists = numbered(SQL.allowanceExists)
    static let grantAllowance = numbered(SQL.grantAllowance)
    static let useAllowance = numbered(SQL.useAllowance)
    static let insertOperationalInfo = numbered(SQL.insertOperationalInfo)
    static let dropExpiredSalts = numbered(SQL.dropExpiredSalts)
    static let saltUsed = numbered(SQL.saltUsed)
    static let claimSalt = numbered(SQL.claimSalt)

}
