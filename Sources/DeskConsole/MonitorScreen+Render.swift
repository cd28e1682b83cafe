import DeskCore
import DeskText
import Foundation
import TerminalKit

extension MonitorScreen {
    /// Where each part goes in a body area; shared by drawing and mouse hit-tests. The counts
    /// are under the feed's state at the top; the kinds' keys in a legend at the bottom, above
    /// the footer's keys: figures and keys never share a line.
    public struct Regions: Hashable, Sendable {
        public var status: Rect
        public var counts: Rect
        public var filter: Rect
        public var table: Rect
        public var pane: Rect
        public var legend: Rect
    }

    public static func regions(_ state: State, in area: Rect) -> Regions {
        regions(
            state, in: area, countRows: countLines(state, width: area.width - 2).count,
            legendRows: legendLines(state, width: area.width - 2).count)
    }

    /// With the count lines already laid out (they count every row of the window).
    private static func regions(_ state: State, in area: Rect, countRows: Int, legendRows: Int) -> Regions {
        let pane = state.pane == .none ? 0 : (area.height >= 34 ? 13 : 8)
        let parts = Layout(
            .vertical,
            [.length(1), .length(countRows), .length(1), .fill(), .length(pane), .length(legendRows)]
        ).split(area)
        return Regions(
            status: parts[0], counts: parts[1], filter: parts[2], table: parts[3], pane: parts[4], legend: parts[5])
    }

    /// The position among the rows shown at a screen row, if any (for clicks).
    public static func position(at y: Int, _ state: State, in area: Rect) -> Int? {
        let shown = state.visible
        return table(state, shown).row(at: y, in: Panel.inner(regions(state, in: area).table))
    }

    public static func render(_ state: State, into buffer: inout Buffer, area: Rect) {
        // Each a pass over the whole window: made once per frame.
        let counts = countLines(state, width: area.width - 2)
        let legend = legendLines(state, width: area.width - 2)
        let regions = regions(state, in: area, countRows: counts.count, legendRows: legend.count)
        let shown = state.visible
        renderStatus(state, into: &buffer, area: regions.status)
        renderCounts(counts, into: &buffer, area: regions.counts)
        renderLegend(legend, into: &buffer, area: regions.legend)
        renderFilter(state, into: &buffer, area: regions.filter)
        var title = state.paused ? tr("console.monitor.titlePaused") : tr("console.monitor.title")
        title +=
            shown.count == state.rows.count
            ? " · \(state.rows.count)"
            : " · " + tr("console.frame.countOf", ["shown": String(shown.count), "total": String(state.rows.count)])
        let inner = Panel(title: title, focused: !state.filtering).render(into: &buffer, area: regions.table)
        table(state, shown).render(into: &buffer, area: inner) { cells(state.rows[shown[$0]], state.timeZone) }
        switch state.pane {
        case .none: break
        case .detail: renderDetail(state, shown, into: &buffer, area: regions.pane)
        case .watch: renderWatch(state, into: &buffer, area: regions.pane)
        }
    }

    // MARK: Header

    /// "● live", "‖ paused: 12 new (Space resumes)", "… reconnecting…", with its style.
    static func feedState(_ state: State) -> (String, Style) {
        if state.paused {
            return (trCount("console.monitor.pausedNew", state.newWhilePaused), Style(.warning, .bold))
        }
        switch state.connection {
        case .starting: return (tr("console.monitor.connecting"), Style(.accent))
        case .reconnecting(let message):
            return (tr("console.monitor.reconnecting", ["message": message]), Style(.warning, .bold))
        case .live:
            if state.catchingUp { return (tr("console.monitor.catchingUp"), Style(.accent)) }
            return (tr("console.monitor.live"), Style(.ok, .bold))
        }
    }

    /// "dummy traffic 62% of phone requests since 14:00", "no phone requests yet"; nil before
    /// the first answer.
    public static func trafficText(_ state: State) -> String? {
        guard let share = state.traffic else {
            return state.trafficError.map { tr("console.monitor.dummyUnknown", ["error": $0]) }
        }
        guard let dummy = share.dummyShare else { return tr("console.monitor.noRequests") }
        let percent = Int((dummy * 100).rounded())
        let since = String(AuthorizeScreen.clock(share.since, state.timeZone).prefix(5))
        return tr("console.monitor.dummy", ["percent": String(percent), "since": since])
    }

    private static func renderStatus(_ state: State, into buffer: inout Buffer, area: Rect) {
        let (text, style) = feedState(state)
        let row = area.inset(horizontal: 1, vertical: 0)
        // Cut in the glyphs drawn: an ASCII "..." is wider than "…".
        let width = buffer.put(buffer.glyphs.truncate(text, to: row.width), x: row.x, y: row.y, style: style, clip: row)
        if let traffic = trafficText(state), row.width - width > 4 {
            buffer.put(
                buffer.glyphs.truncate(" · " + traffic, to: row.width - width), x: row.x + width, y: row.y,
                style: Style(.normal), clip: row)
        }
    }

    /// The events of each kind in the window that match the filter, flowed into as many lines
    /// as the width needs: "authorised 3 · checked 5 · analytics hidden · … · unknown 1". Words
    /// first, no keys: the kinds' digits are in the legend. Only the role's kinds.
    static func countLines(_ state: State, width: Int) -> [[(String, Style)]] {
        let counts = state.counts
        var items: [(String, Style)] = state.kinds.map { kind in
            state.hidden.contains(kind)
                ? (tr("console.monitor.hidden", ["kind": kind.word]), Style(.muted))
                : ("\(kind.word) \(counts.perKind[kind] ?? 0)", Style(.normal))
        }
        if counts.unknown > 0 {
            items.append((tr("console.monitor.unknownCount", ["count": String(counts.unknown)]), Style(.warning)))
        }
        return flow(items, width: width, gap: 3)
    }

    /// The kinds' toggle keys, as the footer writes keys: "1 authorised  2 checked …", flowed
    /// into as many lines as the width needs. Only the role's kinds, each with its own digit.
    static func legendLines(_ state: State, width: Int) -> [[(String, Style)]] {
        let items = state.kinds.map { kind in
            ("\(kind.rawValue) \(kind.word)", Style(state.hidden.contains(kind) ? .muted : .keyHint))
        }
        return flow([(tr("console.monitor.showHide"), Style(.muted))] + items, width: width, gap: 2)
    }

    /// Items on lines of at most `width`, `gap` cells apart.
    private static func flow(_ items: [(String, Style)], width: Int, gap: Int) -> [[(String, Style)]] {
        var lines: [[(String, Style)]] = [[]]
        var used = 0
        for item in items {
            let w = DisplayWidth.of(item.0)
            if used > 0, used + gap + w > width {
                lines.append([])
                used = 0
            }
            used += (used > 0 ? gap : 0) + w
            lines[lines.count - 1].append(item)
        }
        return lines
    }

    /// The counts, a middle dot between two.
    private static func renderCounts(_ lines: [[(String, Style)]], into buffer: inout Buffer, area: Rect) {
        let row = area.inset(horizontal: 1, vertical: 0)
        for (offset, line) in lines.enumerated() {
            var x = row.x
            for (index, (text, style)) in line.enumerated() {
                if index > 0 { x += buffer.put(" · ", x: x, y: row.y + offset, style: Style(.muted), clip: row) }
                // The figure in bold: the word names it.
                let word = String(text[..<(text.lastIndex(of: " ") ?? text.endIndex)])
                let figure = String(text.dropFirst(word.count))
                x += buffer.put(word, x: x, y: row.y + offset, style: style, clip: row)
                x += buffer.put(figure, x: x, y: row.y + offset, style: Style(style.role, .bold), clip: row)
            }
        }
    }

    /// The legend: each digit drawn as the footer draws a key.
    private static func renderLegend(_ lines: [[(String, Style)]], into buffer: inout Buffer, area: Rect) {
        let row = area.inset(horizontal: 1, vertical: 0)
        for (offset, line) in lines.enumerated() {
            var x = row.x
            for (index, (text, style)) in line.enumerated() {
                if index == 0, offset == 0 {
                    x += buffer.put(text, x: x, y: row.y, style: style, clip: row) + 2
                    continue
                }
                let key = String(text.prefix(1))
                buffer.put(key, x: x, y: row.y + offset, style: Style(.keyLabel), clip: row)
                buffer.put(String(text.dropFirst()), x: x + 1, y: row.y + offset, style: style, clip: row)
                x += DisplayWidth.of(text) + 2
            }
        }
    }

    private static func renderFilter(_ state: State, into buffer: inout Buffer, area: Rect) {
        let row = area.inset(horizontal: 1, vertical: 0)
        var x = row.x
        if state.filtering {
            x += buffer.put(tr("console.monitor.filterLabel"), x: x, y: row.y, style: Style(.header), clip: row)
            let field = Rect(x: x, y: row.y, width: min(32, max(0, row.maxX - x)), height: 1)
            state.filter.render(
                into: &buffer, area: field, focused: true, placeholder: tr("console.monitor.filterPlaceholder"))
            x = field.maxX
            buffer.put(
                tr("console.monitor.filterKeys", ["enter": Key.enter.description, "esc": Key.escape.description]), x: x,
                y: row.y, style: Style(.muted), clip: row)
            return
        }
        buffer.cursor = nil
        if !state.filter.text.isEmpty {
            x += buffer.put(
                tr("console.monitor.filterKept", ["text": state.filter.text, "esc": Key.escape.description]), x: x,
                y: row.y, style: Style(.accent), clip: row)
        } else if state.notice == nil {
            buffer.put(tr("console.monitor.filterHint"), x: x, y: row.y, style: Style(.muted), clip: row)
        }
        if let notice = state.notice {
            if x > row.x { x += 3 }
            notice.render(into: &buffer, x: x, y: row.y, width: row.maxX - x, rows: 1)
        }
    }

    // MARK: Table

    static func table(_ state: State, _ shown: [Int]) -> Table {
        let empty: String
        if state.rows.isEmpty {
            empty =
                state.connection == .live
                ? tr("console.monitor.noActivity")
                : tr("console.monitor.reading")
        } else {
            empty = tr("console.monitor.noMatch")
        }
        return Table(
            columns: [
                TableColumn(tr("console.monitor.column.time"), width: .length(8)),
                TableColumn(tr("console.monitor.column.kind"), width: .length(13)),
                TableColumn(tr("console.monitor.column.who"), width: .length(10)),
                TableColumn(tr("console.monitor.column.code"), width: .length(6)),
                TableColumn(tr("console.monitor.column.summary"), width: .min(8)),
            ],
            rowCount: shown.count, selected: state.selectedPosition(in: shown), focused: !state.filtering,
            emptyText: empty)
    }

    static func cells(_ row: Row, _ zone: TimeZone) -> [TableCell] {
        let kindStyle: Style? =
            switch row.kind {
            case .refused: Style(.warning)
            case nil: Style(.warning)
            default: nil
            }
        return [
            TableCell(AuthorizeScreen.clock(row.event.at, zone)),
            TableCell(row.kindWord, style: kindStyle),
            TableCell(row.who),
            TableCell(row.event.codeTag ?? ""),
            TableCell(row.summary),
        ]
    }

    // MARK: Panes

    /// Every field of the selected event: when, what, who, which code, and its detail in words
    /// (in two columns when one does not fit).
    private static func renderDetail(_ state: State, _ shown: [Int], into buffer: inout Buffer, area: Rect) {
        let row = state.selectedPosition(in: shown).map { state.rows[shown[$0]] }
        let title =
            (row.map { tr("console.monitor.event", ["id": String($0.event.id)]) } ?? tr("console.monitor.eventTitle"))
            + tr("console.monitor.escCloses", ["esc": Key.escape.description])
        let inner = Panel(title: title, focused: true).render(into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 0, text.height > 0 else { return }
        guard let row else {
            buffer.put(tr("console.monitor.noneSelected"), x: text.x, y: text.y, style: Style(.muted), clip: text)
            return
        }
        let event = row.event
        var head: [(String, Style)] = [
            (ConsoleText.localAndUTC(event.at, state.timeZone), Style(.normal)),
            (
                (row.kind == nil
                    ? tr("console.monitor.unknownKind", ["kind": EventDetail.words(event.kind)]) : row.kindWord)
                    + tr("console.monitor.who", ["who": row.who])
                    + (event.codeTag.map { tr("console.monitor.tag", ["tag": $0]) } ?? ""),
                Style(.normal, .bold)
            ),
        ]
        var fields: [String] = []
        if let lines = EventDetail.lines(event, zone: state.timeZone) {
            fields = lines
            if fields.isEmpty { head.append((tr("console.monitor.noDetails"), Style(.muted))) }
        } else {
            head.append((tr("console.monitor.unreadable"), Style(.muted)))
        }
        let used = WatchPane.draw(head, into: &buffer, area: text)
        let rest = Rect(x: text.x, y: text.y + used, width: text.width, height: max(0, text.height - used))
        guard !fields.isEmpty, rest.height > 0 else { return }
        let columns = fields.count > rest.height && rest.width >= 60 ? 2 : 1
        let columnWidth = (rest.width - (columns - 1) * 2) / columns
        let perColumn = (fields.count + columns - 1) / columns
        for (index, field) in fields.enumerated() {
            let column = index / perColumn
            let y = rest.y + index % perColumn
            guard y < rest.maxY else { continue }
            buffer.put(
                DisplayWidth.truncate(field, to: columnWidth), x: rest.x + column * (columnWidth + 2), y: y,
                style: Style(.normal), clip: rest)
        }
    }

    /// The code the selected event was about, followed live like the operator's watch.
    private static func renderWatch(_ state: State, into buffer: inout Buffer, area: Rect) {
        let title =
            tr("console.monitor.watchTitle", ["tag": state.watchTag ?? "?"])
            + tr("console.monitor.escCloses", ["esc": Key.escape.description])
        let inner = Panel(title: title, focused: true).render(into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 0, text.height > 0 else { return }
        var lines: [(String, Style)] = []
        if let watch = state.watch {
            if watch.upload == nil {
                if watch.expiredWithoutUpload(at: state.now) {
                    lines.append(
                        (
                            tr(
                                "console.monitor.expired",
                                ["time": AuthorizeScreen.clock(watch.expiresAt, state.timeZone)]),
                            Style(.error, .bold)
                        ))
                } else {
                    let left = max(0, Int(watch.expiresAt.timeIntervalSince(state.now).rounded(.up)))
                    lines.append(
                        (
                            tr(
                                "console.monitor.validUntil",
                                [
                                    "time": AuthorizeScreen.clock(watch.expiresAt, state.timeZone),
                                    "left": AuthorizeScreen.countdown(left),
                                ]),
                            Style(.accent, .bold)
                        ))
                }
            }
            lines += WatchPane.steps(watch, now: state.now, zone: state.timeZone).map { ($0.line, $0.mark.style) }
        } else if state.watchError == nil {
            lines.append((tr("console.monitor.asking"), Style(.accent)))
        }
        if let error = state.watchError {
            lines.append(
                state.watchRefresh.stopped
                    ? (tr("console.monitor.cannotWatch", ["error": error]), Style(.error, .bold))
                    : (tr("console.authorize.couldNotFollow", ["error": error]), Style(.warning)))
        }
        WatchPane.draw(lines, into: &buffer, area: text)
    }
}
