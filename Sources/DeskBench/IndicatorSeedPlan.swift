import CivilCalendar
import DeskCore
import DeskStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `tracedesk bench indicators` writes into an empty store: `cases` cases opened evenly
/// over the last `days` days, `followUps` follow-ups shared out among them (each naming one
/// case, created when it opened; every tenth case also names the previous case's first
/// follow-up), 20 tracers, an attempt per follow-up and a day's work of attempts and checks
/// today. In bulk (`INSERT … SELECT` over a generated series), as ``StatsSeedPlan`` does.
///
/// The follow-ups by `i % 10`: 0–5 calling (never reached), 6–7 monitoring, 8 completed, 9 lost;
/// four in five are close contacts; every tenth case's patient was a known contact.
public struct IndicatorSeedPlan: Hashable, Sendable {
    public var cases: Int
    public var followUps: Int
    public var days: Int
    public var now: Date
    public static let tracers = 20

    public init(cases: Int, followUps: Int, days: Int, now: Date) {
        self.cases = cases
        self.followUps = followUps
        self.days = days
        self.now = now
    }

    /// The first of the `days` UTC days up to `now` (today is the last).
    public var startMs: Int64 { StatsBucket.day.floor(now.unixMilliseconds) - Int64(days - 1) * 86_400_000 }
    var spanMs: Int64 { max(3_600_000, now.unixMilliseconds - 3_600_000 - startMs) }

    func statements(for dialect: SQLDialect) -> [String] {
        let postgres = dialect == .postgres
        func series(_ n: Int) -> String {
            postgres
                ? "generate_series(CAST(0 AS BIGINT), \(n - 1)) AS s(i)"
                : "(WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < \(n - 1)) SELECT i FROM r) AS s"
        }
        func phone(_ n: String) -> String {
            postgres ? "'+39' || lpad(CAST(\(n) AS TEXT), 10, '0')" : "printf('+39%010d', \(n))"
        }
        let nowMs = now.unixMilliseconds
        let today = now.utcDay
        let perCase = max(1, followUps / max(1, cases))
        // Follow-up i belongs to case i / perCase (the last case takes the rest).
        let caseOf = "(CASE WHEN i / \(perCase) < \(cases) THEN i / \(perCase) ELSE \(cases - 1) END)"
        let openedAt = { (k: String) in "\(startMs) + (\(k)) * \(spanMs / Int64(max(1, cases)))" }
        let tracer = { (k: String) in "'tracer-' || ((\(k)) % \(Self.tracers))" }
        let users = cases + followUps
        return [
            """
            INSERT INTO staff (name, role, password_hash, created_at_ms, created_by, password_changed_at_ms)
            SELECT \(tracer("i")), 'tracer', 'bench', \(startMs), 'bench', \(startMs) FROM \(series(Self.tracers))
            """,
            """
            INSERT INTO apricot_users (id, phone, app_id, device_id, registered_at_ms)
            SELECT i + 1, \(phone("i + 1")), 'bench', 'bench', \(startMs) FROM \(series(users))
            """,
            """
            INSERT INTO cases (id, reference, patient_user_id, index_day, index_kind, opened_by, opened_at_ms, status,
                source_follow_up_id)
            SELECT i + 1, 'BENCH-' || i, i + 1, '\(today.adding(days: -days).iso)', 'test_day', \(tracer("i")),
                \(openedAt("i")), 'open', CASE WHEN i % 10 = 0 THEN i + 1 END
            FROM \(series(cases))
            """,
            """
            INSERT INTO follow_ups (id, person_user_id, state, assigned_to, last_exposure_day, period_ends_on,
                created_at_ms, next_due_ms, attempts, attempts_on_last_day, last_outcome, last_attempt_ms,
                reached_at_ms, checked_days, last_check_day, ended_at_ms)
            SELECT i + 1, \(cases) + i + 1,
                CASE WHEN i % 10 < 6 THEN 'calling' WHEN i % 10 < 8 THEN 'monitoring'
                    WHEN i % 10 = 8 THEN 'completed' ELSE 'lost' END,
                CASE WHEN i % 10 < 8 THEN \(tracer("i")) END,
                '\(today.adding(days: -16).iso)',
                CASE WHEN i % 10 < 8 THEN '\(today.adding(days: 5).iso)' ELSE '\(today.adding(days: -1).iso)' END,
                \(openedAt(caseOf)),
                CASE WHEN i % 10 < 8 THEN \(nowMs) - 10800000 + (i % 720) * 60000 END,
                1 + i % 4, 1, CASE WHEN i % 10 < 6 OR i % 10 = 9 THEN 'no_answer' ELSE 'reached' END,
                \(openedAt(caseOf)) + 3600000,
                CASE WHEN i % 10 IN (6, 7, 8) THEN \(openedAt(caseOf)) + (i % 48) * 3600000 END,
                CASE WHEN i % 10 IN (6, 7, 8) THEN i % 15 ELSE 0 END,
                CASE WHEN i % 10 IN (6, 7, 8) THEN '\(today.adding(days: -1).iso)' END,
                CASE WHEN i % 10 >= 8 THEN \(nowMs) - 7200000 END
            FROM \(series(followUps))
            """,
            """
            INSERT INTO follow_up_cases (follow_up_id, case_id, last_exposure_day, minutes, days, most_minutes_one_day,
                is_close, added_by_hand, added_at_ms)
            SELECT i + 1, \(caseOf) + 1, '\(today.adding(days: -16).iso)', 20 + i % 100, 1 + i % 5, 20 + i % 60,
                CASE WHEN i % 5 = 0 THEN 0 ELSE 1 END, CASE WHEN i % 5 = 0 THEN 'bench' END, \(openedAt(caseOf))
            FROM \(series(followUps))
            """,
            // Every tenth case also names the first follow-up of the case before it.
            """
            INSERT INTO follow_up_cases (follow_up_id, case_id, last_exposure_day, minutes, days, most_minutes_one_day,
                is_close, added_by_hand, added_at_ms)
            SELECT (i - 1) * \(perCase) + 1, i + 1, '\(today.adding(days: -15).iso)', 30, 1, 30, 1, NULL, \(openedAt("i"))
            FROM \(series(cases)) WHERE i % 10 = 5
            """,
            """
            INSERT INTO follow_up_attempts (follow_up_id, at_ms, by_name, outcome, note)
            SELECT i + 1, \(openedAt(caseOf)) + 3600000, \(tracer("i")), 'no_answer', '' FROM \(series(followUps))
            """,
            """
            INSERT INTO follow_up_attempts (follow_up_id, at_ms, by_name, outcome, note)
            SELECT (i * 7) % \(followUps) + 1, \(StatsBucket.day.floor(nowMs)) + i * 5000 % \(max(1, nowMs - StatsBucket.day.floor(nowMs))),
                \(tracer("i")), 'no_answer', ''
            FROM \(series(followUps / 20))
            """,
            """
            INSERT INTO follow_up_checks (follow_up_id, day, at_ms, by_name, symptoms, isolating, note)
            SELECT (i * 10 + 6) % \(followUps) + 1, '\(today.iso)', \(StatsBucket.day.floor(nowMs)) + i * 7000 % \(max(1, nowMs - StatsBucket.day.floor(nowMs))),
                \(tracer("i")), CASE WHEN i % 50 = 0 THEN 1 ELSE 0 END, 1, ''
            FROM \(series(followUps / 50))
            """,
        ]
    }
}

extension SQLiteStore {
    /// Bulk-writes `plan` into this store, which must hold no uploads yet (bench only).
    public func seedIndicatorBenchmark(_ plan: IndicatorSeedPlan) throws(StoreError) {
        try bulkLoadEmptyStore { plan.statements(for: $0) }
    }
}

extension PostgresStore {
    /// Bulk-writes `plan` into this store, which must hold no uploads yet (bench only).
    public func seedIndicatorBenchmark(_ plan: IndicatorSeedPlan) throws(StoreError) {
        try bulkLoadEmptyStore { plan.statements(for: $0) }
    }
}
