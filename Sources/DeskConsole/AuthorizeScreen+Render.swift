import CivilCalendar
import DeskCore
import Foundation
import TerminalKit

extension AuthorizeScreen {
    /// Where each part of the screen goes in a body area; shared by drawing and mouse hit-tests.
    public struct Regions: Hashable, Sendable {
        public var form: Rect
        public var codeField: Rect
        public var onsetField: Rect
        public var calendar: Rect
        public var result: Rect
    }

    public static func regions(in area: Rect) -> Regions {
        let rows = Layout(.vertical, [.length(12), .fill()]).split(area)
        let top = Layout(.horizontal, [.fill(), .length(MonthCalendar.width + 2)]).split(rows[0])
        let inner = top[0].inset(1)
        let fieldX = inner.x + 2
        return Regions(
            form: top[0],
            codeField: Rect(x: fieldX, y: inner.y + 1, width: 14, height: 1),
            onsetField: Rect(x: fieldX, y: inner.y + 6, width: min(28, max(0, inner.maxX - fieldX)), height: 1),
            calendar: top[1],
            result: rows[1])
    }

    /// Draws the screen into `area` of `buffer`.
    public static func render(_ state: State, into buffer: inout Buffer, area: Rect) {
        let regions = regions(in: area)
        renderForm(state, into: &buffer, regions: regions)
        renderCalendar(state, into: &buffer, regions: regions)
        renderResult(state, into: &buffer, area: regions.result)
        if state.phase == .reviewing, let dialog = state.review { dialog.render(into: &buffer, area: area) }
    }

    private static func renderForm(_ state: State, into buffer: inout Buffer, regions: Regions) {
        let editing = state.phase == .editing || state.phase == .reviewing
        let inner = Panel(title: "New call", focused: editing).render(into: &buffer, area: regions.form)
        guard inner.width > 4 else { return }
        let codeFocused = editing && state.phase == .editing && state.focus == .code
        let onsetFocused = editing && state.phase == .editing && state.focus == .onset

        buffer.put(
            "Code from the app", x: inner.x, y: inner.y, style: Style(codeFocused ? .header : .normal), clip: inner)
        buffer.put(
            "  3-4-3, as the citizen reads it", x: inner.x + 17, y: inner.y, style: Style(.muted), clip: inner)
        buffer.put(codeFocused ? "›" : " ", x: inner.x, y: inner.y + 1, style: Style(.accent), clip: inner)
        state.code.render(
            into: &buffer, area: regions.codeField, focused: codeFocused, groups: [3, 4, 3],
            placeholder: "___-____-___")
        let verdictX = regions.codeField.maxX + 2
        let verdictWidth = inner.maxX - verdictX
        if let message = state.codeMessage {
            putMessage(
                "✗ " + message, style: Style(.error), into: &buffer, x: inner.x + 2, y: inner.y + 2,
                width: inner.width - 2, rows: 2)
        } else if let verdict = state.codeVerdict {
            switch verdict {
            case .success:
                buffer.put(
                    "✓ check character matches", x: verdictX, y: inner.y + 1, style: Style(.ok), maxWidth: verdictWidth,
                    clip: inner)
            case .failure(let error):
                putMessage(
                    "✗ " + error.message, style: Style(.error), into: &buffer, x: inner.x + 2, y: inner.y + 2,
                    width: inner.width - 2, rows: 2)
            }
        } else if !state.code.text.isEmpty {
            buffer.put(
                "\(state.code.text.count)/10", x: verdictX, y: inner.y + 1, style: Style(.muted),
                maxWidth: verdictWidth, clip: inner)
        }

        buffer.put(
            "Symptom onset", x: inner.x, y: inner.y + 5, style: Style(onsetFocused ? .header : .normal), clip: inner)
        buffer.put(
            "  UTC day; no symptoms: day of the test", x: inner.x + 13, y: inner.y + 5, style: Style(.muted),
            clip: inner)
        buffer.put(onsetFocused ? "›" : " ", x: inner.x, y: inner.y + 6, style: Style(.accent), clip: inner)
        state.onset.render(into: &buffer, area: regions.onsetField, focused: onsetFocused)
        if let day = state.onset.value, !state.onset.isTyping {
            let relative = "· " + SymptomOnset.relative(day, today: state.onset.today)
            buffer.put(relative, x: regions.onsetField.maxX + 1, y: inner.y + 6, style: Style(.muted), clip: inner)
        }
        if let message = state.onsetMessage {
            putMessage(
                "✗ " + message, style: Style(.error), into: &buffer, x: inner.x + 2, y: inner.y + 7,
                width: inner.width - 2, rows: 2)
        } else if case .success(let verdict) = state.onsetVerdict, let warning = verdict.warning {
            putMessage(
                "! " + warning, style: Style(.warning), into: &buffer, x: inner.x + 2, y: inner.y + 7,
                width: inner.width - 2, rows: 2)
        }
        if onsetFocused {
            buffer.put(
                "t today  y yesterday  -3 three days ago  ←→↑↓ move", x: inner.x + 2, y: inner.y + 9,
                style: Style(.muted), clip: inner)
        }
    }

    private static func renderCalendar(_ state: State, into buffer: inout Buffer, regions: Regions) {
        let onsetFocused = state.phase == .editing && state.focus == .onset
        let inner = Panel(title: "Calendar", focused: onsetFocused).render(into: &buffer, area: regions.calendar)
        state.onset.renderCalendar(into: &buffer, area: inner)
    }

    private static func renderResult(_ state: State, into buffer: inout Buffer, area: Rect) {
        let inner = Panel(title: "Result").render(into: &buffer, area: area)
        guard inner.width > 4, inner.height > 0 else { return }
        var lines: [(String, Style)] = []
        switch state.phase {
        case .editing, .reviewing:
            lines = [
                ("1  Type the code the citizen reads out", Style(state.code.text.isEmpty ? .normal : .muted)),
                ("2  Choose the day symptoms started", Style(state.onset.value == nil ? .normal : .muted)),
                ("3  Enter to review, Enter again to authorise", Style(.normal)),
            ]
        case .submitting:
            lines = [("… Authorising", Style(.accent))]
        case .finished(let outcome):
            lines = resultLines(state, outcome)
        }
        var y = inner.y
        for (text, style) in lines {
            for line in TextWrap.wrap(text, width: inner.width) {
                guard y < inner.maxY else { return }
                buffer.put(line, x: inner.x, y: y, style: style, clip: inner)
                y += 1
            }
        }
    }

    private static func resultLines(_ state: State, _ outcome: Outcome) -> [(String, Style)] {
        switch outcome {
        case .authorized(let record):
            let left = state.secondsLeft ?? 0
            let facts =
                "Code \(state.groupedCode) · symptoms from \(record.symptomsStartedOn.iso) · authorised at \(clock(record.authorizedAt, state.timeZone)) by \(record.authorizedBy)"
            if left == 0 {
                return [
                    (
                        "✗ Expired at \(clock(record.expiresAt, state.timeZone)): the code can no longer be used.",
                        Style(.error, .bold)
                    ),
                    (facts, Style(.muted)),
                    ("If the app did not upload in time, ask the citizen for a new code and press n.", Style(.normal)),
                ]
            }
            return [
                (
                    "✓ Authorised: the app must upload within \(countdown(left))",
                    Style(left <= 30 ? .warning : .ok, .bold)
                ),
                (facts, Style(.muted)),
                ("Tell the citizen to confirm the upload in the app now.", Style(.normal)),
            ]
        case .alreadyAuthorized(let record):
            let left = state.secondsLeft ?? 0
            return [
                ("! Already authorised: nothing was changed.", Style(.warning, .bold)),
                (
                    "This code was authorised at \(clock(record.authorizedAt, state.timeZone)) by \(record.authorizedBy) and can still be used for \(countdown(left)); the citizen can upload now.",
                    Style(.normal)
                ),
            ]
        case .refused(let message):
            return [
                ("✗ Not authorised: \(message)", Style(.error, .bold)),
                ("e back to the form to correct it, n new call", Style(.muted)),
            ]
        case .failed(let message):
            return [
                ("✗ Could not authorise: \(message)", Style(.error, .bold)),
                ("r retry, e back to the form, n new call", Style(.muted)),
            ]
        }
    }

    /// The review dialog: what will be authorised, with any warning, before it is sent.
    public static func reviewDialog(_ state: State) -> DialogState {
        var message = "Code: \(state.groupedCode)"
        if let day = state.onset.value {
            message += "\nSymptoms from: \(day.spoken) (\(SymptomOnset.relative(day, today: state.onset.today)))"
        }
        if case .success(let verdict) = state.onsetVerdict, let warning = verdict.warning {
            message += "\n\n! " + warning
        }
        return DialogState(
            title: "Authorise this upload?", message: message,
            buttons: [DialogButton("Authorise", shortcut: "y"), DialogButton("Edit", shortcut: "n")])
    }

    static func countdown(_ seconds: Int) -> String {
        let s = max(0, seconds)
        return "\(s / 60):" + (s % 60 < 10 ? "0" : "") + String(s % 60)
    }

    static func clock(_ date: Date, _ zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String {
            let v = n ?? 0
            return v < 10 ? "0\(v)" : "\(v)"
        }
        return "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }

    private static func putMessage(
        _ text: String, style: Style, into buffer: inout Buffer, x: Int, y: Int, width: Int, rows: Int
    ) {
        let lines = TextWrap.wrap(text, width: max(1, width))
        for (offset, line) in lines.prefix(rows).enumerated() {
            var shown = line
            if offset == rows - 1, lines.count > rows { shown = DisplayWidth.truncate(line + " …", to: width) }
            buffer.put(shown, x: x, y: y + offset, style: style, maxWidth: width)
        }
    }
}
