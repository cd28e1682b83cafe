import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``StatsReport`` as one CSV file (RFC 4180, lines end in CRLF): what `tracedesk stats --csv`
/// prints and the dashboard's `e` writes. One long table, so every figure fits the same six
/// columns and a spreadsheet's filter or pivot picks out what it needs:
///
///     section,figure,key,label,bucket_start,value
///
/// - `range`: `from`, `to`, `bucket`, `generated_at` (value: the time or the bucket's name);
///   `note` with `no data in this range` when nothing happened.
/// - `series`: one row per figure and bucket, `bucket_start` the bucket's start (UTC,
///   2026-11-29T10:00:00.000Z), oldest first. Figures: authorized, checked, uploaded, uploads,
///   keys_accepted, keys_dropped, chunks, keys_published, real_requests, dummy_requests,
///   analytics_reports, registrations, contact_files, lookups.
/// - `total`: each series' sum, then padding_published, returning_sign_ins,
///   median_seconds_to_upload (empty when no code was uploaded), pseudo_ids_used,
///   pseudo_ids_capacity.
/// - `share`: checked_share, uploaded_share, dummy_share (fractions 0–1), keys_per_chunk,
///   keys_per_upload_mean; empty when there is nothing to divide by.
/// - `operator`: authorized, checked, uploaded with the operator's name in `key`.
/// - `province`: reports, bluetooth_active, notifications_allowed, exposure_notifications with
///   the code in `key` and the province's name in `label` (empty for a code not in the list).
/// - `reason`: keys_dropped and uploads_refused with the reason in `key`.
/// - `histogram`: keys_per_upload with the number of keys in `key` (`0`…`14`, then `15+`).
/// - `tracer`: lookups with the tracer's name in `key`.
///
/// Text fields (names, reasons, codes) that start with `=`, `+`, `-`, `@`, a tab or a carriage
/// return get a leading `'`,
/// so a spreadsheet does not run them as formulas (as in ``TraceCSV``).
public enum StatsCSV {
    public static let columns = ["section", "figure", "key", "label", "bucket_start", "value"]

    /// Shown (and written in `range,note`) when nothing happened in the range.
    public static let noData = "no data in this range"

    public static func encode(_ report: StatsReport) -> String {
        var lines = [columns.joined(separator: ",")]
        func row(
            _ section: String, _ figure: String, key: String = "", label: String = "", at: Date? = nil, _ value: String
        ) {
            let fields = [
                section, figure, TraceCSV.typed(key), TraceCSV.typed(label), at.map(UTCTime.text) ?? "", value,
            ]
            lines.append(fields.map(TraceCSV.field).joined(separator: ","))
        }
        let query = report.query
        row("range", "from", UTCTime.text(query.from))
        row("range", "to", UTCTime.text(query.to))
        row("range", "bucket", query.bucket.rawValue)
        row("range", "generated_at", UTCTime.text(report.generatedAt))
        if report.isEmpty { row("range", "note", noData) }
        let series = namedSeries(report)
        let starts = query.bucketStarts
        for (name, values) in series {
            for (start, value) in zip(starts, values.values) { row("series", name, at: start, String(value)) }
        }
        for (name, values) in series { row("total", name, String(values.total)) }
        row("total", "padding_published", String(report.paddingPublished))
        row("total", "returning_sign_ins", String(report.returningSignIns))
        row("total", "median_seconds_to_upload", report.medianSecondsToUpload.map { String($0) } ?? "")
        row("total", "pseudo_ids_used", String(report.pseudoIDs.used))
        row("total", "pseudo_ids_capacity", String(report.pseudoIDs.capacity))
        let shares: [(String, Double?)] = [
            ("checked_share", report.checkedShare), ("uploaded_share", report.uploadedShare),
            ("dummy_share", report.dummyShare), ("keys_per_chunk", report.keysPerChunk),
            ("keys_per_upload_mean", report.keysPerUploadMean),
        ]
        for (name, value) in shares { row("share", name, value.map(decimal) ?? "") }
        for item in report.operators {
            row("operator", "authorized", key: item.name, String(item.authorized))
            row("operator", "checked", key: item.name, String(item.checked))
            row("operator", "uploaded", key: item.name, String(item.uploaded))
        }
        for item in report.provinces {
            let name = item.province?.name ?? ""
            row("province", "reports", key: item.code, label: name, String(item.reports))
            row("province", "bluetooth_active", key: item.code, label: name, String(item.bluetoothActive))
            row("province", "notifications_allowed", key: item.code, label: name, String(item.notificationsAllowed))
            row("province", "exposure_notifications", key: item.code, label: name, String(item.exposureNotifications))
        }
        for item in report.keysDroppedByReason { row("reason", "keys_dropped", key: item.reason, String(item.count)) }
        for item in report.uploadsRefused { row("reason", "uploads_refused", key: item.reason, String(item.count)) }
        for (keys, count) in report.keysPerUpload.enumerated() {
            let key = keys == StatsReport.keysPerUploadCap ? "\(keys)+" : String(keys)
            row("histogram", "keys_per_upload", key: key, String(count))
        }
        for item in report.tracers { row("tracer", "lookups", key: item.name, String(item.lookups)) }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// Every series of the report under its CSV (and JSON) name, in the layout's order.
    public static func namedSeries(_ report: StatsReport) -> [(name: String, series: StatsSeries)] {
        [
            ("authorized", report.authorized), ("checked", report.checked), ("uploaded", report.uploaded),
            ("uploads", report.uploads), ("keys_accepted", report.keysAccepted), ("keys_dropped", report.keysDropped),
            ("chunks", report.chunks), ("keys_published", report.keysPublished),
            ("real_requests", report.realRequests), ("dummy_requests", report.dummyRequests),
            ("analytics_reports", report.analyticsReports), ("registrations", report.registrations),
            ("contact_files", report.contactFiles), ("lookups", report.lookups),
        ]
    }

    /// Four decimals, a point, no exponent: `0.6667`, `12.5`.
    public static func decimal(_ value: Double) -> String {
        // Beyond 10^14 four decimals no longer fit an Int64 (only a hostile answer gets there).
        guard value.magnitude < 1e14 else { return String(StatsText.clamped(value)) }
        let scaled = StatsText.clamped(value * 10_000)
        let whole = scaled / 10_000
        var fraction = String(scaled % 10_000)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
    }
}
