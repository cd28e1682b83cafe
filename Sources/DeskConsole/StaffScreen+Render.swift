import DeskCore
import DeskText
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
        return Regions(table: parts[0], rows: Table.rowsArea(in: Panel.inner(parts[0])), detail: parts[1])
    }

    /// The account index at a screen row, if any.
    public static func account(at y: Int, _ state: State, in area: Rect) -> Int? {
        let inner = Panel.inner(regions(in: area).table)
        return table(state, width: inner.width).row(at: y, in: inner)
    }

    /// The accounts table drawn `width` cells wide; "Created" only from 100 on.
    static func table(_ state: State, width: Int) -> Table {
        // Role and state as wide as their longest word (Italian's "amministratore"); the room
        // comes from "Created by", then the name: English keeps 14, 10, 8 and 12.
        let roleWidth = max(10, StaffRole.allCases.map { DisplayWidth.of(ConsoleApp.roleName($0)) }.max() ?? 0)
        let stateWidth = max(
            8, ["active", "locked", "disabled"].map { DisplayWidth.of(tr("console.staff.state.\($0)")) }.max() ?? 0)
        let extra = roleWidth - 10 + stateWidth - 8
        var columns = [
            TableColumn(tr("console.staff.column.name"), width: .length(14 - max(0, extra - 3))),
            TableColumn(tr("console.staff.column.role"), width: .length(roleWidth)),
            TableColumn(tr("console.staff.column.state"), width: .length(stateWidth)),
            TableColumn(tr("console.staff.column.failed"), width: .length(6), alignment: .trailing),
            TableColumn(tr("console.staff.column.lastSignIn"), width: .length(16)),
            TableColumn(tr("console.staff.column.createdBy"), width: .length(12 - min(3, extra))),
        ]
        if width >= 100 { columns.append(TableColumn(tr("console.staff.column.created"), width: .length(16))) }
        let shown = state.visible
        return Table(
            columns: columns, rowCount: shown.count, selected: state.selectedPosition(in: shown),
            focused: !state.isModal,
            emptyText: state.loading
                ? tr("console.staff.loading")
                : !state.loaded
                    ? ""
                    : state.filter.isActive
                        ? tr("console.staff.noMatch", ["esc": Key.escape.description]) : tr("console.staff.none"))
    }

    /// One account's cells, "Created" last (dropped by a narrow table).
    static func cells(_ account: StaffAccount, _ zone: TimeZone) -> [TableCell] {
        [
            TableCell(account.name),
            TableCell(ConsoleApp.roleName(account.role)),
            TableCell(
                StaffScreen.stateText(account),
                style: account.disabled ? Style(.muted) : account.locked ? Style(.warning, .bold) : nil),
            TableCell(String(account.failedSignIns), style: account.failedSignIns > 0 ? Style(.warning) : nil),
            TableCell(account.lastSignInAt.map { ConsoleText.dateTime($0, zone) } ?? tr("console.staff.never")),
            TableCell(account.createdBy),
            TableCell(ConsoleText.dateTime(account.createdAt, zone)),
        ]
    }

    public static func render(_ state: State, into buffer: inout Buffer, area: Rect) {
        let regions = regions(in: area)
        // A hard lock means guessing from many places: the admin is told above the table.
        let locked = state.accounts.filter { $0.locked && !$0.disabled }.count
        let warning = locked == 0 ? "" : trCount("console.staff.lockedWarning", locked)
        let shown = state.visible
        let count =
            state.filter.isActive
            ? tr("console.frame.countOf", ["shown": String(shown.count), "total": String(state.accounts.count)])
            : "\(state.accounts.count)"
        // The filter before the warning: the cursor ends the filter's text, and a narrow title cuts the warning.
        let head = tr("console.staff.title") + (state.loaded ? " (\(count))" : "") + state.filter.titleSuffix
        let title = head + warning
        let inner = Panel(title: title, focused: !state.isModal).render(into: &buffer, area: regions.table)
        table(state, width: inner.width).render(into: &buffer, area: inner) {
            cells(state.accounts[shown[$0]], state.timeZone)
        }
        renderDetail(state, into: &buffer, area: regions.detail)
        if let form = state.form { renderForm(form, state: state, into: &buffer, area: area) }
        if let dialog = state.confirm { dialog.render(into: &buffer, area: area) }
        if state.form == nil { buffer.cursor = nil }
        if state.filter.editing, state.form == nil, state.confirm == nil {
            buffer.cursor = (min(regions.table.maxX - 2, regions.table.x + 3 + DisplayWidth.of(head)), regions.table.y)
        }
    }

    private static func renderDetail(_ state: State, into buffer: inout Buffer, area: Rect) {
        let inner = Panel(
            title: state.selectedAccount.map { tr("console.staff.account", ["name": $0.name]) }
                ?? tr("console.staff.accountTitle")
        ).render(
            into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 0, text.height > 0 else { return }
        var y = text.y
        if let account = state.selectedAccount {
            let zone = state.timeZone
            buffer.put(
                "\(account.name) · \(ConsoleApp.roleName(account.role)): \(StaffScreen.roleSummary(account.role))",
                x: text.x, y: y,
                maxWidth: text.width)
            y += 1
            let facts =
                StaffScreen.stateText(account) + failures(account)
                + tr(
                    "console.staff.facts",
                    [
                        "created": ConsoleText.dateTime(account.createdAt, zone), "user": account.createdBy,
                        "password": ConsoleText.dateTime(account.passwordChangedAt, zone),
                    ])
            buffer.put(facts, x: text.x, y: y, style: Style(.muted), maxWidth: text.width)
            y += 1
        }
        if let notice = state.notice {
            notice.render(into: &buffer, x: text.x, y: y, width: text.width, rows: max(1, text.maxY - y))
        }
    }

    /// " (12 failed sign-ins in a row from 3 sources)", or nothing when none failed.
    static func failures(_ account: StaffAccount) -> String {
        guard account.failedSignIns > 0 else { return "" }
        let sources = account.failingSources > 0 ? trCount("console.staff.fromSources", account.failingSources) : ""
        return tr(
            "console.staff.failures",
            ["failed": trCount("console.staff.failedSignIns", account.failedSignIns), "sources": sources])
    }

    /// Two rows more than the fields need, for a verdict or a role's description that wraps.
    static func formRect(_ form: Form, in area: Rect) -> Rect {
        area.centered(width: min(68, area.width), height: min(area.height, form.kind == .add ? 18 : 16))
    }

    private static func renderForm(_ form: Form, state: State, into buffer: inout Buffer, area: Rect) {
        let box = formRect(form, in: area)
        buffer.fill(box, with: .blank)
        let inner = Panel(title: form.title, focused: true).render(into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 14, text.height > 0 else { return }
        // The fields start after the longest label (marker, space, label, space): 13 in English.
        let labels = [
            tr("console.frame.label.name"), tr("console.staff.label.role"), tr("console.frame.label.password"),
            tr("console.firstadmin.again"),
        ]
        let fieldX = text.x + max(13, 3 + (labels.map(DisplayWidth.of).max() ?? 0))
        let fieldWidth = min(34, text.maxX - fieldX)
        let verdictWidth = text.maxX - fieldX
        var y = text.y
        let editing = !form.submitting
        if case .resetPassword(let name) = form.kind {
            let role = state.accounts.first { $0.name == name }.map { ConsoleApp.roleName($0.role) } ?? ""
            y +=
                ConsoleText.putWrapped(
                    tr(
                        "console.staff.resetIntro", ["name": name, "role": role.isEmpty ? "" : " (\(role))"]),
                    style: Style(.normal), into: &buffer, x: text.x, y: y, width: text.width, rows: 2) + 1
        }
        for field in form.fields {
            let focused = editing && form.focus == field
            let rect = Rect(x: fieldX, y: y, width: fieldWidth, height: 1)
            // The line under the field: a verdict or a description, wrapped in two rows at most.
            var below = 1
            switch field {
            case .name:
                ConsoleText.putLabel(
                    tr("console.frame.label.name"), focused: focused, into: &buffer, x: text.x, y: y, clip: text)
                form.name.render(
                    into: &buffer, area: rect, focused: focused, placeholder: tr("console.staff.namePlaceholder"))
                below = ConsoleText.putVerdict(
                    form.nameProblem,
                    ok: (form.accountName.map { tr("console.firstadmin.storedAs", ["name": $0]) } ?? "")
                        + (FieldLimit.counter(form.name).map { tr("console.staff.characters", ["counter": $0]) } ?? ""),
                    into: &buffer, x: fieldX,
                    y: y + 1, width: verdictWidth, rows: 2)
            case .role:
                ConsoleText.putLabel(
                    tr("console.staff.label.role"), focused: focused, into: &buffer, x: text.x, y: y, clip: text)
                let picker = "‹ \(ConsoleApp.roleName(form.role)) ›"
                buffer.put(picker, x: fieldX, y: y, style: Style(focused ? .inputFocused : .input), clip: text)
                buffer.put(
                    focused ? tr("console.staff.toChange") : "", x: fieldX + DisplayWidth.of(picker), y: y,
                    style: Style(.muted),
                    clip: text)
                below = ConsoleText.putWrapped(
                    StaffScreen.roleSummary(form.role), style: Style(.muted), into: &buffer, x: fieldX, y: y + 1,
                    width: verdictWidth,
                    rows: 2)
            case .password:
                ConsoleText.putLabel(
                    tr("console.frame.label.password"), focused: focused, into: &buffer, x: text.x, y: y, clip: text)
                ConsoleText.renderSecret(form.password, into: &buffer, area: rect, focused: focused)
                if form.password.text.isEmpty {
                    below = ConsoleText.putWrapped(
                        tr("console.firstadmin.rule", ["length": String(PasswordRules.minimumLength)]),
                        style: Style(.muted),
                        into: &buffer, x: fieldX, y: y + 1, width: verdictWidth, rows: 2)
                } else {
                    below = ConsoleText.putVerdict(
                        form.passwordProblem, ok: tr("console.firstadmin.accepted"), into: &buffer, x: fieldX, y: y + 1,
                        width: verdictWidth, rows: 2)
                }
            case .again:
                ConsoleText.putLabel(
                    tr("console.firstadmin.again"), focused: focused, into: &buffer, x: text.x, y: y, clip: text)
                ConsoleText.renderSecret(form.again, into: &buffer, area: rect, focused: focused)
                let match = !form.again.text.isEmpty && form.again.text == form.password.text
                below = ConsoleText.putVerdict(
                    form.againProblem, ok: match ? tr("console.firstadmin.match") : "", into: &buffer, x: fieldX,
                    y: y + 1,
                    width: verdictWidth, rows: 2)
            }
            y += 1 + max(1, below)
        }
        y += 1
        if let notice = form.notice {
            notice.render(into: &buffer, x: text.x, y: y, width: text.width, rows: max(1, text.maxY - y - 1))
        }
        buffer.put(
            tr(
                "console.staff.formKeys",
                ["enter": Key.enter.description, "tab": Key.tab.description, "esc": Key.escape.description]),
            x: text.x, y: text.maxY - 1, style: Style(.muted),
            clip: text)
        if !editing { buffer.cursor = nil }
    }
}
