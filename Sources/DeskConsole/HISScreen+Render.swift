import DeskContract
import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension HISScreen {
    /// Where each part goes in a body area; shared by drawing and mouse hit-tests.
    public struct Regions: Hashable, Sendable {
        public var table: Rect
        public var detail: Rect
    }

    public static func regions(in area: Rect) -> Regions {
        let parts = Layout(.vertical, [.fill(), .length(6)]).split(area)
        return Regions(table: parts[0], detail: parts[1])
    }

    /// The client index at a screen row, if any.
    public static func client(at y: Int, _ state: State, in area: Rect) -> Int? {
        let inner = Panel.inner(regions(in: area).table)
        return table(state, width: inner.width).row(at: y, in: inner)
    }

    /// The clients table drawn `width` cells wide; "Revoked" (when) only from 100 on (the state
    /// says it, the detail says when).
    static func table(_ state: State, width: Int) -> Table {
        var columns = [
            TableColumn(tr("console.his.column.name"), width: .length(18)),
            TableColumn(tr("console.his.column.state"), width: .length(8)),
            TableColumn(tr("console.his.column.rate"), width: .length(8), alignment: .trailing),
            TableColumn(tr("console.his.column.created"), width: .length(16)),
            TableColumn(tr("console.his.column.createdBy"), width: .length(12)),
        ]
        if width >= 100 { columns.append(TableColumn(tr("console.his.column.revokedAt"), width: .length(16))) }
        let shown = state.visible
        return Table(
            columns: columns, rowCount: shown.count, selected: state.selectedPosition(in: shown),
            focused: !state.isModal,
            emptyText: state.loading
                ? tr("console.his.loading")
                : !state.loaded
                    ? ""
                    : state.filter.isActive
                        ? tr("console.his.noMatch", ["esc": Key.escape.description])
                        : tr("console.his.empty"))
    }

    static func cells(_ client: HISClient, _ zone: TimeZone) -> [TableCell] {
        [
            TableCell(client.name),
            TableCell(HISScreen.stateText(client), style: client.isRevoked ? Style(.muted) : nil),
            TableCell(client.ratePerMinute.map(String.init) ?? tr("console.his.default")),
            TableCell(ConsoleText.dateTime(client.createdAt, zone)),
            TableCell(client.createdBy),
            TableCell(client.revokedAt.map { ConsoleText.dateTime($0, zone) } ?? "-"),
        ]
    }

    public static func render(_ state: State, into buffer: inout Buffer, area: Rect) {
        let regions = regions(in: area)
        let shown = state.visible
        let count =
            state.filter.isActive
            ? tr("console.frame.countOf", ["shown": String(shown.count), "total": String(state.clients.count)])
            : "\(state.clients.count)"
        let title = tr("console.his.title") + (state.loaded ? " (\(count))" : "") + state.filter.titleSuffix
        let inner = Panel(title: title, focused: !state.isModal).render(into: &buffer, area: regions.table)
        table(state, width: inner.width).render(into: &buffer, area: inner) {
            cells(state.clients[shown[$0]], state.timeZone)
        }
        renderDetail(state, into: &buffer, area: regions.detail)
        if let form = state.form { renderForm(form, into: &buffer, area: area) }
        if let dialog = state.confirm { dialog.render(into: &buffer, area: area) }
        if let shown = state.shownKey { renderKey(shown, into: &buffer, area: area) }
        if state.form == nil { buffer.cursor = nil }
        if state.filter.editing, !state.isModal {
            buffer.cursor = (min(regions.table.maxX - 2, regions.table.x + 3 + DisplayWidth.of(title)), regions.table.y)
        }
    }

    private static func renderDetail(_ state: State, into buffer: inout Buffer, area: Rect) {
        let inner = Panel(
            title: state.selectedClient.map { tr("console.his.client", ["name": $0.name]) }
                ?? tr("console.his.clientTitle")
        ).render(
            into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 0, text.height > 0 else { return }
        var y = text.y
        if let client = state.selectedClient {
            buffer.put(
                tr(
                    "console.his.detail",
                    [
                        "name": client.name, "actor": client.actor,
                        "rate": client.ratePerMinute.map { tr("console.his.perMinute", ["rate": String($0)]) }
                            ?? tr("console.his.serverRate"),
                    ]),
                x: text.x, y: y, maxWidth: text.width)
            y += 1
            let revoked = client.revokedAt.map {
                tr(
                    "console.his.revokedBy",
                    ["time": ConsoleText.dateTime($0, state.timeZone), "user": client.revokedBy ?? "-"])
            }
            buffer.put(
                tr(
                    "console.his.addedBy",
                    [
                        "state": HISScreen.stateText(client),
                        "time": ConsoleText.dateTime(client.createdAt, state.timeZone), "user": client.createdBy,
                    ]) + (revoked ?? ""),
                x: text.x, y: y, style: Style(.muted), maxWidth: text.width)
            y += 1
        }
        if let notice = state.notice {
            notice.render(into: &buffer, x: text.x, y: y, width: text.width, rows: max(1, text.maxY - y))
        }
    }

    private static func renderForm(_ form: Form, into buffer: inout Buffer, area: Rect) {
        let box = area.centered(width: min(68, area.width), height: 11)
        buffer.fill(box, with: .blank)
        let inner = Panel(title: tr("console.his.addTitle"), focused: true).render(into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 14, text.height > 0 else { return }
        let fieldX = text.x + 13
        let fieldWidth = min(34, text.maxX - fieldX)
        let verdictWidth = text.maxX - fieldX
        let editing = !form.submitting
        var y = text.y
        ConsoleText.putLabel(
            tr("console.his.label.name"), focused: editing && form.focus == .name, into: &buffer, x: text.x, y: y,
            clip: text)
        form.name.render(
            into: &buffer, area: Rect(x: fieldX, y: y, width: fieldWidth, height: 1),
            focused: editing && form.focus == .name, placeholder: tr("console.his.namePlaceholder"))
        ConsoleText.putVerdict(
            form.nameProblem,
            ok: form.clientName.map { tr("console.his.actor", ["actor": HISClientName.actor($0)]) } ?? "",
            into: &buffer,
            x: fieldX, y: y + 1, width: verdictWidth)
        y += 2
        ConsoleText.putLabel(
            tr("console.his.label.rate"), focused: editing && form.focus == .rate, into: &buffer, x: text.x, y: y,
            clip: text)
        form.rate.render(
            into: &buffer, area: Rect(x: fieldX, y: y, width: 10, height: 1), focused: editing && form.focus == .rate,
            placeholder: tr("console.his.default"))
        if let problem = form.rateProblem {
            ConsoleText.putVerdict(problem, ok: "", into: &buffer, x: fieldX, y: y + 1, width: verdictWidth)
        } else {
            buffer.put(
                tr("console.his.rateNote"), x: fieldX, y: y + 1, style: Style(.muted),
                maxWidth: verdictWidth)
        }
        y += 3
        if let notice = form.notice {
            notice.render(into: &buffer, x: text.x, y: y, width: text.width, rows: max(1, text.maxY - y - 1))
        }
        buffer.put(
            tr(
                "console.his.formKeys",
                ["enter": Key.enter.description, "tab": Key.tab.description, "esc": Key.escape.description]),
            x: text.x, y: text.maxY - 1, style: Style(.muted),
            clip: text)
        if !editing { buffer.cursor = nil }
    }

    /// The key of a client just added: shown once, in full, until Enter or Esc.
    private static func renderKey(_ shown: NewHISClient, into buffer: inout Buffer, area: Rect) {
        let box = area.centered(width: min(72, area.width), height: 12)
        buffer.fill(box, with: .blank)
        let inner = Panel(title: tr("console.his.keyTitle", ["name": shown.client.name]), focused: true).render(
            into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 0, text.height > 0 else { return }
        buffer.put(tr("console.his.keyGive"), x: text.x, y: text.y, maxWidth: text.width)
        buffer.put(tr("console.his.keyHeader"), x: text.x, y: text.y + 1, maxWidth: text.width)
        buffer.put(shown.key, x: text.x, y: text.y + 3, style: Style(.header, .bold), maxWidth: text.width)
        buffer.put(
            tr("console.his.keyHash"), x: text.x, y: text.y + 5,
            style: Style(.muted), maxWidth: text.width)
        buffer.put(
            tr("console.his.keyDone", ["enter": Key.enter.description, "esc": Key.escape.description]), x: text.x,
            y: text.maxY - 1, style: Style(.muted), clip: text)
    }
}
