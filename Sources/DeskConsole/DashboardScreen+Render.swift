import DeskCore
import DeskText
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
        // A message too long for the line (a failed refresh's reason) gets a second one. Drawn
        // before the first figures too (a notice answers a key pressed meanwhile).
        let notice = message(state)
        let long = notice.map { DisplayWidth.of($0.line) > area.width - 2 } ?? false
        let regions = regions(in: area, tileCount: tiles.count, messageRows: long ? 2 : 1)
        renderHeader(state, into: &buffer, area: regions.header)
        if let notice {
            notice.render(
                into: &buffer, x: regions.message.x, y: regions.message.y, width: regions.message.width,
                rows: regions.message.height, ascii: state.ascii)
        }
        if state.page == .tracing {
            renderTracing(
                state, into: &buffer,
                area: Rect(
                    x: area.x, y: regions.message.maxY, width: area.width,
                    height: max(0, area.maxY - regions.message.maxY)))
        } else if let report = state.report {
            renderTiles(tiles, state, into: &buffer, area: regions.tiles, large: regions.large)
            let charts = self.charts(report, state)
            for (chart, rect) in zip(charts, regions.charts) {
                chart.render(into: &buffer, area: rect, ascii: state.ascii)
            }
        } else {
            let text =
                state.error.map { g(tr("console.dashboard.readFailed", ["error": $0])) }
                ?? g(tr("console.dashboard.reading"))
            let rows = Rect(x: area.x + 2, y: area.y + 3, width: max(0, area.width - 4), height: 4)
            wrapped(
                text, into: &buffer, area: rows, style: Style(state.error == nil ? .accent : .error, .bold))
        }
        if let prompt = state.provincePrompt { renderProvincePrompt(prompt, state, into: &buffer, area: area) }
        if state.export != nil { renderExport(state, into: &buffer, area: area) }
    }

    // MARK: Header

    /// "Last hour · 5 min buckets · since 13:05 · updated 14:02:05 UTC": the range of the
    /// figures on screen (the one chosen while there are none yet), where it starts when
    /// `since` is asked for, and when it was read (its end).
    public static func headerText(_ state: State, since: Bool = true) -> String {
        let shown = shown(state)
        var text = rangeTitle(shown.range)
        text += " · " + tr("console.dashboard.buckets.\(shown.bucket.rawValue)")
        if let report = state.report {
            if since {
                let from = start(report.query.from, report.generatedAt, state.timeZone)
                text +=
                    " · "
                    + tr(
                        from.timeOnly ? "console.dashboard.sinceTime" : "console.dashboard.sinceDay",
                        ["from": from.text])
            }
            text += " · " + tr("console.dashboard.updated", ["time": clock(report.generatedAt, state.timeZone)])
        }
        return text
    }

    /// "13:05" on the day of `now` (`timeOnly`), "28 Nov 15:00" before it ("23 Nov" at
    /// midnight); the month in the language's own short form.
    static func start(_ date: Date, _ now: Date, _ zone: TimeZone) -> (text: String, timeOnly: Bool) {
        let text = ConsoleText.dateTime(date, zone)
        let time = String(text.suffix(5))
        if ConsoleText.day(of: date, in: zone) == ConsoleText.day(of: now, in: zone) { return (time, true) }
        let month = Int(text.dropFirst(5).prefix(2)) ?? 1
        let day = Int(text.dropFirst(8).prefix(2)) ?? 1
        let date = "\(day) \(DateWords.month(max(1, min(12, month))))"
        return (time == "00:00" ? date : tr("console.dashboard.dayAndTime", ["day": date, "time": time]), false)
    }

    /// "14:02:05 UTC": the console's zone, named.
    static func clock(_ date: Date, _ zone: TimeZone) -> String {
        let name = zone.abbreviation(for: date) ?? zone.identifier
        return AuthorizeScreen.clock(date, zone) + " " + (name == "GMT" ? "UTC" : name)
    }

    /// "updating…", "auto refresh every 5 s", "auto refresh off"; `short`: "every 5 s",
    /// "refresh off".
    static func refreshText(_ state: State, short: Bool = false) -> String {
        if state.loading { return tr("console.dashboard.updating") }
        if state.refreshSeconds == 0 {
            return tr(short ? "console.dashboard.refreshOffShort" : "console.dashboard.refreshOff")
        }
        return tr(
            short ? "console.dashboard.refreshEveryShort" : "console.dashboard.refreshEvery",
            ["every": ConsoleApp.duration(state.refreshSeconds)])
    }

    /// The header and the refresh state on the right: the longest forms that fit together (the
    /// start goes before the refresh state's long form; the refresh state last).
    private static func renderHeader(_ state: State, into buffer: inout Buffer, area: Rect) {
        let g = Glyphs(ascii: state.ascii)
        let forms: [(left: String, right: String?)] = [
            (headerText(state), refreshText(state)), (headerText(state), refreshText(state, short: true)),
            (headerText(state, since: false), refreshText(state)),
            (headerText(state, since: false), refreshText(state, short: true)),
            (headerText(state, since: false), nil),
        ]
        let chosen =
            forms.first { form in
                DisplayWidth.of(g(form.left)) + (form.right.map { 2 + DisplayWidth.of(g($0)) } ?? 0) <= area.width
            } ?? forms[forms.count - 1]
        buffer.put(g(chosen.left), x: area.x, y: area.y, style: Style(.header, .bold), clip: area)
        if let right = chosen.right.map({ g($0) }) {
            buffer.put(
                right, x: area.maxX - DisplayWidth.of(right), y: area.y, style: Style(state.loading ? .accent : .muted),
                clip: area)
        }
    }

    /// The line under the header: the range being read while another's figures are shown, a
    /// failed ask, a notice, the province shown, or "no activity".
    static func message(_ state: State) -> Notice? {
        if state.page == .tracing { return tracingMessage(state) }
        let g = Glyphs(ascii: state.ascii)
        if let report = state.report, showsOtherRange(state) {
            let shown = shown(state)
            let chosen = tr(
                "console.dashboard.rangeBy", ["range": phrase(state.range), "bucket": bucketLabel(state.bucket)])
            let old =
                shown.range == state.range
                ? tr("console.dashboard.by", ["bucket": bucketLabel(shown.bucket)]) : phrase(shown.range)
            if let error = state.error {
                return .error(
                    g(
                        tr(
                            "console.dashboard.rangeFailed",
                            [
                                "chosen": chosen, "old": old, "time": clock(report.generatedAt, state.timeZone),
                                "error": error,
                            ])))
            }
            return .working(g(tr("console.dashboard.readingRange", ["chosen": chosen, "old": old])))
        }
        if let error = state.error, let report = state.report {
            // What to do first: the desk's message may be cut at the edge.
            return .error(
                g(
                    tr(
                        "console.dashboard.refreshFailed",
                        ["time": clock(report.generatedAt, state.timeZone), "error": error])))
        }
        if let notice = state.notice { return notice }
        if let code = state.province {
            let name = provinceName(code, ascii: state.ascii)
            let reports = state.report?.provinces.first { $0.code == code }?.reports ?? 0
            return reports > 0
                ? .info(g(tr("console.dashboard.provinceOnly", ["name": name])))
                : .info(g(tr("console.dashboard.provinceNoInfo", ["name": name])))
        }
        if let report = state.report, report.isEmpty {
            let range = shown(state).range
            return .info(tr("console.dashboard.noActivity.\(range.rawValue)"))
        }
        return nil
    }

    // MARK: Tiles

    /// The tiles, in reading order: the funnel, uploads and keys, publishing, traffic,
    /// analytics, APRICOT. Counts of a million or more are shortened ("12.0 M").
    public static func tiles(_ report: StatsReport, ascii: Bool = false) -> [Tile] {
        let refused = StatsSeries.sum(report.uploadsRefused.map(\.count))
        let uploadedCodes = report.uploaded.total
        let authorized = report.authorized.total
        let dash = ascii ? "-" : "–"
        let n = count
        func of(_ part: Int64, _ whole: Int64) -> String {
            tr("console.dashboard.tile.of", ["part": n(part), "whole": n(whole)])
        }
        let requests = StatsSeries.sum([report.dummyRequests.total, report.realRequests.total])
        // The dummy share per bucket, in thousandths (a bucket without requests at the baseline),
        // in Double: counts from a server are not trusted not to overflow a product.
        let dummyShares = zip(report.dummyRequests.values, report.realRequests.values).map { dummy, real in
            let all = Double(dummy) + Double(real)
            return all > 0 ? Int64((Double(dummy) * 1_000 / all).rounded(.down)) : 0
        }
        return [
            Tile(
                label: tr("console.dashboard.tile.authorised"), value: n(authorized), series: report.authorized.values),
            Tile(
                label: tr("console.dashboard.tile.checked"), value: percent(report.checkedShare, dash: dash),
                detail: of(report.checked.total, authorized), series: report.checked.values),
            Tile(
                label: tr("console.dashboard.tile.uploaded"), value: percent(report.uploadedShare, dash: dash),
                detail: of(uploadedCodes, authorized), series: report.uploaded.values),
            Tile(
                label: tr("console.dashboard.tile.toUpload"), value: report.medianSecondsToUpload.map(duration) ?? dash,
                detail: uploadedCodes == 0
                    ? tr("console.dashboard.tile.medianNone")
                    : tr("console.dashboard.tile.medianOf", ["count": n(uploadedCodes)])),
            Tile(
                label: tr("console.dashboard.tile.uploads"), value: n(report.uploads.total),
                detail: trCount("console.dashboard.tile.refused", Int(clamping: refused), ["n": n(refused)]),
                series: report.uploads.values),
            Tile(
                label: tr("console.dashboard.tile.keysAccepted"), value: n(report.keysAccepted.total),
                detail: report.keysPerUploadMean.map { tr("console.dashboard.tile.perUpload", ["mean": decimal($0)]) }
                    ?? "",
                series: report.keysAccepted.values),
            Tile(
                label: tr("console.dashboard.tile.keysDropped"), value: n(report.keysDropped.total),
                series: report.keysDropped.values),
            Tile(
                label: tr("console.dashboard.tile.chunks"), value: n(report.chunks.total),
                detail: report.keysPerChunk.map { tr("console.dashboard.tile.keysEach", ["mean": decimal($0)]) } ?? "",
                series: report.chunks.values),
            Tile(
                label: tr("console.dashboard.tile.dummyShare"), value: percent(report.dummyShare, dash: dash),
                detail: of(report.dummyRequests.total, requests), series: dummyShares),
            Tile(
                label: tr("console.dashboard.tile.analytics"), value: n(report.analyticsReports.total),
                detail: tr("console.dashboard.tile.reports"),
                series: report.analyticsReports.values),
            Tile(
                label: tr("console.dashboard.tile.registrations"), value: n(report.registrations.total),
                detail: tr("console.dashboard.tile.returning", ["count": n(report.returningSignIns)]),
                series: report.registrations.values),
            Tile(
                label: tr("console.dashboard.tile.contactFiles"), value: n(report.contactFiles.total),
                series: report.contactFiles.values),
            Tile(
                label: tr("console.dashboard.tile.lookups"), value: n(report.lookups.total),
                series: report.lookups.values),
            Tile(
                label: tr("console.dashboard.tile.pseudoIDs"), value: n(report.pseudoIDs.used),
                detail: tr("console.dashboard.tile.ofPseudoIDs", ["percent": pseudoPercent(report.pseudoIDs)])),
        ]
    }

    private static func renderTiles(_ tiles: [Tile], _ state: State, into buffer: inout Buffer, area: Rect, large: Bool)
    {
        // 13 columns hold every English label; a longer label (Italian's) widens them all, up to 15.
        let labelWidth = max(13, min(15, tiles.map { DisplayWidth.of($0.label) }.max() ?? 0))
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
                renderLineTile(
                    tile, state, labelWidth: labelWidth, into: &buffer,
                    area: Rect(x: x, y: area.y + row, width: width, height: 1))
            }
        }
    }

    /// "authorised        42 ▁▂▃▅▇█▁": label, value, sparkline (or the detail when it has none).
    /// A value wider than its column pushes the rest right; the label always keeps a space after it.
    private static func renderLineTile(
        _ tile: Tile, _ state: State, labelWidth: Int, into buffer: inout Buffer, area: Rect
    ) {
        let valueWidth = 9
        let used = buffer.put(tile.label, x: area.x, y: area.y, style: Style(.normal), maxWidth: labelWidth, clip: area)
        let value = tile.value
        let valueX = max(area.x + used + 1, area.x + labelWidth + valueWidth - DisplayWidth.of(value))
        let valueEnd = valueX + buffer.put(value, x: valueX, y: area.y, style: Style(.normal, .bold), clip: area)
        let restX = max(area.x + labelWidth + valueWidth, valueEnd) + 1
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

    /// "62%", or the dash when there is nothing to divide. Never "100%" short of all, nor
    /// "0%" above none: "99%", "<1%".
    public static func percent(_ share: Double?, dash: String = "–") -> String {
        guard let share else { return dash }
        if share > 0, share < 0.01 { return "<1%" }
        let whole = Int((share * 100).rounded())
        return "\(share < 1 ? min(99, whole) : whole)%"
    }

    /// "999999" as it is; a million or more shortened to three figures: "1.00 M", "12.0 M",
    /// "4.29 G" (a tile's column holds 9 characters).
    public static func count(_ value: Int64) -> String {
        guard value.magnitude >= 1_000_000 else { return "\(value)" }
        let units: [(Double, String)] = [(1e6, "M"), (1e9, "G"), (1e12, "T"), (1e15, "P"), (1e18, "E")]
        // The smallest unit that keeps three figures (999.6 M rounds to 1.00 G).
        for unit in units {
            let scaled = Double(value) / unit.0
            let text: String
            switch abs(scaled) {
            case ..<9.995: text = String(format: "%.2f", scaled)
            case ..<99.95: text = String(format: "%.1f", scaled)
            case ..<999.5: text = String(format: "%.0f", scaled)
            default: continue
            }
            return "\(Language.current.decimal(text)) \(unit.1)"
        }
        return "\(value)"
    }

    /// "0.28%", "<0.01%" for a use too small to round, "42.5%" from 10%, "100%" when all are
    /// used (never short of all): it fits a tile's line at 80 columns.
    static func pseudoPercent(_ capacity: PseudoIDCapacity) -> String {
        let percent = capacity.fraction * 100
        if capacity.used > 0, percent < 0.01 { return Language.current.decimal("<0.01%") }
        if capacity.used >= capacity.capacity { return "100%" }
        if percent < 10 { return Language.current.decimal(String(format: "%.2f%%", percent)) }
        return Language.current.decimal(String(format: "%.1f%%", min(99.9, (percent * 10).rounded(.down) / 10)))
    }

    /// "12.5" (one decimal).
    static func decimal(_ value: Double) -> String { Language.current.decimal(String(format: "%.1f", value)) }

    /// "45 s", "2 min 05 s", "3 h 5 min", "2 d 4 h" ("2 g 4 h" in Italian; a code lives
    /// minutes: seconds count under the hour).
    public static func duration(_ seconds: Int64) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3_600 {
            let rest = seconds % 60
            return "\(seconds / 60) min \(rest < 10 ? "0" : "")\(rest) s"
        }
        if seconds < 86_400 {
            return seconds % 3_600 / 60 == 0
                ? "\(seconds / 3_600) h" : "\(seconds / 3_600) h \(seconds % 3_600 / 60) min"
        }
        return tr(
            "console.dashboard.daysHours",
            ["days": String(seconds / 86_400), "hours": String(seconds % 86_400 / 3_600)])
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
