import DeskCore
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``StatsReport`` as plain text: what `tracedesk stats` prints by default, in the run's
/// language (`cli.stats.*`), and the phrases a screen may reuse (a duration, a share, a time).
/// The English is ASCII only, so it reads the same under LANG=C and in a log. Shares come from the report's derived figures, which are nil when there
/// is nothing to divide: they are then left out, never shown as 0 % or NaN.
public enum StatsText {
    /// The whole summary, one line per element: the range, the totals with their shares, the
    /// funnel, the top operators, provinces, keys per upload and APRICOT. `top` limits the
    /// operators, provinces and tracers listed (the rest are counted in a last line).
    public static func summary(_ report: StatsReport, title: String? = nil, top: Int = 10) -> [String] {
        var lines: [String] = []
        let query = report.query
        let heading = title.map { tr("cli.stats.headingTitled", ["title": $0]) } ?? tr("cli.stats.heading")
        lines.append(
            tr(
                "cli.stats.range",
                [
                    "heading": heading, "from": utc(query.from), "to": utc(query.to),
                    "buckets": trCount("cli.stats.bucket.\(query.bucket.rawValue)", query.bucketCount),
                ]))
        lines.append(tr("cli.stats.readAt", ["time": utc(report.generatedAt)]))
        if report.isEmpty {
            lines.append("")
            lines.append(tr("cli.stats.noData"))
            lines.append(tr("cli.stats.pseudoIDs", ["summary": report.pseudoIDs.summary]))
            return lines
        }
        lines.append("")
        func tile(_ key: String, _ value: Int64, _ rest: String = "") -> String {
            let name = tr("cli.stats.tile.\(key)")
            let label = name + String(repeating: " ", count: max(0, 22 - name.count))
            let number = String(value)
            return label + String(repeating: " ", count: max(0, 8 - number.count)) + number
                + (rest.isEmpty ? "" : "   " + rest)
        }
        lines.append(
            tile(
                "authorised", report.authorized.total,
                tr(
                    "cli.stats.rest.authorised",
                    [
                        "checked": String(report.checked.total), "checkedShare": paren(report.checkedShare),
                        "uploaded": String(report.uploaded.total), "uploadedShare": paren(report.uploadedShare),
                    ])))
        var uploads = tr(
            "cli.stats.rest.uploads",
            ["accepted": String(report.keysAccepted.total), "dropped": String(report.keysDropped.total)])
        if let mean = report.keysPerUploadMean { uploads += tr("cli.stats.rest.perUpload", ["mean": oneDecimal(mean)]) }
        lines.append(tile("uploads", report.uploads.total, uploads))
        let refused = StatsSeries.sum(report.uploadsRefused.map(\.count))
        lines.append(tile("uploadsRefused", refused, reasons(report.uploadsRefused)))
        var chunks = tr(
            "cli.stats.rest.chunks",
            ["keys": String(report.keysPublished.total), "padding": String(report.paddingPublished)])
        if let perChunk = report.keysPerChunk {
            chunks += tr("cli.stats.rest.perChunk", ["mean": oneDecimal(perChunk)])
        }
        lines.append(tile("chunks", report.chunks.total, chunks))
        let requests = StatsSeries.sum([report.realRequests.total, report.dummyRequests.total])
        lines.append(
            tile(
                "requests", requests,
                tr(
                    "cli.stats.rest.requests",
                    [
                        "real": String(report.realRequests.total), "dummy": String(report.dummyRequests.total),
                        "share": paren(report.dummyShare, tr("cli.stats.share.dummy")),
                    ])))
        lines.append(tile("analytics", report.analyticsReports.total))
        lines.append(
            tile(
                "registrations", report.registrations.total,
                tr("cli.stats.rest.registrations", ["count": String(report.returningSignIns)])))
        lines.append(tile("contactFiles", report.contactFiles.total))
        lines.append(tile("lookups", report.lookups.total))
        lines.append(tr("cli.stats.pseudoIDs", ["summary": report.pseudoIDs.summary]))

        lines.append("")
        let ofAuthorised = tr("cli.stats.share.ofAuthorised")
        lines.append(tr("cli.stats.funnel"))
        lines.append(tr("cli.stats.funnel.authorised", ["count": String(report.authorized.total)]))
        lines.append(
            tr(
                "cli.stats.funnel.checked",
                ["count": String(report.checked.total), "share": paren(report.checkedShare, ofAuthorised)]))
        lines.append(
            tr(
                "cli.stats.funnel.uploaded",
                ["count": String(report.uploaded.total), "share": paren(report.uploadedShare, ofAuthorised)]))
        lines.append(
            tr(
                "cli.stats.funnel.median",
                ["duration": report.medianSecondsToUpload.map(duration) ?? tr("cli.stats.funnel.noUpload")]))

        if !report.keysDroppedByReason.isEmpty {
            lines.append("")
            lines.append(tr("cli.stats.droppedByReason", ["reasons": reasons(report.keysDroppedByReason)]))
        }
        if report.uploads.total > 0 {
            lines.append("")
            lines.append(tr("cli.stats.keysPerUpload"))
            lines.append("  " + histogram(report.keysPerUpload))
        }
        func more(_ count: Int) -> String { "  " + tr("cli.stats.more", ["count": String(count - top)]) }
        if !report.operators.isEmpty {
            lines.append("")
            lines.append(tr("cli.stats.operators"))
            lines += table(
                report.operators.prefix(top).map {
                    [$0.name, String($0.authorized), String($0.checked), String($0.uploaded)]
                }, header: columns("operator", "authorised", "checked", "uploaded"))
            if report.operators.count > top { lines.append(more(report.operators.count)) }
        }
        if !report.provinces.isEmpty {
            lines.append("")
            lines.append(tr("cli.stats.provinces"))
            lines += table(
                report.provinces.prefix(top).map {
                    [
                        $0.code, $0.province?.asciiName ?? tr("cli.stats.notAProvince"), String($0.reports),
                        String($0.bluetoothActive),
                        String($0.notificationsAllowed), String($0.exposureNotifications),
                    ]
                }, header: columns("code", "province", "reports", "bluetooth", "notifications", "exposures"),
                textColumns: 2)
            if report.provinces.count > top { lines.append(more(report.provinces.count)) }
        }
        if !report.tracers.isEmpty {
            lines.append("")
            lines.append(tr("cli.stats.tracers"))
            lines += table(
                report.tracers.prefix(top).map { [$0.name, String($0.lookups)] },
                header: columns("tracer", "lookups"))
            if report.tracers.count > top { lines.append(more(report.tracers.count)) }
        }
        return lines
    }

    /// The summary's column headings (`cli.stats.column.*`) in the run's language.
    static func columns(_ names: String...) -> [String] { names.map { tr("cli.stats.column.\($0)") } }

    /// "45 s", "12 min", "1 h 12 min", "2 h", "3 d 4 h".
    public static func duration(_ seconds: Int64) -> String {
        let s = max(0, seconds)
        if s < 60 { return "\(s) s" }
        if s < 3_600 { return "\(s / 60) min" }
        if s < 86_400 { return s / 60 % 60 == 0 ? "\(s / 3_600) h" : "\(s / 3_600) h \(s / 60 % 60) min" }
        return s / 3_600 % 24 == 0 ? "\(s / 86_400) d" : "\(s / 86_400) d \(s / 3_600 % 24) h"
    }

    /// "75 %" (whole percent, rounded); nil stays nil (nothing to divide by).
    public static func percent(_ share: Double?) -> String? {
        share.map { "\(clamped($0 * 100)) %" }
    }

    /// "2026-11-29 10:00" (UTC).
    public static func utc(_ date: Date) -> String {
        let text = UTCTime.text(date)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5))
    }

    /// `value` rounded to an integer, held within `Int64` (a share of hostile figures can be
    /// larger than any count; NaN is 0): a conversion that cannot trap.
    static func clamped(_ value: Double) -> Int64 {
        let rounded = value.rounded()
        if rounded.isNaN { return 0 }
        if rounded >= 9.2e18 { return .max }
        if rounded <= -9.2e18 { return .min }
        return Int64(rounded)
    }

    /// "12.5"
    static func oneDecimal(_ value: Double) -> String {
        guard value.magnitude < 1e17 else { return String(clamped(value)) }
        let tenths = clamped(value * 10)
        return Language.current.decimal("\(tenths / 10).\(tenths % 10)")
    }

    static func bucketNoun(_ bucket: StatsBucket) -> String {
        switch bucket {
        case .fiveMinutes: return "5-minute bucket"
        case .hour: return "hourly bucket"
        case .day: return "daily bucket"
        }
    }

    static func paren(_ share: Double?, _ suffix: String = "") -> String {
        percent(share).map { " (\($0)\(suffix))" } ?? ""
    }

    /// "too_old 3, future 1" in English (the reasons' names, as the API and the metrics give
    /// them); in another language in its words ("3 troppo vecchie, 1 nel futuro").
    public static func reasons(_ list: [ReasonCount]) -> String {
        list.map { item in
            guard Language.current != .en, let reason = KeyDropReason(rawValue: item.reason) else {
                return "\(item.reason) \(item.count)"
            }
            return trCount("console.dashboard.dropped.\(reason.catalogueName)", Int(item.count))
        }.joined(separator: ", ")
    }

    /// "0: 1  1: 0  …  15+: 2"
    static func histogram(_ counts: [Int64]) -> String {
        counts.enumerated().map { keys, count in
            "\(keys == StatsReport.keysPerUploadCap ? "\(keys)+" : String(keys)): \(count)"
        }.joined(separator: "  ")
    }

    /// The first `textColumns` columns left-aligned, the numbers after them right-aligned, two
    /// spaces apart, indented by two.
    static func table(_ rows: [[String]], header: [String], textColumns: Int = 1) -> [String] {
        let all = [header] + rows
        let widths = (0..<header.count).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            let cells = row.enumerated().map { column, text in
                let pad = String(repeating: " ", count: widths[column] - text.count)
                return column < textColumns ? text + pad : pad + text
            }
            var line = "  " + cells.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
