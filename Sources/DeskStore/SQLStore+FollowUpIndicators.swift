import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The tracing indicators (issue 21, point 7): the facts, read with the same SQL on both engines
// in one snapshot, then ``IndicatorMath`` computes the figures. The per-case counts and each
// follow-up's cases' span are kept on the rows by migration 12's triggers, so a fortnight of
// 10 000 cases and 100 000 follow-ups reads one row per case, one index entry per ended
// follow-up and two index-only passes over the active ones (docs/benchmarks.md, "Tracing
// indicators"). ``Joined`` keeps the statements that counted everything from the pairs, for the
// benchmark's before-and-after in one run and the tests that both agree.
enum FollowUpIndicatorSQL {
    static let dayMs: Int64 = 86_400_000

    /// Per case opened in `[?, ?)`: opened at, whether it came from a follow-up, its contacts,
    /// its close contacts, those reached within 24 h of the case, the first reach (migration 12's
    /// columns).
    static let perCase = """
        SELECT opened_at_ms, CASE WHEN source_follow_up_id IS NULL THEN 0 ELSE 1 END, contact_count,
            close_contact_count, close_reached_in_24h_count, first_reached_at_ms
        FROM cases WHERE opened_at_ms >= ? AND opened_at_ms < ?
        """

    /// The ended follow-ups naming a case opened in `[from, to)`, each once: state, and for the
    /// completed ones the period's end, the day reached and the days checked, with a count.
    /// From `follow_ups_ended` alone: a follow-up names such a case if its cases' first or last
    /// opening is in the range; only one whose cases straddle the range (the first before, the
    /// last after) has its cases looked at. An ended follow-up ended after its case opened (no
    /// follow-up is merged into once ended), hence `ended_at_ms ≥ from`. Parameters: from, to,
    /// from, from, to, from, to.
    static let ended = """
        SELECT f.state, CASE WHEN f.state = 'completed' THEN f.period_ends_on ELSE '' END,
            CASE WHEN f.state = 'completed' AND f.reached_at_ms IS NOT NULL THEN f.reached_at_ms / \(dayMs) ELSE -1 END,
            CASE WHEN f.state = 'completed' THEN f.checked_days ELSE 0 END, count(*)
        FROM follow_ups f
        WHERE f.next_due_ms IS NULL AND f.cases_last_opened_at_ms >= ? AND f.cases_first_opened_at_ms < ?
            AND (f.ended_at_ms IS NULL OR f.ended_at_ms >= ?)
            AND (f.cases_first_opened_at_ms >= ? OR f.cases_last_opened_at_ms < ? OR EXISTS (
                SELECT 1 FROM follow_up_cases fc JOIN cases c ON c.id = fc.case_id
                WHERE fc.follow_up_id = f.id AND c.opened_at_ms >= ? AND c.opened_at_ms < ?))
        GROUP BY 1, 2, 3, 4
        """

    /// The tracers' load from `follow_ups_queue` alone: per tracer, the active follow-ups, those
    /// due now (not overdue) and overdue. Parameters: now, now − the retry interval (twice).
    static let load = """
        SELECT assigned_to, count(*),
            CAST(sum(CASE WHEN next_due_ms <= ? AND next_due_ms > ? THEN 1 ELSE 0 END) AS BIGINT),
            CAST(sum(CASE WHEN next_due_ms <= ? THEN 1 ELSE 0 END) AS BIGINT)
        FROM follow_ups WHERE next_due_ms IS NOT NULL AND assigned_to IS NOT NULL
        GROUP BY assigned_to
        """

    /// The follow-ups never reached, by the UTC day they began, from `follow_ups_unreached`
    /// alone (every one is active: a `calling` follow-up has a next due time).
    static let unreached = """
        SELECT created_at_ms / \(dayMs), count(*) FROM follow_ups
        WHERE state = 'calling' AND reached_at_ms IS NULL GROUP BY 1
        """

    /// The statements before migration 12's facts: everything counted from the pairs.
    enum Joined {
        /// Per case opened in `[?, ?)`, as ``perCase`` (every pair joined).
        static let perCase = """
            SELECT c.opened_at_ms, CASE WHEN c.source_follow_up_id IS NULL THEN 0 ELSE 1 END, count(fc.follow_up_id),
                CAST(coalesce(sum(CASE WHEN fc.is_close = 1 THEN 1 ELSE 0 END), 0) AS BIGINT),
                CAST(coalesce(sum(CASE WHEN fc.is_close = 1 AND f.reached_at_ms IS NOT NULL
                    AND f.reached_at_ms <= c.opened_at_ms + \(dayMs) THEN 1 ELSE 0 END), 0) AS BIGINT),
                min(f.reached_at_ms)
            FROM cases c
            LEFT JOIN follow_up_cases fc ON fc.case_id = c.id
            LEFT JOIN follow_ups f ON f.id = fc.follow_up_id
            WHERE c.opened_at_ms >= ? AND c.opened_at_ms < ?
            GROUP BY c.id, c.opened_at_ms, c.source_follow_up_id
            """

        /// As ``ended``, probing every ended follow-up's cases. Parameters: from, from, to.
        static let ended = """
            SELECT f.state, CASE WHEN f.state = 'completed' THEN f.period_ends_on ELSE '' END,
                CASE WHEN f.state = 'completed' AND f.reached_at_ms IS NOT NULL THEN f.reached_at_ms / \(dayMs) ELSE -1 END,
                CASE WHEN f.state = 'completed' THEN f.checked_days ELSE 0 END, count(*)
            FROM follow_ups f
            WHERE f.state NOT IN ('calling', 'monitoring') AND (f.ended_at_ms IS NULL OR f.ended_at_ms >= ?) AND EXISTS (
                SELECT 1 FROM follow_up_cases fc JOIN cases c ON c.id = fc.case_id
                WHERE fc.follow_up_id = f.id AND c.opened_at_ms >= ? AND c.opened_at_ms < ?)
            GROUP BY 1, 2, 3, 4
            """

        /// One pass over the active follow-ups' rows: per tracer (NULL: nobody's) and, for those
        /// never reached, the UTC day they began (-1 for the others): how many, due now (not
        /// overdue), overdue. Parameters: now, now − the retry interval (twice).
        static let active = """
            SELECT assigned_to,
                CASE WHEN state = 'calling' AND reached_at_ms IS NULL THEN created_at_ms / \(dayMs) ELSE -1 END,
                count(*),
                CAST(sum(CASE WHEN next_due_ms <= ? AND next_due_ms > ? THEN 1 ELSE 0 END) AS BIGINT),
                CAST(sum(CASE WHEN next_due_ms <= ? THEN 1 ELSE 0 END) AS BIGINT)
            FROM follow_ups WHERE next_due_ms IS NOT NULL
            GROUP BY 1, 2
            """
    }

    /// Attempts and checks recorded in `[?, ?)` (today), per tracer.
    static let attemptsToday =
        "SELECT by_name, count(*) FROM follow_up_attempts WHERE at_ms >= ? AND at_ms < ? GROUP BY by_name"
    static let checksToday =
        "SELECT by_name, count(*) FROM follow_up_checks WHERE at_ms >= ? AND at_ms < ? GROUP BY by_name"

    /// The tracers who may be assigned follow-ups.
    static let activeTracers = "SELECT name FROM staff WHERE role = 'tracer' AND disabled = 0"
}

extension StatsStore {
    /// The tracing indicators over the cases opened in `query`'s range, at `now`
    /// (``IndicatorMath/indicators(_:)`` over ``followUpFacts(_:now:settings:)``).
    public func followUpIndicators(
        _ query: StatsQuery, now: Date, settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpIndicators {
        IndicatorMath.indicators(try followUpFacts(query, now: now, settings: settings))
    }
}

/// How ``SQLStore/readFollowUpFacts(_:now:settings:reading:)`` reads: from migration 12's facts (what
/// the desk uses), or counting everything from the pairs as before them (the benchmark's
/// baseline, and the tests that both give the same facts).
package enum IndicatorReading: Sendable {
    case keptFacts
    case joined
}

extension SQLStore {
    public func followUpFacts(
        _ query: StatsQuery, now: Date, settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpFacts {
        try readFollowUpFacts(query, now: now, settings: settings, reading: .keptFacts)
    }

    func readFollowUpFacts(
        _ query: StatsQuery, now: Date, settings: FollowUpSettings, reading: IndicatorReading
    ) throws(StoreError) -> FollowUpFacts {
        let text = dialect.text
        let op = "read the tracing indicators"
        let joined = reading == .joined
        return try snapshot(op) { db throws(StoreError) -> FollowUpFacts in
            let from = SQLValue.integer(query.fromMs)
            let to = SQLValue.integer(query.toMs)
            let nowMs = now.unixMilliseconds
            var facts = FollowUpFacts(from: query.from, to: query.to, now: now)
            let cases = try db.query(
                text(joined ? FollowUpIndicatorSQL.Joined.perCase : FollowUpIndicatorSQL.perCase), [from, to],
                operation: op
            ) {
                (
                    openedAt: $0.integer(0), known: $0.integer(1) == 1, contacts: Int($0.integer(2)),
                    close: Int($0.integer(3)), closeIn24h: Int($0.integer(4)), firstReach: $0.optionalInteger(5)
                )
            }
            for row in cases {
                facts.contactsPerCase.append(row.contacts)
                if row.known { facts.knownContactCases += 1 }
                if row.openedAt <= nowMs - FollowUpIndicatorSQL.dayMs {
                    facts.closeContactsDue += row.close
                    facts.closeContactsReachedIn24h += row.closeIn24h
                }
                if let first = row.firstReach { facts.millisecondsToFirstReach.append(first - row.openedAt) }
            }
            let ended = try db.query(
                text(joined ? FollowUpIndicatorSQL.Joined.ended : FollowUpIndicatorSQL.ended),
                joined ? [from, from, to] : [from, to, from, from, to, from, to], operation: op
            ) {
                (
                    state: $0.text(0), periodEnd: $0.text(1), reachedDay: $0.integer(2), checked: Int($0.integer(3)),
                    count: Int($0.integer(4))
                )
            }
            for row in ended {
                facts.ended += row.count
                if row.state == FollowUpState.lost.rawValue { facts.lost += row.count }
                if row.state == FollowUpState.completed.rawValue, row.reachedDay >= 0,
                    let end = CivilDay(iso: row.periodEnd)
                {
                    facts.completed.append(
                        MonitoredPeriod(
                            reachedOn: CivilDay(daysSinceEpoch: Int(row.reachedDay)), periodEndsOn: end,
                            checkedDays: row.checked, count: row.count))
                }
            }
            let today = Int64(now.utcDay.daysSinceEpoch)
            let overdueBefore = nowMs - Int64(settings.retrySeconds) * 1000
            let dueParameters: [SQLValue] = [.integer(nowMs), .integer(overdueBefore), .integer(overdueBefore)]
            var loads: [String: TracerLoad] = [:]
            func load(_ name: String) -> TracerLoad {
                loads[name] ?? TracerLoad(tracer: name, assigned: 0, due: 0, overdue: 0, doneToday: 0)
            }
            for name in try db.query(text(FollowUpIndicatorSQL.activeTracers), operation: op, { $0.text(0) }) {
                loads[name] = load(name)
            }
            func add(tracer name: String, count: Int, due: Int, overdue: Int) {
                var tracer = load(name)
                tracer.assigned += count
                tracer.due += due
                tracer.overdue += overdue
                loads[name] = tracer
            }
            if joined {
                let active = try db.query(
                    text(FollowUpIndicatorSQL.Joined.active), dueParameters, operation: op
                ) {
                    (
                        tracer: $0.optionalText(0), began: $0.integer(1), count: Int($0.integer(2)),
                        due: Int($0.integer(3)), overdue: Int($0.integer(4))
                    )
                }
                for row in active {
                    if row.began >= 0 { facts.unreachedByDays[Int(today - row.began), default: 0] += row.count }
                    guard let name = row.tracer else { continue }
                    add(tracer: name, count: row.count, due: row.due, overdue: row.overdue)
                }
            } else {
                for row in try db.query(
                    text(FollowUpIndicatorSQL.load), dueParameters, operation: op,
                    {
                        (
                            tracer: $0.text(0), count: Int($0.integer(1)), due: Int($0.integer(2)),
                            overdue: Int($0.integer(3))
                        )
                    })
                {
                    add(tracer: row.tracer, count: row.count, due: row.due, overdue: row.overdue)
                }
                for (began, count) in try db.query(
                    text(FollowUpIndicatorSQL.unreached), operation: op, { ($0.integer(0), Int($0.integer(1))) })
                {
                    facts.unreachedByDays[Int(today - began), default: 0] += count
                }
            }
            let dayStart = today * FollowUpIndicatorSQL.dayMs
            let todayRange: [SQLValue] = [.integer(dayStart), .integer(dayStart + FollowUpIndicatorSQL.dayMs)]
            for statement in [FollowUpIndicatorSQL.attemptsToday, FollowUpIndicatorSQL.checksToday] {
                for (name, count) in try db.query(
                    text(statement), todayRange, operation: op, { ($0.text(0), Int($0.integer(1))) })
                where loads[name] != nil {
                    loads[name]?.doneToday += count
                }
            }
            facts.tracers = loads.values.sorted { $0.tracer < $1.tracer }
            return facts
        }
    }
}

extension SQLiteStore {
    /// The facts read as `reading` says (the benchmark's before and after).
    package func followUpFacts(
        _ query: StatsQuery, now: Date, settings: FollowUpSettings, reading: IndicatorReading
    ) throws(StoreError) -> FollowUpFacts {
        try readFollowUpFacts(query, now: now, settings: settings, reading: reading)
    }
}

extension PostgresStore {
    /// The facts read as `reading` says (the benchmark's before and after).
    package func followUpFacts(
        _ query: StatsQuery, now: Date, settings: FollowUpSettings, reading: IndicatorReading
    ) throws(StoreError) -> FollowUpFacts {
        try readFollowUpFacts(query, now: now, settings: settings, reading: reading)
    }
}
