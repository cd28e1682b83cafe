import DeskContract
import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Drawing the case view: the case's lines, its contacts as a table, its history.
extension QueueScreen {
    /// "open", "closed: recovered, by sara 2026-11-29 15:10".
    static func statusText(_ status: CaseStatus, _ zone: TimeZone) -> String {
        switch status {
        case .open: return tr("console.case.status.open")
        case .closed(let reason, let by, let at):
            return tr(
                "console.case.status.closed",
                ["reason": TracingWords.closeReason(reason), "by": by, "at": ConsoleText.dateTime(at, zone)])
        }
    }

    /// What the case is, over its contacts: status, patient, index day, opener, the chain.
    static func caseLines(_ trace: TraceCase, _ state: State) -> [(String, Style)] {
        let g = Glyphs(ascii: state.ascii)
        var lines: [(String, Style)] = [
            (
                tr("console.case.patient", ["phone": trace.phone.spaced]) + g(" · ")
                    + tr(
                        "console.case.indexDay",
                        ["day": trace.indexDay.iso, "kind": TracingWords.indexKind(trace.indexKind)]),
                Style(.normal)
            ),
            (
                tr("console.case.status", ["status": statusText(trace.status, state.timeZone)]) + g(" · ")
                    + tr(
                        "console.case.openedBy",
                        ["by": trace.openedBy, "at": ConsoleText.dateTime(trace.openedAt, state.timeZone)]),
                trace.status.isOpen ? Style(.normal, .bold) : Style(.warning, .bold)
            ),
        ]
        var chain: [String] = []
        if trace.cameFrom.isEmpty {
            chain.append(tr("console.case.chain.noSource"))
        } else {
            chain += trace.cameFrom.map {
                tr(
                    "console.case.chain.cameFrom",
                    ["followUp": String($0.followUpID), "reference": $0.reference, "id": String($0.caseID)])
            }
        }
        chain += trace.ledTo.map {
            tr(
                "console.case.chain.ledTo",
                ["followUp": String($0.followUpID), "reference": $0.reference, "id": String($0.caseID)])
        }
        lines.append(
            (
                tr("console.case.chain", ["chain": chain.joined(separator: g(" · "))]),
                Style(trace.ledTo.isEmpty ? .muted : .accent)
            ))
        return lines
    }

    static func caseTable(_ view: CaseView, _ state: State, width: Int) -> Table {
        let wide = isWide(width)
        let rows = view.loaded?.followUps ?? []
        let phoneWidth = max(16, rows.map { DisplayWidth.of($0.phone.spaced) }.max() ?? 0)
        var columns = [
            TableColumn(tr("console.case.column.phone"), width: .length(phoneWidth)),
            TableColumn(tr("console.case.column.assigned"), width: wide ? .length(14) : .fill()),
            TableColumn(tr("console.case.column.state"), width: .length(stateWidth(wide ? 17 : 12, rows))),
            TableColumn(
                tr("console.case.column.last"),
                width: .length(
                    max(
                        lastWidth(wide ? 14 : 12, wide: wide),
                        min(
                            (wide ? 14 : 12) + rowSlack,
                            rows.map { DisplayWidth.of(lastText($0, state, wide: wide)) }.max() ?? 0)))),
            TableColumn(tr("console.case.column.due"), width: .length(dueWidth())),
        ]
        if wide { columns.append(TableColumn(tr("console.case.column.whyContact"), width: .fill())) }
        let count = view.loaded?.followUps.count ?? 0
        let empty: String
        if view.loaded == nil {
            empty = view.error == nil ? tr("console.case.reading") : ""
        } else {
            empty = tr("console.case.empty")
        }
        return Table(
            columns: columns, rowCount: count, selected: count == 0 ? nil : view.selected,
            focused: !view.isModal, emptyText: empty)
    }

    static func caseCells(_ followUp: FollowUp, _ state: State, width: Int) -> [TableCell] {
        let wide = isWide(width)
        let urgency = followUp.state.isActive ? state.urgency(followUp) : nil
        let pressing = urgency == .overdue || urgency == .due
        var cells = [
            TableCell(followUp.phone.spaced, style: pressing ? Style(.normal, .bold) : nil),
            TableCell(
                followUp.assignedTo ?? tr("console.queue.nobody"),
                style: followUp.assignedTo == nil ? Style(.warning) : nil
            ),
            TableCell(TracingWords.state(followUp.state), style: followUp.state.isActive ? nil : Style(.muted)),
            TableCell(
                (followUp.symptomsFlagged ? "! " : "") + lastText(followUp, state, wide: wide),
                style: followUp.symptomsFlagged ? Style(.error, .bold) : nil),
            TableCell(
                followUp.state.isActive ? dueText(followUp, state) : "",
                style: urgency == .overdue ? Style(.warning, .bold) : pressing ? Style(.normal, .bold) : Style(.muted)),
        ]
        if wide { cells.append(TableCell(whyText(followUp))) }
        return cells
    }

    /// The lines over the contacts: the case's, or why it is not shown.
    static func headLines(_ view: CaseView, _ state: State, width: Int) -> [(String, Style)] {
        let g = Glyphs(ascii: state.ascii)
        let lines: [(String, Style)]
        if let trace = view.loaded?.trace {
            lines = caseLines(trace, state)
        } else if let error = view.error {
            lines = [("✗ " + tr("console.case.readFailed", ["message": error]), Style(.error, .bold))]
        } else {
            lines = [(tr("console.case.reading"), Style(.accent))]
        }
        return wrapped(lines, width: max(1, width), glyphs: g)
    }

    /// Where the case view's parts go: the case's lines, its contacts, its history.
    static func caseRegions(_ view: CaseView, _ state: State, in area: Rect) -> [Rect] {
        let lines = headLines(view, state, width: area.width - 4).count
        let history = area.height >= 30 ? 10 : 7
        return Layout(.vertical, [.length(min(lines, 6) + 2), .fill(), .length(history)]).split(area)
    }

    static func renderCase(_ view: CaseView, _ state: State, into buffer: inout Buffer, area: Rect) {
        let g = Glyphs(ascii: state.ascii)
        let parts = caseRegions(view, state, in: area)
        let trace = view.loaded?.trace
        let title =
            trace.map {
                tr("console.case.title", ["reference": $0.reference]) + g(" · ")
                    + tr("console.case.number", ["id": String($0.id)])
            } ?? tr("console.case.title", ["reference": String(view.caseID)])
        let head = Panel(title: title, focused: !view.isModal).render(into: &buffer, area: parts[0])
            .inset(horizontal: 1, vertical: 0)
        var y = head.y
        for (line, style) in headLines(view, state, width: head.width).prefix(max(0, head.height)) {
            buffer.put(line, x: head.x, y: y, style: style, maxWidth: head.width)
            y += 1
        }

        let followUps = view.loaded?.followUps ?? []
        let active = followUps.filter(\.state.isActive).count
        let contactsTitle =
            view.loaded == nil
            ? tr("console.case.contacts")
            : tr(
                "console.case.contactsCount",
                ["count": String(followUps.count), "active": trCount("console.case.active", active)])
        let inner = Panel(title: contactsTitle, focused: !view.isModal).render(into: &buffer, area: parts[1])
        caseTable(view, state, width: inner.width).render(into: &buffer, area: inner) {
            caseCells(followUps[$0], state, width: inner.width)
        }

        let history = view.loaded?.history ?? []
        let pane = Panel(title: tr("console.case.history", ["count": String(history.count)])).render(
            into: &buffer, area: parts[2]
        )
        .inset(horizontal: 1, vertical: 0)
        if pane.width > 0, pane.height > 0 {
            let noticeRows = state.notice == nil ? 0 : min(2, pane.height)
            let room = max(0, pane.height - noticeRows)
            let lines = wrapped(
                history.map { entry in
                    (
                        "\(ConsoleText.dateTime(entry.at, state.timeZone))  \(entry.actor)  \(CaseHistoryLine.shown(entry.text))",
                        Style(.normal)
                    )
                }, width: pane.width, glyphs: g)
            // The latest last, as many as fit.
            var y = pane.y
            for (line, style) in lines.suffix(room) {
                buffer.put(line, x: pane.x, y: y, style: style, maxWidth: pane.width)
                y += 1
            }
            if let notice = state.notice {
                notice.render(
                    into: &buffer, x: pane.x, y: pane.maxY - noticeRows, width: pane.width, rows: noticeRows,
                    ascii: state.ascii)
            }
        }
        buffer.cursor = nil
        if let form = view.closeForm, view.confirm == nil {
            renderCloseForm(form, view, state, into: &buffer, area: area)
        }
        if let dialog = view.confirm {
            _ = dialog.render(into: &buffer, area: area)
            buffer.cursor = nil
        }
    }

    static func renderCloseForm(
        _ form: CloseForm, _ view: CaseView, _ state: State, into buffer: inout Buffer, area: Rect
    ) {
        let box = area.centered(width: min(64, area.width), height: 13)
        buffer.fill(box, with: .blank)
        let reference = view.loaded?.trace.reference ?? tr("console.case.number", ["id": String(view.caseID)])
        let inner = Panel(
            title: tr("console.case.closeForm.title", ["reference": reference]), focused: view.confirm == nil
        ).render(
            into: &buffer, area: box)
        let text = inner.inset(horizontal: 1, vertical: 1)
        guard text.width > 10, text.height > 0 else { return }
        var y = text.y
        buffer.put(tr("console.case.closeForm.why"), x: text.x, y: y, style: Style(.normal, .bold), clip: text)
        y += 1
        for (index, reason) in CaseCloseReason.allCases.enumerated() {
            let chosen = reason == form.reason
            buffer.put(
                (chosen ? "› " : "  ") + "\(index + 1) \(TracingWords.closeReason(reason))", x: text.x, y: y,
                style: chosen ? Style(.selection, .bold) : Style(.normal), maxWidth: text.width)
            y += 1
        }
        y += 1
        let noteLabel = tr("console.queue.note")
        let noteX = max(6, DisplayWidth.of(noteLabel) + 2)
        buffer.put(noteLabel, x: text.x, y: y, style: Style(.normal, .bold), clip: text)
        form.note.render(
            into: &buffer, area: Rect(x: text.x + noteX, y: y, width: max(1, text.width - noteX), height: 1),
            focused: view.confirm == nil, placeholder: tr("console.queue.optional"))
        if let error = form.error {
            Notice.error(error).render(
                into: &buffer, x: text.x, y: y + 1, width: text.width, rows: 1, ascii: state.ascii)
        }
        buffer.put(
            tr("console.case.closeForm.keys", ["count": String(CaseCloseReason.allCases.count)]), x: text.x,
            y: text.maxY - 1,
            style: Style(.muted),
            clip: text)
    }
}
