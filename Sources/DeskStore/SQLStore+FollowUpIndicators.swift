import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The tracing indicators (issue 21, point 7): the facts, read with the same SQL on both engines
// in one snapshot, then ``IndicatorMath`` computes the figures. Every statement is grouped by
// the database, so a fortnight of 10 000 cases and 100 000 follow-ups returns one row per case
// and a few hundred more (docs/benchmarks.md, "Tracing indicators").
enum FollowUpIndicatorSQL {
    static let dayMs: Int64 = 86_400_000

    /// Per case opened in `[?, ?)`: opened at, whether it came from a follow-up, its contacts,
    /// its close contacts, those reached within 24 h of the case, the first reach.
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

    /// The ended follow-ups naming a case opened in `[?, ?)`, each once: state, and for the
    /// completed ones the period's end, the day reached and the days checked, with a count.
    /// Parameters: from (an ended follow-up ended after its case opened: no follow-up is merged
    /// into once ended), from, to. EXISTS probes the follow-up's cases by its primary key,
    /// a third cheaper on SQLite than `IN` over every pair of the range.
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

    /// Active follow-ups never reached, by the UTC day they began.
    static let unreached = """
        SELECT created_at_ms / \(dayMs), count(*) FROM follow_ups
        WHERE state = 'calling' AND reached_at_ms IS NULL
        GROUP BY 1
        """

    /// Per tracer: active follow-ups, due now (not overdue), overdue. Parameters: now, now − the
    /// retry interval (twice).
    static let load = """
        SELECT assigned_to, count(*),
            CAST(sum(CASE WHEN next_due_ms <= ? AND next_due_ms > ? THEN 1 ELSE 0 END) AS BIGINT),
            CAST(sum(CASE WHEN next_due_ms <= ? THEN 1 ELSE 0 END) AS BIGINT)
        FROM follow_ups WHERE next_due_ms IS NOT NULL AND assigned_to IS NOT NULL
        GROUP BY assigned_to
        """

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

extension SQLStore {
    public func followUpFacts(
        _ query: StatsQuery, now: Date, settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpFacts {
        let text = dialect.text
        let op = "read the tracing indicators"
        return try snapshot(op) { db throws(StoreError) -> FollowUpFacts in
            let range: [SQLValue] = [.integer(query.fromMs), .integer(query.toMs)]
            let nowMs = now.unixMilliseconds
            var facts = FollowUpFacts(from: query.from, to: query.to, now: now)
            let cases = try db.query(text(FollowUpIndicatorSQL.perCase), range, operation: op) {
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
            let ended = try db.query(text(FollowUpIndicatorSQL.ended), [.integer(query.fromMs)] + range, operation: op)
            {
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
            for (day, count) in try db.query(
                text(FollowUpIndicatorSQL.unreached), operation: op, { ($0.integer(0), Int($0.integer(1))) })
            {
                facts.unreachedByDays[Int(today - day), default: 0] += count
            }
            let overdueBefore = nowMs - Int64(settings.retrySeconds) * 1000
            var loads: [String: TracerLoad] = [:]
            func load(_ name: String) -> TracerLoad {
                loads[name] ?? TracerLoad(tracer: name, assigned: 0, due: 0, overdue: 0, doneToday: 0)
            }
            for name in try db.query(text(FollowUpIndicatorSQL.activeTracers), operation: op, { $0.text(0) }) {
                loads[name] = load(name)
            }
            for row in try db.query(
                text(FollowUpIndicatorSQL.load), [.integer(nowMs), .integer(overdueBefore), .integer(overdueBefore)],
                operation: op, { ($0.text(0), Int($0.integer(1)), Int($0.integer(2)), Int($0.integer(3))) })
            {
                var tracer = load(row.0)
                tracer.assigned = row.1
                tracer.due = row.2
                tracer.overdue = row.3
                loads[row.0] = tracer
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
