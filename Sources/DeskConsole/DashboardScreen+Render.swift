import DeskCore
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DashboardScreen {
    /// One figure: its total, a few words, and its series (nil for figures that have none).
    public struct Tile: Hashable, Sendable {
        public var label: String
        public var value: String
        public var detail: String
        public var series: [Int64]?

        public init(label: String, value: String, detail: String = "", series: [Int64]? = nil) {
            self.label = label
            self.value = value
            self.detail = detail
            self.series = series
        }
    }

    /// Where each part goes; the large layout boxes its tiles and adds a second row of charts.
    struct Regions {
        var header: Rect
        var message: Rect
        var tiles: Rect
        var charts: [Rect]
        var large: Bool
    }

    /// Tiles per row and whether they are boxed, for a body area.
    static func isLarge(_ area: Rect) -> Bool { area.width >= 120 && area.height >= 38 }

    static func regions(in area: Rect, tileCount: Int, messageRows: Int = 1) -> Regions {
        let large = isLarge(area)
        let inner = area.inset(horizontal: 1, vertical: 0)
        let columns = tileColumns(width: inner.width, large: large)
        let tileRows = (tileCount + columns - 1) / columns * (large ? 4 : 1)
        let header = Rect(x: inner.x, y: area.y, width: inner.width, height: 1)
        let message = Rect(x: inner.x, y: area.y + 1, width: inner.width, height: messageRows)
        let tiles = Rect(x: inner.x, y: message.maxY, width: inner.width, height: tileRows)
        let rest = Rect(x: area.x, y: tiles.maxY, width: area.width, height: max(0, area.maxY - tiles.maxY))
        var charts: [Rect] = []
        if large, rest.height >= 20 {
            let rows = Layout(.vertical, [.fill(), .fill()]).split(rest)
            charts += Layout(.horizontal, [.fill(), .fill()]).split(rows[0])
            charts += Layout(.horizontal, [.fill(), .fill(), .fill()]).split(rows[1])
        } else if area.width >= 120 {
            charts += Layout(.horizontal, [.fill(), .fill(), .fill()]).split(rest)
        } else {
            charts += Layout(.horizontal, [.fill(), .fill()]).split(rest)
        }
        return Regions(header: header, message: message, tiles: tiles, charts: charts, large: large)
    }

    static func tileColumns(width: Int, large: Bool) -> Int {
        max(1, large ? width / 30 : (width + 2) / 38)
    }

    public static func render(_ state: State, into buffer: inout Buffer, area: Rect) {
        let g = Glyphs(ascii: state.ascii)
        let tiles = state.report.map { self.tiles($0, ascii: state.ascii) } ?? []
        // A message too long for the line (a failed refresh's reason) gets a second one.
        let notice = state.report == nil ? nil : message(state)
        let long = notice.map { DisplayWidth.of($0.line) > area.width - 2 } ?? false
        let regions = regions(in: area, tileCount: tiles.count, messageRows: long ? 2 : 1)
        renderHeader(state, into: &buffer, area: regions.header)
        if let notice {
            notice.render(
                into: &buffer, x: regions.message.x, y: regions.message.y, width: regions.message.width,
                rows: regions.message.height, ascii: state.ascii)
        }
        if let report = state.report {
            renderTiles(tiles, state, into: &buffer, area: regions.tiles, large: regions.large)
            let charts = self.charts(report, state)
            for (chart, rect) in zip(charts, regions.charts) {
                chart.render(into: &buffer, area: rect, ascii: state.ascii)
            }
        } else {
            let text =
                state.error.map { g("✗ the figures could not be read: \($0). Press r to try again.") }
                ?? g("… reading the figures")
            let rows = Rect(x: area.x + 2, y: area.y + 3, width: max(0, area.width - 4), height: 4)
            wrapped(
                text, into: &buffer, area: rows, style: Style(state.error == nil ? .accent : .error, .bold))
        }
        if let prompt = state.provincePrompt { renderProvincePrompt(prompt, state, into: &buffer, area: area) }
        if state.export != nil { renderExport(state, into: &buffer, area: area) }
    }

    // MARK: Header

    /// "Last hour · 5 min buckets · updated 14:02:05 UTC".
    public static func headerText(_ state: State) -> String {
        var text = "\(state.range.label.prefix(1).uppercased())\(state.range.label.dropFirst())"
        text += " · \(state.bucket.label) buckets"
        if let report = state.report {
            text += " · updated \(clock(report.generatedAt, state.timeZone))"
        }
        return text
    }

    /// "14:02:05 UTC": the console's zone, named.
    static func clock(_ date: Date, _ zone: TimeZone) -> String {
        let name = zone.abbreviation(for: date) ?? zone.identifier
        return AuthorizeScreen.clock(date, zone) + " " + (name == "GMT" ? "UTC" : name)
    }

    /// "updating…", "auto refresh every 5 s", "auto refresh off".
    static func refreshText(_ state: State) -> String {
        if state.loading { return "updating…" }
        if state.refreshSeconds == 0 { return "auto refresh off" }
        return "auto refresh every \(ConsoleApp.duration(state.refreshSeconds))"
    }

    private static func renderHeader(_ state: State, into buffer: inout Buffer, area: Rect) {
        let g = Glyphs(ascii: state.ascii)
        let left = g(headerText(state))
        let right = g(refreshText(state))
        let used = buffer.put(left, x: area.x, y: area.y, style: Style(.header, .bold), clip: area)
        let width = DisplayWidth.of(right)
        if used + 2 + width <= area.width {
            buffer.put(
                right, x: area.maxX - width, y: area.y, style: Style(state.loading ? .accent : .muted), clip: area)
        }
    }

    /// The line under the header: a failed refresh, a notice, the province shown, or "no activity".
    static func message(_ state: State) -> Notice? {
        if let error = state.error, let report = state.report {
            // What to do first: the desk's message may be cut at the edge.
            return .error(
                "refresh failed (figures from \(clock(report.generatedAt, state.timeZone)); r tries again): \(error)")
        }
        if let notice = state.notice { return notice }
        if let code = state.province {
            let reports = state.report?.provinces.first { $0.code == code }?.reports ?? 0
            return reports > 0
                ? .info("Province \(provinceName(code)) · Esc shows every province")
                : .info("no operational info from \(provinceName(code)) in this range · Esc shows every province")
        }
        if let report = state.report, report.isEmpty { return .info("No activity in the \(state.range.label)") }
        return nil
    }

    // MARK: Tiles

    /// The tiles, in reading order: the funnel, uploads and keys, publishing, traffic,
    /// analytics, APRICOT.
    public static func tiles(_ report: StatsReport, ascii: Bool = false) -> [Tile] {
        let refused = report.uploadsRefused.reduce(Int64(0)) { $0 + $1.count }
        let uploadedCodes = report.uploaded.total
        let dash = ascii ? "-" : "–"
        return [
            Tile(label: "authorised", value: "\(report.authorized.total)", series: report.authorized.values),
            Tile(
                label: "checked", value: percent(report.checkedShare, dash: dash),
                detail: "\(report.checked.total) of \(report.authorized.total)", series: report.checked.values),
            Tile(
                label: "uploaded", value: percent(report.uploadedShare, dash: dash),
                detail: "\(uploadedCodes) of \(report.authorized.total)", series: report.uploaded.values),
            Tile(
                label: "to upload", value: report.medianSecondsToUpload.map(duration) ?? dash,
                detail: uploadedCodes == 0 ? "median, no upload" : "median of \(uploadedCodes)"),
            Tile(
                label: "uploads", value: "\(report.uploads.total)", detail: "\(refused) refused",
                series: report.uploads.values),
            Tile(
                label: "keys accepted", value: "\(report.keysAccepted.total)",
                detail: report.keysPerUploadMean.map { "\(decimal($0)) per upload" } ?? "",
                series: report.keysAccepted.values),
            Tile(label: "keys dropped", value: "\(report.keysDropped.total)", series: report.keysDropped.values),
            Tile(
                label: "chunks", value: "\(report.chunks.total)",
                detail: report.keysPerChunk.map { "\(decimal($0)) keys each" } ?? "", series: report.chunks.values),
            Tile(
                label: "dummy share", value: percent(report.dummyShare, dash: dash),
                detail: "\(report.dummyRequests.total) of \(report.dummyRequests.total + report.realRequests.total)",
                series: report.dummyRequests.values),
            Tile(
                label: "analytics", value: "\(report.analyticsReports.total)", detail: "reports",
                series: report.analyticsReports.values),
            Tile(
                label: "registrations", value: "\(report.registrations.total)",
                detail: "+\(report.returningSignIns) returning", series: report.registrations.values),
            Tile(label: "contact files", value: "\(report.contactFiles.total)", series: report.contactFiles.values),
            Tile(label: "lookups", value: "\(report.lookups.total)", series: report.lookups.values),
            Tile(
                label: "pseudo-ids", value: "\(report.pseudoIDs.used)",
                detail: "of 2^32, \(pseudoPercent(report.pseudoIDs))"),
        ]
    }

    private static func renderTiles(_ tiles: [Tile], _ state: State, into buffer: inout Buffer, area: Rect, large: Bool)
    {
        let columns = tileColumns(width: area.width, large: large)
        let gap = large ? 0 : 2
        let width = (area.width - gap * (columns - 1)) / columns
        for (index, tile) in tiles.enumerated() {
            let column = index % columns
            let row = index / columns
            let x = area.x + column * (width + gap)
            if large {
                renderBoxedTile(
                    tile, state, into: &buffer, area: Rect(x: x, y: area.y + row * 4, width: width, height: 4))
            } else {
                renderLineTile(tile, state, into: &buffer, area: Rect(x: x, y: area.y + row, width: width, height: 1))
            }
        }
    }

    /// "authorised        42 ▁▂▃▅▇█▁": label, value, sparkline (or the detail when it has none).
    private static func renderLineTile(_ tile: Tile, _ state: State, into buffer: inout Buffer, area: Rect) {
        let labelWidth = 13
        let valueWidth = 9
        buffer.put(tile.label, x: area.x, y: area.y, style: Style(.normal), maxWidth: labelWidth, clip: area)
        let value = tile.value
        let valueX = area.x + labelWidth + max(0, valueWidth - DisplayWidth.of(value))
        buffer.put(value, x: valueX, y: area.y, style: Style(.normal, .bold), clip: area)
        let restX = area.x + labelWidth + valueWidth + 1
        let rest = max(0, area.maxX - restX)
        if let series = tile.series {
            buffer.put(sparkline(series, width: rest, ascii: state.ascii), x: restX, y: area.y, style: Style(.accent))
        } else if let detail = fit(Glyphs(ascii: state.ascii)(tile.detail), rest) {
            buffer.put(detail, x: restX, y: area.y, style: Style(.muted))
        }
    }

    /// A box titled with the label: the value and its detail, then the sparkline.
    private static func renderBoxedTile(_ tile: Tile, _ state: State, into buffer: inout Buffer, area: Rect) {
        let inner = Panel(title: tile.label).render(into: &buffer, area: area).inset(horizontal: 1, vertical: 0)
        guard inner.width > 2 else { return }
        let used = buffer.put(tile.value, x: inner.x, y: inner.y, style: Style(.normal, .bold), clip: inner)
        if let detail = fit(Glyphs(ascii: state.ascii)(tile.detail), inner.width - used - 2) {
            buffer.put(detail, x: inner.maxX - DisplayWidth.of(detail), y: inner.y, style: Style(.muted))
        }
        if let series = tile.series {
            buffer.put(
                sparkline(series, width: inner.width, ascii: state.ascii), x: inner.x, y: inner.y + 1,
                style: Style(.accent))
        }
    }

    // MARK: Sparklines and bars

    static let levels: [String] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    static let asciiLevels: [String] = ["_", ".", "-", "=", "#"]

    /// The series resampled to `width` columns (stretched, or averaged over the buckets a column
    /// covers), each column a level of its value against the highest: zero is the lowest level,
    /// anything above zero at least the next one. An all-zero series is a flat baseline.
    public static func sparkline(_ values: [Int64], width: Int, ascii: Bool = false) -> String {
        guard width > 0 else { return "" }
        let marks = ascii ? asciiLevels : levels
        let columns = resample(values, width: width)
        let highest = columns.max() ?? 0
        return columns.map { value -> String in
            guard value > 0, highest > 0 else { return marks[0] }
            return marks[1 + Int((value / highest * Double(marks.count - 2)).rounded())]
        }.joined()
    }

    /// `values` as `width` columns: each column the mean of the buckets it covers.
    static func resample(_ values: [Int64], width: Int) -> [Double] {
        guard !values.isEmpty, width > 0 else { return Array(repeating: 0, count: max(0, width)) }
        let n = values.count
        return (0..<width).map { column in
            let start = column * n / width
            let end = max(start + 1, (column + 1) * n / width)
            let slice = values[start..<min(end, n)]
            return Double(slice.reduce(0, +)) / Double(slice.count)
        }
    }

    /// A horizontal bar of `fraction` of `width` columns, in eighths (`#` in ASCII); anything
    /// above zero shows at least a sliver.
    public static func bar(_ fraction: Double, width: Int, ascii: Bool = false) -> String {
        guard width > 0, fraction > 0 else { return "" }
        let clamped = min(1, fraction)
        if ascii {
            return String(repeating: "#", count: max(1, Int((clamped * Double(width)).rounded())))
        }
        let eighths = max(1, Int((clamped * Double(width * 8)).rounded()))
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return String(repeating: "█", count: eighths / 8) + partial[eighths % 8]
    }

    // MARK: Numbers

    /// "62%", or the dash when there is nothing to divide.
    static func percent(_ share: Double?, dash: String = "–") -> String {
        share.map { "\(Int(($0 * 100).rounded()))%" } ?? dash
    }

    /// "0.28%", "<0.01%" for a use too small to round.
    static func pseudoPercent(_ capacity: PseudoIDCapacity) -> String {
        let percent = capacity.fraction * 100
        if capacity.used > 0, percent < 0.01 { return "<0.01%" }
        return String(format: "%.2f%%", percent)
    }

    /// "12.5" (one decimal).
    static func decimal(_ value: Double) -> String { String(format: "%.1f", value) }

    /// "45 s", "12 min", "3 h 5 min", "2 d 4 h".
    static func duration(_ seconds: Int64) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3_600 { return "\(seconds / 60) min" }
        if seconds < 86_400 {
            return seconds % 3_600 / 60 == 0
                ? "\(seconds / 3_600) h" : "\(seconds / 3_600) h \(seconds % 3_600 / 60) min"
        }
        return "\(seconds / 86_400) d \(seconds % 86_400 / 3_600) h"
    }

    /// Word-wrapped into `area`.
    static func wrapped(_ text: String, into buffer: inout Buffer, area: Rect, style: Style) {
        ConsoleText.putWrapped(
            text, style: style, into: &buffer, x: area.x, y: area.y, width: area.width, rows: area.height)
    }

    /// `text` when it fits in `width`, nil otherwise (never cut mid-word).
    static func fit(_ text: String, _ width: Int) -> String? {
        text.isEmpty || DisplayWidth.of(text) > width ? nil : text
    }
}
