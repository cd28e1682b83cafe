import CivilCalendar
import DeskCore
import DeskTestSupport
import Foundation
import Testing

@testable import DeskStore

/// A small tracing fortnight written as rows (migration 11's tables), read at day 0, 12:00 UTC
/// (day 0 = 2026-12-01), with the indicators worked out by hand.
///
/// Cases (opened in the range unless said): 1 on day -3 10:00 (4 contacts, 3 close), 2 on day -2
/// 09:00 (its patient was follow-up 99: a known contact; 2 close contacts), 3 an hour ago (none),
/// 4 on day -20 (outside the range).
///
/// | follow-up | cases | close | state      | reached           | period end, checked | tracer, next due        |
/// |-----------|-------|-------|------------|-------------------|---------------------|-------------------------|
/// | 1         | 1, 4  | yes   | completed  | day -3 12:00 (2h) | day -1, 3 days      |                         |
/// | 2         | 1     | yes   | monitoring | day -2 16:00 (30h)|                     | ada, day 0 00:00 overdue|
/// | 3         | 1     | yes   | lost       | never             |                     |                         |
/// | 4         | 1     | no    | calling    | never, began d -3 |                     | bea, day 0 11:00 due    |
/// | 5         | 2     | yes   | completed  | day -2 10:00 (1h) | day -1, 1 day of 2  |                         |
/// | 6         | 2     | yes   | calling    | never, began d -1 |                     | ada, day 0 15:00 later  |
/// | 7         | 4     | yes   | calling    | never, began d-20 |                     | bea, day -1 overdue     |
enum IndicatorScenario {
    static let day0 = CivilDay(year: 2026, month: 12, day: 1)!
    static func ms(_ day: Int, _ hour: Int) -> Int64 {
        Int64(day0.adding(days: day).daysSinceEpoch) * 86_400_000 + Int64(hour) * 3_600_000
    }
    static func iso(_ day: Int) -> String { day0.adding(days: day).iso }
    static let now = Date(unixMilliseconds: ms(0, 12))
    static let fortnight = StatsQuery.last(.fortnight, now: now)

    static func write(_ store: any Store, _ space: StoreSpace) throws {
        for (name, role) in [("ada", StaffRole.tracer), ("bea", .tracer), ("cid", .tracer), ("sam", .supervisor)] {
            _ = try store.addStaff(
                name: name, role: role, passwordHash: "unused", by: "setup", now: now, onlyIfEmpty: false)
        }
        var sql = ""
        for id in 1...11 {
            sql += """
                INSERT INTO apricot_users (id, phone, app_id, device_id, registered_at_ms)
                VALUES (\(id), '+3933300000\(id < 10 ? "0" : "")\(id)', 'app', 'device', 0);

                """
        }
        for (id, opened, source) in [
            (1, ms(-3, 10), "NULL"), (2, ms(-2, 9), "99"), (3, ms(0, 11), "NULL"), (4, ms(-20, 9), "NULL"),
        ] {
            sql += """
                INSERT INTO cases (id, reference, patient_user_id, index_day, index_kind, opened_by, opened_at_ms, status,
                    source_follow_up_id)
                VALUES (\(id), 'ASL-\(id)', \(id), '\(iso(-4))', 'test_day', 'ada', \(opened), 'open', \(source));

                """
        }
        // id, person, state, created, next due, reached, period end, checked days, ended, tracer
        let followUps: [(Int, Int, String, Int64, String, String, Int, Int, String, String)] = [
            (1, 5, "completed", ms(-3, 10), "NULL", "\(ms(-3, 12))", -1, 3, "\(ms(0, 0))", "NULL"),
            (2, 6, "monitoring", ms(-3, 10), "\(ms(0, 0))", "\(ms(-2, 16))", 9, 1, "NULL", "'ada'"),
            (3, 7, "lost", ms(-3, 10), "NULL", "NULL", 9, 0, "\(ms(0, 1))", "NULL"),
            (4, 8, "calling", ms(-3, 10), "\(ms(0, 11))", "NULL", 9, 0, "NULL", "'bea'"),
            (5, 9, "completed", ms(-2, 9), "NULL", "\(ms(-2, 10))", -1, 1, "\(ms(0, 0))", "NULL"),
            (6, 10, "calling", ms(-1, 9), "\(ms(0, 15))", "NULL", 9, 0, "NULL", "'ada'"),
            (7, 11, "calling", ms(-20, 9), "\(ms(-1, 9))", "NULL", -6, 0, "NULL", "'bea'"),
        ]
        for f in followUps {
            sql += """
                INSERT INTO follow_ups (id, person_user_id, state, assigned_to, last_exposure_day, period_ends_on,
                    created_at_ms, next_due_ms, reached_at_ms, checked_days, ended_at_ms)
                VALUES (\(f.0), \(f.1), '\(f.2)', \(f.9), '\(iso(f.6 - 14))', '\(iso(f.6))', \(f.3), \(f.4), \(f.5),
                    \(f.7), \(f.8));

                """
        }
        // follow-up, case, close
        for (f, c, close) in [(1, 1, 1), (1, 4, 1), (2, 1, 1), (3, 1, 1), (4, 1, 0), (5, 2, 1), (6, 2, 1), (7, 4, 1)] {
            sql += """
                INSERT INTO follow_up_cases (follow_up_id, case_id, last_exposure_day, minutes, days,
                    most_minutes_one_day, is_close, added_by_hand, added_at_ms)
                VALUES (\(f), \(c), '\(iso(-3))', 30, 1, 30, \(close), \(close == 1 ? "NULL" : "'neighbour'"), 0);

                """
        }
        // Today: ada 2 attempts and a check, bea 1 attempt, sam (not a tracer) 1; yesterday: bea 1.
        for (id, f, at, by) in [
            (1, 2, ms(0, 9), "ada"), (2, 2, ms(0, 9) + 1_800_000, "ada"), (3, 4, ms(0, 10), "bea"),
            (4, 4, ms(-1, 10), "bea"), (5, 6, ms(0, 10), "sam"),
        ] {
            sql += """
                INSERT INTO follow_up_attempts (id, follow_up_id, at_ms, by_name, outcome, note)
                VALUES (\(id), \(f), \(at), '\(by)', 'no_answer', '');

                """
        }
        sql += """
            INSERT INTO follow_up_checks (id, follow_up_id, day, at_ms, by_name, symptoms, isolating, note)
            VALUES (1, 2, '\(iso(0))', \(ms(0, 9) + 1_860_000), 'ada', 0, 1, '');
            """
        try space.execute(sql)
    }
}

@Suite("Store contract: the tracing indicators")
struct FollowUpIndicatorStoreTests {
    typealias S = IndicatorScenario

    @Test("the facts and the figures of a small fortnight, by hand", arguments: StoreKind.testable)
    func smallFortnight(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try S.write(store, space)
            let facts = try store.followUpFacts(S.fortnight, now: S.now, settings: .standard)
            #expect(facts.contactsPerCase.sorted() == [0, 2, 4])
            #expect(facts.closeContactsDue == 5)
            #expect(facts.closeContactsReachedIn24h == 2)
            #expect(facts.millisecondsToFirstReach.sorted() == [3_600_000, 7_200_000])
            #expect(facts.ended == 3)
            #expect(facts.lost == 1)
            #expect(facts.knownContactCases == 1)
            #expect(facts.unreachedByDays == [1: 1, 3: 1, 20: 1])
            #expect(
                Set(facts.completed)
                    == [
                        MonitoredPeriod(
                            reachedOn: S.day0.adding(days: -3), periodEndsOn: S.day0.adding(days: -1), checkedDays: 3),
                        MonitoredPeriod(
                            reachedOn: S.day0.adding(days: -2), periodEndsOn: S.day0.adding(days: -1), checkedDays: 1),
                    ])

            let figures = try store.followUpIndicators(S.fortnight, now: S.now, settings: .standard)
            #expect(figures.cases == 3)
            #expect(figures.contactsPerCaseMean == 2)
            #expect(figures.contactsPerCaseMedian == 2)
            #expect(figures.reachedWithin24hPercent == 40)
            #expect(figures.medianHoursToFirstReach == 1.5)
            #expect(figures.checkedEveryDayPercent == 50)
            #expect(figures.unreached == UnreachedAges(oneDay: 1, twoDays: 0, threeDays: 1, moreThanThreeDays: 1))
            #expect(figures.lostPercent.map { ($0 * 100).rounded() } == 3333)
            #expect(figures.knownContactPercent.map { ($0 * 100).rounded() } == 3333)
            #expect(
                figures.tracers == [
                    TracerLoad(tracer: "ada", assigned: 2, due: 0, overdue: 1, doneToday: 3),
                    TracerLoad(tracer: "bea", assigned: 2, due: 1, overdue: 1, doneToday: 1),
                    TracerLoad(tracer: "cid", assigned: 0, due: 0, overdue: 0, doneToday: 0),
                ])
        }
    }

    @Test("a longer retry interval: fewer overdue", arguments: StoreKind.testable)
    func retrySetting(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try S.write(store, space)
            var settings = FollowUpSettings.standard
            settings.retrySeconds = 13 * 3_600  // ada's 00:00 is due, not overdue, at 12:00
            let figures = try store.followUpIndicators(S.fortnight, now: S.now, settings: settings)
            #expect(figures.tracers.first { $0.tracer == "ada" }?.due == 1)
            #expect(figures.tracers.first { $0.tracer == "ada" }?.overdue == 0)
        }
    }

    @Test(
        "a range with no case: shares and medians are nil, the load and the unreached are still now's",
        arguments: StoreKind.testable)
    func emptyRange(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            let empty = try store.followUpIndicators(S.fortnight, now: S.now, settings: .standard)
            #expect(empty.cases == 0 && empty.contactsPerCaseMean == nil && empty.lostPercent == nil)
            #expect(empty.tracers.isEmpty)
            try S.write(store, space)
            let before = try StatsQuery.make(
                from: Date(unixMilliseconds: S.ms(-40, 0)), to: Date(unixMilliseconds: S.ms(-30, 0)), bucket: .day
            ).get()
            let figures = try store.followUpIndicators(before, now: S.now, settings: .standard)
            #expect(figures.cases == 0)
            #expect(figures.contactsPerCaseMedian == nil)
            #expect(figures.reachedWithin24hPercent == nil)
            #expect(figures.medianHoursToFirstReach == nil)
            #expect(figures.checkedEveryDayPercent == nil)
            #expect(figures.knownContactPercent == nil)
            #expect(figures.unreached.moreThanThreeDays == 1)
            #expect(figures.tracers.count == 3)
        }
    }
}
