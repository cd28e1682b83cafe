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
        let inner = Panel(title: tr("console.trace.form.title"), focused: true).render(into: &buffer, area: panel)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 4, text.height > 0 else { return }
        var y = text.y
        y +=
            ConsoleText.putWrapped(
                tr("console.trace.form.intro"),
                style: Style(.muted), into: &buffer, x: text.x, y: y, width: text.width, rows: 2) + 1
        let fieldX = text.x + 2
        let fieldWidth = min(40, text.width - 2)
        ConsoleText.putLabel(
            tr("console.trace.form.phone"), focused: state.phase == .phone, into: &buffer, x: text.x, y: y, clip: text)
        y += 1
        state.phone.render(
            into: &buffer, area: Rect(x: fieldX, y: y, width: fieldWidth, height: 1), focused: state.phase == .phone,
            placeholder: state.defaultCountryCode == "+39"
                ? tr("console.trace.form.phonePlaceholder39")
                : g(tr("console.trace.form.phonePlaceholder", ["code": state.defaultCountryCode])))
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
        ConsoleText.putLabel(
            tr("console.trace.form.reference"), focused: referenceFocused, into: &buffer, x: text.x, y: y, clip: text)
        y += 1
        if purposeShown || !state.purpose.text.isEmpty {
            state.purpose.render(
                into: &buffer, area: Rect(x: fieldX, y: y, width: text.width - 2, height: 1),
                focused: referenceFocused, placeholder: tr("console.trace.form.referencePlaceholder"))
        } else {
            buffer.put(tr("console.trace.form.askedNext"), x: fieldX, y: y, style: Style(.muted), clip: text)
        }
        y += 1
        if purposeShown, y + 1 < text.maxY {
            let dayFocused = state.phase == .purpose && state.indexFocused
            let dayLabel = tr("console.trace.form.indexDay")
            // The day's field after the label and its focus marker (13 columns in English), the
            // kind after the field.
            let dayX = max(13, DisplayWidth.of(dayLabel) + 4)
            ConsoleText.putLabel(dayLabel, focused: dayFocused, into: &buffer, x: text.x, y: y, clip: text)
            state.indexDay.render(
                into: &buffer, area: Rect(x: text.x + dayX, y: y, width: 12, height: 1), focused: dayFocused,
                placeholder: tr("console.trace.form.today"))
            let kind =
                state.indexDay.value == nil
                ? tr("console.trace.form.indexEmpty")
                : TracingWords.indexKind(state.indexKind) + g(" · ") + tr("console.trace.form.space") + " "
                    + TracingWords.indexKind(state.indexKind == .symptomOnset ? IndexDayKind.testDay : .symptomOnset)
            let kindX = dayX + 14
            buffer.put(
                kind, x: text.x + kindX, y: y, style: Style(.muted), maxWidth: max(1, text.maxX - text.x - kindX))
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
        case .phone where state.lookup != nil: hint = .info(tr("console.trace.form.hintPhoneBack"))
        case .phone: hint = .info(tr("console.trace.form.hintPhone"))
        case .purpose:
            hint = .info(
                tr("console.trace.form.hintReference")
                    + (FieldLimit.counter(state.purpose).map {
                        " · " + tr("console.trace.form.characters", ["counter": $0])
                    } ?? ""))
        default: hint = WaitText.working(tr("console.trace.form.lookingUp"), since: state.lookupStarted, now: state.now)
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
        let uploads = uploadsLine(patient, width: width - 1)
        let lines: [(String, Style)] = [
            (
                tr(
                    "console.trace.patientLine",
                    [
                        "phone": patient.phone.spaced, "user": String(patient.userID),
                        "since": ConsoleText.dateTime(patient.registeredAt, state.timeZone),
                    ]),
                Style(.header)
            ),
            caseLine(state, lookup),
            (uploads, Style(.normal)),
            (countsLine(lookup), Style(.normal)),
        ]
        return lines.map { (g($0.0), $0.1) }
    }

    /// As ``TraceText/uploads(_:width:)`` (which the command line prints, in English), in the
    /// language in force: "Uploads: 3 days, 2026-11-27 – 2026-11-29 (3 days covered) · clock
    /// skew +3 s"; the days covered go first when the line would pass `width`.
    static func uploadsLine(_ patient: TracePatient, width: Int = .max) -> String {
        guard patient.daysUploaded > 0 else { return tr("console.trace.uploads.none") }
        var line = trCount("console.trace.uploads.days", patient.daysUploaded)
        var covered = ""
        if let first = patient.firstDay, let last = patient.lastDay {
            line += ", \(first.iso) – \(last.iso)"
            covered = " (" + trCount("console.trace.uploads.covered", last.days(since: first) + 1) + ")"
        }
        let skewText = " · " + tr("console.trace.uploads.skew", ["skew": TraceText.skew(patient.skewSeconds)])
        let fits = DisplayWidth.of(line + covered + skewText) <= width
        return line + (fits ? covered : "") + skewText
    }

    /// As ``TraceText/counts(_:)``, in the language in force: "2345 sightings · 120 unresolved ·
    /// 4 contacts, 2 close".
    static func countsLine(_ lookup: TraceLookup) -> String {
        let close = lookup.contacts.reduce(0) { $0 + ($1.summary.isCloseContact ? 1 : 0) }
        return trCount("console.trace.counts.sightings", lookup.totalSightings) + " · "
            + trCount("console.trace.counts.unresolved", lookup.unresolved) + " · "
            + trCount("console.trace.counts.contacts", lookup.contacts.count) + ", "
            + trCount("console.trace.counts.close", close)
    }

    /// "Case ASL-2026-0412 (case 3) opened: 2 contacts to follow, in the queue · index day …",
    /// or the patient's open case ("already open"), or the purpose when no case was opened.
    static func caseLine(_ state: State, _ lookup: TraceLookup) -> (String, Style) {
        guard let opening = state.openedCase else {
            return (tr("console.trace.purposeLine", ["purpose": lookup.purpose]), Style(.normal))
        }
        let trace = opening.trace
        let ids = ["reference": trace.reference, "id": String(trace.id)]
        var text: String
        if opening.existing {
            text = tr(
                "console.trace.caseExisting",
                ids.merging(
                    ["by": trace.openedBy, "at": ConsoleText.dateTime(trace.openedAt, state.timeZone)],
                    uniquingKeysWith: { a, _ in a }))
        } else {
            let joined =
                opening.followUpsJoined > 0
                ? ", " + trCount("console.trace.caseJoined", opening.followUpsJoined) : ""
            text = tr(
                "console.trace.caseOpened",
                ids.merging(
                    [
                        "contacts": trCount(
                            "console.trace.caseToFollow", opening.followUpsCreated + opening.followUpsJoined),
                        "joined": joined,
                    ], uniquingKeysWith: { a, _ in a }))
        }
        text += " · \(TracingWords.indexKind(trace.indexKind)) \(trace.indexDay.iso)"
        func cases(_ references: [String]) -> String {
            references.map { tr("console.trace.caseRef", ["reference": $0]) }.joined(separator: ", ")
        }
        if !trace.cameFrom.isEmpty {
            text += " · " + tr("console.trace.cameFrom", ["cases": cases(trace.cameFrom.map(\.reference))])
        }
        if !trace.ledTo.isEmpty {
            text += " · " + tr("console.trace.ledTo", ["cases": cases(trace.ledTo.map(\.reference))])
        }
        return (text, opening.existing ? Style(.warning, .bold) : Style(.ok))
    }

    /// The columns for a table `width` wide: the last three only when there is room for them.
    /// The phone column is as wide as the longest number, and comes first, so a number the
    /// tracer must call is never cut: the columns after it give way.
    static func columns(_ state: State, width: Int) -> [TableColumn] {
        func arrow(_ sort: Sort) -> String { state.sort == sort ? Glyphs(ascii: state.ascii)(" ▼") : "" }
        // A column is as wide as its title (with room for the sort's arrow when it sorts) in
        // the language in force, and at least as wide as its values: minutes and days are a
        // few digits; last seen is "11-28 14:05", "no time", with room to spare.
        func title(_ key: String, _ least: Int, sorts: Bool = false) -> (String, Int) {
            let text = tr("console.trace.column." + key)
            return (text, max(least, DisplayWidth.of(text) + (sorts ? 2 : 0)))
        }
        let minutes = title("minutes", 6, sorts: true)
        let days = title("days", 4, sorts: true)
        let lastSeen = title("lastSeen", 13, sorts: true)
        let most = title("mostPerDay", 8)
        let sightings = title("sightings", 9)
        let firstSeen = title("firstSeen", 13)
        let all = [
            TableColumn("", width: .length(1)),
            TableColumn(tr("console.trace.column.phone"), width: .length(phoneWidth(state))),
            TableColumn(minutes.0, width: .length(minutes.1), alignment: .trailing, titleSuffix: arrow(.minutes)),
            TableColumn(days.0, width: .length(days.1), alignment: .trailing, titleSuffix: arrow(.days)),
            TableColumn(lastSeen.0, width: .length(lastSeen.1), titleSuffix: arrow(.lastSeen)),
            TableColumn(tr("console.trace.column.outcome"), width: .min(18)),
            TableColumn(most.0, width: .length(most.1), alignment: .trailing),
            TableColumn(sightings.0, width: .length(sightings.1), alignment: .trailing),
            TableColumn(firstSeen.0, width: .length(firstSeen.1)),
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
        guard let date else { return tr("console.trace.noTime") }
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
        let outcome =
            saving
            ? Glyphs(ascii: state.ascii)(tr("console.trace.saving")) : TracingWords.outcome(contact.currentOutcome)
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
                ? tr("console.trace.empty.noUploads")
                : tr("console.trace.empty.noContacts")
        } else {
            empty = tr("console.trace.empty.noMatch")
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
            let label = " " + tr("console.trace.filter.label") + " "
            let labelWidth = DisplayWidth.of(label)
            buffer.put(label, x: area.x, y: y, style: Style(.header), clip: area)
            let fieldArea = Rect(
                x: area.x + labelWidth, y: y, width: min(30, max(0, area.width - labelWidth - 1)), height: 1)
            state.filter.render(
                into: &buffer, area: fieldArea, focused: state.filtering,
                placeholder: tr("console.trace.filter.placeholder"))
            buffer.put(
                "  "
                    + tr(
                        "console.trace.filter.count",
                        ["shown": String(state.order.count), "all": String(lookup.contacts.count)]),
                x: fieldArea.maxX, y: y, style: Style(.muted), clip: area)
        } else {
            let legend =
                " \(closeMark(state.ascii)) "
                + tr("console.trace.legend", ["minutes": String(lookup.closeContactMinutes)])
            buffer.put(Glyphs(ascii: state.ascii)(legend), x: area.x, y: y, style: Style(.muted), maxWidth: area.width)
        }
        let panelArea = Rect(x: area.x, y: y + 1, width: area.width, height: max(0, area.maxY - y - 1))
        let title = Glyphs(ascii: state.ascii)(
            tr("console.trace.tableTitle", ["count": String(state.order.count), "sort": state.sort.word]))
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
        let close =
            summary.isCloseContact ? "  \(closeMark(state.ascii)) " + tr("console.trace.detail.closeContact") : ""
        let inner = Panel(
            title: tr("console.trace.detail.title", ["phone": summary.phone.spaced]) + close,
            focused: state.outcomeForm == nil
        ).render(into: &buffer, area: area)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 10, text.height > 2 else { return }
        var y = text.y
        func line(_ value: String, _ style: Style = Style(.normal)) {
            guard y < text.maxY else { return }
            buffer.put(g(value), x: text.x, y: y, style: style, maxWidth: text.width)
            y += 1
        }
        line(
            tr(
                "console.trace.detail.minutes",
                [
                    "minutes": String(summary.minutes), "days": trCount("console.trace.days", summary.days),
                    "most": String(summary.mostMinutesOnOneDay),
                    "sightings": trCount("console.trace.counts.sightings", summary.sightings),
                ]),
            summary.isCloseContact ? Style(.normal, .bold) : Style(.normal))
        line(
            tr(
                "console.trace.detail.seen",
                ["first": shortTime(summary.firstSeen, zone), "last": shortTime(summary.lastSeen, zone)]))
        var outcome = tr("console.trace.detail.outcome", ["outcome": TracingWords.outcome(contact.currentOutcome)])
        if let recorded = contact.outcome {
            outcome +=
                " · "
                + tr("console.trace.detail.by", ["by": recorded.by, "at": ConsoleText.dateTime(recorded.at, zone)])
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
        line(tr("console.trace.detail.timeline", ["bar": bar(60, ascii: state.ascii)]), Style(.header))
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
            let untimed = day.untimed > 0 ? " (" + trCount("console.trace.detail.untimed", day.untimed) + ")" : ""
            buffer.put(" \(day.minutes) min\(untimed)", x: x, y: y, style: Style(.muted), clip: text)
            y += 1
        }
        if days.count > timelineRows {
            let more = days.count - timelineRows
            line(
                "… " + trCount("console.trace.detail.earlier", more) + " ("
                    + tr(detail.wholeTimeline ? "console.trace.detail.scrolls" : "console.trace.detail.whole") + ")",
                Style(.muted))
        }
        if detail.wholeTimeline { return }
        guard y < text.maxY else { return }
        var heading = tr("console.trace.detail.sightings")
        if let total = detail.total {
            heading += " (" + tr("console.trace.detail.oldestFirst", ["total": String(total)])
            if detail.nextOffset != nil {
                heading += "; " + trCount("console.trace.detail.read", detail.sightings.count)
            }
            heading += ")"
        }
        line(heading, Style(.header))
        if let error = detail.error {
            line("✗ " + error + " (" + tr("console.trace.detail.retry") + ")", Style(.error, .bold))
        }
        if detail.sightings.isEmpty {
            line(tr(detail.loading ? "console.trace.detail.reading" : "console.trace.detail.none"), Style(.muted))
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
                ? tr("console.trace.noTime").padding(toLength: 17, withPad: " ", startingAt: 0)
                : ConsoleText.dateTime(Date(timeIntervalSince1970: Double(sighting.time)), zone, seconds: true)
            // The distinguishing end of a beacon: its last 4 bytes (a pseudo-id's random part).
            let beacon = Hex.lowercase(Array(sighting.beacon.suffix(4)))
            buffer.put(
                g(tr("console.trace.detail.sighting", ["when": when, "day": sighting.fileDay.iso, "beacon": beacon])),
                x: text.x, y: y,
                style: Style(index == selected ? .selection : .normal), maxWidth: text.width)
            y += 1
            index += 1
        }
        if detail.loading, y < text.maxY { line(tr("console.trace.detail.readingMore"), Style(.muted)) }
    }

    // MARK: Outcome form and export

    static func renderOutcome(_ state: State, into buffer: inout Buffer, area: Rect) {
        guard let form = state.outcomeForm else { return }
        let phone = state.contact(userID: form.contactUserID)?.summary.phone.spaced ?? ""
        let panel = area.centered(width: min(64, area.width), height: min(13, area.height))
        buffer.fill(panel)
        let inner = Panel(title: tr("console.trace.outcomeForm.title", ["phone": phone]), focused: true).render(
            into: &buffer, area: panel)
        let text = inner.inset(horizontal: 1, vertical: 0)
        guard text.width > 4 else { return }
        var y = text.y
        for outcome in ContactOutcome.allCases {
            let chosen = outcome == form.choice
            buffer.put(
                (chosen ? (state.ascii ? "(*) " : "(•) ") : "( ) ") + TracingWords.outcome(outcome), x: text.x, y: y,
                style: Style(chosen ? .selection : .normal, chosen ? .bold : []), maxWidth: text.width)
            y += 1
        }
        y += 1
        buffer.put(tr("console.trace.outcomeForm.note"), x: text.x, y: y, style: Style(.header), clip: text)
        y += 1
        form.note.render(
            into: &buffer, area: Rect(x: text.x, y: y, width: text.width, height: 1), focused: !form.saving,
            placeholder: tr("console.trace.outcomeForm.notePlaceholder"))
        y += 1
        if let error = form.error {
            Notice.error(error).render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: 2, ascii: state.ascii)
        } else if form.saving {
            Notice.working(tr("console.trace.outcomeForm.saving")).render(
                into: &buffer, x: text.x, y: y, width: text.width, rows: 1, ascii: state.ascii)
        } else {
            buffer.put(
                Glyphs(ascii: state.ascii)(tr("console.trace.outcomeForm.keys")), x: text.x, y: y,
                style: Style(.muted), clip: text)
        }
    }

    static func renderExport(_ state: State, into buffer: inout Buffer, area: Rect) {
        state.export?.render(
            title: tr("console.trace.export.title"),
            summary: trCount("console.trace.export.summary", state.order.count), into: &buffer,
            area: area, ascii: state.ascii)
    }
}
