import DeskAPI
import DeskCore
import Foundation
import JSONText
import Testing

/// The tracing indicators in `tracedesk stats --json`: the statistics' members unchanged, then
/// `tracing`; nothing to count is null.
@Suite struct TracingIndicatorsWireTests {
    static let start = Date(unixMilliseconds: 1_795_946_400_000)

    @Test("the statistics' answer gains a last member, tracing, and keeps every other")
    func members() {
        let report = StatsReport(
            query: try! StatsQuery.make(from: Self.start, to: Self.start.addingTimeInterval(3_600), bucket: .hour)
                .get(), generatedAt: Self.start)
        let indicators = FollowUpIndicators(
            from: Self.start, to: Self.start.addingTimeInterval(3_600), cases: 2, contactsPerCaseMean: 1.5,
            contactsPerCaseMedian: nil, reachedWithin24hPercent: 100.0 / 3, medianHoursToFirstReach: nil,
            checkedEveryDayPercent: nil, unreached: UnreachedAges(oneDay: 2), lostPercent: 0, knownContactPercent: nil,
            tracers: [TracerLoad(tracer: "ada", assigned: 3, due: 1, overdue: 2, doneToday: 4)])
        guard case .object(let plain) = StaffWire.statsReport(report),
            case .object(let both) = StaffWire.statsReport(report, indicators: indicators)
        else {
            Issue.record("not objects")
            return
        }
        #expect(Array(both.dropLast()) == plain)
        #expect(both.last?.key == "tracing")
        let text = StaffWire.tracingIndicators(indicators).serialized
        #expect(text.contains(#""cases":2"#))
        #expect(text.contains(#""contacts_per_case_mean":1.5"#))
        #expect(text.contains(#""contacts_per_case_median":null"#))
        #expect(text.contains(#""reached_within_24h_percent":33.3333"#))
        #expect(text.contains(#""lost_percent":0"#))
        #expect(text.contains(#""unreached":{"one_day":2,"two_days":0,"three_days":0,"more_than_three_days":0}"#))
        #expect(text.contains(#""tracers":[{"name":"ada","assigned":3,"due":1,"overdue":2,"done_today":4}]"#))
        #expect(StaffWire.statsReport(report, indicators: nil) == StaffWire.statsReport(report))
    }
}
