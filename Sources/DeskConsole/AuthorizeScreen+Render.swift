import CivilCalendar
import DeskCore
import DeskText
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
        if let dialog = state.quitConfirm { dialog.render(into: &buffer, area: area) }
    }

    private static func renderForm(_ state: State, into buffer: inout Buffer, regions: Regions) {
        let editing = state.phase == .editing || state.phase == .reviewing
        let inner = Panel(title: tr("console.authorize.newCall"), focused: editing).render(
            into: &buffer, area: regions.form)
        guard inner.width > 4 else { return }
        let codeFocused = editing && state.phase == .editing && state.focus == .code
        let onsetFocused = editing && state.phase == .editing && state.focus == .onset

        let codeLabel = tr("console.authorize.codeLabel")
        let codeLabelWidth = buffer.put(
            codeLabel, x: inner.x, y: inner.y, style: Style(codeFocused ? .header : .normal), clip: inner)
        putIfFits(tr("console.authorize.codeHint"), x: inner.x + codeLabelWidth, y: inner.y, into: &buffer, clip: inner)
        buffer.put(codeFocused ? "›" : " ", x: inner.x, y: inner.y + 1, style: Style(.accent), clip: inner)
        state.code.render(
            into: &buffer, area: regions.codeField, focused: codeFocused, groups: [3, 4, 3],
            placeholder: "___-____-___")
        let verdictX = regions.codeField.maxX + 2
        let verdictWidth = inner.maxX - verdictX
        if let message = state.codeMessage {
            ConsoleText.putWrapped(
                "✗ " + message, style: Style(.error), into: &buffer, x: inner.x + 2, y: inner.y + 2,
                width: inner.width - 2, rows: 2)
        } else if let verdict = state.codeVerdict {
            switch verdict {
            case .success:
                buffer.put(
                    tr("console.authorize.checkMatches"), x: verdictX, y: inner.y + 1, style: Style(.ok),
                    maxWidth: verdictWidth,
                    clip: inner)
            case .failure(let error):
                ConsoleText.putWrapped(
                    "✗ " + error.message, style: Style(.error), into: &buffer, x: inner.x + 2, y: inner.y + 2,
                    width: inner.width - 2, rows: 2)
            }
        } else if !state.code.text.isEmpty {
            buffer.put(
                "\(state.code.text.count)/10", x: verdictX, y: inner.y + 1, style: Style(.muted),
                maxWidth: verdictWidth, clip: inner)
        }

        let onsetLabelWidth = buffer.put(
            tr("console.authorize.onsetLabel"), x: inner.x, y: inner.y + 5,
            style: Style(onsetFocused ? .header : .normal), clip: inner)
        putIfFits(
            tr("console.authorize.onsetNote"), x: inner.x + onsetLabelWidth, y: inner.y + 5,
            into: &buffer, clip: inner)
        buffer.put(onsetFocused ? "›" : " ", x: inner.x, y: inner.y + 6, style: Style(.accent), clip: inner)
        state.onset.render(into: &buffer, area: regions.onsetField, focused: onsetFocused)
        if let day = state.onset.value, !state.onset.isTyping {
            let relative = "· " + relative(day, today: state.onset.today)
            buffer.put(relative, x: regions.onsetField.maxX + 1, y: inner.y + 6, style: Style(.muted), clip: inner)
        }
        if let message = state.onsetMessage {
            ConsoleText.putWrapped(
                "✗ " + message, style: Style(.error), into: &buffer, x: inner.x + 2, y: inner.y + 7,
                width: inner.width - 2, rows: 2)
        } else if case .success(let verdict) = state.onsetVerdict, let warning = verdict.warning {
            ConsoleText.putWrapped(
                "! " + warning, style: Style(.warning), into: &buffer, x: inner.x + 2, y: inner.y + 7,
                width: inner.width - 2, rows: 2)
        }
        if onsetFocused {
            buffer.put(
                tr("console.authorize.onsetKeys"), x: inner.x + 2, y: inner.y + 9,
                style: Style(.muted), clip: inner)
        }
    }

    /// The calendar's day under a click at (`x`, `y`) in the body `area`; nil elsewhere.
    public static func day(at x: Int, _ y: Int, _ state: State, in area: Rect) -> CivilDay? {
        guard state.phase == .editing else { return nil }
        let inner = Panel.inner(regions(in: area).calendar)
        return state.onset.calendar.day(atX: x, y: y, area: inner)
    }

    private static func renderCalendar(_ state: State, into buffer: inout Buffer, regions: Regions) {
        let onsetFocused = state.phase == .editing && state.focus == .onset
        let inner = Panel(title: tr("console.authorize.calendar"), focused: onsetFocused).render(
            into: &buffer, area: regions.calendar)
        state.onset.renderCalendar(into: &buffer, area: inner)
    }

    private static func renderResult(_ state: State, into buffer: inout Buffer, area: Rect) {
        let title =
            state.watchedRecord.map {
                tr("console.authorize.watchTitle", ["code": state.groupedCode, "tag": $0.otpHash.tag])
            } ?? tr("console.authorize.result")
        let inner = Panel(title: title).render(into: &buffer, area: area)
        guard inner.width > 4, inner.height > 0 else { return }
        var lines: [(String, Style)] = []
        switch state.phase {
        case .editing, .reviewing:
            lines = [
                (tr("console.authorize.step1"), Style(state.code.text.isEmpty ? .normal : .muted)),
                (tr("console.authorize.step2"), Style(state.onset.value == nil ? .normal : .muted)),
                (tr("console.authorize.step3", ["enter": Key.enter.description]), Style(.normal)),
            ]
        case .submitting:
            lines = [
                (
                    WaitText.line(tr("console.authorize.authorising"), since: state.submittedAt, now: state.now),
                    Style(.accent)
                )
            ]
        case .finished(let outcome):
            lines = resultLines(state, outcome)
        }
        WatchPane.draw(lines, into: &buffer, area: inner)
    }

    private static func resultLines(_ state: State, _ outcome: Outcome) -> [(String, Style)] {
        switch outcome {
        case .authorized(let record):
            return watchLines(state, record, already: false)
        case .alreadyAuthorized(let record):
            return watchLines(state, record, already: true)
        case .refused(let message):
            return [
                (tr("console.authorize.notAuthorised", ["message": message]), Style(.error, .bold)),
                (tr("console.authorize.refusedKeys"), Style(.muted)),
            ]
        case .failed(let message):
            return [
                (tr("console.authorize.couldNot", ["message": message]), Style(.error, .bold)),
                (tr("console.authorize.failedKeys"), Style(.muted)),
            ]
        }
    }

    /// The watch of an authorised code: a headline (countdown, upload received, or expired with
    /// what to do), the steps as they stand, a problem reaching the desk, and what to tell the
    /// citizen while the app still has to act.
    static func watchLines(_ state: State, _ record: OtpAuthorization, already: Bool) -> [(String, Style)] {
        let zone = state.timeZone
        let left = state.secondsLeft ?? 0
        var lines: [(String, Style)] = []
        let steps: [WatchPane.Step]
        var citizenMustAct = false
        var advice: String?
        if let watch = state.watch {
            steps = WatchPane.steps(watch, now: state.now, zone: zone)
            if let upload = watch.upload {
                lines.append(
                    upload.keysAccepted > 0
                        ? (tr("console.authorize.uploadReceived"), Style(.ok, .bold))
                        : (tr("console.authorize.uploadEmpty"), Style(.warning, .bold)))
            } else if watch.expiredWithoutUpload(at: state.now) {
                lines.append(
                    (
                        tr("console.authorize.expiredNoUpload", ["time": clock(watch.expiresAt, zone)]),
                        Style(.error, .bold)
                    ))
            } else {
                citizenMustAct = true
            }
        } else {
            // No answer yet: what the authorisation itself tells.
            steps =
                [
                    WatchPane.Step(
                        .done,
                        tr(
                            "console.frame.watch.authorised",
                            [
                                "user": record.authorizedBy, "time": clock(record.authorizedAt, zone),
                                "day": record.symptomsStartedOn.iso,
                            ])
                    )
                ]
                + (left > 0 && !state.watchRefresh.stopped
                    ? [
                        WatchPane.Step(.waiting, tr("console.frame.watch.waitingCheck")),
                        WatchPane.Step(.waiting, tr("console.frame.watch.waitingUpload")),
                    ] : [])
            if left == 0 {
                lines.append(
                    (
                        tr("console.authorize.expired", ["time": clock(record.expiresAt, zone)]),
                        Style(.error, .bold)
                    ))
                advice = tr("console.authorize.adviceExpired")
            } else {
                citizenMustAct = true
            }
        }
        if citizenMustAct {
            lines.append(
                already
                    ? (
                        tr("console.authorize.already", ["left": countdown(left)]),
                        Style(.warning, .bold)
                    )
                    : (
                        tr("console.authorize.authorised", ["left": countdown(left)]),
                        Style(left <= 30 ? .warning : .ok, .bold)
                    ))
        }
        lines += steps.map { ($0.line, $0.mark.style) }
        if let error = state.watchError {
            lines.append(
                state.watchRefresh.stopped
                    ? (tr("console.authorize.cannotFollow", ["error": error]), Style(.warning))
                    : (tr("console.authorize.couldNotFollow", ["error": error]), Style(.warning)))
        }
        if let differs = state.storedOnsetDiffers { lines.append(("! " + differs, Style(.warning))) }
        if citizenMustAct {
            advice =
                already
                ? tr("console.authorize.adviceAlready")
                : tr("console.authorize.adviceConfirm")
        }
        if let advice { lines.append((advice, Style(.normal))) }
        return lines
    }

    /// The review dialog: what will be authorised, with any warning, before it is sent.
    public static func reviewDialog(_ state: State) -> DialogState {
        var message = tr("console.authorize.review.code", ["code": state.groupedCode])
        if let day = state.onset.value {
            message +=
                "\n"
                + tr(
                    "console.authorize.review.onset",
                    ["day": day.spokenWords, "relative": relative(day, today: state.onset.today)])
        }
        var warned = false
        if case .success(let verdict) = state.onsetVerdict, let warning = verdict.warning {
            message += "\n\n! " + warning
            warned = true
        }
        // With a warning the safe answer is the default: Enter goes back to the date.
        return DialogState(
            title: tr("console.authorize.review.title"), message: message,
            buttons: [
                DialogButton(authoriseButton, shortcut: "y"),
                DialogButton(
                    warned ? tr("console.authorize.review.backToDate") : tr("console.authorize.review.edit"),
                    shortcut: "n"),
            ], selected: warned ? 1 : 0)
    }

    /// Draws `text` at (`x`, `y`) when it fits whole before `clip`'s right edge; a longer
    /// language's note is left out rather than cut mid-word.
    private static func putIfFits(_ text: String, x: Int, y: Int, into buffer: inout Buffer, clip: Rect) {
        guard x + DisplayWidth.of(text) <= clip.maxX else { return }
        buffer.put(text, x: x, y: y, style: Style(.muted), clip: clip)
    }

    static func countdown(_ seconds: Int) -> String {
        let s = max(0, seconds)
        return "\(s / 60):" + (s % 60 < 10 ? "0" : "") + String(s % 60)
    }

    /// `14:02:00` in `zone`.
    static func clock(_ date: Date, _ zone: TimeZone) -> String {
        String(ConsoleText.dateTime(date, zone, seconds: true).suffix(8))
    }
}
