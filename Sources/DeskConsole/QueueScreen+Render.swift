import CivilCalendar
import DeskContract
import DeskCore
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension QueueScreen {
    /// Where each part goes in a body area; shared by drawing and mouse hit-tests.
    public struct Regions: Hashable, Sendable {
        public var table: Rect
        public var pane: Rect
    }

    public static func regions(in area: Rect) -> Regions {
        let parts = Layout(.vertical, [.fill(), .length(area.height >= 30 ? 9 : 7)]).split(area)
        return Regions(table: parts[0], pane: parts[1])
    }

    /// The row at a screen line, if any.
    public static func row(at y: Int, _ state: State, in area: Rect) -> Int? {
        let inner = Panel.inner(regions(in: area).table)
        return table(state, width: inner.width).row(at: y, in: inner)
    }

    /// "overdue 11:02", "due now", "16:02", "12-03 00:00".
    static func dueText(_ followUp: FollowUp, _ state: State) -> String {
        guard let due = followUp.nextDueAt, let urgency = state.urgency(followUp) else { return followUp.state.label }
        let time = String(ConsoleText.dateTime(due, state.timeZone).suffix(5))
        switch urgency {
        case .overdue: return "overdue " + time
        case .due: return "due now"
        case .laterToday: return "today " + time
        case .later: return String(ConsoleText.dateTime(due, state.timeZone).dropFirst(5))
        }
    }

    /// The reason with the latest exposure (what the row shows; the pane shows every one).
    static func mainReason(_ followUp: FollowUp) -> FollowUpReason? {
        followUp.reasons.max { $0.lastExposureDay < $1.lastExposureDay }
    }

    /// "42 min · 2 d · last 11-28" (or "by hand" for a person added by hand); `short`: "42m · 2d".
    static func whyText(_ followUp: FollowUp, short: Bool = false) -> String {
        guard let reason = mainReason(followUp) else { return "" }
        let day = String(reason.lastExposureDay.iso.dropFirst(5))
        if reason.addedByHand != nil { return short ? "by hand" : "added by hand · last \(day)" }
        if short { return "\(reason.minutes)m · \(reason.days)d" }
        return "\(reason.minutes) min · \(reason.days) d · last \(day)"
    }

    /// The first case's reference, "+N" for the others; cut before the "+N" when it is longer
    /// than `width`, so the count always shows.
    static func caseText(_ followUp: FollowUp, width: Int = .max, ascii: Bool = false) -> String {
        guard let first = followUp.reasons.first else { return "" }
        guard followUp.reasons.count > 1 else { return first.caseReference }
        let more = " +\(followUp.reasons.count - 1)"
        let room = width - more.count
        let ellipsis = ascii ? "..." : "…"
        let reference =
            first.caseReference.count > room
            ? String(first.caseReference.prefix(max(1, room - ellipsis.count))) + ellipsis : first.caseReference
        return reference + more
    }

    /// The last outcome, or what is due: "no answer", "check due", "not called yet".
    static func lastText(_ followUp: FollowUp, _ state: State, wide: Bool) -> String {
        if let saving = state.saving[followUp.id] { return "\(saving.label)…" }
        if state.savingChecks.contains(followUp.id) { return "check…" }
        if followUp.state == .monitoring {
            return followUp.lastCheckDay == state.now.utcDay ? (wide ? "checked today" : "checked") : "check due"
        }
        if !followUp.state.isActive { return followUp.state.label }
        return followUp.lastOutcome?.label ?? (wide ? "not called yet" : "not called")
    }

    static func isWide(_ width: Int) -> Bool { width >= 110 }

    static func table(_ state: State, width: Int) -> Table {
        let wide = isWide(width)
        let phoneWidth = max(16, state.rows.map { DisplayWidth.of($0.phone.spaced) }.max() ?? 0)
        var columns: [TableColumn] = []
        if state.supervisor { columns.append(TableColumn("", width: .length(1))) }
        columns += [
            TableColumn("Due", width: .length(13)),
            TableColumn("Phone", width: .length(phoneWidth)),
            TableColumn("Case", width: .length(caseWidth(state, wide: wide))),
        ]
        // A supervisor's narrow queue gives the attempts' room to the tracer's name (the pane
        // and the person view count the attempts); a queue's rows are active, so their last
        // outcome needs 11 columns ("! check due").
        if showsAttempts(state, width: width) {
            columns.append(TableColumn("#", width: .length(2), alignment: .trailing))
        }
        columns.append(TableColumn("Last", width: .length(wide ? 17 : state.supervisor ? 11 : 12)))
        if state.supervisor {
            columns.append(TableColumn("Tracer", width: wide ? .length(12) : .fill()))
        } else if wide {
            columns.append(TableColumn("State", width: .length(12)))
        }
        if wide || !state.supervisor { columns.append(TableColumn(wide ? "Why a contact" : "Why", width: .fill())) }
        return Table(
            columns: columns, rowCount: state.rows.count, selected: state.rows.isEmpty ? nil : state.selected,
            focused: !state.isModal && state.detail == nil,
            emptyText: emptyText(state), moreBelow: state.next != nil)
    }

    static func showsAttempts(_ state: State, width: Int) -> Bool { isWide(width) || !state.supervisor }

    static func caseWidth(_ state: State, wide: Bool) -> Int {
        wide ? (state.supervisor ? 16 : 18) : 13
    }

    static func emptyText(_ state: State) -> String {
        if !state.loaded { return state.loading ? "… reading the queue" : "" }
        if state.filter.isActive { return "nobody due matches the filter (Esc clears it)" }
        let later = state.counts.later
        if state.supervisor {
            return "nobody is due in this queue"
                + (later > 0 && !state.includeLater ? " today (\(later) later: l shows them)" : "")
        }
        return later > 0 && !state.includeLater
            ? "nobody is due today: \(later) later (l shows them)"
            : "nobody to call: open a case on the trace screen (F2), its contacts come here"
    }

    static func cells(_ followUp: FollowUp, _ state: State, width: Int) -> [TableCell] {
        let g = Glyphs(ascii: state.ascii)
        let urgency = state.urgency(followUp)
        let pressing = urgency == .overdue || urgency == .due
        var cells: [TableCell] = []
        if state.supervisor {
            cells.append(TableCell(state.marks.contains(followUp.id) ? (state.ascii ? "*" : "✓") : ""))
        }
        cells += [
            TableCell(
                dueText(followUp, state),
                style: urgency == .overdue ? Style(.warning, .bold) : pressing ? Style(.normal, .bold) : Style(.muted)),
            TableCell(followUp.phone.spaced, style: pressing ? Style(.normal, .bold) : nil),
            TableCell(caseText(followUp, width: caseWidth(state, wide: isWide(width)), ascii: state.ascii)),
        ]
        if showsAttempts(state, width: width) { cells.append(TableCell("\(followUp.attempts)")) }
        cells += [
            TableCell(
                (followUp.symptomsFlagged ? "! " : "") + lastText(followUp, state, wide: isWide(width)),
                style: followUp.symptomsFlagged ? Style(.error, .bold) : nil)
        ]
        if state.supervisor {
            cells.append(
                TableCell(followUp.assignedTo ?? "nobody", style: followUp.assignedTo == nil ? Style(.warning) : nil))
        } else if isWide(width) {
            cells.append(TableCell(followUp.state.label))
        }
        if isWide(width) || !state.supervisor { cells.append(TableCell(whyText(followUp, short: !isWide(width)))) }
        return cells
    }

    static func title(_ state: State) -> String {
        let g = Glyphs(ascii: state.ascii)
        let whose: String
        switch state.scope {
        case .mine: whose = "Your calls"
        case .tracer(let name): whose = "\(name)'s queue"
        case .unassigned: whose = "Nobody's yet"
        case .everyone: whose = "Everyone's queue"
        }
        let c = state.counts
        var parts = ["\(c.overdue) overdue", "\(c.due) due now", "\(c.laterToday) later today"]
        if state.includeLater { parts.append("\(c.later) later") }
        var text = whose + (state.loaded ? g(" · ") + parts.joined(separator: g(" · ")) : "")
        if !state.marks.isEmpty { text += g(" · ") + "\(state.marks.count) marked" }
        return text + g(state.filter.titleSuffix)
    }

    public static func render(_ state: State, into buffer: inout Buffer, area: Rect) {
        let regions = regions(in: area)
        if let detail = state.detail {
            renderDetail(detail, state, into: &buffer, area: area)
        } else if let view = state.caseView {
            renderCase(view, state, into: &buffer, area: area)
        } else {
            let title = title(state)
            let inner = Panel(title: title, focused: !state.isModal).render(into: &buffer, area: regions.table)
            let table = table(state, width: inner.width)
            table.render(into: &buffer, area: inner) { cells(state.rows[$0], state, width: inner.width) }
            if !state.supervisor, regions.table.width > 4 {
                let legend = " " + outcomeLegend + " "
                buffer.put(
                    legend, x: regions.table.x + 2, y: regions.table.maxY - 1, style: Style(.muted),
                    maxWidth: regions.table.width - 4)
            }
            renderPane(state, into: &buffer, area: regions.pane)
            buffer.cursor = nil
            if state.filter.editing, !state.isModal || state.filter.editing {
                buffer.cursor = (
                    min(
                        regions.table.maxX - 2, regions.table.x + 3 + DisplayWidth.of(Glyphs(ascii: state.ascii)(title))
                    ),
                    regions.table.y
                )
            }
        }
        if let form = state.attemptForm { renderAttemptForm(form, state, into: &buffer, area: area) }
        if let form = state.checkForm { renderCheckForm(form, state, into: &buffer, area: area) }
        if let picker = state.picker { renderPicker(picker, into: &buffer, area: area) }
    }

    /// Under the table: the selected person's reasons, the demo's line, the notice.
    static func renderPane(_ state: State, into buffer: inout Buffer, area: Rect) {
        let row = state.selectedRow
        let inner = Panel(title: row.map { "\($0.phone.spaced) · follow-up \($0.id)" } ?? "Person").render(
            into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 0, text.height > 0 else { return }
        var y = text.y
        let g = Glyphs(ascii: state.ascii)
        let noticeRows = state.notice == nil ? 0 : min(3, max(1, text.height - 1))
        let room = text.height - noticeRows
        var lines: [(String, Style)] = []
        if let row {
            var status = "\(row.state.label)" + g(" · ") + "period ends \(row.periodEndsOn.iso)"
            status += g(" · ") + (row.assignedTo.map { "assigned to \($0)" } ?? "assigned to nobody yet")
            if row.symptomsFlagged { status += g(" · ") + "! symptoms reported" }
            lines.append((status, row.symptomsFlagged ? Style(.error, .bold) : Style(.normal)))
            if state.demo, row.state.isActive, row.state == .calling {
                lines.append(
                    (
                        "Demo: this contact " + DemoContactAnswer.hint(followUpID: row.id, attempt: row.attempts + 1),
                        Style(.accent, .bold)
                    ))
            } else if state.demo, row.state == .monitoring {
                lines.append(
                    ("Demo: reached; press c for today's check (y/n for symptoms, isolating)", Style(.accent, .bold)))
            }
            for reason in row.reasons { lines.append((reasonText(reason, g), Style(.muted))) }
        }
        for (line, style) in wrapped(lines, width: text.width, glyphs: g).prefix(max(0, room)) {
            buffer.put(line, x: text.x, y: y, style: style, maxWidth: text.width)
            y += 1
        }
        if let notice = state.notice {
            notice.render(
                into: &buffer, x: text.x, y: text.maxY - noticeRows, width: text.width, rows: noticeRows,
                ascii: state.ascii)
        }
    }

    /// Each line word-wrapped to `width`, its continuation indented as the line is.
    static func wrapped(_ lines: [(String, Style)], width: Int, glyphs: Glyphs) -> [(String, Style)] {
        var out: [(String, Style)] = []
        for (line, style) in lines {
            let indent = String(line.prefix { $0 == " " })
            let parts = TextWrap.wrap(glyphs(String(line.dropFirst(indent.count))), width: max(1, width - indent.count))
            if parts.isEmpty { out.append(("", style)) }
            for part in parts { out.append((indent + part, style)) }
        }
        return out
    }

    /// "case ASL-2026-0412: 42 min over 2 days, most 21 on one day, last exposure 2026-11-28 (close contact)".
    static func reasonText(_ reason: FollowUpReason, _ g: Glyphs) -> String {
        if let why = reason.addedByHand {
            return "case \(reason.caseReference): added by hand (\(why)), last exposure \(reason.lastExposureDay.iso)"
        }
        return
            "case \(reason.caseReference): \(reason.minutes) min over \(reason.days) day\(reason.days == 1 ? "" : "s"), most \(reason.mostMinutesOnOneDay) on one day, last exposure \(reason.lastExposureDay.iso)"
            + (reason.isCloseContact ? " (close contact)" : "")
    }

    /// The person: their state, the evidence per case, every attempt and check.
    static func detailLines(_ detail: Detail, _ state: State) -> [(String, Style)] {
        let g = Glyphs(ascii: state.ascii)
        guard let loaded = detail.loaded else {
            if let error = detail.error {
                return [("✗ could not read the person: \(error) (r to try again)", Style(.error, .bold))]
            }
            return [("… reading the person", Style(.accent))]
        }
        let followUp = state.rows.first { $0.id == loaded.followUp.id } ?? loaded.followUp
        var lines: [(String, Style)] = []
        lines.append(("\(followUp.state.label)" + g(" · ") + scheduleText(followUp, state), Style(.normal, .bold)))
        lines.append(
            (
                "last exposure \(followUp.lastExposureDay.iso)" + g(" · ") + "period ends \(followUp.periodEndsOn.iso)"
                    + g(" · ")
                    + (followUp.assignedTo.map { "assigned to \($0)" } ?? "assigned to nobody yet"), Style(.normal)
            ))
        if followUp.symptomsFlagged {
            lines.append(
                (
                    "! a daily check reported symptoms: the supervisor and the case's tracer should act",
                    Style(.error, .bold)
                ))
        }
        if let became = followUp.becameCaseID { lines.append(("became case \(became)", Style(.accent))) }
        lines.append(("", Style(.normal)))
        lines.append(("Why a contact", Style(.header, .bold)))
        for reason in followUp.reasons { lines.append(("  " + reasonText(reason, g), Style(.normal))) }
        lines.append(("", Style(.normal)))
        lines.append(("Calls (\(loaded.attempts.count))", Style(.header, .bold)))
        if loaded.attempts.isEmpty { lines.append(("  none yet", Style(.muted))) }
        for attempt in loaded.attempts {
            lines.append(
                (
                    "  \(ConsoleText.dateTime(attempt.at, state.timeZone))  \(attempt.outcome.label)  by \(attempt.by)"
                        + (attempt.note.isEmpty ? "" : g(" · ") + attempt.note), Style(.normal)
                ))
        }
        lines.append(("", Style(.normal)))
        lines.append(("Daily checks (\(loaded.checks.count))", Style(.header, .bold)))
        if loaded.checks.isEmpty { lines.append(("  none yet", Style(.muted))) }
        for check in loaded.checks {
            lines.append(
                (
                    "  \(check.day.iso)  symptoms \(check.symptoms ? "yes" : "no")  isolating \(check.isolating ? "yes" : "no")  by \(check.by)"
                        + (check.note.isEmpty ? "" : g(" · ") + check.note),
                    check.symptoms ? Style(.error, .bold) : Style(.normal)
                ))
        }
        return lines
    }

    static func renderDetail(_ detail: Detail, _ state: State, into buffer: inout Buffer, area: Rect) {
        let followUp = state.current
        let title = followUp.map { "\($0.phone.spaced) · follow-up \($0.id)" } ?? "follow-up \(detail.followUpID)"
        let inner = Panel(title: title, focused: !state.isModal).render(into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 0, text.height > 0 else { return }
        var lines = detailLines(detail, state)
        if state.demo, let followUp, followUp.state == .calling {
            lines.insert(
                (
                    "Demo: this contact "
                        + DemoContactAnswer.hint(followUpID: followUp.id, attempt: followUp.attempts + 1),
                    Style(.accent, .bold)
                ),
                at: 0)
        }
        let noticeRows = state.notice == nil ? 0 : min(2, text.height)
        let room = max(0, text.height - noticeRows)
        let shown = wrapped(lines, width: text.width, glyphs: Glyphs(ascii: state.ascii))
        let first = min(detail.scroll, max(0, shown.count - room))
        var y = text.y
        for (line, style) in shown.dropFirst(first).prefix(room) {
            buffer.put(line, x: text.x, y: y, style: style, maxWidth: text.width)
            y += 1
        }
        if let notice = state.notice {
            notice.render(
                into: &buffer, x: text.x, y: text.maxY - noticeRows, width: text.width, rows: noticeRows,
                ascii: state.ascii)
        }
        buffer.cursor = nil
    }

    static func renderAttemptForm(_ form: AttemptForm, _ state: State, into buffer: inout Buffer, area: Rect) {
        let box = area.centered(width: min(64, area.width), height: 14)
        buffer.fill(box, with: .blank)
        let phone = state.rows.first { $0.id == form.followUpID }?.phone.spaced ?? "follow-up \(form.followUpID)"
        let inner = Panel(title: "The call to \(phone)", focused: true).render(into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 10, text.height > 0 else { return }
        var y = text.y
        for outcome in CallOutcome.allCases {
            let chosen = outcome == form.choice
            buffer.put(
                (chosen ? "› " : "  ") + "\(outcome.digit) \(outcome.label)", x: text.x, y: y,
                style: chosen ? Style(.selection, .bold) : Style(.normal), maxWidth: text.width)
            y += 1
        }
        y += 1
        buffer.put("Note", x: text.x, y: y, style: Style(.normal, .bold), clip: text)
        form.note.render(
            into: &buffer, area: Rect(x: text.x + 6, y: y, width: max(1, text.width - 6), height: 1),
            focused: !form.saving,
            placeholder: "optional: what was agreed, when to call again")
        y += 2
        if form.saving {
            Notice.working("recording…").render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: 1, ascii: state.ascii)
        } else if let error = form.error {
            Notice.error(error).render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: max(1, text.maxY - y - 1), ascii: state.ascii)
        }
        buffer.put(
            "↑↓ or 1-5 outcome · Enter record · Esc cancel", x: text.x, y: text.maxY - 1, style: Style(.muted),
            clip: text)
        if form.saving { buffer.cursor = nil }
    }

    static func renderCheckForm(_ form: CheckForm, _ state: State, into buffer: inout Buffer, area: Rect) {
        let box = area.centered(width: min(64, area.width), height: 12)
        buffer.fill(box, with: .blank)
        let phone = state.rows.first { $0.id == form.followUpID }?.phone.spaced ?? "follow-up \(form.followUpID)"
        let inner = Panel(title: "Today's check of \(phone)", focused: true).render(into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 10, text.height > 0 else { return }
        func answer(_ value: Bool?) -> String { value.map { $0 ? "yes" : "no" } ?? "y or n" }
        var y = text.y
        let rows: [(CheckForm.Field, String, Bool?)] = [
            (.symptoms, "Symptoms today", form.symptoms), (.isolating, "Isolating", form.isolating),
        ]
        for (field, label, value) in rows {
            let focused = form.focus == field && !form.saving
            ConsoleText.putLabel(label, focused: focused, into: &buffer, x: text.x, y: y, clip: text)
            buffer.put(
                "[\(answer(value))]", x: text.x + 17, y: y,
                style: focused ? Style(.inputFocused, .bold) : value == nil ? Style(.muted) : Style(.input), clip: text)
            y += 2
        }
        ConsoleText.putLabel(
            "Note", focused: form.focus == .note && !form.saving, into: &buffer, x: text.x, y: y, clip: text)
        form.note.render(
            into: &buffer, area: Rect(x: text.x + 17, y: y, width: max(1, text.width - 17), height: 1),
            focused: form.focus == .note && !form.saving, placeholder: "optional")
        y += 2
        if form.saving {
            Notice.working("recording…").render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: 1, ascii: state.ascii)
        } else if let error = form.error {
            Notice.error(error).render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: max(1, text.maxY - y - 1), ascii: state.ascii)
        }
        buffer.put(
            "y/n answer · Tab next · Enter next, then record · Esc cancel", x: text.x, y: text.maxY - 1,
            style: Style(.muted), clip: text)
        if form.focus != .note || form.saving { buffer.cursor = nil }
    }

    static func renderPicker(_ picker: Picker, into buffer: inout Buffer, area: Rect) {
        let shown = picker.shown
        let height = min(area.height, max(8, min(shown.count, 10) + 7))
        let box = area.centered(width: min(50, area.width), height: height)
        buffer.fill(box, with: .blank)
        let title: String
        switch picker.purpose {
        case .scope: title = "Whose queue"
        case .assign(let ids): title = "Reassign \(ids.count) to"
        case .openCase: title = "The person's cases"
        }
        let inner = Panel(title: title, focused: true).render(into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 4, text.height > 2 else { return }
        let choosesCase: Bool
        if case .openCase = picker.purpose { choosesCase = true } else { choosesCase = false }
        picker.field.render(
            into: &buffer, area: Rect(x: text.x, y: text.y, width: text.width, height: 1), focused: true,
            placeholder: choosesCase ? "type to narrow" : "type to narrow, or a tracer's name")
        var y = text.y + 2
        let room = max(0, text.maxY - 1 - y)
        let first = max(0, picker.selected - room + 1)
        for (index, option) in shown.enumerated().dropFirst(first).prefix(room) {
            let chosen = index == picker.selected
            buffer.put(
                (chosen ? "› " : "  ") + option.label, x: text.x, y: y,
                style: chosen ? Style(.selection, .bold) : Style(.normal), maxWidth: text.width)
            y += 1
        }
        if shown.isEmpty, !choosesCase {
            buffer.put(
                picker.field.text.isEmpty
                    ? "no tracer known yet: type a name" : "Enter: \(picker.field.text) (the desk checks the name)",
                x: text.x, y: y, style: Style(.muted), maxWidth: text.width)
        }
        buffer.put("Enter choose · Esc cancel", x: text.x, y: text.maxY - 1, style: Style(.muted), clip: text)
    }
}
