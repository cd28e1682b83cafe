import DeskCore

/// A numbered, forward-only schema change. Applied once, in its own transaction; never edited
/// after it has shipped (a store at any version must get the schema a new one gets).
struct Migration: Sendable {
    let version: Int
    let name: String
    /// The change in one engine's SQL.
    let sql: String
    /// What SQL alone cannot do on SQLite (it has no SHA-256 function), run after `sql` in the
    /// migration's transaction. Only SQLite runs it: PostgreSQL's `sql` does the same in SQL.
    var sqliteStep: (@Sendable (SQLiteConnection) throws(StoreError) -> Void)?

    /// Lines left empty by a piece of the other engine (``SQLDialect/postgresOnly(_:)``) are
    /// dropped, so each engine gets its SQL as if written for it alone.
    init(
        version: Int, name: String, sql: String,
        sqliteStep: (@Sendable (SQLiteConnection) throws(StoreError) -> Void)? = nil
    ) {
        self.version = version
        self.name = name
        self.sql = sql.split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "\n")
        self.sqliteStep = sqliteStep
    }
}

/// The store's migrations, written once for both engines: the SQL where SQLite and PostgreSQL
/// agree, and the pieces where they do not chosen by the dialect (``SQLDialect``'s schema
/// members: BIGINT for INTEGER, BYTEA for BLOB, identity columns for AUTOINCREMENT, and the few
/// statements one engine needs alone). MigrationCatalogTests checks that both engines end with
/// the same tables, columns and indexes.
package enum Migrations {
    /// Marks a TraceDesk SQLite file (`PRAGMA application_id`): 'TRDK'.
    static let applicationID: Int32 = 0x5452_444B

    /// Every migration, in order, in `d`'s SQL.
    static func all(for d: SQLDialect) -> [Migration] {
        let int = d.integer
        let blob = d.blob
        let id = d.autoID
        return [
            Migration(
                version: 1, name: "0001_authorizations_and_events",
                sql: """
                    CREATE TABLE otp_authorizations (
                        otp_hash TEXT PRIMARY KEY NOT NULL CHECK (length(otp_hash) = 64),
                        symptoms_started_on TEXT NOT NULL CHECK (length(symptoms_started_on) = 10),
                        authorized_at_ms \(int) NOT NULL,
                        expires_at_ms \(int) NOT NULL CHECK (expires_at_ms > authorized_at_ms),
                        authorized_by TEXT NOT NULL,
                        state TEXT NOT NULL CHECK (state IN ('authorized', 'consumed')),
                        consumed_at_ms \(int),
                        CHECK ((state = 'consumed') = (consumed_at_ms IS NOT NULL))
                    );
                    CREATE TABLE events (
                        id \(id),
                        at_ms \(int) NOT NULL,
                        kind TEXT NOT NULL,
                        otp_hash TEXT CHECK (otp_hash IS NULL OR length(otp_hash) = 64),
                        actor TEXT,
                        detail TEXT NOT NULL DEFAULT '{}'
                    );
                    CREATE INDEX events_by_otp_hash ON events (otp_hash);
                    """
            ),
            Migration(
                version: 2, name: "0002_uploads_keys_analytics",
                sql: """
                    CREATE TABLE uploads (
                        id \(id),
                        otp_hash TEXT NOT NULL CHECK (length(otp_hash) = 64),
                        received_at_ms \(int) NOT NULL,
                        symptoms_started_on TEXT NOT NULL CHECK (length(symptoms_started_on) = 10),
                        province TEXT CHECK (province IS NULL OR length(province) = 2),
                        client_clock_s \(int) NOT NULL,
                        clock_skew_s \(int) NOT NULL,
                        keys_accepted \(int) NOT NULL CHECK (keys_accepted >= 0),
                        keys_dropped \(int) NOT NULL CHECK (keys_dropped >= 0),
                        dropped_reasons TEXT NOT NULL DEFAULT '{}',
                        summary_count \(int) NOT NULL DEFAULT 0,
                        summaries TEXT NOT NULL DEFAULT '[]'
                    );
                    CREATE INDEX uploads_by_time ON uploads (received_at_ms);
                    CREATE TABLE exposure_keys (
                        id \(id),
                        upload_id \(int) NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
                        key_data \(blob) NOT NULL CHECK (length(key_data) = 16),
                        rolling_start_number \(int) NOT NULL,
                        rolling_period \(int) NOT NULL CHECK (rolling_period BETWEEN 1 AND 144),
                        transmission_risk_level \(int) NOT NULL,
                        report_type \(int) NOT NULL,
                        days_since_onset \(int) NOT NULL,
                        expires_at_s \(int) NOT NULL,
                        chunk_index \(int)
                    );
                    CREATE INDEX exposure_keys_by_upload ON exposure_keys (upload_id);
                    CREATE INDEX exposure_keys_unpublished ON exposure_keys (expires_at_s) WHERE chunk_index IS NULL;
                    CREATE TABLE dummy_traffic (
                        hour_ms \(int) NOT NULL,
                        route TEXT NOT NULL,
                        requests \(int) NOT NULL,
                        PRIMARY KEY (hour_ms, route)
                    );
                    CREATE TABLE analytics_allowances (
                        token_hash TEXT NOT NULL CHECK (length(token_hash) = 64),
                        month TEXT NOT NULL CHECK (length(month) = 10),
                        with_exposure \(int) NOT NULL CHECK (with_exposure IN (0, 1)),
                        expires_at_ms \(int) NOT NULL,
                        PRIMARY KEY (token_hash, month, with_exposure)
                    );
                    CREATE TABLE operational_info (
                        id \(id),
                        received_at_ms \(int) NOT NULL,
                        platform TEXT NOT NULL CHECK (platform IN ('ios', 'android')),
                        province TEXT NOT NULL CHECK (length(province) = 2),
                        build \(int),
                        exposure_permission \(int) NOT NULL,
                        bluetooth_active \(int) NOT NULL,
                        notification_permission \(int) NOT NULL,
                        exposure_notification \(int) NOT NULL,
                        last_risky_exposure_on TEXT
                    );
                    CREATE INDEX operational_info_by_time ON operational_info (received_at_ms);
                    CREATE TABLE attestation_salts (
                        salt TEXT PRIMARY KEY NOT NULL,
                        expires_at_ms \(int) NOT NULL
                    );
                    """
            ),
            Migration(
                version: 3, name: "0003_chunks",
                sql: """
                    CREATE TABLE chunks (
                        chunk_index \(int) PRIMARY KEY NOT NULL CHECK (chunk_index >= 1),
                        published_at_ms \(int) NOT NULL,
                        window_start_s \(int) NOT NULL,
                        window_end_s \(int) NOT NULL CHECK (window_end_s > window_start_s),
                        key_count \(int) NOT NULL CHECK (key_count >= 0),
                        padding_count \(int) NOT NULL CHECK (padding_count >= 0),
                        region TEXT NOT NULL,
                        key_id TEXT NOT NULL,
                        key_version TEXT NOT NULL,
                        export_bin_sha256 TEXT NOT NULL CHECK (length(export_bin_sha256) = 64),
                        zip \(blob) NOT NULL
                    );
                    \(d.postgresOnly(chunksZipStorage))
                    CREATE INDEX chunks_by_time ON chunks (published_at_ms);
                    CREATE TABLE padding_keys (
                        chunk_index \(int) NOT NULL REFERENCES chunks (chunk_index) ON DELETE CASCADE,
                        key_data \(blob) NOT NULL CHECK (length(key_data) = 16),
                        rolling_start_number \(int) NOT NULL,
                        rolling_period \(int) NOT NULL CHECK (rolling_period BETWEEN 1 AND 144),
                        transmission_risk_level \(int) NOT NULL,
                        report_type \(int) NOT NULL,
                        days_since_onset \(int) NOT NULL
                    );
                    CREATE INDEX padding_keys_by_chunk ON padding_keys (chunk_index);
                    CREATE TABLE publishing_state (
                        id \(int) PRIMARY KEY NOT NULL CHECK (id = 1),
                        last_chunk_index \(int) NOT NULL CHECK (last_chunk_index >= 1),
                        last_window_end_s \(int) NOT NULL
                    );
                    CREATE INDEX exposure_keys_published_by_data ON exposure_keys (key_data) WHERE chunk_index IS NOT NULL;
                    CREATE INDEX events_by_time ON events (at_ms);
                    CREATE INDEX otp_authorizations_by_expiry ON otp_authorizations (expires_at_ms);
                    """
            ),
            // Staff accounts, their sessions, and the audit log. Audit ids are given by the store
            // (last id + 1 under the log's lock), not by AUTOINCREMENT: they stay gapless, so a
            // deleted entry shows. The triggers make the log append-only for every connection (on
            // PostgreSQL row triggers refuse UPDATE and DELETE, a statement trigger TRUNCATE: only
            // the table's owner, by dropping them first, can change it, and the chain shows it).
            // `failed_sign_ins` counts the attempts whose password is being checked too
            // (`sign_ins_in_flight` of them, begun last at `last_attempt_at_ms`);
            // `last_failed_at_ms` is the time of the last confirmed failure (StaffWork.beginSignIn).
            Migration(
                version: 4, name: "0004_staff_sessions_audit",
                sql: """
                    CREATE TABLE staff (
                        name TEXT PRIMARY KEY NOT NULL,
                        role TEXT NOT NULL CHECK (role IN ('operator', 'tracer', 'supervisor', 'admin')),
                        password_hash TEXT NOT NULL,
                        disabled \(int) NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
                        locked \(int) NOT NULL DEFAULT 0 CHECK (locked IN (0, 1)),
                        failed_sign_ins \(int) NOT NULL DEFAULT 0 CHECK (failed_sign_ins >= 0),
                        sign_ins_in_flight \(int) NOT NULL DEFAULT 0 CHECK (sign_ins_in_flight >= 0),
                        last_failed_at_ms \(int),
                        last_attempt_at_ms \(int),
                        created_at_ms \(int) NOT NULL,
                        created_by TEXT NOT NULL,
                        password_changed_at_ms \(int) NOT NULL,
                        last_sign_in_at_ms \(int),
                        CHECK (sign_ins_in_flight <= failed_sign_ins)
                    );
                    CREATE TABLE staff_sessions (
                        token_hash TEXT PRIMARY KEY NOT NULL CHECK (length(token_hash) = 64),
                        staff_name TEXT NOT NULL REFERENCES staff (name),
                        created_at_ms \(int) NOT NULL,
                        last_seen_at_ms \(int) NOT NULL,
                        expires_at_ms \(int) NOT NULL CHECK (expires_at_ms >= created_at_ms),
                        ended_at_ms \(int)
                    );
                    CREATE INDEX staff_sessions_by_staff ON staff_sessions (staff_name);
                    CREATE TABLE audit_log (
                        id \(int) PRIMARY KEY NOT NULL CHECK (id >= 1),
                        at_ms \(int) NOT NULL,
                        actor TEXT NOT NULL,
                        action TEXT NOT NULL,
                        target TEXT,
                        detail TEXT NOT NULL DEFAULT '{}',
                        previous_hash TEXT NOT NULL CHECK (length(previous_hash) = 64),
                        hash TEXT NOT NULL CHECK (length(hash) = 64)
                    );
                    CREATE INDEX audit_log_by_actor ON audit_log (actor, id);
                    CREATE INDEX audit_log_by_action ON audit_log (action, id);
                    CREATE INDEX audit_log_by_time ON audit_log (at_ms);
                    \(d.choose(sqlite: sqliteAuditTriggers, postgres: postgresAuditTriggers))
                    """
            ),
            // The event stream's positions (`seq`, what the monitor pages by) and the scheduled jobs'
            // last and next runs. SQLite's writes are serialised, so a row's id is already its place
            // in commit order: the position is a virtual column computed from it, which costs an
            // insert nothing (a trigger copying it made every upload's event a second write).
            // PostgreSQL takes identity values before commit, so ids are not commit order there:
            // readers give committed rows their positions from `event_positions`, in id order, one
            // reader at a time (PGSQL.assignPositions). Rows written before this migration keep their
            // id, the sequence continues after the highest, and a partial index finds the rows that
            // wait for a position. Uploads gain an index by code, for the watch.
            Migration(
                version: 5, name: "0005_event_positions_job_runs",
                sql: """
                    ALTER TABLE events ADD COLUMN seq \(d.choose(sqlite: "INTEGER GENERATED ALWAYS AS (id) VIRTUAL", postgres: "BIGINT"));
                    \(d.postgresOnly("UPDATE events SET seq = id;"))
                    CREATE UNIQUE INDEX events_by_seq ON events (seq);
                    \(d.postgresOnly(postgresEventPositions))
                    CREATE INDEX uploads_by_otp_hash ON uploads (otp_hash);
                    CREATE TABLE job_runs (
                        job TEXT PRIMARY KEY NOT NULL,
                        last_run_ms \(int) NOT NULL,
                        next_run_ms \(int) NOT NULL
                    );
                    """
            ),
            // APRICOT (spec/apricot-protocol.md). A pseudo-id is stored as its 4-byte suffix, the
            // primary key (SQLite: the rowid itself), which is what keeps pseudo-ids unique across
            // every server; `apricot_counters` counts them, so the capacity is one row, not a count
            // over millions. A contact file is one row per (user, day), its records one blob: an
            // upload is one write and a lookup reads 30 rows. SMS codes keep a row per code issued
            // (the hourly limit counts them); outcomes one row per (patient, contact).
            Migration(
                version: 6, name: "0006_apricot",
                sql: """
                    CREATE TABLE apricot_sms_codes (
                        id \(id),
                        phone TEXT NOT NULL,
                        code_hmac TEXT NOT NULL,
                        created_at_ms \(int) NOT NULL,
                        expires_at_ms \(int) NOT NULL CHECK (expires_at_ms > created_at_ms),
                        attempts \(int) NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                        state TEXT NOT NULL CHECK (state IN ('active', 'used', 'replaced'))
                    );
                    CREATE INDEX apricot_sms_codes_by_phone ON apricot_sms_codes (phone, created_at_ms);
                    CREATE INDEX apricot_sms_codes_by_expiry ON apricot_sms_codes (expires_at_ms);
                    CREATE TABLE apricot_users (
                        id \(id),
                        phone TEXT NOT NULL UNIQUE,
                        app_id TEXT NOT NULL,
                        device_id TEXT NOT NULL,
                        registered_at_ms \(int) NOT NULL
                    );
                    CREATE TABLE pseudo_ids (
                        suffix \(int) PRIMARY KEY NOT NULL CHECK (suffix BETWEEN 0 AND 4294967295),
                        user_id \(int) NOT NULL REFERENCES apricot_users (id)
                    );
                    CREATE INDEX pseudo_ids_by_user ON pseudo_ids (user_id);
                    CREATE TABLE apricot_counters (
                        name TEXT PRIMARY KEY NOT NULL,
                        value \(int) NOT NULL CHECK (value >= 0)
                    );
                    INSERT INTO apricot_counters (name, value) VALUES ('pseudo_ids', 0);
                    CREATE TABLE apricot_tokens (
                        token_hash TEXT PRIMARY KEY NOT NULL,
                        user_id \(int) NOT NULL REFERENCES apricot_users (id),
                        app_id TEXT NOT NULL,
                        device_id TEXT NOT NULL,
                        created_at_ms \(int) NOT NULL,
                        expires_at_ms \(int) NOT NULL
                    );
                    CREATE INDEX apricot_tokens_by_expiry ON apricot_tokens (expires_at_ms);
                    CREATE TABLE contact_files (
                        user_id \(int) NOT NULL REFERENCES apricot_users (id),
                        day TEXT NOT NULL CHECK (length(day) = 10),
                        received_at_ms \(int) NOT NULL,
                        client_clock_s \(int) NOT NULL,
                        skew_s \(int) NOT NULL,
                        records \(int) NOT NULL CHECK (records >= 1),
                        bytes \(blob) NOT NULL CHECK (length(bytes) = records * 24),
                        PRIMARY KEY (user_id, day)
                    );
                    CREATE INDEX contact_files_by_day ON contact_files (day);
                    CREATE TABLE contact_outcomes (
                        patient_user_id \(int) NOT NULL REFERENCES apricot_users (id),
                        contact_user_id \(int) NOT NULL REFERENCES apricot_users (id),
                        outcome TEXT NOT NULL CHECK (outcome IN ('not_yet_called', 'no_answer', 'reached_isolating',
                            'reached_refused', 'wrong_number')),
                        note TEXT NOT NULL DEFAULT '',
                        recorded_by TEXT NOT NULL,
                        recorded_at_ms \(int) NOT NULL,
                        PRIMARY KEY (patient_user_id, contact_user_id)
                    );
                    CREATE TABLE sms_messages (
                        id \(id),
                        phone TEXT NOT NULL,
                        text TEXT NOT NULL,
                        gateway TEXT NOT NULL,
                        status TEXT NOT NULL CHECK (status IN ('held', 'pending', 'sent', 'failed')),
                        attempts \(int) NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                        detail TEXT NOT NULL DEFAULT '',
                        created_at_ms \(int) NOT NULL,
                        updated_at_ms \(int) NOT NULL
                    );
                    """
            ),
            // The supervisor's statistics (issue 9). `checked_at_ms`: the first check that answered
            // "authorised" since the code's latest authorisation (PhoneWork.recordCheck sets it, an
            // authorisation resets it), backfilled from the events. `otp_authorizations_by_time`
            // covers the funnel's columns, so the funnel is read from the index alone (SQLite).
            // `stats_hourly`: event-time
            // figures per closed hour (StatsWork): `figure` and `key` name what is counted, `n` the
            // count, `s1`…`s3` sums where the figure has them. `stats_rollup`: the hours rolled up,
            // `[from_ms, to_ms)`. From here on dummy traffic is counted per 5-minute slot (the
            // column keeps its name `hour_ms`; older rows stay hour-aligned). Details are TEXT
            // holding JSON on both engines.
            Migration(
                version: 7, name: "0007_statistics",
                sql: """
                    ALTER TABLE otp_authorizations ADD COLUMN checked_at_ms \(int);
                    UPDATE otp_authorizations SET checked_at_ms = (
                        SELECT min(e.at_ms) FROM events e
                        WHERE e.otp_hash = otp_authorizations.otp_hash AND e.kind = 'otp_checked'
                            AND e.at_ms >= otp_authorizations.authorized_at_ms
                            AND \(d.jsonField("e.detail", "status")) = 'authorized');
                    CREATE INDEX otp_authorizations_by_time
                        ON otp_authorizations (authorized_at_ms, authorized_by, state, checked_at_ms, consumed_at_ms);
                    CREATE TABLE stats_hourly (
                        hour_ms \(int) NOT NULL,
                        figure TEXT NOT NULL,
                        key TEXT NOT NULL,
                        n \(int) NOT NULL,
                        s1 \(int) NOT NULL DEFAULT 0,
                        s2 \(int) NOT NULL DEFAULT 0,
                        s3 \(int) NOT NULL DEFAULT 0,
                        PRIMARY KEY (hour_ms, figure, key)
                    );
                    CREATE TABLE stats_rollup (
                        id \(int) PRIMARY KEY NOT NULL CHECK (id = 1),
                        from_ms \(int) NOT NULL,
                        to_ms \(int) NOT NULL CHECK (to_ms >= from_ms)
                    );
                    """
            ),
            // Issue 18: failed sign-ins per (account, source): the waits follow the failing source
            // only (SignInPolicy), the lock the account's row. A source is a client address (an IPv6
            // /64) or "local". And the idle limit a session was given at sign-in, so that every
            // server on the store applies the same (NULL: a session from before, which gets the
            // checking server's own limit).
            Migration(
                version: 8, name: "0008_signin_sources",
                sql: """
                    CREATE TABLE staff_sign_in_sources (
                        staff_name TEXT NOT NULL REFERENCES staff (name),
                        source TEXT NOT NULL,
                        failures \(int) NOT NULL CHECK (failures >= 1),
                        last_failed_at_ms \(int) NOT NULL,
                        PRIMARY KEY (staff_name, source)
                    );
                    ALTER TABLE staff_sessions ADD COLUMN idle_seconds \(int) CHECK (idle_seconds >= 1);
                    """
            ),
            // Named hospital systems (issue 18): `key_hash` is the SHA-256 of the API key shown once
            // at `his add` (the key itself is never stored); `rate_per_minute` overrides the server's
            // `his_rate_per_minute` (NULL: the setting); a revoked client keeps its row and name, so
            // old events and audit entries keep naming one system.
            Migration(
                version: 9, name: "0009_his_clients",
                sql: """
                    CREATE TABLE his_clients (
                        name TEXT PRIMARY KEY NOT NULL,
                        key_hash TEXT NOT NULL UNIQUE,
                        rate_per_minute \(int) CHECK (rate_per_minute IS NULL OR rate_per_minute > 0),
                        created_at_ms \(int) NOT NULL,
                        created_by TEXT NOT NULL,
                        revoked_at_ms \(int),
                        revoked_by TEXT
                    );
                    """
            ),
            // The store is a secret (issue 18, point 5). Codes are keyed by a one-way function of
            // the bearer token (OtpHash.stored: its tag, then SHA-256 of the token), rewritten here
            // for every row (authorisations, events, uploads): in Swift on SQLite (`rekeyCodes`: it
            // has no SHA-256 function), in SQL on PostgreSQL (sha256(bytea), the same function). SMS texts
            // are dropped once their code is dead: `text_expires_at_ms` is when the code stops
            // (older rows: created + 5 minutes, the default lifetime), `text_dropped` why the text is
            // gone ('expired', 'used', 'replaced'). Checks of a code are coalesced (point 10c):
            // `check_count` and `last_checked_at_ms` count every check since the authorisation,
            // `check_event_at_ms` is when the last `otp_checked` event was written (at most one a
            // code every PhoneWork.checkEventInterval), backfilled from the events.
            Migration(
                version: 10, name: "0010_store_secrets",
                sql: """
                    ALTER TABLE otp_authorizations ADD COLUMN check_count \(int) NOT NULL DEFAULT 0;
                    ALTER TABLE otp_authorizations ADD COLUMN last_checked_at_ms \(int);
                    ALTER TABLE otp_authorizations ADD COLUMN check_event_at_ms \(int);
                    UPDATE otp_authorizations SET
                        check_count = (SELECT count(*) FROM events e WHERE e.otp_hash = otp_authorizations.otp_hash
                            AND e.kind = 'otp_checked' AND e.at_ms >= otp_authorizations.authorized_at_ms),
                        last_checked_at_ms = (SELECT max(e.at_ms) FROM events e WHERE e.otp_hash = otp_authorizations.otp_hash
                            AND e.kind = 'otp_checked' AND e.at_ms >= otp_authorizations.authorized_at_ms);
                    UPDATE otp_authorizations SET check_event_at_ms = last_checked_at_ms;
                    ALTER TABLE sms_messages ADD COLUMN text_expires_at_ms \(int);
                    ALTER TABLE sms_messages ADD COLUMN text_dropped TEXT
                        CHECK (text_dropped IS NULL OR text_dropped IN ('expired', 'used', 'replaced'));
                    UPDATE sms_messages SET text_expires_at_ms = created_at_ms + 300000;
                    CREATE INDEX sms_messages_by_text_expiry ON sms_messages (text_expires_at_ms) WHERE text_dropped IS NULL;
                    \(d.postgresOnly(postgresRekeyCodes))
                    """,
                sqliteStep: { connection throws(StoreError) in try rekeyCodes(connection) }
            ),
            // Contact follow-up (issue 21). A case is a positive patient (an APRICOT user) with a
            // reference; one open case per patient. A follow-up is one person followed, active
            // (`calling`, `monitoring`: `next_due_ms` set) at most once per person, naming every
            // case they are a contact of in `follow_up_cases` with the evidence from when they
            // joined it. The schedule's columns are FollowUpSchedule's fields. `case_history` is a
            // case's story in words (never a phone number). Days are ISO text, times ms, as
            // everywhere. `follow_ups_queue` serves a tracer's queue page from the index.
            Migration(
                version: 11, name: "0011_follow_ups",
                sql: """
                    CREATE TABLE cases (
                        id \(id),
                        reference TEXT NOT NULL CHECK (length(reference) BETWEEN 1 AND 256),
                        patient_user_id \(int) NOT NULL REFERENCES apricot_users (id),
                        index_day TEXT NOT NULL CHECK (length(index_day) = 10),
                        index_kind TEXT NOT NULL CHECK (index_kind IN ('symptom_onset', 'test_day')),
                        opened_by TEXT NOT NULL,
                        opened_at_ms \(int) NOT NULL,
                        status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
                        close_reason TEXT CHECK (close_reason IS NULL
                            OR close_reason IN ('recovered', 'transferred', 'opened_in_error', 'other')),
                        closed_by TEXT,
                        closed_at_ms \(int),
                        source_follow_up_id \(int),
                        CHECK ((status = 'closed') = (closed_at_ms IS NOT NULL))
                    );
                    CREATE UNIQUE INDEX cases_one_open_per_patient ON cases (patient_user_id) WHERE status = 'open';
                    CREATE INDEX cases_by_opened ON cases (opened_at_ms);
                    CREATE INDEX cases_by_opener ON cases (opened_by, opened_at_ms);
                    CREATE INDEX cases_by_closed ON cases (closed_at_ms) WHERE status = 'closed';
                    CREATE TABLE follow_ups (
                        id \(id),
                        person_user_id \(int) NOT NULL REFERENCES apricot_users (id),
                        state TEXT NOT NULL CHECK (state IN ('calling', 'monitoring', 'completed', 'lost',
                            'wrong_number', 'refused', 'case_closed', 'became_case')),
                        assigned_to TEXT,
                        last_exposure_day TEXT NOT NULL CHECK (length(last_exposure_day) = 10),
                        period_ends_on TEXT NOT NULL CHECK (length(period_ends_on) = 10),
                        created_at_ms \(int) NOT NULL,
                        next_due_ms \(int),
                        attempts \(int) NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                        attempts_on_last_day \(int) NOT NULL DEFAULT 0 CHECK (attempts_on_last_day >= 0),
                        last_outcome TEXT CHECK (last_outcome IS NULL
                            OR last_outcome IN ('no_answer', 'voicemail', 'wrong_number', 'reached', 'refused')),
                        last_attempt_ms \(int),
                        reached_at_ms \(int),
                        checked_days \(int) NOT NULL DEFAULT 0 CHECK (checked_days >= 0),
                        last_check_day TEXT CHECK (last_check_day IS NULL OR length(last_check_day) = 10),
                        symptoms_flagged \(int) NOT NULL DEFAULT 0 CHECK (symptoms_flagged IN (0, 1)),
                        ended_at_ms \(int),
                        became_case_id \(int),
                        CHECK ((state IN ('calling', 'monitoring')) = (next_due_ms IS NOT NULL))
                    );
                    CREATE UNIQUE INDEX follow_ups_one_active_per_person ON follow_ups (person_user_id)
                        WHERE state IN ('calling', 'monitoring');
                    CREATE INDEX follow_ups_queue ON follow_ups (assigned_to, next_due_ms, id)
                        WHERE next_due_ms IS NOT NULL;
                    CREATE INDEX follow_ups_by_due ON follow_ups (next_due_ms, id) WHERE next_due_ms IS NOT NULL;
                    CREATE INDEX follow_ups_by_person ON follow_ups (person_user_id);
                    CREATE TABLE follow_up_cases (
                        follow_up_id \(int) NOT NULL REFERENCES follow_ups (id) ON DELETE CASCADE,
                        case_id \(int) NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
                        last_exposure_day TEXT NOT NULL CHECK (length(last_exposure_day) = 10),
                        minutes \(int) NOT NULL CHECK (minutes >= 0),
                        days \(int) NOT NULL CHECK (days >= 0),
                        most_minutes_one_day \(int) NOT NULL CHECK (most_minutes_one_day >= 0),
                        is_close \(int) NOT NULL CHECK (is_close IN (0, 1)),
                        added_by_hand TEXT,
                        added_at_ms \(int) NOT NULL,
                        PRIMARY KEY (follow_up_id, case_id)
                    );
                    CREATE INDEX follow_up_cases_by_case ON follow_up_cases (case_id);
                    CREATE TABLE follow_up_attempts (
                        id \(id),
                        follow_up_id \(int) NOT NULL REFERENCES follow_ups (id) ON DELETE CASCADE,
                        at_ms \(int) NOT NULL,
                        by_name TEXT NOT NULL,
                        outcome TEXT NOT NULL
                            CHECK (outcome IN ('no_answer', 'voicemail', 'wrong_number', 'reached', 'refused')),
                        note TEXT NOT NULL DEFAULT ''
                    );
                    CREATE INDEX follow_up_attempts_by_follow_up ON follow_up_attempts (follow_up_id, at_ms);
                    CREATE INDEX follow_up_attempts_by_time ON follow_up_attempts (at_ms);
                    CREATE TABLE follow_up_checks (
                        id \(id),
                        follow_up_id \(int) NOT NULL REFERENCES follow_ups (id) ON DELETE CASCADE,
                        day TEXT NOT NULL CHECK (length(day) = 10),
                        at_ms \(int) NOT NULL,
                        by_name TEXT NOT NULL,
                        symptoms \(int) NOT NULL CHECK (symptoms IN (0, 1)),
                        isolating \(int) NOT NULL CHECK (isolating IN (0, 1)),
                        note TEXT NOT NULL DEFAULT ''
                    );
                    CREATE INDEX follow_up_checks_by_follow_up ON follow_up_checks (follow_up_id, day);
                    CREATE INDEX follow_up_checks_by_time ON follow_up_checks (at_ms);
                    CREATE TABLE case_history (
                        id \(id),
                        case_id \(int) NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
                        at_ms \(int) NOT NULL,
                        actor TEXT NOT NULL,
                        text TEXT NOT NULL
                    );
                    CREATE INDEX case_history_by_case ON case_history (case_id, id);
                    """
            ),
            // The tracing indicators' facts kept on the rows by triggers (issue 21, performance):
            // per case its contacts, close contacts, those reached within 24 h and the first
            // reach; per follow-up its cases' first and last opening; two partial indexes for
            // the ended and the never-reached follow-ups (Migrations+IndicatorFacts.swift).
            Migration(version: 12, name: "0012_indicator_facts", sql: indicatorFacts(d)),
            // Publishing writes per chunk, not per key: the sweep's watermark, the keys it held,
            // each chunk's range of ids, and the full index on key data the duplicate check
            // reads (Migrations+KeySweep.swift).
            Migration(version: 13, name: "0013_key_sweep", sql: keySweep(d)),
        ]
    }

    static var latestVersion: Int { all(for: .sqlite).last?.version ?? 0 }

    // MARK: The pieces one engine has alone

    /// A zip is already compressed: PostgreSQL stores it as it is, out of line.
    static let chunksZipStorage = """
        -- A zip is already compressed: store it as it is, out of line.
        ALTER TABLE chunks ALTER COLUMN zip SET STORAGE EXTERNAL;
        """

    static let sqliteAuditTriggers = """
        CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN
            SELECT RAISE(ABORT, 'the audit log is append-only');
        END;
        CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN
            SELECT RAISE(ABORT, 'the audit log is append-only');
        END;
        """

    static let postgresAuditTriggers = """
        CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'the audit log is append-only';
        END;
        $$;
        CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
            FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
        CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
            FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
        """

    /// PostgreSQL's event positions (migration 5): the rows that wait for one, and the sequence
    /// that gives them, continuing after the ids already stored.
    static let postgresEventPositions = """
        CREATE INDEX events_unsequenced ON events (id) WHERE seq IS NULL;
        CREATE SEQUENCE event_positions;
        SELECT setval('event_positions', (SELECT coalesce(max(id), 0) + 1 FROM events), false);
        """

    /// Migration 10's rekeying on PostgreSQL: ``OtpHash/stored`` in SQL.
    static let postgresRekeyCodes = """
        UPDATE otp_authorizations SET otp_hash = substr(otp_hash, 1, 6) || substr(encode(sha256(convert_to(otp_hash, 'UTF8')), 'hex'), 1, 58);
        UPDATE events SET otp_hash = substr(otp_hash, 1, 6) || substr(encode(sha256(convert_to(otp_hash, 'UTF8')), 'hex'), 1, 58)
            WHERE otp_hash IS NOT NULL;
        UPDATE uploads SET otp_hash = substr(otp_hash, 1, 6) || substr(encode(sha256(convert_to(otp_hash, 'UTF8')), 'hex'), 1, 58);
        """

    /// Rewrites every stored code from the bearer token to ``OtpHash/stored`` (migration 10, SQLite).
    static func rekeyCodes(_ connection: SQLiteConnection) throws(StoreError) {
        let op = "migration 0010_store_secrets"
        let tokens = try connection.query(
            """
            SELECT otp_hash FROM otp_authorizations UNION SELECT otp_hash FROM events WHERE otp_hash IS NOT NULL
            UNION SELECT otp_hash FROM uploads
            """, operation: op
        ) { $0.text(0) }
        for token in tokens {
            let key = SQLValue.text(OtpHash.storedHex(token))
            for table in ["otp_authorizations", "events", "uploads"] {
                try connection.run(
                    "UPDATE \(table) SET otp_hash = ? WHERE otp_hash = ?", [key, .text(token)], operation: op)
            }
        }
    }
}
