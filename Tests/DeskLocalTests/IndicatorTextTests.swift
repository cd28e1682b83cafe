import DeskContract
import DeskCore
import Foundation
import Testing

/// The tracing indicators as `tracedesk stats` prints them and as CSV rows: figures with nothing
/// to count read "none" (empty in the CSV), a tracer's name that looks like a formula is made
/// inert, and the statistics' CSV is unchanged before the indicators' rows.
@Suite struct IndicatorTextTests {
    static let start = Date(unixMilliseconds: 1_795_946_400_000)

    static func indicators(tracers: [TracerLoad] = []) -> FollowUpIndicators {
        FollowUpIndicators(
            from: start, to: start.addingTimeInterval(14 * 86_400), cases: 3, contactsPerCaseMean: 2,
            contactsPerCaseMedian: 2, reachedWithin24hPercent: 40, medianHoursToFirstReach: 1.5,
            checkedEveryDayPercent: 50,
            unreached: UnreachedAges(oneDay: 1, twoDays: 0, threeDays: 1, moreThanThreeDays: 1),
            lostPercent: 100.0 / 3, knownContactPercent: 100.0 / 3, tracers: tracers)
    }

    @Test("the summary: one line per figure, then the tracers")
    func summary() {
        let lines = IndicatorText.summary(
            Self.indicators(tracers: [TracerLoad(tracer: "ada", assigned: 2, due: 0, overdue: 1, doneToday: 3)]))
        #expect(lines[0] == "Tracing, cases opened 2026-11-29 10:00 to 2026-12-13 10:00 UTC:")
        #expect(lines.contains("  Contacts per case               mean 2.0, median 2.0"))
        #expect(lines.contains("  Close contacts reached in 24 h  40 %"))
        #expect(lines.contains("  Time to first contact reached   median 1 h 30 min"))
        #expect(lines.contains("  Checked every day               50 % of completed"))
        #expect(lines.contains("  Lost to follow-up               33 % of ended"))
        #expect(lines.contains("  Not reached yet (now)           1 d: 1, 2 d: 0, 3 d: 1, >3 d: 1"))
        #expect(
            lines.suffix(2) == [
                "  TRACER  ASSIGNED  DUE  OVERDUE  DONE TODAY", "  ada            2    0        1           3",
            ])
        #expect(lines.allSatisfy { $0.allSatisfy(\.isASCII) })
    }

    @Test("nothing to count: none, never 0 %; no tracer said plainly")
    func empty() {
        let none = FollowUpIndicators(
            from: Self.start, to: Self.start, cases: 0, contactsPerCaseMean: nil, contactsPerCaseMedian: nil,
            reachedWithin24hPercent: nil, medianHoursToFirstReach: nil, checkedEveryDayPercent: nil,
            unreached: UnreachedAges(), lostPercent: nil, knownContactPercent: nil, tracers: [])
        let lines = IndicatorText.summary(none)
        #expect(lines.contains("  Close contacts reached in 24 h  none"))
        #expect(lines.contains("  Contacts per case               none"))
        #expect(lines.last == "No active tracer.")
        #expect(IndicatorText.csvRows(none).contains(["tracing", "lost_percent", "", "", "", ""]))
    }

    @Test("CSV: the statistics' rows first, unchanged, then the indicators'; names made inert")
    func csv() {
        let report = StatsReport(
            query: try! StatsQuery.make(from: Self.start, to: Self.start.addingTimeInterval(3_600), bucket: .hour)
                .get(), generatedAt: Self.start)
        let indicators = Self.indicators(tracers: [
            TracerLoad(tracer: "=cmd", assigned: 1, due: 1, overdue: 0, doneToday: 0)
        ])
        let csv = StatsCSV.encode(report, indicators: indicators)
        #expect(csv.hasPrefix(StatsCSV.encode(report)))
        #expect(StatsCSV.encode(report, indicators: nil) == StatsCSV.encode(report))
        #expect(csv.contains("\r\ntracing,lost_percent,,,,33.3333\r\n"))
        #expect(csv.contains("\r\nunreached,follow_ups,4+,,,1\r\n"))
        #expect(csv.contains("\r\ntracer_load,due,'=cmd,,,1\r\n"))
    }
}
