import CivilCalendar
import DeskContract
import DeskCore
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TraceScreen {
    /// `●` for a close contact (`*` in ASCII): always with bold text, never colour alone.
    static func closeMark(_ ascii: Bool) -> String { ascii ? "*" : "●" }

    /// Bars for 0…60 minutes in an hour: nothing, then eight heights.
    static func bar(_ minutes: Int, ascii: Bool) -> String {
        guard minutes > 0 else { return ascii ? "." : "·" }
        let levels = ascii ? Array(":-=+*#%@") : Array("▁▂▃▄▅▆▇█")
        let level = min(levels.count - 1, max(0, (min(minutes, 60) * levels.count - 1) / 60))
        return String(levels[level])
    }

    public static func render(_ state: State, into buffer: inout Buffer, area: Rect) {
        switch state.phase {
        case .phone, .purpose, .loading: renderForm(state, into: &buffer, area: area)
        case .result:
            if state.detail != nil {
                renderDetail(state, into: &buffer, area: area)
            } else {
                renderResult(state, into: &buffer, area: area)
            }
            if state.outcomeForm != nil { renderOutcome(state, into: &buffer, area: area) }
            if state.export != nil { renderExport(state, into: &buffer, area: area) }
        }
    }

    // MARK: Phone and purpose

    static func renderForm(_ state: State, into buffer: inout Buffer, area: Rect) {
        buffer.cursor = nil
        let g = Glyphs(ascii: state.ascii)
        // Room for a three-row error under the number (a server that cannot be reached says why).
        let panel = area.centered(width: min(76, area.width), height: min(20, area.height))
        let inner = Panel(title: "Look up a patient: open a case", focused: true).render(into: &buffer, area: panel)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 4, text.height > 0 else { return }
        var y = text.y
        y +=
            ConsoleText.putWrapped(
                "The patient's phone number finds their contacts; the case reference is audited with every view.",
                style: Style(.muted), into: &buffer, x: text.x, y: y, width: text.width, rows: 2) + 1
        let fieldX = text.x + 2
        let fieldWidth = min(40, text.width - 2)
        ConsoleText.putLabel("Phone number", focused: state.phase == .phone, into: &buffer, x: text.x, y: y, clip: text)
        y += 1
        state.phone.render(
            into: &buffer, area: Rect(x: fieldX, y: y, width: fieldWidth, height: 1), focused: state.phase == .phone,
            placeholder: state.defaultCountryCode == "+39"
                ? "+39 333 123 4567, or without +39"
                : g("+… with the country code, or without \(state.defaultCountryCode)"))
        y += 1
        if let error = state.phoneError {
            y += ConsoleText.putWrapped(
                g("✗ " + error), style: Style(.error, .bold), into: &buffer, x: fieldX, y: y, width: text.width - 2,
                rows: 3, ascii: state.ascii)
        } else if !state.phone.text.isEmpty, case .success(let phone) = state.normalizedPhone {
            buffer.put(g("✓ " + phone.spaced), x: fieldX, y: y, style: Style(.ok), maxWidth: text.width - 2)
            y += 1
        } else {
            y += 1
        }
        y += 1
        guard y < text.maxY else { return }
        let purposeShown = state.phase != .phone
        let referenceFocused = state.phase == .purpose && !state.indexFocused
        ConsoleText.putLabel("Case reference", focused: referenceFocused, into: &buffer, x: text.x, y: y, clip: text)
        y += 1
        if purposeShown || !state.purpose.text.isEmpty {
            state.purpose.render(
                into: &buffer, area: Rect(x: fieldX, y: y, width: text.width - 2, height: 1),
                focused: referenceFocused, placeholder: "the authority's case number, e.g. ASL-2026-0412")
        } else {
            buffer.put("(asked next)", x: fieldX, y: y, style: Style(.muted), clip: text)
        }
        y += 1
        if purposeShown, y + 1 < text.maxY {
            let dayFocused = state.phase == .purpose && state.indexFocused
            ConsoleText.putLabel("Index day", focused: dayFocused, into: &buffer, x: text.x, y: y, clip: text)
            state.indexDay.render(
                into: &buffer, area: Rect(x: text.x + 13, y: y, width: 12, height: 1), focused: dayFocused,
                placeholder: "today")
            let kind =
                state.indexDay.value == nil
                ? "empty: today, as the test day (Tab sets it)"
                : state.indexKind.label + g(" · Space: ")
                    + (state.indexKind == .symptomOnset ? IndexDayKind.testDay : .symptomOnset).label
            buffer.put(kind, x: text.x + 27, y: y, style: Style(.muted), maxWidth: max(1, text.maxX - text.x - 27))
            y += 1
        }
        if let error = state.purposeError {
            y += ConsoleText.putWrapped(
                g("✗ " + error), style: Style(.error, .bold), into: &buffer, x: fieldX, y: y, width: text.width - 2,
                rows: 2, ascii: state.ascii)
        }
        y += 1
        guard y < text.maxY else { return }
        let hint: Notice
        switch state.phase {
        case .phone where state.lookup != nil: hint = .info("Enter: next · Esc: back to the shown lookup")
        case .phone: hint = .info("Enter: next · Esc: clear")
        case .purpose:
            hint = .info(
                "Enter: open the case · Tab: index day · Esc: back"
                    + (FieldLimit.counter(state.purpose).map { " · \($0) characters" } ?? ""))
        default: hint = WaitText.working("looking up", since: state.lookupStarted, now: state.now)
        }
        hint.render(into: &buffer, x: text.x, y: y, width: text.width, rows: 1, ascii: state.ascii)
    }

    // MARK: Summary and table

    /// The patient's summary: who, since when, for what; the uploads and the time they cover;
    /// the sightings and contacts. Each fits `width` columns: the uploads line drops the days
    /// it covers before the clock skew is cut.
    static func summaryLines(_ state: State, width: Int = .max) -> [(String, Style)] {
        guard let lookup = state.lookup else { return [] }
        let g = Glyphs(ascii: state.ascii)
        let patient = lookup.patient
        // One column for the leading space the lines are drawn with.
        let uploads = TraceText.uploads(patient, width: width - 1)
        let lines: [(String, Style)] = [
            (
                "Patient \(patient.phone.spaced) · user \(patient.userID) · registered since "
                    + ConsoleText.dateTime(patient.registeredAt, state.timeZone),
                Style(.header)
            ),
            caseLine(state, lookup),
            (uploads, Style(.normal)),
            (TraceText.counts(lookup), Style(.normal)),
        ]
        return lines.map { (g($0.0), $0.1) }
    }

    static func plural(_ n: Int, _ noun: String) -> String { TraceText.plural(n, noun) }

    /// "Case ASL-2026-0412 (case 3) opened: 2 contacts to follow, in the queue · index day …",
    /// or the patient's open case ("already open"), or the purpose when no case was opened.
    static func caseLine(_ state: State, _ lookup: TraceLookup) -> (String, Style) {
        guard let opening = state.openedCase else { return ("Purpose: \(lookup.purpose)", Style(.normal)) }
        let trace = opening.trace
        var text = "Case \(trace.reference) (case \(trace.id))"
        if opening.existing {
            text +=
                " is already open for this patient, opened by \(trace.openedBy) "
                + ConsoleText.dateTime(trace.openedAt, state.timeZone)
                + ": no new case (the reference typed was not used)"
        } else {
            let joined = opening.followUpsJoined > 0 ? ", \(opening.followUpsJoined) joined from other cases" : ""
            text +=
                " opened: \(plural(opening.followUpsCreated + opening.followUpsJoined, "contact")) to follow\(joined), in the call queue (F3)"
        }
        text += " · \(trace.indexKind.label) \(trace.indexDay.iso)"
        if !trace.cameFrom.isEmpty {
            text += " · came from " + trace.cameFrom.map { "case \($0.reference)" }.joined(separator: ", ")
        }
        if !trace.ledTo.isEmpty {
            text += " · led to " + trace.ledTo.map { "case \($0.reference)" }.joined(separator: ", ")
        }
        return (text, opening.existing ? Style(.warning, .bold) : Style(.ok))
    }

    /// The columns for a table `width` wide: the last three only when there is room for them.
    /// The phone column is as wide as the longest number, and comes first, so a number the
    /// tracer must call is never cut: the columns after it give way.
    static func columns(_ state: State, width: Int) -> [TableColumn] {
        func arrow(_ sort: Sort) -> String { state.sort == sort ? Glyphs(ascii: state.ascii)(" ▼") : "" }
        let all = [
            TableColumn("", width: .length(1)),
            TableColumn("Phone", width: .length(phoneWidth(state))),
            TableColumn("Minutes", width: .length(9), alignment: .trailing, titleSuffix: arrow(.minutes)),
            TableColumn("Days", width: .length(6), alignment: .trailing, titleSuffix: arrow(.days)),
            TableColumn("Last seen", width: .length(13), titleSuffix: arrow(.lastSeen)),
            TableColumn("Outcome", width: .min(18)),
            TableColumn("Most/day", width: .length(8), alignment: .trailing),
            TableColumn("Sightings", width: .length(9), alignment: .trailing),
            TableColumn("First seen", width: .length(13)),
        ]
        return width >= 112 ? all : Array(all.prefix(6))
    }

    /// Columns the longest contact's number takes as shown (``PhoneNumber/spaced``), and at
    /// least the 17 of an Italian mobile number, so the table keeps its look for most lookups.
    static func phoneWidth(_ state: State) -> Int {
        var widest = 17
        for contact in state.lookup?.contacts ?? [] {
            let e164 = contact.summary.phone.e164
            // Spacing adds at most one column per three digits: only long numbers are measured.
            guard e164.utf8.count + (e164.utf8.count + 2) / 3 > widest else { continue }
            widest = max(widest, DisplayWidth.of(contact.summary.phone.spaced))
        }
        return widest
    }

    /// "11-28 14:05" in the tracer's zone; "no time" when every sighting lacked one.
    static func shortTime(_ date: Date?, _ zone: TimeZone) -> String {
        guard let date else { return "no time" }
        return String(ConsoleText.dateTime(date, zone).dropFirst(5))
    }

    static func cells(_ contact: TraceContact, state: State) -> [TableCell] {
        let summary = contact.summary
        let close = summary.isCloseContact
        let strong: Style? = close ? Style(.normal, .bold) : nil
        let saving = state.savingOutcomes[summary.userID] != nil
        let outcomeStyle: Style? =
            saving || contact.currentOutcome == .notYetCalled
            ? Style(.muted) : (close ? Style(.normal, .bold) : nil)
        // An outcome on its way is not shown as saved: it shows once the desk has it.
        let outcome = saving ? Glyphs(ascii: state.ascii)("saving…") : contact.currentOutcome.label
        return [
            TableCell(close ? closeMark(state.ascii) : " ", style: Style(.warning, .bold)),
            TableCell(summary.phone.spaced, style: strong),
            TableCell(String(summary.minutes), style: strong),
            TableCell(String(summary.days), style: strong),
            TableCell(shortTime(summary.lastSeen, state.timeZone), style: strong),
            TableCell(outcome, style: outcomeStyle),
            TableCell(String(summary.mostMinutesOnOneDay), style: strong),
            TableCell(String(summary.sightings), style: strong),
            TableCell(shortTime(summary.firstSeen, state.timeZone), style: strong),
        ]
    }

    /// Rows the notice above the table takes: at most two.
    static func noticeRows(_ state: State, width: Int) -> Int {
        guard let notice = state.notice else { return 0 }
        return min(2, TextWrap.wrap(notice.line, width: max(1, width - 2)).count)
    }

    /// Where the table goes in `area` (for clicks as for drawing).
    static func tableArea(_ state: State, in area: Rect) -> Rect {
        let summary = summaryLines(state).count + noticeRows(state, width: area.width)
        let top = Rect(x: area.x, y: area.y + summary + 1, width: area.width, height: max(0, area.height - summary - 1))
        return Panel.inner(top)
    }

    /// The position in the order of the row at line `y`, if one is there.
    public static func position(at y: Int, _ state: State, in area: Rect) -> Int? {
        guard state.phase == .result, state.detail == nil else { return nil }
        let place = tableArea(state, in: area)
        return table(state, width: place.width).row(at: y, in: place)
    }

    /// The contacts table for `state` (its rows are asked for only when drawn).
    public static func table(_ state: State, width: Int) -> Table {
        let empty: String
        if state.lookup?.contacts.isEmpty ?? true {
            empty =
                state.lookup?.patient.daysUploaded == 0
                ? "no contact files uploaded: no contacts to show"
                : "no other registered phone was seen in the uploaded files"
        } else {
            empty = "no contact matches the filter: Esc clears it"
        }
        return Table(
            columns: columns(state, width: width), rowCount: state.order.count,
            selected: state.order.isEmpty ? nil : state.selected,
            focused: !state.isModal || state.filtering, emptyText: empty)
    }

    static func renderResult(_ state: State, into buffer: inout Buffer, area: Rect) {
        buffer.cursor = nil
        guard let lookup = state.lookup else { return }
        var y = area.y
        for (line, style) in summaryLines(state, width: area.width) {
            buffer.put(" " + line, x: area.x, y: y, style: style, maxWidth: area.width)
            y += 1
        }
        if let notice = state.notice {
            y += notice.render(
                into: &buffer, x: area.x + 1, y: y, width: area.width - 2, rows: noticeRows(state, width: area.width),
                ascii: state.ascii)
        }
        // The filter line (or the legend) sits between the summary and the table.
        if state.filtering || !state.filter.text.isEmpty {
            buffer.put(" Filter: ", x: area.x, y: y, style: Style(.header), clip: area)
            let fieldArea = Rect(x: area.x + 9, y: y, width: min(30, max(0, area.width - 10)), height: 1)
            state.filter.render(
                into: &buffer, area: fieldArea, focused: state.filtering, placeholder: "digits, outcome, close, far")
            buffer.put(
                "  \(state.order.count) of \(lookup.contacts.count)", x: fieldArea.maxX, y: y, style: Style(.muted),
                clip: area)
        } else {
            let legend =
                " \(closeMark(state.ascii)) close contact: ≥ \(lookup.closeContactMinutes) min on one day (bold)"
            buffer.put(Glyphs(ascii: state.ascii)(legend), x: area.x, y: y, style: Style(.muted), maxWidth: area.width)
        }
        let panelArea = Rect(x: area.x, y: y + 1, width: area.width, height: max(0, area.maxY - y - 1))
        let title = Glyphs(ascii: state.ascii)("Contacts (\(state.order.count)) · sorted by \(state.sort.word)")
        let inner = Panel(title: title, focused: !state.isModal || state.filtering).render(
            into: &buffer, area: panelArea)
        let contacts = lookup.contacts
        let order = state.order
        table(state, width: inner.width).render(into: &buffer, area: inner) { position in
            cells(contacts[order[position]], state: state)
        }
        // The digits' legend on the lower border, where it fits whole.
        let legend = " " + tableLegend + " "
        if panelArea.height >= 3, DisplayWidth.of(legend) <= panelArea.width - 4 {
            buffer.put(legend, x: panelArea.x + 2, y: panelArea.maxY - 1, style: Style(.muted), clip: panelArea)
        }
    }

    // MARK: Detail

    static func renderDetail(_ state: State, into buffer: inout Buffer, area: Rect) {
        buffer.cursor = nil
        guard let detail = state.detail, let contact = state.detailContact else { return }
        let summary = contact.summary
        let zone = state.timeZone
        let g = Glyphs(ascii: state.ascii)
        let close = summary.isCloseContact ? "  \(closeMark(state.ascii)) close contact" : ""
        let inner = Panel(title: "Contact \(summary.phone.spaced)\(close)", focused: state.outcomeForm == nil).render(
            into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 10, text.height > 2 else { return }
        var y = text.y
        func line(_ value: String, _ style: Style = Style(.normal)) {
            guard y < text.maxY else { return }
            buffer.put(g(value), x: text.x, y: y, style: style, maxWidth: text.width)
            y += 1
        }
        line(
            "\(summary.minutes) min over \(plural(summary.days, "day")) · most on one day: \(summary.mostMinutesOnOneDay) min · \(plural(summary.sightings, "sighting"))",
            summary.isCloseContact ? Style(.normal, .bold) : Style(.normal))
        line("First seen \(shortTime(summary.firstSeen, zone)) · last seen \(shortTime(summary.lastSeen, zone))")
        var outcome = "Outcome: \(contact.currentOutcome.label)"
        if let recorded = contact.outcome {
            outcome += " · by \(recorded.by) \(ConsoleText.dateTime(recorded.at, zone))"
            if !recorded.note.isEmpty { outcome += " · “\(recorded.note)”" }
        }
        // A long note wraps to three lines at most, the last ending in "…" when cut.
        if y < text.maxY {
            y += ConsoleText.putWrapped(
                g(outcome), style: Style(.accent), into: &buffer, x: text.x, y: y, width: text.width,
                rows: min(3, text.maxY - y), ascii: state.ascii)
        }
        if let notice = state.notice { line(notice.line, notice.style) }
        // The timeline: one row per day, one bar per UTC hour (its timed minutes); each day
        // ends in its minutes as the table counts them (untimed sightings included).
        let days = detail.wholeTimeline ? Array(summary.timeline.dropFirst(detail.firstDay)) : summary.timeline
        let timelineRows =
            detail.wholeTimeline
            ? min(days.count, max(1, text.height - 6)) : min(days.count, max(1, (text.height - 6) / 2))
        line(
            "Timeline: timed minutes per UTC hour (\(bar(60, ascii: state.ascii)) = 60 min); the day's minutes",
            Style(.header))
        line("            0     6     12    18   23")
        for day in days.prefix(timelineRows) {
            guard y < text.maxY else { break }
            buffer.put(day.day.iso, x: text.x, y: y, style: Style(.normal), clip: text)
            var x = text.x + 12
            for hour in 0..<24 {
                let value = day.minutesByHour[hour]
                buffer.put(
                    bar(value, ascii: state.ascii), x: x, y: y, style: Style(value > 0 ? .accent : .muted), clip: text)
                x += 1
            }
            let untimed = day.untimed > 0 ? " (\(day.untimed) untimed)" : ""
            buffer.put(" \(day.minutes) min\(untimed)", x: x, y: y, style: Style(.muted), clip: text)
            y += 1
        }
        if days.count > timelineRows {
            let more = days.count - timelineRows
            line(
                "… \(more) earlier day\(more == 1 ? "" : "s")"
                    + (detail.wholeTimeline ? " (↓ scrolls)" : " (t: the whole timeline)"), Style(.muted))
        }
        if detail.wholeTimeline { return }
        guard y < text.maxY else { return }
        var heading = "Sightings"
        if let total = detail.total {
            heading += " (\(total), oldest first"
            if detail.nextOffset != nil { heading += "; \(detail.sightings.count) read" }
            heading += ")"
        }
        line(heading, Style(.header))
        if let error = detail.error {
            line("✗ " + error + " (r: try again)", Style(.error, .bold))
        }
        if detail.sightings.isEmpty {
            line(detail.loading ? "… reading" : "none", Style(.muted))
            return
        }
        // The selected sighting is on the first row, except near the end: End shows the last
        // screenful, the last sighting selected at the bottom.
        let selected = min(detail.scroll, detail.sightings.count - 1)
        let first = max(0, min(selected, detail.sightings.count - (text.maxY - y)))
        var index = first
        while y < text.maxY, index < detail.sightings.count {
            let sighting = detail.sightings[index]
            let when =
                sighting.time == 0
                ? "no time          "
                : ConsoleText.dateTime(Date(timeIntervalSince1970: Double(sighting.time)), zone, seconds: true)
            // The distinguishing end of a beacon: its last 4 bytes (a pseudo-id's random part).
            let beacon = Hex.lowercase(Array(sighting.beacon.suffix(4)))
            buffer.put(
                g("\(when)  file \(sighting.fileDay.iso)  beacon …\(beacon)"), x: text.x, y: y,
                style: Style(index == selected ? .selection : .normal), maxWidth: text.width)
            y += 1
            index += 1
        }
        if detail.loading, y < text.maxY { line("… reading more", Style(.muted)) }
    }

    // MARK: Outcome form and export

    static func renderOutcome(_ state: State, into buffer: inout Buffer, area: Rect) {
        guard let form = state.outcomeForm else { return }
        let phone = state.contact(userID: form.contactUserID)?.summary.phone.spaced ?? ""
        let panel = area.centered(width: min(64, area.width), height: min(13, area.height))
        buffer.fill(panel)
        let inner = Panel(title: "Outcome for \(phone)", focused: true).render(into: &buffer, area: panel)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 4 else { return }
        var y = text.y
        for outcome in ContactOutcome.allCases {
            let chosen = outcome == form.choice
            buffer.put(
                (chosen ? (state.ascii ? "(*) " : "(•) ") : "( ) ") + outcome.label, x: text.x, y: y,
                style: Style(chosen ? .selection : .normal, chosen ? .bold : []), maxWidth: text.width)
            y += 1
        }
        y += 1
        buffer.put("Note (optional)", x: text.x, y: y, style: Style(.header), clip: text)
        y += 1
        form.note.render(
            into: &buffer, area: Rect(x: text.x, y: y, width: text.width, height: 1), focused: !form.saving,
            placeholder: "what was agreed, when to call again")
        y += 1
        if let error = form.error {
            Notice.error(error).render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: 2, ascii: state.ascii)
        } else if form.saving {
            Notice.working("saving").render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: 1, ascii: state.ascii)
        } else {
            buffer.put(
                Glyphs(ascii: state.ascii)("↑↓ choose · Enter save · Esc cancel"), x: text.x, y: y,
                style: Style(.muted), clip: text)
        }
    }

    static func renderExport(_ state: State, into buffer: inout Buffer, area: Rect) {
        state.export?.render(
            title: "Export the contacts as CSV",
            summary: "\(state.order.count) rows as shown (filter and order); the export is audited.", into: &buffer,
            area: area, ascii: state.ascii)
    }
}
