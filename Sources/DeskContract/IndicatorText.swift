import DeskCore
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The tracing indicators (``FollowUpIndicators``) as text: the lines `tracedesk stats` adds
/// after the statistics, the phrases the dashboard shows, and their CSV rows, in the current
/// ``Language`` (`indicators.…` keys; the CSV rows are a contract and stay as they are). The
/// English is ASCII, as ``StatsText``; a figure with nothing to count reads "none" (the console
/// shows "–").
public enum IndicatorText {
    /// "75 %" (whole percent), nil for nothing to count.
    public static func percent(_ value: Double?) -> String? {
        value.map { "\(StatsText.clamped($0)) %" }
    }

    /// "8.5" (one decimal), nil for nothing to count.
    public static func number(_ value: Double?) -> String? {
        value.map { StatsText.oneDecimal($0) }
    }

    /// Hours as "45 min", "3 h 12 min", "2 d 4 h"; nil for nothing to count.
    public static func hours(_ value: Double?) -> String? {
        value.map { StatsText.duration(StatsText.clamped($0 * 3_600)) }
    }

    /// "1 d: 4, 2 d: 2, 3 d: 1, >3 d: 0" ("1 g: 4, …" in Italian).
    public static func unreached(_ ages: UnreachedAges) -> String {
        tr(
            "indicators.unreachedAges",
            [
                "one": String(ages.oneDay), "two": String(ages.twoDays), "three": String(ages.threeDays),
                "more": String(ages.moreThanThreeDays),
            ])
    }

    /// The tracers' table's header: TRACER, ASSIGNED, DUE, OVERDUE, DONE TODAY.
    public static var tracerHeader: [String] {
        ["tracer", "assigned", "due", "overdue", "doneToday"].map { tr("indicators.column.\($0)") }
    }

    /// The figures as (label, value) pairs, in the order the supervisor guide explains them.
    /// `none` defaults to "none" in the current language.
    public static func figures(_ i: FollowUpIndicators, none: String? = nil) -> [(label: String, value: String)] {
        let none = none ?? tr("indicators.none")
        var contacts = none
        if let mean = number(i.contactsPerCaseMean), let median = number(i.contactsPerCaseMedian) {
            contacts = tr("indicators.meanMedian", ["mean": mean, "median": median])
        }
        return [
            (tr("indicators.label.cases"), String(i.cases)),
            (tr("indicators.label.contactsPerCase"), contacts),
            (tr("indicators.label.reachedIn24h"), percent(i.reachedWithin24hPercent) ?? none),
            (
                tr("indicators.label.timeToFirstReach"),
                hours(i.medianHoursToFirstReach).map { tr("indicators.median", ["value": $0]) } ?? none
            ),
            (
                tr("indicators.label.checkedEveryDay"),
                percent(i.checkedEveryDayPercent).map { tr("indicators.ofCompleted", ["percent": $0]) } ?? none
            ),
            (
                tr("indicators.label.lost"),
                percent(i.lostPercent).map { tr("indicators.ofEnded", ["percent": $0]) } ?? none
            ),
            (tr("indicators.label.knownContacts"), percent(i.knownContactPercent) ?? none),
            (tr("indicators.label.notReached"), unreached(i.unreached)),
        ]
    }

    /// The lines `tracedesk stats` prints after the statistics.
    public static func summary(_ i: FollowUpIndicators) -> [String] {
        var lines = [tr("indicators.summary.title", ["from": StatsText.utc(i.from), "to": StatsText.utc(i.to)])]
        let shown = figures(i)
        // 32 columns hold every English label; a longer one (Italian's) widens the column for all.
        let width = max(32, (shown.map { $0.label.count }.max() ?? 0) + 1)
        for (label, value) in shown {
            lines.append("  " + label + String(repeating: " ", count: max(1, width - label.count)) + value)
        }
        if i.tracers.isEmpty {
            lines.append(tr("indicators.noTracer"))
        } else {
            lines.append(tr("indicators.summary.tracers"))
            lines += StatsText.table(
                i.tracers.map {
                    [$0.tracer, String($0.assigned), String($0.due), String($0.overdue), String($0.doneToday)]
                },
                header: tracerHeader)
        }
        return lines
    }

    /// The CSV rows of the indicators, in ``StatsCSV``'s six columns (see there).
    public static func csvRows(_ i: FollowUpIndicators) -> [[String]] {
        func row(_ section: String, _ figure: String, key: String = "", _ value: String) -> [String] {
            [section, figure, key, "", "", value]
        }
        var rows: [[String]] = [
            row("tracing", "cases", String(i.cases)),
            row("tracing", "contacts_per_case_mean", i.contactsPerCaseMean.map(StatsCSV.decimal) ?? ""),
            row("tracing", "contacts_per_case_median", i.contactsPerCaseMedian.map(StatsCSV.decimal) ?? ""),
            row("tracing", "reached_within_24h_percent", i.reachedWithin24hPercent.map(StatsCSV.decimal) ?? ""),
            row("tracing", "median_hours_to_first_reach", i.medianHoursToFirstReach.map(StatsCSV.decimal) ?? ""),
            row("tracing", "checked_every_day_percent", i.checkedEveryDayPercent.map(StatsCSV.decimal) ?? ""),
            row("tracing", "lost_percent", i.lostPercent.map(StatsCSV.decimal) ?? ""),
            row("tracing", "known_contact_percent", i.knownContactPercent.map(StatsCSV.decimal) ?? ""),
            row("unreached", "follow_ups", key: "1", String(i.unreached.oneDay)),
            row("unreached", "follow_ups", key: "2", String(i.unreached.twoDays)),
            row("unreached", "follow_ups", key: "3", String(i.unreached.threeDays)),
            row("unreached", "follow_ups", key: "4+", String(i.unreached.moreThanThreeDays)),
        ]
        for t in i.tracers {
            rows.append(row("tracer_load", "assigned", key: t.tracer, String(t.assigned)))
            rows.append(row("tracer_load", "due", key: t.tracer, String(t.due)))
            rows.append(row("tracer_load", "overdue", key: t.tracer, String(t.overdue)))
            rows.append(row("tracer_load", "done_today", key: t.tracer, String(t.doneToday)))
        }
        return rows
    }
}

extension StatsCSV {
    /// The statistics' CSV followed by the tracing indicators' rows (same columns):
    ///
    /// - `tracing`: cases, contacts_per_case_mean, contacts_per_case_median,
    ///   reached_within_24h_percent, median_hours_to_first_reach, checked_every_day_percent,
    ///   lost_percent, known_contact_percent (percentages 0–100; empty when nothing to count).
    /// - `unreached`: follow_ups never reached with the days since they began in `key`
    ///   (`1`, `2`, `3`, `4+`).
    /// - `tracer_load`: assigned, due, overdue, done_today with the tracer's name in `key`.
    public static func encode(_ report: StatsReport, indicators: FollowUpIndicators?) -> String {
        var text = encode(report)
        guard let indicators else { return text }
        for fields in IndicatorText.csvRows(indicators) {
            var typed = fields
            typed[2] = TraceCSV.typed(typed[2])
            text += typed.map(TraceCSV.field).joined(separator: ",") + "\r\n"
        }
        return text
    }
}
