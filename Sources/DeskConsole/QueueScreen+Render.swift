import CivilCalendar
import DeskContract
import DeskCore
import DeskText
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
        guard let due = followUp.nextDueAt, let urgency = state.urgency(followUp) else {
            return TracingWords.state(followUp.state)
        }
        let time = String(ConsoleText.dateTime(due, state.timeZone).suffix(5))
        switch urgency {
        case .overdue: return tr("console.queue.due.overdue", ["time": time])
        case .due: return tr("console.queue.due.now")
        case .laterToday: return tr("console.queue.due.today", ["time": time])
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
        if reason.addedByHand != nil {
            return short ? tr("console.queue.why.byHandShort") : tr("console.queue.why.byHand", ["day": day])
        }
        let values = ["minutes": String(reason.minutes), "days": String(reason.days), "day": day]
        return tr(short ? "console.queue.why.short" : "console.queue.why.long", values)
    }

    /// The first case's reference, "+N" for the others; cut before the "+N" when it is longer
    /// than `width`, so the count always shows.
    static func caseText(_ followUp: FollowUp, width: Int = .max, ascii: Bool = false) -> String {
        guard let first = followUp.reasons.first else { return "" }
        guard followUp.reasons.count > 1 else { return first.caseReference }
        let more = " +\(followUp.reasons.count - 1)"
        let room = width - DisplayWidth.of(more)
        let ellipsis = ascii ? "..." : "…"
        let reference =
            DisplayWidth.of(first.caseReference) > room
            ? DisplayWidth.truncate(
                first.caseReference, to: max(1 + DisplayWidth.of(ellipsis), room), ellipsis: ellipsis)
            : first.caseReference
        return reference + more
    }

    /// The last outcome, or what is due: "no answer", "check due", "not called yet".
    static func lastText(_ followUp: FollowUp, _ state: State, wide: Bool) -> String {
        if let saving = state.saving[followUp.id] { return "\(TracingWords.call(saving))…" }
        if state.savingChecks.contains(followUp.id) { return tr("console.queue.last.checking") }
        if followUp.state == .monitoring {
            return followUp.lastCheckDay == state.now.utcDay
                ? tr(wide ? "console.queue.last.checkedToday" : "console.queue.last.checked")
                : tr("console.queue.last.checkDue")
        }
        if !followUp.state.isActive { return TracingWords.state(followUp.state) }
        return followUp.lastOutcome.map(TracingWords.call)
            ?? tr(wide ? "console.queue.last.notCalledYet" : "console.queue.last.notCalled")
    }

    /// The "Last" column's width: `least`, or its title or the widest of what an active row
    /// shows there in the language in force ("! check due" with the symptoms' mark, "no
    /// answer"), if that is wider. (An outcome being recorded, "no answer…", may be cut for
    /// that moment, with an ellipsis.)
    static func lastWidth(_ least: Int, wide: Bool) -> Int {
        let texts = [
            tr("console.queue.column.last"),
            tr(wide ? "console.queue.last.checkedToday" : "console.queue.last.checked"),
            tr(wide ? "console.queue.last.notCalledYet" : "console.queue.last.notCalled"),
            "! " + tr("console.queue.last.checkDue"), tr("console.queue.last.checking"),
            TracingWords.call(.noAnswer), TracingWords.call(.voicemail),
        ]
        return max(least, texts.map(DisplayWidth.of).max() ?? 0)
    }

    /// The "Due" column's width: 13, or the widest due text in the language in force.
    static func dueWidth() -> Int {
        let texts = [
            tr("console.queue.due.overdue", ["time": "00:00"]), tr("console.queue.due.now"),
            tr("console.queue.due.today", ["time": "00:00"]),
        ]
        return max(13, texts.map(DisplayWidth.of).max() ?? 0)
    }

    /// A "State" column's width: `least`, or the widest word of an active state, if that is
    /// wider; or of a row shown, up to ``rowSlack`` more (a longer one is cut, with an ellipsis).
    static func stateWidth(_ least: Int, _ rows: [FollowUp] = []) -> Int {
        let active = [FollowUpState.calling, .monitoring].map { DisplayWidth.of(TracingWords.state($0)) }.max() ?? 0
        let shown = Set(rows.map(\.state)).map { DisplayWidth.of(TracingWords.state($0)) }.max() ?? 0
        return max(least, active, min(shown, least + rowSlack))
    }

    /// How many columns wider than its own a column may grow for the rows shown.
    static let rowSlack = 3

    static func isWide(_ width: Int) -> Bool { width >= 110 }

    static func table(_ state: State, width: Int) -> Table {
        let wide = isWide(width)
        let phoneWidth = phoneWidth(state)
        var columns: [TableColumn] = []
        if state.supervisor { columns.append(TableColumn("", width: .length(1))) }
        columns += [
            TableColumn(tr("console.queue.column.due"), width: .length(dueWidth())),
            TableColumn(tr("console.queue.column.phone"), width: .length(phoneWidth)),
            TableColumn(tr("console.queue.column.case"), width: .length(caseWidth(state, width: width))),
        ]
        // A supervisor's narrow queue gives the attempts' room to the tracer's name (the pane
        // and the person view count the attempts); a queue's rows are active, so their last
        // outcome needs 11 columns ("! check due").
        if showsAttempts(state, width: width) {
            columns.append(TableColumn("#", width: .length(2), alignment: .trailing))
        }
        columns.append(
            TableColumn(
                tr("console.queue.column.last"),
                width: .length(lastWidth(wide ? 17 : state.supervisor ? 11 : 12, wide: wide))))
        if state.supervisor {
            columns.append(TableColumn(tr("console.queue.column.tracer"), width: wide ? .length(12) : .fill()))
        } else if wide {
            columns.append(TableColumn(tr("console.queue.column.state"), width: .length(stateWidth(12))))
        }
        if wide || !state.supervisor {
            columns.append(
                TableColumn(tr(wide ? "console.queue.column.whyContact" : "console.queue.column.why"), width: .fill()))
        }
        return Table(
            columns: columns, rowCount: state.rows.count, selected: state.rows.isEmpty ? nil : state.selected,
            focused: !state.isModal && state.detail == nil,
            emptyText: emptyText(state), moreBelow: state.next != nil)
    }

    static func showsAttempts(_ state: State, width: Int) -> Bool { isWide(width) || !state.supervisor }

    /// The widest number shown, and at least 16 columns.
    static func phoneWidth(_ state: State) -> Int {
        max(16, state.rows.map { DisplayWidth.of($0.phone.spaced) }.max() ?? 0)
    }

    /// The case column of a table `width` wide: 13 narrow; in a supervisor's narrow queue it
    /// gives way (its reference cut with an ellipsis) so the tracer column's title fits whole.
    static func caseWidth(_ state: State, width: Int) -> Int {
        if isWide(width) { return state.supervisor ? 16 : 18 }
        guard state.supervisor else { return 13 }
        // The marker, the mark column, due, phone, case and last, with the table's gaps.
        let taken = 2 + 1 + dueWidth() + phoneWidth(state) + 13 + lastWidth(11, wide: false) + 5 * Table.gap
        let shortBy = DisplayWidth.of(tr("console.queue.column.tracer")) - (width - taken)
        return max(8, 13 - max(0, shortBy))
    }

    static func emptyText(_ state: State) -> String {
        if !state.loaded { return state.loading ? tr("console.queue.empty.reading") : "" }
        if state.filter.isActive { return tr("console.queue.empty.noMatch") }
        let later = state.counts.later
        if state.supervisor {
            return later > 0 && !state.includeLater
                ? tr("console.queue.empty.supervisorLater", ["later": String(later)])
                : tr("console.queue.empty.supervisor")
        }
        return later > 0 && !state.includeLater
            ? tr("console.queue.empty.later", ["later": String(later)])
            : tr("console.queue.empty.nobody")
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
            TableCell(caseText(followUp, width: caseWidth(state, width: width), ascii: state.ascii)),
        ]
        if showsAttempts(state, width: width) { cells.append(TableCell("\(followUp.attempts)")) }
        cells += [
            TableCell(
                (followUp.symptomsFlagged ? "! " : "") + lastText(followUp, state, wide: isWide(width)),
                style: followUp.symptomsFlagged ? Style(.error, .bold) : nil)
        ]
        if state.supervisor {
            cells.append(
                TableCell(
                    followUp.assignedTo ?? tr("console.queue.nobody"),
                    style: followUp.assignedTo == nil ? Style(.warning) : nil))
        } else if isWide(width) {
            cells.append(TableCell(TracingWords.state(followUp.state)))
        }
        if isWide(width) || !state.supervisor { cells.append(TableCell(whyText(followUp, short: !isWide(width)))) }
        return cells
    }

    static func title(_ state: State) -> String {
        let g = Glyphs(ascii: state.ascii)
        let whose: String
        switch state.scope {
        case .mine: whose = tr("console.queue.title.mine")
        case .tracer(let name): whose = tr("console.queue.title.tracer", ["name": name])
        case .unassigned: whose = tr("console.queue.title.unassigned")
        case .everyone: whose = tr("console.queue.title.everyone")
        }
        let c = state.counts
        var parts = [
            trCount("console.queue.title.overdue", c.overdue), trCount("console.queue.title.due", c.due),
            trCount("console.queue.title.laterToday", c.laterToday),
        ]
        if state.includeLater { parts.append(trCount("console.queue.title.later", c.later)) }
        var text = whose + (state.loaded ? g(" · ") + parts.joined(separator: g(" · ")) : "")
        if !state.marks.isEmpty { text += g(" · ") + trCount("console.queue.title.marked", state.marks.count) }
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
        let inner = Panel(
            title: row.map { "\($0.phone.spaced) · " + tr("console.queue.followUpID", ["id": String($0.id)]) }
                ?? tr("console.person.title")
        ).render(into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 0, text.height > 0 else { return }
        var y = text.y
        let g = Glyphs(ascii: state.ascii)
        let noticeRows = state.notice == nil ? 0 : min(3, max(1, text.height - 1))
        let room = text.height - noticeRows
        var lines: [(String, Style)] = []
        if let row {
            var status =
                TracingWords.state(row.state) + g(" · ")
                + tr("console.person.periodEnds", ["day": row.periodEndsOn.iso])
            status += g(" · ") + assignedText(row.assignedTo)
            if row.symptomsFlagged { status += g(" · ") + tr("console.person.symptomsReported") }
            lines.append((status, row.symptomsFlagged ? Style(.error, .bold) : Style(.normal)))
            if state.demo, row.state.isActive, row.state == .calling {
                lines.append(
                    (
                        tr(
                            "console.queue.demo.line",
                            ["hint": TracingWords.demoHint(followUpID: row.id, attempt: row.attempts + 1)]),
                        Style(.accent, .bold)
                    ))
            } else if state.demo, row.state == .monitoring {
                lines.append(
                    (tr("console.queue.demo.monitoring"), Style(.accent, .bold)))
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
            return tr(
                "console.person.reasonByHand",
                ["reference": reason.caseReference, "why": why, "day": reason.lastExposureDay.iso])
        }
        return tr(
            "console.person.reason",
            [
                "reference": reason.caseReference, "minutes": String(reason.minutes),
                "days": trCount("console.trace.days", reason.days), "most": String(reason.mostMinutesOnOneDay),
                "day": reason.lastExposureDay.iso,
            ]) + (reason.isCloseContact ? " (" + tr("console.trace.detail.closeContact") + ")" : "")
    }

    /// "assigned to tina", "assigned to nobody yet".
    static func assignedText(_ tracer: String?) -> String {
        tracer.map { tr("console.person.assignedTo", ["tracer": $0]) } ?? tr("console.person.assignedToNobody")
    }

    /// The person: their state, the evidence per case, every attempt and check.
    static func detailLines(_ detail: Detail, _ state: State) -> [(String, Style)] {
        let g = Glyphs(ascii: state.ascii)
        guard let loaded = detail.loaded else {
            if let error = detail.error {
                return [("✗ " + tr("console.person.readFailed", ["message": error]), Style(.error, .bold))]
            }
            return [(tr("console.person.reading"), Style(.accent))]
        }
        let followUp = state.rows.first { $0.id == loaded.followUp.id } ?? loaded.followUp
        var lines: [(String, Style)] = []
        lines.append(
            (TracingWords.state(followUp.state) + g(" · ") + scheduleText(followUp, state), Style(.normal, .bold)))
        lines.append(
            (
                tr("console.person.lastExposure", ["day": followUp.lastExposureDay.iso]) + g(" · ")
                    + tr("console.person.periodEnds", ["day": followUp.periodEndsOn.iso]) + g(" · ")
                    + assignedText(followUp.assignedTo), Style(.normal)
            ))
        if followUp.symptomsFlagged {
            lines.append(
                (
                    "! " + tr("console.person.symptomsAct"),
                    Style(.error, .bold)
                ))
        }
        if let became = followUp.becameCaseID {
            lines.append((tr("console.person.becameCase", ["id": String(became)]), Style(.accent)))
        }
        lines.append(("", Style(.normal)))
        lines.append((tr("console.person.why"), Style(.header, .bold)))
        for reason in followUp.reasons { lines.append(("  " + reasonText(reason, g), Style(.normal))) }
        lines.append(("", Style(.normal)))
        lines.append((tr("console.person.calls", ["count": String(loaded.attempts.count)]), Style(.header, .bold)))
        if loaded.attempts.isEmpty { lines.append(("  " + tr("console.person.noneYet"), Style(.muted))) }
        for attempt in loaded.attempts {
            lines.append(
                (
                    "  \(ConsoleText.dateTime(attempt.at, state.timeZone))  \(TracingWords.call(attempt.outcome))  "
                        + tr("console.person.by", ["by": attempt.by])
                        + (attempt.note.isEmpty ? "" : g(" · ") + attempt.note), Style(.normal)
                ))
        }
        lines.append(("", Style(.normal)))
        lines.append((tr("console.person.checks", ["count": String(loaded.checks.count)]), Style(.header, .bold)))
        if loaded.checks.isEmpty { lines.append(("  " + tr("console.person.noneYet"), Style(.muted))) }
        for check in loaded.checks {
            lines.append(
                (
                    "  \(check.day.iso)  "
                        + tr(
                            "console.person.check",
                            [
                                "symptoms": tr(check.symptoms ? "common.yes" : "common.no"),
                                "isolating": tr(check.isolating ? "common.yes" : "common.no"), "by": check.by,
                            ])
                        + (check.note.isEmpty ? "" : g(" · ") + check.note),
                    check.symptoms ? Style(.error, .bold) : Style(.normal)
                ))
        }
        return lines
    }

    static func renderDetail(_ detail: Detail, _ state: State, into buffer: inout Buffer, area: Rect) {
        let followUp = state.current
        let title =
            followUp.map { "\($0.phone.spaced) · " + tr("console.queue.followUpID", ["id": String($0.id)]) }
            ?? tr("console.queue.followUpID", ["id": String(detail.followUpID)])
        let inner = Panel(title: title, focused: !state.isModal).render(into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 0, text.height > 0 else { return }
        var lines = detailLines(detail, state)
        if state.demo, let followUp, followUp.state == .calling {
            lines.insert(
                (
                    tr(
                        "console.queue.demo.line",
                        ["hint": TracingWords.demoHint(followUpID: followUp.id, attempt: followUp.attempts + 1)]),
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
        let phone =
            state.rows.first { $0.id == form.followUpID }?.phone.spaced
            ?? tr("console.queue.followUpID", ["id": String(form.followUpID)])
        let inner = Panel(title: tr("console.queue.attempt.title", ["phone": phone]), focused: true).render(
            into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 10, text.height > 0 else { return }
        var y = text.y
        for outcome in CallOutcome.allCases {
            let chosen = outcome == form.choice
            buffer.put(
                (chosen ? "› " : "  ") + "\(outcome.digit) \(TracingWords.call(outcome))", x: text.x, y: y,
                style: chosen ? Style(.selection, .bold) : Style(.normal), maxWidth: text.width)
            y += 1
        }
        y += 1
        let noteLabel = tr("console.queue.note")
        let noteX = max(6, DisplayWidth.of(noteLabel) + 2)
        buffer.put(noteLabel, x: text.x, y: y, style: Style(.normal, .bold), clip: text)
        form.note.render(
            into: &buffer, area: Rect(x: text.x + noteX, y: y, width: max(1, text.width - noteX), height: 1),
            focused: !form.saving,
            placeholder: tr("console.queue.attempt.notePlaceholder"))
        y += 2
        if form.saving {
            Notice.working(tr("console.queue.recording")).render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: 1, ascii: state.ascii)
        } else if let error = form.error {
            Notice.error(error).render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: max(1, text.maxY - y - 1), ascii: state.ascii)
        }
        buffer.put(
            tr("console.queue.attempt.keys"), x: text.x, y: text.maxY - 1, style: Style(.muted),
            clip: text)
        if form.saving { buffer.cursor = nil }
    }

    static func renderCheckForm(_ form: CheckForm, _ state: State, into buffer: inout Buffer, area: Rect) {
        let box = area.centered(width: min(64, area.width), height: 12)
        buffer.fill(box, with: .blank)
        let phone =
            state.rows.first { $0.id == form.followUpID }?.phone.spaced
            ?? tr("console.queue.followUpID", ["id": String(form.followUpID)])
        let inner = Panel(title: tr("console.queue.check.title", ["phone": phone]), focused: true).render(
            into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 10, text.height > 0 else { return }
        func answer(_ value: Bool?) -> String {
            value.map { tr($0 ? "common.yes" : "common.no") } ?? tr("console.queue.check.yOrN")
        }
        var y = text.y
        let rows: [(CheckForm.Field, String, Bool?)] = [
            (.symptoms, tr("console.queue.check.symptoms"), form.symptoms),
            (.isolating, tr("console.queue.check.isolating"), form.isolating),
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
            tr("console.queue.note"), focused: form.focus == .note && !form.saving, into: &buffer, x: text.x, y: y,
            clip: text)
        form.note.render(
            into: &buffer, area: Rect(x: text.x + 17, y: y, width: max(1, text.width - 17), height: 1),
            focused: form.focus == .note && !form.saving, placeholder: tr("console.queue.optional"))
        y += 2
        if form.saving {
            Notice.working(tr("console.queue.recording")).render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: 1, ascii: state.ascii)
        } else if let error = form.error {
            Notice.error(error).render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: max(1, text.maxY - y - 1), ascii: state.ascii)
        }
        buffer.put(
            tr("console.queue.check.keys"), x: text.x, y: text.maxY - 1,
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
        case .scope: title = tr("console.queue.picker.whose")
        case .assign(let ids): title = tr("console.queue.picker.reassign", ["count": String(ids.count)])
        case .openCase: title = tr("console.queue.picker.cases")
        }
        let inner = Panel(title: title, focused: true).render(into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 4, text.height > 2 else { return }
        let choosesCase: Bool
        if case .openCase = picker.purpose { choosesCase = true } else { choosesCase = false }
        picker.field.render(
            into: &buffer, area: Rect(x: text.x, y: text.y, width: text.width, height: 1), focused: true,
            placeholder: tr(choosesCase ? "console.queue.picker.narrow" : "console.queue.picker.narrowOrName"))
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
                    ? tr("console.queue.picker.noTracer")
                    : tr("console.queue.picker.typed", ["name": picker.field.text]),
                x: text.x, y: y, style: Style(.muted), maxWidth: text.width)
        }
        buffer.put(tr("console.queue.picker.keys"), x: text.x, y: text.maxY - 1, style: Style(.muted), clip: text)
    }
}
