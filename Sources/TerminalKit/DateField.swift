import CivilCalendar
import DeskText

/// What a key did to a ``DateFieldState``.
public enum DateFieldEdit: Hashable, Sendable {
    /// The value, the typed text or the calendar changed.
    case changed
    /// A date key that had nothing to do (already at the earliest day…).
    case unchanged
    /// The input was refused; the message says why and what to type (see ``DateRefusal``).
    case refused(String)
    /// Not a date key (Tab, q, Enter with the calendar closed…): the screen decides.
    case notHandled
}

/// The commands of a date field, as listed in its ``DateFieldState/keyMap``.
public enum DateFieldAction: Hashable, Sendable {
    case previousDay, nextDay, previousWeek, nextWeek, previousMonth, nextMonth
    case today, yesterday, firstOfMonth, lastOfMonth
    case openCalendar, pick, closeCalendar
}

/// A day input: type it (`2026-11-27`, `27/11`, `-3`, `0`) or move through a calendar.
///
/// Key rule: while no text is typed (calendar open or not), the ``keyMap`` keys move the day
/// directly (←/→ a day, ↑/↓ a week, PgUp/PgDn a month, Home/End, `t`, `y`), so Tab stays free
/// for moving between fields. A digit or `-` starts typed text; while text is typed, keys edit
/// it and Enter commits it. Enter with the calendar open keeps the day and closes it; Esc
/// closes it and restores the day from before it was opened. Moves clamp to
/// [``minimum``, ``maximum``]; typed days outside them are refused with a reason.
/// Pure value: `today` is given by the caller, never read from a clock.
public struct DateFieldState: Hashable, Sendable {
    /// The chosen day (nil until one is chosen).
    public var value: CivilDay?
    /// The caller's today, for `t`, `y`, `-N`, `0` and `DD/MM`.
    public var today: CivilDay
    public var minimum: CivilDay?
    public var maximum: CivilDay?
    /// Text being typed; empty when not typing.
    public var typed: TextFieldState
    public var calendarOpen: Bool
    /// The value when the calendar was opened, restored by Esc.
    public private(set) var valueBeforeCalendar: CivilDay?

    public init(
        value: CivilDay? = nil, today: CivilDay, minimum: CivilDay? = nil, maximum: CivilDay? = nil,
        calendarOpen: Bool = false
    ) {
        self.value = value
        self.today = today
        self.minimum = minimum
        self.maximum = maximum
        self.typed = TextFieldState(maxLength: 10, transform: CharacterRule(allowed: Set("0123456789-/")))
        self.calendarOpen = calendarOpen
        self.valueBeforeCalendar = value
    }

    /// True while the operator is typing a date rather than moving through days.
    public var isTyping: Bool { !typed.text.isEmpty }

    /// The day the calendar highlights: the value, or today (clamped) before one is chosen.
    public var highlightedDay: CivilDay { value ?? clamp(today) }

    /// The calendar keys, for footer and help (group "date").
    public static var keyMap: KeyMap<DateFieldAction> {
        KeyMap([
            Binding(
                [.left], .previousDay, help: tr("terminal.date.previousDay"), group: tr("terminal.group.date"),
                shownInFooter: false),
            Binding(
                [.right], .nextDay, help: tr("terminal.date.nextDay"), group: tr("terminal.group.date"),
                shownInFooter: false),
            Binding(
                [.up], .previousWeek, help: tr("terminal.date.previousWeek"), group: tr("terminal.group.date"),
                shownInFooter: false),
            Binding(
                [.down], .nextWeek, help: tr("terminal.date.nextWeek"), group: tr("terminal.group.date"),
                shownInFooter: false),
            Binding(
                [.pageUp], .previousMonth, help: tr("terminal.date.previousMonth"), group: tr("terminal.group.date"),
                shownInFooter: false),
            Binding(
                [.pageDown], .nextMonth, help: tr("terminal.date.nextMonth"), group: tr("terminal.group.date"),
                shownInFooter: false),
            Binding(
                [.home], .firstOfMonth, help: tr("terminal.date.firstOfMonth"), group: tr("terminal.group.date"),
                shownInFooter: false),
            Binding(
                [.end], .lastOfMonth, help: tr("terminal.date.lastOfMonth"), group: tr("terminal.group.date"),
                shownInFooter: false),
            Binding([.char("t")], .today, help: tr("terminal.date.today"), group: tr("terminal.group.date")),
            Binding([.char("y")], .yesterday, help: tr("terminal.date.yesterday"), group: tr("terminal.group.date")),
            Binding([.char(" ")], .openCalendar, help: tr("terminal.date.calendar"), group: tr("terminal.group.date")),
            Binding(
                [.enter], .pick, help: tr("terminal.date.pick"), group: tr("terminal.group.date"), shownInFooter: false),
            Binding(
                [.escape], .closeCalendar, help: tr("terminal.date.closeCalendar"), group: tr("terminal.group.date"),
                shownInFooter: false, name: "back"),
        ])
    }

    /// Applies one key (see the type's key rule).
    public mutating func handle(_ key: Key) -> DateFieldEdit {
        if isTyping { return handleTyping(key) }
        if let action = Self.keyMap.action(for: key) { return perform(action) }
        if case .char(let character) = key, character.isASCII, character.isNumber || character == "-" {
            _ = typed.insert(character)
            return .changed
        }
        return .notHandled
    }

    /// Runs one calendar command.
    public mutating func perform(_ action: DateFieldAction) -> DateFieldEdit {
        let base = highlightedDay
        switch action {
        case .previousDay: return move(to: base.adding(days: -1))
        case .nextDay: return move(to: base.adding(days: 1))
        case .previousWeek: return move(to: base.adding(days: -7))
        case .nextWeek: return move(to: base.adding(days: 7))
        case .previousMonth: return move(to: base.adding(months: -1))
        case .nextMonth: return move(to: base.adding(months: 1))
        case .firstOfMonth: return move(to: base.firstOfMonth)
        case .lastOfMonth: return move(to: base.firstOfMonth.adding(months: 1).adding(days: -1))
        case .today: return choose(today)
        case .yesterday: return choose(today.adding(days: -1))
        case .openCalendar:
            guard !calendarOpen else { return .unchanged }
            calendarOpen = true
            valueBeforeCalendar = value
            return .changed
        case .pick:
            guard calendarOpen else { return .notHandled }
            value = highlightedDay
            calendarOpen = false
            return .changed
        case .closeCalendar:
            guard calendarOpen else { return .notHandled }
            value = valueBeforeCalendar
            calendarOpen = false
            return .changed
        }
    }

    /// Commits the typed text: sets the value and clears the text, or refuses with a reason
    /// (the text stays so it can be corrected). `.unchanged` when nothing is typed.
    public mutating func commit() -> DateFieldEdit {
        guard isTyping else { return .unchanged }
        switch interpret(typed.text) {
        case .failure(let refusal): return .refused(refusal.message)
        case .success(let day):
            value = day
            typed = TextFieldState(maxLength: typed.maxLength, transform: typed.transform)
            calendarOpen = false
            return .changed
        }
    }

    /// What typed text means here, or why it is refused (for screens that add domain wording).
    public func interpret(_ text: String) -> Result<CivilDay, DateRefusal> {
        guard let day = DateText.parse(text, today: today, latest: maximum ?? today) else {
            return .failure(DateText.isWellFormed(text) ? .noSuchDay(text) : .notADate(text))
        }
        if let maximum, day > maximum { return .failure(.afterMaximum(day, maximum: maximum)) }
        if let minimum, day < minimum { return .failure(.beforeMinimum(day, minimum: minimum)) }
        return .success(day)
    }

    /// `day` moved into [minimum, maximum].
    public func clamp(_ day: CivilDay) -> CivilDay {
        var result = day
        if let maximum, result > maximum { result = maximum }
        if let minimum, result < minimum { result = minimum }
        return result
    }

    private mutating func handleTyping(_ key: Key) -> DateFieldEdit {
        switch key {
        case .enter: return commit()
        case .escape:
            typed = TextFieldState(maxLength: typed.maxLength, transform: typed.transform)
            return .changed
        default:
            switch typed.handle(key) {
            case .changed: return .changed
            case .unchanged: return .unchanged
            case .notHandled: return .notHandled
            case .rejected(let character):
                return .refused("“\(character)” cannot be part of a date: \(DateRefusal.formats)")
            }
        }
    }

    private mutating func move(to day: CivilDay) -> DateFieldEdit {
        let target = clamp(day)
        guard target != value else { return .unchanged }
        value = target
        return .changed
    }

    private mutating func choose(_ day: CivilDay) -> DateFieldEdit {
        switch interpret(day.iso) {
        case .failure(let refusal): return .refused(refusal.message)
        case .success:
            guard day != value else { return .unchanged }
            value = day
            return .changed
        }
    }
}

/// Why a typed day was refused; ``message`` is generic, a screen may word it for its domain.
public enum DateRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    case notADate(String)
    case noSuchDay(String)
    case afterMaximum(CivilDay, maximum: CivilDay)
    case beforeMinimum(CivilDay, minimum: CivilDay)

    /// The formats a date field accepts, for messages.
    public static var formats: String { tr("terminal.date.formats") }

    public var description: String { message }

    public var message: String {
        switch self {
        case .notADate(let text): return tr("terminal.date.notADate", ["text": text, "formats": Self.formats])
        case .noSuchDay(let text): return tr("terminal.date.noSuchDay", ["text": text])
        case .afterMaximum(let day, let maximum):
            return tr("terminal.date.afterMaximum", ["day": day.iso, "maximum": maximum.iso])
        case .beforeMinimum(let day, let minimum):
            return tr("terminal.date.beforeMinimum", ["day": day.iso, "minimum": minimum.iso])
        }
    }
}

extension DateFieldState {
    /// What an empty field shows: the accepted forms.
    public static var placeholder: String { tr("terminal.date.placeholder") }

    /// The calendar for the current state (highlighting ``highlightedDay``).
    public var calendar: MonthCalendar {
        MonthCalendar(selected: highlightedDay, today: today, minimum: minimum, maximum: maximum)
    }

    /// Draws the field on the first row of `area`: the typed text while typing (with the
    /// cursor), else `2026-11-27  Fri 27 Nov 2026`, else the muted placeholder. The calendar is
    /// drawn separately (``renderCalendar(into:area:)``) so the screen decides where it drops.
    public func render(
        into buffer: inout Buffer, area: Rect, focused: Bool, placeholder: String = DateFieldState.placeholder
    ) {
        guard !area.isEmpty else { return }
        if isTyping {
            typed.render(into: &buffer, area: area, focused: focused)
            return
        }
        let row = Rect(x: area.x, y: area.y, width: area.width, height: 1)
        let style = Style(focused ? .inputFocused : .input)
        buffer.fill(row, with: Cell(" ", style: style))
        if let value {
            buffer.put(value.iso + "  " + value.spokenWords, x: row.x, y: row.y, style: style, clip: row)
        } else {
            let hint = buffer.glyphs.truncate(placeholder, to: row.width)
            buffer.put(hint, x: row.x, y: row.y, style: Style(.muted), clip: row)
        }
    }

    /// Draws the month grid (``MonthCalendar``, 22×9) at the top-left of `area`.
    public func renderCalendar(into buffer: inout Buffer, area: Rect) {
        calendar.render(into: &buffer, area: area)
    }
}
