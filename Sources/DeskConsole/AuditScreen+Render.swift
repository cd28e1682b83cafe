import DeskCore
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
        let inner = Panel.inner(parts[2])
        return Regions(
            status: parts[0], verdict: parts[1], table: parts[2],
            rows: Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1), detail: parts[3])
    }

    public static func firstShown(_ state: State, rows: Int) -> Int {
        guard rows > 0 else { return 0 }
        return max(0, min(state.selected - rows + 1, state.entries.count - rows))
    }

    /// The entry index at a screen row, if any.
    public static func entry(at y: Int, _ state: State, in area: Rect) -> Int? {
        let rows = regions(in: area).rows
        guard y >= rows.y, y < rows.maxY else { return nil }
        let index = firstShown(state, rows: rows.height) + (y - rows.y)
        return state.entries.indices.contains(index) ? index : nil
    }

    /// The verdict line of a chain check, in words: "✓ chain intact: …" or "✗ BROKEN at entry N: …".
    public static func verdict(_ verification: Verification, width: Int) -> (String, Style) {
        switch verification {
        case .running:
            return ("… verifying the whole audit chain", Style(.accent))
        case .failed(let message):
            return ("✗ could not verify the chain: \(message)", Style(.error, .bold))
        case .done(let result):
            if let broken = result.firstBroken {
                let verdict = "✗ BROKEN at entry \(broken.id): \(broken.reason)"
                let more = verdict + " (\(result.entries) entries before it verify)"
                return (
                    DisplayWidth.of(more) <= width ? more : DisplayWidth.truncate(verdict, to: width),
                    Style(.error, .bold)
                )
            }
            let head = "✓ chain intact: \(result.entries) entries, head #\(result.headID) "
            let room = max(8, width - DisplayWidth.of(head))
            let hash = result.headHash.count <= room ? result.headHash : String(result.headHash.prefix(room - 1)) + "…"
            return (head + hash, Style(.ok, .bold))
        }
    }

    public static func render(_ state: State, into buffer: inout Buffer, area: Rect) {
        let regions = regions(in: area)
        renderStatus(state, into: &buffer, regions: regions)
        let title = "Audit log, newest first"
        let inner = Panel(title: title, focused: !state.isModal).render(into: &buffer, area: regions.table)
        renderTable(state, into: &buffer, inner: inner, rows: regions.rows)
        renderDetail(state, into: &buffer, area: regions.detail)
        if let form = state.filterForm { renderFilter(form, into: &buffer, area: area) } else { buffer.cursor = nil }
    }

    private static func renderStatus(_ state: State, into buffer: inout Buffer, regions: Regions) {
        let row = regions.status
        var left = "Filter: " + state.filter.summary
        left += " · \(state.entries.count) shown"
        if state.hasMore { left += ", older: n" }
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
                "v checks the whole chain of hashes", x: line.x + 1, y: line.y, style: Style(.muted), clip: line)
        }
    }

    struct Column {
        var title: String
        var width: Int
        var value: (AuditEntry, TimeZone) -> String
    }

    static func columns(width: Int) -> [Column] {
        let fixed = 19 + 10 + 15 + 10 + 4 * 2 + 2
        return [
            Column(title: "Time (local)", width: 19) { entry, zone in
                ConsoleText.dateTime(entry.at, zone, seconds: true)
            },
            Column(title: "Actor", width: 10) { entry, _ in entry.actor },
            Column(title: "Action", width: 15) { entry, _ in entry.action.rawValue },
            Column(title: "Target", width: 10) { entry, _ in entry.target ?? "" },
            Column(title: "Detail", width: max(4, width - fixed)) { entry, _ in entry.detail == "{}" ? "" : entry.detail
            },
        ]
    }

    private static func renderTable(_ state: State, into buffer: inout Buffer, inner: Rect, rows: Rect) {
        guard inner.width > 4, inner.height > 0 else { return }
        let columns = columns(width: inner.width)
        var x = inner.x + 2
        for column in columns {
            buffer.put(column.title, x: x, y: inner.y, style: Style(.header), maxWidth: column.width, clip: inner)
            x += column.width + 2
        }
        if state.entries.isEmpty {
            let text =
                state.loading
                ? "… reading the audit log"
                : state.loaded ? "no entries" + (state.filter.isEmpty ? "" : " for this filter (x clears it)") : ""
            buffer.put(text, x: inner.x + 2, y: rows.y, style: Style(.muted), clip: rows)
            return
        }
        let first = firstShown(state, rows: rows.height)
        for (offset, entry) in state.entries.dropFirst(first).prefix(rows.height).enumerated() {
            let index = first + offset
            let y = rows.y + offset
            let selected = index == state.selected && !state.isModal
            let rowStyle = Style(selected ? .selection : .normal)
            if selected {
                buffer.fill(Rect(x: rows.x, y: y, width: rows.width, height: 1), with: Cell(" ", style: rowStyle))
            }
            buffer.put(
                index == state.selected ? "›" : " ", x: rows.x, y: y, style: Style(rowStyle.role, .bold), clip: rows)
            var x = rows.x + 2
            for column in columns {
                var style = rowStyle
                if !selected, column.title == "Action", Self.isWarning(entry.action) { style = Style(.warning) }
                let text = StaffScreen.fit(column.value(entry, state.timeZone), column.width)
                buffer.put(text, x: x, y: y, style: style, maxWidth: column.width, clip: rows)
                x += column.width + 2
            }
        }
        if first > 0 { buffer.put("▲", x: inner.maxX - 1, y: inner.y - 1, style: Style(.borderFocused, .bold)) }
        if first + rows.height < state.entries.count || state.hasMore {
            buffer.put("▼", x: inner.maxX - 1, y: inner.maxY, style: Style(.borderFocused, .bold))
        }
    }

    /// Actions worth a second look (failed and refused sign-ins, locks).
    static func isWarning(_ action: AuditAction) -> Bool {
        [.signInFailed, .signInRefused, .accountLocked].contains(action)
    }

    private static func renderDetail(_ state: State, into buffer: inout Buffer, area: Rect) {
        let entry = state.selectedEntry
        let inner = Panel(title: entry.map { "Entry #\($0.id)" } ?? "Entry").render(into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard let entry, text.width > 0, text.height > 0 else { return }
        let utc = TimeZone(identifier: "UTC") ?? state.timeZone
        var lines: [(String, Style)] = [
            (
                "\(ConsoleText.dateTime(entry.at, state.timeZone, seconds: true)) local · \(ConsoleText.dateTime(entry.at, utc, seconds: true)) UTC",
                Style(.normal)
            ),
            (
                "\(entry.actor) · \(entry.action.rawValue)" + (entry.target.map { " → \($0)" } ?? ""),
                Style(.normal, .bold)
            ),
        ]
        if entry.detail != "{}" && !entry.detail.isEmpty { lines.append(("detail " + entry.detail, Style(.normal))) }
        lines.append(("hash " + entry.hash, Style(.muted)))
        lines.append(("previous " + entry.previousHash, Style(.muted)))
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
        area.centered(width: min(66, area.width), height: 13)
    }

    private static func renderFilter(_ form: FilterForm, into buffer: inout Buffer, area: Rect) {
        let box = filterRect(in: area)
        buffer.fill(box, with: .blank)
        let inner = Panel(title: "Filter the audit log", focused: true).render(into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 12, text.height > 0 else { return }
        let fieldX = text.x + 10
        let fieldWidth = min(32, text.maxX - fieldX)
        var y = text.y
        ConsoleText.putLabel("Person", focused: form.focus == .person, into: &buffer, x: text.x, y: y, clip: text)
        form.person.render(
            into: &buffer, area: Rect(x: fieldX, y: y, width: fieldWidth, height: 1), focused: form.focus == .person,
            placeholder: "anyone")
        y += 2
        ConsoleText.putLabel("Action", focused: form.focus == .action, into: &buffer, x: text.x, y: y, clip: text)
        let picker = "‹ \(form.action?.rawValue ?? "any") ›"
        buffer.put(picker, x: fieldX, y: y, style: Style(form.focus == .action ? .inputFocused : .input), clip: text)
        if form.focus == .action {
            buffer.put("  ←/→ to change", x: fieldX + DisplayWidth.of(picker), y: y, style: Style(.muted), clip: text)
        }
        y += 2
        ConsoleText.putLabel("Day", focused: form.focus == .day, into: &buffer, x: text.x, y: y, clip: text)
        form.day.render(
            into: &buffer, area: Rect(x: fieldX, y: y, width: fieldWidth, height: 1), focused: form.focus == .day,
            placeholder: "any day (t today, y yesterday)")
        if form.focus == .day {
            buffer.put(
                "t, y, ←/→, 2026-11-27 or -3 (local day); Bksp: any", x: fieldX, y: y + 1, style: Style(.muted),
                clip: text)
        }
        y += 3
        if let message = form.message {
            Notice.error(message).render(into: &buffer, x: text.x, y: y, width: text.width, rows: 2)
        }
        buffer.put(
            "Enter apply · Tab next field · ^X empty all · Esc cancel", x: text.x, y: text.maxY - 1,
            style: Style(.muted), clip: text)
        if form.focus == .action { buffer.cursor = nil }
    }
}
