import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``StatsReport`` as plain text: what `tracedesk stats` prints by default, and the phrases a
/// screen may reuse (a duration, a share, a time). ASCII only, so it reads the same under
/// LANG=C and in a log. Shares come from the report's derived figures, which are nil when there
/// is nothing to divide: they are then left out, never shown as 0 % or NaN.
public enum StatsText {
    /// The whole summary, one line per element: the range, the totals with their shares, the
    /// funnel, the top operators, provinces, keys per upload and APRICOT. `top` limits the
    /// operators, provinces and tracers listed (the rest are counted in a last line).
    public static func summary(_ report: StatsReport, title: String? = nil, top: Int = 10) -> [String] {
        var lines: [String] = []
        let query = report.query
        let heading = title.map { "Statistics, \($0)" } ?? "Statistics"
        lines.append(
            "\(heading): \(utc(query.from)) to \(utc(query.to)) UTC, \(TraceText.plural(query.bucketCount, bucketNoun(query.bucket)))"
        )
        lines.append("Read at \(utc(report.generatedAt)) UTC")
        if report.isEmpty {
            lines.append("")
            lines.append("\(StatsCSV.noData.prefix(1).uppercased())\(StatsCSV.noData.dropFirst()).")
            lines.append("Pseudo-ids: \(report.pseudoIDs.summary)")
            return lines
        }
        lines.append("")
        func tile(_ name: String, _ value: Int64, _ rest: String = "") -> String {
            let label = name + String(repeating: " ", count: max(0, 22 - name.count))
            let number = String(value)
            return label + String(repeating: " ", count: max(0, 8 - number.count)) + number
                + (rest.isEmpty ? "" : "   " + rest)
        }
        lines.append(
            tile(
                "Codes authorised", report.authorized.total,
                "checked \(report.checked.total)\(paren(report.checkedShare)), uploaded \(report.uploaded.total)\(paren(report.uploadedShare))"
            ))
        var uploads = "keys accepted \(report.keysAccepted.total), dropped \(report.keysDropped.total)"
        if let mean = report.keysPerUploadMean { uploads += ", \(oneDecimal(mean)) keys per upload" }
        lines.append(tile("Uploads", report.uploads.total, uploads))
        let refused = StatsSeries.sum(report.uploadsRefused.map(\.count))
        lines.append(tile("Uploads refused", refused, reasons(report.uploadsRefused)))
        var chunks = "keys \(report.keysPublished.total), padding \(report.paddingPublished)"
        if let perChunk = report.keysPerChunk { chunks += ", \(oneDecimal(perChunk)) keys per chunk" }
        lines.append(tile("Chunks published", report.chunks.total, chunks))
        let requests = StatsSeries.sum([report.realRequests.total, report.dummyRequests.total])
        lines.append(
            tile(
                "Phone requests", requests,
                "real \(report.realRequests.total), dummy \(report.dummyRequests.total)\(paren(report.dummyShare, " dummy"))"
            ))
        lines.append(tile("Analytics reports", report.analyticsReports.total))
        lines.append(
            tile("APRICOT registrations", report.registrations.total, "returning sign-ins \(report.returningSignIns)"))
        lines.append(tile("APRICOT contact files", report.contactFiles.total))
        lines.append(tile("Contact lookups", report.lookups.total))
        lines.append("Pseudo-ids: \(report.pseudoIDs.summary)")

        lines.append("")
        lines.append("Funnel (codes authorised in the range, by authorisation time):")
        lines.append("  authorised \(report.authorized.total)")
        lines.append("  checked    \(report.checked.total)\(paren(report.checkedShare, " of authorised"))")
        lines.append("  uploaded   \(report.uploaded.total)\(paren(report.uploadedShare, " of authorised"))")
        lines.append(
            "  median time to upload: \(report.medianSecondsToUpload.map(duration) ?? "none (no code was uploaded)")")

        if !report.keysDroppedByReason.isEmpty {
            lines.append("")
            lines.append("Keys dropped by reason: \(reasons(report.keysDroppedByReason))")
        }
        if report.uploads.total > 0 {
            lines.append("")
            lines.append("Keys per upload:")
            lines.append("  " + histogram(report.keysPerUpload))
        }
        if !report.operators.isEmpty {
            lines.append("")
            lines.append("Top operators (codes authorised, checked, uploaded):")
            lines += table(
                report.operators.prefix(top).map {
                    [$0.name, String($0.authorized), String($0.checked), String($0.uploaded)]
                }, header: ["OPERATOR", "AUTHORISED", "CHECKED", "UPLOADED"])
            if report.operators.count > top { lines.append("  and \(report.operators.count - top) more") }
        }
        if !report.provinces.isEmpty {
            lines.append("")
            lines.append(
                "Provinces (analytics reports; Bluetooth active, notifications allowed, exposure notifications):")
            lines += table(
                report.provinces.prefix(top).map {
                    [
                        $0.code, $0.province?.asciiName ?? "(not a province)", String($0.reports),
                        String($0.bluetoothActive),
                        String($0.notificationsAllowed), String($0.exposureNotifications),
                    ]
                }, header: ["CODE", "PROVINCE", "REPORTS", "BLUETOOTH", "NOTIFICATIONS", "EXPOSURES"], textColumns: 2)
            if report.provinces.count > top { lines.append("  and \(report.provinces.count - top) more") }
        }
        if !report.tracers.isEmpty {
            lines.append("")
            lines.append("APRICOT lookups per tracer:")
            lines += table(
                report.tracers.prefix(top).map { [$0.name, String($0.lookups)] }, header: ["TRACER", "LOOKUPS"])
            if report.tracers.count > top { lines.append("  and \(report.tracers.count - top) more") }
        }
        return lines
    }

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
        return "\(tenths / 10).\(tenths % 10)"
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

    static func reasons(_ list: [ReasonCount]) -> String {
        list.isEmpty ? "" : list.map { "\($0.reason) \($0.count)" }.joined(separator: ", ")
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
