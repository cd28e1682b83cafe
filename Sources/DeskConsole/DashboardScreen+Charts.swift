import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DashboardScreen {
    /// One bar: a name (and a shorter one for narrow charts), its length, the figures after it.
    struct BarRow: Hashable, Sendable {
        var name: String
        var shortName: String?
        var value: Int64
        var figures: [String]
    }

    /// A chart in a panel: horizontal bars, a histogram in columns, or one province's figures.
    enum Chart: Hashable, Sendable {
        /// `columns` name the figures; rows that do not fit are left off from the end (the
        /// title then says "top N of M").
        case bars(title: String, columns: [String], rows: [BarRow], empty: String)
        case histogram(title: String, values: [Int64], empty: String)
        case province(code: String, stats: ProvinceStats?, rank: Int?, of: Int)

        func render(into buffer: inout Buffer, area: Rect, ascii: Bool) {
            guard area.width >= 8, area.height >= 3 else { return }
            switch self {
            case .bars(let title, let columns, let rows, let empty):
                DashboardScreen.renderBars(
                    title: title, columns: columns, rows: rows, empty: empty, into: &buffer, area: area, ascii: ascii)
            case .histogram(let title, let values, let empty):
                DashboardScreen.renderHistogram(
                    title: title, values: values, empty: empty, into: &buffer, area: area, ascii: ascii)
            case .province(let code, let stats, let rank, let count):
                DashboardScreen.renderProvince(
                    code: code, stats: stats, rank: rank, of: count, into: &buffer, area: area, ascii: ascii)
            }
        }
    }

    /// The charts, most important first: as many are drawn as the layout has room for.
    static func charts(_ report: StatsReport, _ state: State) -> [Chart] {
        let dash = state.ascii ? "-" : "–"
        func share(_ part: Int64, _ whole: Int64) -> String { percent(StatsReport.share(part, of: whole), dash: dash) }
        var charts: [Chart] = []
        if let code = state.province {
            let index = report.provinces.firstIndex { $0.code == code }
            charts.append(
                .province(
                    code: code, stats: index.map { report.provinces[$0] }, rank: index.map { $0 + 1 },
                    of: report.provinces.count))
        } else {
            charts.append(
                .bars(
                    title: tr("console.dashboard.chart.provinces"),
                    columns: [
                        tr("console.dashboard.column.reports"), "BT", tr("console.dashboard.column.notifications"),
                        tr("console.dashboard.column.exposure"),
                    ],
                    rows: report.provinces.map { province in
                        BarRow(
                            name: provinceName(province.code, ascii: state.ascii), shortName: province.code,
                            value: province.reports,
                            figures: [
                                "\(province.reports)", share(province.bluetoothActive, province.reports),
                                share(province.notificationsAllowed, province.reports),
                                share(province.exposureNotifications, province.reports),
                            ])
                    }, empty: tr("console.dashboard.chart.provincesEmpty")))
        }
        charts.append(
            .bars(
                title: tr("console.dashboard.chart.operators"),
                columns: [tr("console.dashboard.column.codes"), tr("console.dashboard.column.uploaded")],
                rows: report.operators.map { op in
                    BarRow(
                        name: op.name, value: op.authorized,
                        figures: ["\(op.authorized)", share(op.uploaded, op.authorized)])
                }, empty: tr("console.dashboard.chart.operatorsEmpty")))
        charts.append(
            .bars(
                title: tr("console.dashboard.chart.tracers"), columns: [tr("console.dashboard.column.lookups")],
                rows: report.tracers.map { BarRow(name: $0.name, value: $0.lookups, figures: ["\($0.lookups)"]) },
                empty: tr("console.dashboard.chart.tracersEmpty")))
        charts.append(
            .bars(
                title: tr("console.dashboard.chart.dropped"), columns: [tr("console.dashboard.column.keys")],
                rows: report.keysDroppedByReason.map {
                    BarRow(name: EventDetail.dropReason($0.reason), value: $0.count, figures: ["\($0.count)"])
                }, empty: tr("console.dashboard.chart.droppedEmpty")))
        charts.append(
            .histogram(
                title: tr("console.dashboard.chart.keysPerUpload"), values: report.keysPerUpload,
                empty: tr("console.dashboard.chart.keysPerUploadEmpty")))
        return charts
    }

    static func renderBars(
        title: String, columns: [String], rows: [BarRow], empty: String, into buffer: inout Buffer, area: Rect,
        ascii: Bool
    ) {
        let fitting = max(0, area.height - 3)
        var shownTitle = title
        if rows.count > fitting {
            shownTitle += tr("console.dashboard.chart.top", ["shown": String(fitting), "count": String(rows.count)])
        }
        let inner = Panel(title: shownTitle).render(into: &buffer, area: area).inset(horizontal: 1, vertical: 0)
        guard !rows.isEmpty else {
            wrapped(
                Glyphs(ascii: ascii)(empty), into: &buffer, area: inner, style: Style(.muted))
            return
        }
        let shown = Array(rows.prefix(fitting))
        // Figures' columns, dropped from the end while the bar would get under 4 columns.
        var widths = columns.indices.map { index in
            ([columns[index]] + shown.map { $0.figures.indices.contains(index) ? $0.figures[index] : "" })
                .map(DisplayWidth.of).max() ?? 0
        }
        func figuresWidth() -> Int { widths.reduce(0) { $0 + $1 + 1 } }
        let shortest = shown.map { DisplayWidth.of($0.shortName ?? $0.name) }.max() ?? 0
        while !widths.isEmpty, inner.width - figuresWidth() - min(shortest, 8) - 1 < 4 { widths.removeLast() }
        let longest = shown.map { DisplayWidth.of($0.name) }.max() ?? 0
        let nameRoom = max(2, min(longest, inner.width - figuresWidth() - 1 - 6))
        let names = shown.map { row -> String in
            if DisplayWidth.of(row.name) <= nameRoom { return row.name }
            if let short = row.shortName, DisplayWidth.of(short) <= nameRoom { return short }
            // Cut at the edge, marked (three dots on a terminal without UTF-8).
            if ascii { return String(DisplayWidth.prefix(row.name, fitting: max(1, nameRoom - 3)).text) + "..." }
            return DisplayWidth.truncate(row.name, to: nameRoom)
        }
        let nameWidth = names.map(DisplayWidth.of).max() ?? 0
        let barWidth = max(0, inner.width - nameWidth - 1 - figuresWidth())
        let highest = shown.map(\.value).max() ?? 0
        // The header: the figures' names over their columns.
        var x = inner.maxX
        for index in widths.indices.reversed() {
            x -= widths[index]
            let label = columns[index]
            buffer.put(label, x: x + widths[index] - DisplayWidth.of(label), y: inner.y, style: Style(.muted))
            x -= 1
        }
        for (offset, row) in shown.enumerated() {
            let y = inner.y + 1 + offset
            buffer.put(names[offset], x: inner.x, y: y, style: Style(.normal), clip: inner)
            let fraction = highest > 0 ? Double(row.value) / Double(highest) : 0
            buffer.put(
                bar(fraction, width: barWidth, ascii: ascii), x: inner.x + nameWidth + 1, y: y, style: Style(.accent),
                clip: inner)
            var x = inner.maxX
            for index in widths.indices.reversed() {
                x -= widths[index]
                let figure = row.figures.indices.contains(index) ? row.figures[index] : ""
                buffer.put(figure, x: x + widths[index] - DisplayWidth.of(figure), y: y, style: Style(.normal))
                x -= 1
            }
        }
    }

    /// Columns, one per number of keys (the last: that many or more), labelled underneath
    /// where the labels do not run into each other.
    static func renderHistogram(
        title: String, values: [Int64], empty: String, into buffer: inout Buffer, area: Rect, ascii: Bool
    ) {
        let inner = Panel(title: title).render(into: &buffer, area: area).inset(horizontal: 1, vertical: 0)
        let highest = values.max() ?? 0
        guard highest > 0, !values.isEmpty else {
            wrapped(Glyphs(ascii: ascii)(empty), into: &buffer, area: inner, style: Style(.muted))
            return
        }
        let columnWidth = max(1, inner.width / values.count)
        let barWidth = max(1, columnWidth - 1)
        let height = max(1, inner.height - 1)
        let labelY = inner.y + height
        var labelEnd = inner.x - 1
        for (index, value) in values.enumerated() {
            let x = inner.x + index * columnWidth
            guard x + barWidth <= inner.maxX else { break }
            let eighths = value > 0 ? max(1, Int((Double(value) / Double(highest) * Double(height * 8)).rounded())) : 0
            for row in 0..<height {
                let fill = min(8, max(0, eighths - row * 8))
                guard fill > 0 else { break }
                let mark = ascii ? (fill >= 4 || row == 0 ? "#" : " ") : levels[fill - 1]
                buffer.put(
                    String(repeating: mark, count: barWidth), x: x, y: labelY - 1 - row, style: Style(.accent),
                    clip: inner)
            }
            let label = index == values.count - 1 ? "\(index)+" : "\(index)"
            if x > labelEnd, x + DisplayWidth.of(label) <= inner.maxX {
                labelEnd = x + buffer.put(label, x: x, y: labelY, style: Style(.muted), clip: inner)
            }
        }
    }

    static func renderProvince(
        code: String, stats: ProvinceStats?, rank: Int?, of count: Int, into buffer: inout Buffer, area: Rect,
        ascii: Bool
    ) {
        let name = provinceName(code, ascii: ascii)
        let inner = Panel(title: name, focused: true).render(into: &buffer, area: area).inset(
            horizontal: 1, vertical: 0)
        let g = Glyphs(ascii: ascii)
        guard let stats, stats.reports > 0 else {
            wrapped(
                tr("console.dashboard.provinceNoInfoLong", ["name": name]),
                into: &buffer, area: inner, style: Style(.normal))
            return
        }
        func line(_ label: String, _ part: Int64) -> String {
            "\(label) \(percent(StatsReport.share(part, of: stats.reports), dash: g("–"))) (\(part))"
        }
        let lines = [
            trCount("console.dashboard.province.reports", Int(clamping: stats.reports))
                + (rank.map { g(tr("console.dashboard.province.rank", ["rank": String($0), "count": String(count)])) }
                    ?? ""),
            line(tr("console.dashboard.province.bluetooth"), stats.bluetoothActive),
            line(tr("console.dashboard.province.notifications"), stats.notificationsAllowed),
            line(tr("console.dashboard.province.exposure"), stats.exposureNotifications),
        ]
        for (offset, text) in lines.enumerated() where offset < inner.height {
            buffer.put(
                text, x: inner.x, y: inner.y + offset, style: Style(offset == 0 ? .header : .normal), clip: inner)
        }
    }

    // MARK: Prompts

    static func renderProvincePrompt(_ prompt: ProvincePrompt, _ state: State, into buffer: inout Buffer, area: Rect) {
        let panel = area.centered(width: min(64, area.width), height: min(7, area.height))
        buffer.fill(panel)
        let inner = Panel(title: tr("console.dashboard.provincePrompt.title"), focused: true).render(
            into: &buffer, area: panel)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 4 else { return }
        buffer.put(
            tr("console.dashboard.provincePrompt.label"), x: text.x, y: text.y, style: Style(.muted), clip: text
        )
        prompt.code.render(
            into: &buffer, area: Rect(x: text.x, y: text.y + 1, width: min(12, text.width), height: 1), focused: true)
        if let error = prompt.error {
            Notice.error(error).render(
                into: &buffer, x: text.x, y: text.y + 2, width: text.width, rows: 2, ascii: state.ascii)
        } else {
            buffer.put(
                Glyphs(ascii: state.ascii)(tr("console.dashboard.provincePrompt.keys")), x: text.x, y: text.y + 2,
                style: Style(.muted),
                clip: text)
        }
    }

    static func renderExport(_ state: State, into buffer: inout Buffer, area: Rect) {
        let shown = shown(state)
        state.export?.render(
            title: tr("console.dashboard.key.export"),
            summary: Glyphs(ascii: state.ascii)(
                tr(
                    "console.dashboard.exportSummary",
                    [
                        "range": tr("console.dashboard.range.of.\(shown.range.rawValue)"),
                        "bucket": bucketLabel(shown.bucket),
                    ])),
            into: &buffer, area: area, ascii: state.ascii)
    }
}
