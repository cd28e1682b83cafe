import DeskCore
import DeskText
import Foundation
import TerminalKit

extension AuditScreen {
    /// Where each part goes in a body area; shared by drawing and mouse hit-tests.
    public struct Regions: Hashable, Sendable {
        public var status: Rect
        public var verdict: Rect
        public var table: Rect
        public var rows: Rect
        public var detail: Rect
    }

    public static func regions(in area: Rect) -> Regions {
        let parts = Layout(.vertical, [.length(1), .length(1), .fill(), .length(7)]).split(area)
        return Regions(
            status: parts[0], verdict: parts[1], table: parts[2], rows: Table.rowsArea(in: Panel.inner(parts[2])),
            detail: parts[3])
    }

    /// The entry index at a screen row, if any.
    public static func entry(at y: Int, _ state: State, in area: Rect) -> Int? {
        table(state).row(at: y, in: Panel.inner(regions(in: area).table))
    }

    /// The verdict line of a chain check, in words: "✓ chain intact: …" or "✗ BROKEN at entry N: …".
    public static func verdict(_ verification: Verification, width: Int) -> (String, Style) {
        switch verification {
        case .running:
            return (tr("console.audit.verifying"), Style(.accent))
        case .failed(let message):
            return (tr("console.audit.verifyFailed", ["message": message]), Style(.error, .bold))
        case .done(let result):
            if let broken = result.firstBroken {
                let verdict = tr("console.audit.broken", ["id": String(broken.id), "reason": broken.shownReason])
                let more = verdict + trCount("console.audit.brokenBefore", Int(clamping: result.entries))
                return (
                    DisplayWidth.of(more) <= width ? more : DisplayWidth.truncate(verdict, to: width),
                    Style(.error, .bold)
                )
            }
            let head = trCount("console.audit.intact", Int(clamping: result.entries), ["head": String(result.headID)])
            let room = max(8, width - DisplayWidth.of(head))
            let hash = result.headHash.count <= room ? result.headHash : String(result.headHash.prefix(room - 1)) + "…"
            return (head + hash, Style(.ok, .bold))
        }
    }

    public static func render(_ state: State, into buffer: inout Buffer, area: Rect) {
        let regions = regions(in: area)
        renderStatus(state, into: &buffer, regions: regions)
        let title = tr("console.audit.title")
        let inner = Panel(title: title, focused: !state.isModal).render(into: &buffer, area: regions.table)
        table(state).render(into: &buffer, area: inner) { cells(state.entries[$0], state.timeZone) }
        renderDetail(state, into: &buffer, area: regions.detail)
        if let form = state.filterForm { renderFilter(form, into: &buffer, area: area) } else { buffer.cursor = nil }
    }

    private static func renderStatus(_ state: State, into buffer: inout Buffer, regions: Regions) {
        let row = regions.status
        var left = tr("console.audit.status.filter", ["filter": state.filter.summary])
        left += trCount("console.audit.status.shown", state.entries.count)
        if state.hidesRoutine {
            left += trCount(
                "console.audit.status.hidden", state.hiddenCount / 2, ["pairs": AuditScreen.pairs(state.hiddenCount)])
        }
        if state.hasMore { left += tr("console.audit.status.older") }
        buffer.put(left, x: row.x + 1, y: row.y, style: Style(state.filter.isEmpty ? .muted : .accent), clip: row)
        let line = regions.verdict
        if let verification = state.verification {
            let (text, style) = verdict(verification, width: line.width - 2)
            // A broken chain is a bar across the screen, not just a coloured line.
            if case .done(let result) = verification, result.firstBroken != nil {
                buffer.fill(line, with: Cell(" ", style: style))
            }
            buffer.put(text, x: line.x + 1, y: line.y, style: style, maxWidth: line.width - 2)
        } else if let notice = state.notice {
            notice.render(into: &buffer, x: line.x + 1, y: line.y, width: line.width - 2, rows: 1)
        } else {
            buffer.put(
                tr("console.audit.verifyHint"), x: line.x + 1, y: line.y, style: Style(.muted), clip: line)
        }
    }

    /// The log as a table; "Detail" takes the width the others leave.
    static func table(_ state: State) -> Table {
        Table(
            columns: [
                TableColumn(tr("console.audit.column.time"), width: .length(19)),
                TableColumn(tr("console.audit.column.actor"), width: .length(10)),
                TableColumn(tr("console.audit.column.action"), width: .length(18)),
                TableColumn(tr("console.audit.column.target"), width: .length(10)),
                TableColumn(tr("console.audit.column.detail"), width: .min(4)),
            ],
            rowCount: state.entries.count, selected: state.selected, focused: !state.isModal,
            emptyText: state.loading
                ? tr("console.audit.reading")
                : state.loaded ? tr(state.filter.isEmpty ? "console.audit.none" : "console.audit.noneFiltered") : "",
            moreBelow: state.hasMore)
    }

    /// One entry's cells; warning actions stand out.
    static func cells(_ entry: AuditEntry, _ zone: TimeZone) -> [TableCell] {
        [
            TableCell(ConsoleText.dateTime(entry.at, zone, seconds: true)),
            TableCell(entry.actor),
            TableCell(
                AuditDetailText.actionWords(entry.action), style: isWarning(entry.action) ? Style(.warning) : nil),
            TableCell(entry.target.map(AuditDetailText.subject) ?? ""),
            TableCell(AuditDetailText.summary(entry, zone: zone)),
        ]
    }

    /// Actions worth a second look (failed and refused sign-ins, locks).
    static func isWarning(_ action: AuditAction) -> Bool {
        [.signInFailed, .signInRefused, .accountLocked].contains(action)
    }

    private static func renderDetail(_ state: State, into buffer: inout Buffer, area: Rect) {
        let entry = state.selectedEntry
        let inner = Panel(
            title: entry.map { tr("console.audit.entryTitle", ["id": String($0.id)]) } ?? tr("console.audit.entry")
        ).render(into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard let entry, text.width > 0, text.height > 0 else { return }
        var lines: [(String, Style)] = [
            (ConsoleText.localAndUTC(entry.at, state.timeZone), Style(.normal)),
            (
                "\(entry.actor) · \(AuditDetailText.actionWords(entry.action))"
                    + (entry.target.map { " → " + AuditDetailText.subject($0) } ?? ""),
                Style(.normal, .bold)
            ),
        ]
        if let words = AuditDetailText.lines(entry, zone: state.timeZone) {
            lines += words.map { ($0, Style(.normal)) }
        } else {
            lines.append((AuditDetailText.unreadable(entry), Style(.normal)))
        }
        lines.append((tr("console.audit.hash", ["hash": entry.hash]), Style(.muted)))
        lines.append((tr("console.audit.previousHash", ["hash": entry.previousHash]), Style(.muted)))
        var y = text.y
        for (line, style) in lines {
            for row in TextWrap.wrap(line, width: text.width) {
                guard y < text.maxY else { return }
                buffer.put(row, x: text.x, y: y, style: style, clip: text)
                y += 1
            }
        }
    }

    static func filterRect(in area: Rect) -> Rect {
        area.centered(width: min(70, area.width), height: 15)
    }

    private static func renderFilter(_ form: FilterForm, into buffer: inout Buffer, area: Rect) {
        let box = filterRect(in: area)
        buffer.fill(box, with: .blank)
        let inner = Panel(title: tr("console.audit.filterTitle"), focused: true).render(into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 12, text.height > 0 else { return }
        let fieldX = text.x + 10
        let fieldWidth = min(32, text.maxX - fieldX)
        var y = text.y
        ConsoleText.putLabel(
            tr("console.audit.label.by"), focused: form.focus == .person, into: &buffer, x: text.x, y: y, clip: text)
        form.person.render(
            into: &buffer, area: Rect(x: fieldX, y: y, width: fieldWidth, height: 1), focused: form.focus == .person,
            placeholder: tr("console.audit.placeholder.by"))
        y += 2
        ConsoleText.putLabel(
            tr("console.audit.label.on"), focused: form.focus == .subject, into: &buffer, x: text.x, y: y, clip: text)
        form.subject.render(
            into: &buffer, area: Rect(x: fieldX, y: y, width: fieldWidth, height: 1), focused: form.focus == .subject,
            placeholder: tr("console.audit.placeholder.on"))
        if form.focus == .subject {
            buffer.put(
                tr("console.audit.hint.on"), x: fieldX, y: y + 1, style: Style(.muted),
                clip: text)
        }
        y += 2
        ConsoleText.putLabel(
            tr("console.audit.label.action"), focused: form.focus == .action, into: &buffer, x: text.x, y: y, clip: text
        )
        let picker = "‹ \(form.action.map(AuditDetailText.actionWords) ?? tr("console.audit.anyAction")) ›"
        buffer.put(picker, x: fieldX, y: y, style: Style(form.focus == .action ? .inputFocused : .input), clip: text)
        if form.focus == .action {
            buffer.put(
                tr("console.staff.toChange"), x: fieldX + DisplayWidth.of(picker), y: y, style: Style(.muted),
                clip: text)
        }
        y += 2
        ConsoleText.putLabel(
            tr("console.audit.label.day"), focused: form.focus == .day, into: &buffer, x: text.x, y: y, clip: text)
        form.day.render(
            into: &buffer, area: Rect(x: fieldX, y: y, width: fieldWidth, height: 1), focused: form.focus == .day,
            placeholder: tr("console.audit.placeholder.day"))
        if form.focus == .day {
            buffer.put(
                tr("console.audit.hint.day", ["example": form.day.today.adding(days: -3).iso]), x: fieldX, y: y + 1,
                style: Style(.muted),
                clip: text)
        }
        y += 3
        if let message = form.message {
            Notice.error(message).render(into: &buffer, x: text.x, y: y, width: text.width, rows: 2)
        }
        buffer.put(
            tr("console.audit.filterKeys"), x: text.x, y: text.maxY - 1,
            style: Style(.muted), clip: text)
        if form.focus == .action { buffer.cursor = nil }
    }
}
