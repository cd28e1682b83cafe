import DeskCore
import DeskStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `tracedesk bench stats` writes into an empty store: a national fortnight in a few bulk
/// statements (`INSERT … SELECT` over a generated series), far faster than the API's one
/// transaction per request. Audit entries are not written here (the bench appends its lookups
/// through ``StaffStore/appendAudit(actor:action:target:detail:now:)``, which keeps the hash
/// chain).
public struct StatsSeedPlan: Hashable, Sendable {
    /// Uploads accepted (each with 1–16 keys, a consumed authorisation and its event).
    public var uploads: Int
    /// Events in all, about: authorisations, checks, uploads, refusals, analytics,
    /// APRICOT registrations and contact files.
    public var events: Int
    /// Spread evenly over the last `days` days (UTC, today included) up to `now`'s hour.
    public var days: Int
    public var now: Date

    public init(uploads: Int, events: Int, days: Int, now: Date) {
        self.uploads = uploads
        self.events = events
        self.days = days
        self.now = now
    }

    /// Rows per kind: authorisations 1.2 × uploads (all with their `otp_authorized` event),
    /// checks 1.5 ×, refusals 0.1 ×; the rest of `events` is analytics 60 %, contact files 27 %,
    /// registrations 13 %.
    var authorizations: Int { uploads * 6 / 5 }
    var checks: Int { uploads * 3 / 2 }
    var refusals: Int { max(1, uploads / 10) }
    var rest: Int { max(0, events - authorizations - uploads - checks - refusals) }
    var analytics: Int { rest * 60 / 100 }
    var contactFiles: Int { rest * 27 / 100 }
    var registrations: Int { max(0, rest - analytics - contactFiles) }
    /// The start of the first of the `days` day buckets up to `now` (today is the last), so a
    /// query of the last `days` days covers everything; the rows end before `now`'s hour.
    public var startMs: Int64 { StatsBucket.day.floor(now.unixMilliseconds) - Int64(days - 1) * 86_400_000 }
    public var spanMs: Int64 { max(3_600_000, StatsBucket.hour.floor(now.unixMilliseconds) - startMs) }

    /// The statements, in order, for a dialect (the store runs `ANALYZE` after them).
    func statements(for dialect: SQLDialect) -> [String] {
        let postgres = dialect == .postgres
        func series(_ n: Int) -> String {
            postgres
                ? "generate_series(CAST(0 AS BIGINT), \(n - 1)) AS s(i)"
                : "(WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < \(n - 1)) SELECT i FROM r) AS s"
        }
        // Stored keys (OtpHash.stored) of no real code: nothing seeded here is a bearer token.
        func hash(_ code: String) -> String {
            postgres ? "lpad(to_hex(\(code)), 64, '0')" : "printf('%064x', \(code))"
        }
        let blob16 = postgres ? "decode(md5(CAST(i AS TEXT)), 'hex')" : "randomblob(16)"
        let oneByte = postgres ? "'\\x00'::bytea" : "zeroblob(1)"
        /// Row k of n, spread evenly over the span in order (a server writes in time order, so a
        /// table's rows are in time order too).
        func at(_ k: String, _ n: Int) -> String {
            "\(startMs) + (\(k)) * \(spanMs / Int64(max(1, n)))"
        }
        let a = authorizations
        let hours = Int(spanMs / 3_600_000)
        let u = uploads
        let authorizedAt = at("i", a)
        let provinces = "substr('RMMINATOFIBOBAPAGECAVE', CAST(1 + (i % 11) * 2 AS INTEGER), 2)"
        return [
            // Authorisations: the first `u` consumed 1–61 min later; nine in ten checked.
            """
            INSERT INTO otp_authorizations (otp_hash, symptoms_started_on, authorized_at_ms, expires_at_ms,
                authorized_by, state, consumed_at_ms, checked_at_ms)
            SELECT \(hash("i")), '2026-11-20', \(authorizedAt), \(authorizedAt) + 86400000,
                'operator-' || (i % 20), CASE WHEN i < \(u) THEN 'consumed' ELSE 'authorized' END,
                CASE WHEN i < \(u) THEN \(authorizedAt) + 60000 + (i % 3600) * 1000 END,
                CASE WHEN i % 10 <> 0 THEN \(authorizedAt) + 30000 END
            FROM \(series(a))
            """,
            """
            INSERT INTO events (at_ms, kind, otp_hash, actor, detail)
            SELECT \(authorizedAt), 'otp_authorized', \(hash("i")), 'operator-' || (i % 20), '{}'
            FROM \(series(a))
            """,
            """
            INSERT INTO events (at_ms, kind, otp_hash, actor, detail)
            SELECT \(at("i % \(a)", a)) + 30000 + (i / \(a)) * 1000, 'otp_checked', \(hash("i % \(a)")), NULL,
                '{"status":"authorized"}'
            FROM \(series(checks))
            """,
            """
            INSERT INTO uploads (otp_hash, received_at_ms, symptoms_started_on, province, client_clock_s,
                clock_skew_s, keys_accepted, keys_dropped, dropped_reasons, summary_count, summaries)
            SELECT \(hash("i")), \(authorizedAt) + 60000 + (i % 3600) * 1000, '2026-11-20', \(provinces), 0, 0,
                1 + i % 16, CASE WHEN i % 4 = 0 THEN 1 + i % 3 ELSE 0 END,
                CASE WHEN i % 4 <> 0 THEN '{}' WHEN i % 8 = 0 THEN '{"too_old":' || (1 + i % 3) || '}'
                    ELSE '{"future":' || (1 + i % 3) || '}' END, 0, '[]'
            FROM \(series(u))
            """,
            """
            INSERT INTO events (at_ms, kind, otp_hash, actor, detail)
            SELECT \(authorizedAt) + 60000 + (i % 3600) * 1000, 'upload_accepted', \(hash("i")), NULL,
                '{"upload_id":' || (i + 1) || ',"keys_accepted":' || (1 + i % 16) || '}'
            FROM \(series(u))
            """,
            // Keys: upload i + 1 (a fresh store) has 1 + i % 16 of them; most are published.
            """
            INSERT INTO exposure_keys (upload_id, key_data, rolling_start_number, rolling_period,
                transmission_risk_level, report_type, days_since_onset, expires_at_s, chunk_index)
            SELECT i / 16 + 1, \(blob16), 2992000 + i % 2000, 144, 6, 1, 0, \(startMs / 1000) + (i / 16) % \(spanMs / 1000),
                CASE WHEN i % 10 = 0 THEN NULL ELSE 1 + (i / 16) % \(hours) END
            FROM \(series(u * 16)) WHERE i % 16 <= (i / 16) % 16
            """,
            """
            INSERT INTO events (at_ms, kind, otp_hash, actor, detail)
            SELECT \(at("i", refusals)), 'upload_refused', \(hash("i % \(a)")), NULL,
                CASE WHEN i % 3 = 0 THEN '{"reason":"consumed"}' ELSE '{"reason":"expired"}' END
            FROM \(series(refusals))
            """,
            """
            INSERT INTO operational_info (received_at_ms, platform, province, build, exposure_permission,
                bluetooth_active, notification_permission, exposure_notification, last_risky_exposure_on)
            SELECT \(at("i", analytics)), CASE WHEN i % 2 = 0 THEN 'ios' ELSE 'android' END, \(provinces), 1, 1,
                CASE WHEN i % 5 = 0 THEN 0 ELSE 1 END, CASE WHEN i % 7 = 0 THEN 0 ELSE 1 END,
                CASE WHEN i % 20 = 0 THEN 1 ELSE 0 END, NULL
            FROM \(series(analytics))
            """,
            """
            INSERT INTO events (at_ms, kind, otp_hash, actor, detail)
            SELECT \(at("i", analytics)), 'analytics_received', NULL, NULL,
                '{"platform":"ios","province":"' || \(provinces) || '","exposure_notification":false}'
            FROM \(series(analytics))
            """,
            """
            INSERT INTO events (at_ms, kind, otp_hash, actor, detail)
            SELECT \(at("i", registrations)), 'apricot_registered', NULL, NULL,
                CASE WHEN i % 10 = 0 THEN '{"pseudo_ids":1000,"returning":true}' ELSE '{"pseudo_ids":1000}' END
            FROM \(series(registrations))
            """,
            """
            INSERT INTO events (at_ms, kind, otp_hash, actor, detail)
            SELECT \(at("i", contactFiles)), 'contact_file_received', NULL, NULL,
                '{"day":"2026-11-20","records":1440,"replaced":false}'
            FROM \(series(contactFiles))
            """,
            // A chunk an hour, 10 min past.
            """
            INSERT INTO chunks (chunk_index, published_at_ms, window_start_s, window_end_s, key_count, padding_count,
                region, key_id, key_version, export_bin_sha256, zip)
            SELECT i + 1, \(startMs) + i * 3600000 + 600000, i * 3600, i * 3600 + 3600, 2000 + i % 500, 100 + i % 50,
                '222', '222', 'v1', \(hash("i")), \(oneByte)
            FROM \(series(hours))
            """,
            // Dummy traffic per 5-minute slot, on two routes.
            """
            INSERT INTO dummy_traffic (hour_ms, route, requests)
            SELECT \(startMs) + (i / 2) * 300000, CASE WHEN i % 2 = 0 THEN '/v1/ingestion/upload' ELSE '/v1/ingestion/check-otp' END,
                20 + i % 13
            FROM \(series(hours * 12 * 2))
            """,
        ]
    }
}

extension SQLiteStore {
    /// Bulk-writes `plan` into this store, which must hold no uploads yet (bench only).
    public func seedStatisticsBenchmark(_ plan: StatsSeedPlan) throws(StoreError) {
        try bulkLoadEmptyStore { plan.statements(for: $0) }
    }
}

extension PostgresStore {
    /// Bulk-writes `plan` into this store, which must hold no uploads yet (bench only).
    public func seedStatisticsBenchmark(_ plan: StatsSeedPlan) throws(StoreError) {
        try bulkLoadEmptyStore { plan.statements(for: $0) }
    }
}
