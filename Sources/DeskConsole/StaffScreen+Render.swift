import DeskCore
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StaffScreen {
    /// Where each part goes in a body area; shared by drawing and mouse hit-tests.
    public struct Regions: Hashable, Sendable {
        public var table: Rect
        /// The rows under the header, one per account shown.
        public var rows: Rect
        public var detail: Rect
    }

    public static func regions(in area: Rect) -> Regions {
        let parts = Layout(.vertical, [.fill(), .length(6)]).split(area)
        let inner = Panel.inner(parts[0])
        return Regions(
            table: parts[0], rows: Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1),
            detail: parts[1])
    }

    /// The index of the first account shown when `rows` rows fit: the selection stays in view.
    public static func firstShown(_ state: State, rows: Int) -> Int {
        guard rows > 0 else { return 0 }
        return max(0, min(state.selected - rows + 1, state.accounts.count - rows))
    }

    /// The account index at a screen row, if any.
    public static func account(at y: Int, _ state: State, in area: Rect) -> Int? {
        let rows = regions(in: area).rows
        guard y >= rows.y, y < rows.maxY else { return nil }
        let index = firstShown(state, rows: rows.height) + (y - rows.y)
        return state.accounts.indices.contains(index) ? index : nil
    }

    struct Column {
        var title: String
        var width: Int
        var rightAligned = false
        var value: (StaffAccount, TimeZone) -> String
    }

    static func columns(width: Int) -> [Column] {
        var columns = [
            Column(title: "Name", width: 14) { account, _ in account.name },
            Column(title: "Role", width: 10) { account, _ in account.role.rawValue },
            Column(title: "State", width: 8) { account, _ in account.stateName },
            Column(title: "Failed", width: 6, rightAligned: true) { account, _ in String(account.failedSignIns) },
            Column(title: "Last sign-in", width: 16) { account, zone in
                account.lastSignInAt.map { ConsoleText.dateTime($0, zone) } ?? "never"
            },
            Column(title: "Created by", width: 12) { account, _ in account.createdBy },
        ]
        if width >= 100 {
            columns.append(
                Column(title: "Created", width: 16) { account, zone in ConsoleText.dateTime(account.createdAt, zone) })
        }
        return columns
    }

    public static func render(_ state: State, into buffer: inout Buffer, area: Rect) {
        let regions = regions(in: area)
        let title = "Staff accounts" + (state.loaded ? " (\(state.accounts.count))" : "")
        let inner = Panel(title: title, focused: !state.isModal).render(into: &buffer, area: regions.table)
        renderTable(state, into: &buffer, inner: inner, rows: regions.rows)
        renderDetail(state, into: &buffer, area: regions.detail)
        if let form = state.form { renderForm(form, state: state, into: &buffer, area: area) }
        if let dialog = state.confirm { dialog.render(into: &buffer, area: area) }
        if state.form == nil { buffer.cursor = nil }
    }

    private static func renderTable(_ state: State, into buffer: inout Buffer, inner: Rect, rows: Rect) {
        guard inner.width > 4, inner.height > 0 else { return }
        let columns = columns(width: inner.width)
        var x = inner.x + 2
        for column in columns {
            let text = column.rightAligned ? pad(column.title, column.width, right: true) : column.title
            buffer.put(text, x: x, y: inner.y, style: Style(.header), maxWidth: column.width, clip: inner)
            x += column.width + 2
        }
        if state.accounts.isEmpty {
            let text = state.loading ? "… loading the accounts" : state.loaded ? "no accounts" : ""
            buffer.put(text, x: inner.x + 2, y: rows.y, style: Style(.muted), clip: rows)
            return
        }
        let first = firstShown(state, rows: rows.height)
        for (offset, account) in state.accounts.dropFirst(first).prefix(rows.height).enumerated() {
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
                let value = column.value(account, state.timeZone)
                var style = rowStyle
                if !selected, column.title == "State" {
                    style = account.disabled ? Style(.muted) : account.locked ? Style(.warning, .bold) : Style(.normal)
                }
                if !selected, column.title == "Failed", account.failedSignIns > 0 { style = Style(.warning) }
                let text = column.rightAligned ? pad(value, column.width, right: true) : fit(value, column.width)
                buffer.put(text, x: x, y: y, style: style, maxWidth: column.width, clip: rows)
                x += column.width + 2
            }
        }
        if first > 0 { buffer.put("▲", x: inner.maxX - 1, y: inner.y - 1, style: Style(.borderFocused, .bold)) }
        if first + rows.height < state.accounts.count {
            buffer.put("▼", x: inner.maxX - 1, y: inner.maxY, style: Style(.borderFocused, .bold))
        }
    }

    private static func renderDetail(_ state: State, into buffer: inout Buffer, area: Rect) {
        let inner = Panel(title: state.selectedAccount.map { "Account \($0.name)" } ?? "Account").render(
            into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 0, text.height > 0 else { return }
        var y = text.y
        if let account = state.selectedAccount {
            let zone = state.timeZone
            buffer.put(
                "\(account.name) · \(account.role.rawValue): \(account.role.summary)", x: text.x, y: y,
                maxWidth: text.width)
            y += 1
            let facts =
                "\(account.stateName) · created \(ConsoleText.dateTime(account.createdAt, zone)) by \(account.createdBy) · password set \(ConsoleText.dateTime(account.passwordChangedAt, zone))"
            buffer.put(facts, x: text.x, y: y, style: Style(.muted), maxWidth: text.width)
            y += 1
        }
        if let notice = state.notice {
            notice.render(into: &buffer, x: text.x, y: y, width: text.width, rows: max(1, text.maxY - y))
        }
    }

    static func formRect(_ form: Form, in area: Rect) -> Rect {
        area.centered(width: min(68, area.width), height: form.kind == .add ? 16 : 14)
    }

    private static func renderForm(_ form: Form, state: State, into buffer: inout Buffer, area: Rect) {
        let box = formRect(form, in: area)
        buffer.fill(box, with: .blank)
        let inner = Panel(title: form.title, focused: true).render(into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 14, text.height > 0 else { return }
        let fieldX = text.x + 13
        let fieldWidth = min(34, text.maxX - fieldX)
        let verdictWidth = text.maxX - fieldX
        var y = text.y
        let editing = !form.submitting
        if case .resetPassword(let name) = form.kind {
            let role = state.accounts.first { $0.name == name }?.role.rawValue ?? ""
            buffer.put(
                "Account \(name)\(role.isEmpty ? "" : " (\(role))"): the new password unlocks it and ends its sessions.",
                x: text.x, y: y, maxWidth: text.width)
            y += 2
        }
        for field in form.fields {
            let focused = editing && form.focus == field
            let rect = Rect(x: fieldX, y: y, width: fieldWidth, height: 1)
            switch field {
            case .name:
                ConsoleText.putLabel("User name", focused: focused, into: &buffer, x: text.x, y: y, clip: text)
                form.name.render(into: &buffer, area: rect, focused: focused, placeholder: "e.g. rossi")
                ConsoleText.putVerdict(
                    form.nameProblem, ok: form.accountName.map { "stored as \($0)" } ?? "", into: &buffer, x: fieldX,
                    y: y + 1, width: verdictWidth)
            case .role:
                ConsoleText.putLabel("Role", focused: focused, into: &buffer, x: text.x, y: y, clip: text)
                let picker = "‹ \(form.role.rawValue) ›"
                buffer.put(picker, x: fieldX, y: y, style: Style(focused ? .inputFocused : .input), clip: text)
                buffer.put(
                    focused ? "  ←/→ to change" : "", x: fieldX + DisplayWidth.of(picker), y: y, style: Style(.muted),
                    clip: text)
                buffer.put(form.role.summary, x: fieldX, y: y + 1, style: Style(.muted), maxWidth: verdictWidth)
            case .password:
                ConsoleText.putLabel("Password", focused: focused, into: &buffer, x: text.x, y: y, clip: text)
                ConsoleText.renderSecret(form.password, into: &buffer, area: rect, focused: focused)
                if form.password.text.isEmpty {
                    buffer.put(
                        "at least \(PasswordRules.minimumLength) characters, not the name", x: fieldX, y: y + 1,
                        style: Style(.muted), maxWidth: verdictWidth)
                } else {
                    ConsoleText.putVerdict(
                        form.passwordProblem, ok: "password accepted", into: &buffer, x: fieldX, y: y + 1,
                        width: verdictWidth)
                }
            case .again:
                ConsoleText.putLabel("Again", focused: focused, into: &buffer, x: text.x, y: y, clip: text)
                ConsoleText.renderSecret(form.again, into: &buffer, area: rect, focused: focused)
                let match = !form.again.text.isEmpty && form.again.text == form.password.text
                ConsoleText.putVerdict(
                    form.againProblem, ok: match ? "the passwords match" : "", into: &buffer, x: fieldX, y: y + 1,
                    width: verdictWidth)
            }
            y += 2
        }
        y += 1
        if let notice = form.notice {
            notice.render(into: &buffer, x: text.x, y: y, width: text.width, rows: max(1, text.maxY - y - 1))
        }
        buffer.put(
            "Enter next / save · Tab next field · Esc cancel", x: text.x, y: text.maxY - 1, style: Style(.muted),
            clip: text)
        if !editing { buffer.cursor = nil }
    }

    static func fit(_ text: String, _ width: Int) -> String {
        DisplayWidth.of(text) > width ? DisplayWidth.truncate(text, to: width) : text
    }

    static func pad(_ text: String, _ width: Int, right: Bool) -> String {
        let shown = fit(text, width)
        let space = String(repeating: " ", count: max(0, width - DisplayWidth.of(shown)))
        return right ? space + shown : shown + space
    }
}
