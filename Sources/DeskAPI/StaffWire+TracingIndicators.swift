import DeskContract
import DeskCore
import JSONText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The tracing indicators (``FollowUpIndicators``) as JSON: the `tracing` member `tracedesk stats
/// --json` adds to the statistics. Figures and staff account names only. A share or a median
/// with nothing to count is `null`; percentages are 0–100 with at most four decimals.
extension StaffWire {
    public static func tracingIndicators(_ i: FollowUpIndicators) -> JSONValue {
        func decimal(_ value: Double?) -> JSONValue {
            guard let value, value.isFinite else { return .null }
            return .number(StatsCSV.decimal(value))
        }
        return object([
            ("from", .string(time(i.from))), ("to", .string(time(i.to))), ("cases", number(i.cases)),
            ("contacts_per_case_mean", decimal(i.contactsPerCaseMean)),
            ("contacts_per_case_median", decimal(i.contactsPerCaseMedian)),
            ("reached_within_24h_percent", decimal(i.reachedWithin24hPercent)),
            ("median_hours_to_first_reach", decimal(i.medianHoursToFirstReach)),
            ("checked_every_day_percent", decimal(i.checkedEveryDayPercent)),
            (
                "unreached",
                object([
                    ("one_day", number(i.unreached.oneDay)), ("two_days", number(i.unreached.twoDays)),
                    ("three_days", number(i.unreached.threeDays)),
                    ("more_than_three_days", number(i.unreached.moreThanThreeDays)),
                ])
            ),
            ("lost_percent", decimal(i.lostPercent)), ("known_contact_percent", decimal(i.knownContactPercent)),
            (
                "tracers",
                .array(
                    i.tracers.map {
                        object([
                            ("name", .string($0.tracer)), ("assigned", number($0.assigned)), ("due", number($0.due)),
                            ("overdue", number($0.overdue)), ("done_today", number($0.doneToday)),
                        ])
                    })
            ),
        ])
    }

    /// The statistics' answer with the indicators as its last member, `tracing` (what
    /// `tracedesk stats --json` prints); the statistics' members are unchanged.
    public static func statsReport(_ report: StatsReport, indicators: FollowUpIndicators?) -> JSONValue {
        let stats = statsReport(report)
        guard let indicators, case .object(var members) = stats else { return stats }
        members.append(JSONValue.Member(key: "tracing", value: tracingIndicators(indicators)))
        return .object(members)
    }
}
