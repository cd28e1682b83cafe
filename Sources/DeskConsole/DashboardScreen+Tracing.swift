import DeskContract
import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The dashboard's tracing page (issue 21, point 7): the indicators over the cases opened in the
// range chosen, and each tracer's load now. `t` switches between it and the figures; the range
// keys, `r` and the refresh ask for both the statistics and, while it is shown, the indicators
// (docs/supervisor-guide.md says what each counts).
extension DashboardScreen {
    public enum Page: Hashable, Sendable { case figures, tracing }

    /// The indicators' ask that goes with the statistics' one, while the tracing page is shown.
    static func askIndicators(_ state: inout State) -> [Command] {
        guard state.page == .tracing, let query = state.asked else { return [] }
        state.indicatorsAsked = query
        return [.loadIndicators(query)]
    }

    /// `t`: the other page; the tracing page asks for the indicators of the range chosen.
    static func switchPage(_ state: inout State) -> [Command] {
        switch state.page {
        case .tracing:
            state.page = .figures
            return []
        case .figures:
            state.page = .tracing
            if state.asked == nil { return ask(&state) }
            return askIndicators(&state)
        }
    }

    /// The line under the header on the tracing page: a failed ask, or a notice.
    static func tracingMessage(_ state: State) -> Notice? {
        if let error = state.indicatorsError, state.indicators != nil {
            return .error(tr("console.dashboard.tracing.refreshFailed", ["error": error]))
        }
        return state.notice
    }

    /// The figures as the tracing page shows them ("–" for nothing to count).
    public static func tracingFigures(_ indicators: FollowUpIndicators, ascii: Bool = false) -> [(
        label: String, value: String
    )] {
        IndicatorText.figures(indicators, none: ascii ? "-" : "–").map { figure in
            (Glyphs(ascii: ascii)(figure.label), Glyphs(ascii: ascii)(figure.value))
        }
    }

    static func renderTracing(_ state: State, into buffer: inout Buffer, area: Rect) {
        let g = Glyphs(ascii: state.ascii)
        guard let indicators = state.indicators else {
            let text =
                state.indicatorsError.map {
                    g(tr("console.dashboard.tracing.readFailed", ["error": $0]))
                }
                ?? g(tr("console.dashboard.tracing.reading"))
            let rows = Rect(x: area.x + 2, y: area.y + 1, width: max(0, area.width - 4), height: 4)
            wrapped(
                text, into: &buffer, area: rows, style: Style(state.indicatorsError == nil ? .accent : .error, .bold))
            return
        }
        let figures = tracingFigures(indicators, ascii: state.ascii)
        // 31 columns hold every English label; a longer one (Italian's) widens the column, and
        // the panel beside the tracers' table with it.
        let labelWidth = max(31, figures.map { DisplayWidth.of($0.label) }.max() ?? 0)
        let valueWidth = figures.map { DisplayWidth.of($0.value) }.max() ?? 0
        let side = area.width >= 110
        let figuresArea: Rect
        let tracersArea: Rect
        if side {
            let columns = Layout(.horizontal, [.length(max(68, labelWidth + valueWidth + 5)), .fill()]).split(area)
            figuresArea = Rect(
                x: columns[0].x, y: area.y, width: columns[0].width, height: min(area.height, figures.count + 2))
            tracersArea = Rect(
                x: columns[1].x, y: area.y, width: columns[1].width,
                height: min(area.height, max(figures.count + 2, indicators.tracers.count + 3)))
        } else {
            let height = min(area.height, figures.count + 2)
            figuresArea = Rect(x: area.x, y: area.y, width: area.width, height: height)
            tracersArea = Rect(
                x: area.x, y: area.y + height, width: area.width,
                height: min(max(0, area.height - height), max(3, indicators.tracers.count + 3)))
        }
        let title = tr("console.dashboard.tracing.title", ["range": inRange(state.range)])
        let inner = Panel(title: g(title)).render(into: &buffer, area: figuresArea).inset(horizontal: 1, vertical: 0)
        for (row, figure) in figures.enumerated() where row < inner.height {
            let y = inner.y + row
            buffer.put(figure.label, x: inner.x, y: y, style: Style(.normal), maxWidth: labelWidth, clip: inner)
            buffer.put(figure.value, x: inner.x + labelWidth + 1, y: y, style: Style(.normal, .bold), clip: inner)
        }
        renderTracers(indicators.tracers, state, into: &buffer, area: tracersArea)
    }

    /// The table of tracers: assigned, due now, overdue, done today; the overdue in the error style.
    static func renderTracers(_ tracers: [TracerLoad], _ state: State, into buffer: inout Buffer, area: Rect) {
        guard area.height >= 3 else { return }
        let inner = Panel(title: tr("console.dashboard.tracing.tracers")).render(into: &buffer, area: area).inset(
            horizontal: 1, vertical: 0)
        guard !tracers.isEmpty else {
            buffer.put(tr("indicators.noTracer"), x: inner.x, y: inner.y, style: Style(.muted), clip: inner)
            return
        }
        let header = IndicatorText.tracerHeader.dropFirst().map { $0 }
        let numbers = header.map(DisplayWidth.of).reduce(0, +) + 2 * header.count
        let nameWidth = max(6, min(24, inner.width - numbers))
        func line(_ name: String, _ cells: [String], y: Int, style: Style, overdue: Bool = false) {
            buffer.put(name, x: inner.x, y: y, style: style, maxWidth: nameWidth, clip: inner)
            var x = inner.x + nameWidth
            for (column, cell) in cells.enumerated() {
                let width = DisplayWidth.of(header[column])
                x += 2
                let cellStyle = overdue && column == 2 ? Style(.error, .bold) : style
                buffer.put(cell, x: x + width - DisplayWidth.of(cell), y: y, style: cellStyle, clip: inner)
                x += width
            }
        }
        line(IndicatorText.tracerHeader[0], header, y: inner.y, style: Style(.header, .bold))
        let room = inner.height - 1
        let shown = tracers.count > room ? max(0, room - 1) : tracers.count
        for (index, tracer) in tracers.prefix(shown).enumerated() {
            line(
                tracer.tracer,
                [String(tracer.assigned), String(tracer.due), String(tracer.overdue), String(tracer.doneToday)],
                y: inner.y + 1 + index, style: Style(.normal), overdue: tracer.overdue > 0)
        }
        if shown < tracers.count {
            buffer.put(
                tr("console.dashboard.tracing.more", ["count": String(tracers.count - shown)]), x: inner.x,
                y: inner.y + 1 + shown,
                style: Style(.muted), clip: inner)
        }
    }
}
