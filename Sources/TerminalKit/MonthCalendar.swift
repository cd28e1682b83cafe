import CivilCalendar
import DeskText

/// A month grid (22×9 cells) for picking a day, as a date field's drop-down shows it.
///
/// ```
///     November 2026
///  Mo Tu We Th Fr Sa Su
///                     1
///   2  3  4  5  6  7  8
///  …
///  23 24 25 26 27[28]29
///  30
///    Fri 27 Nov 2026
/// ```
/// The selected day uses `.selection`; today is bracketed (not only coloured, so it shows in
/// monochrome); days outside [minimum, maximum] are `.muted`. The last row spells the
/// selected day out, as an operator reads it back to a caller.
public struct MonthCalendar: Hashable, Sendable {
    /// The size the grid needs; a smaller area clips it.
    public static let width = 22
    public static let height = 9

    public var selected: CivilDay
    public var today: CivilDay
    public var minimum: CivilDay?
    public var maximum: CivilDay?

    public init(selected: CivilDay, today: CivilDay, minimum: CivilDay? = nil, maximum: CivilDay? = nil) {
        self.selected = selected
        self.today = today
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Draws the month of ``selected`` at the top-left of `area`, clipped to it.
    public func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        let first = selected.firstOfMonth
        let (year, month, _) = first.components
        let title = DateWords.month(month, short: false) + " " + String(year)
        put(&buffer, area, title, row: 0, column: centeredColumn(title), Style(.header))
        var header = ""
        for weekday in 1...7 { header += " " + tr("terminal.calendar.weekday.\(weekday)") }
        put(&buffer, area, header, row: 1, column: 0, Style(.muted))

        let leading = first.isoWeekday - 1
        let count = CivilDay.daysIn(month: month, year: year)
        for dayNumber in 1...count {
            let slot = leading + dayNumber - 1
            let row = 2 + slot / 7
            let column = 3 * (slot % 7)
            let day = first.adding(days: dayNumber - 1)
            let label = dayNumber < 10 ? " " + String(dayNumber) : String(dayNumber)
            let style: Style
            if day == selected {
                style = Style(.selection, .bold)
            } else if isOutOfRange(day) {
                style = Style(.muted)
            } else {
                style = Style(.normal)
            }
            put(&buffer, area, label, row: row, column: column + 1, style)
            if day == today {
                put(&buffer, area, "[", row: row, column: column, Style(.accent))
                put(&buffer, area, "]", row: row, column: column + 3, Style(.accent))
            }
        }
        let spoken = selected.spokenWords
        put(&buffer, area, spoken, row: 8, column: centeredColumn(spoken), Style(.normal))
    }

    private func isOutOfRange(_ day: CivilDay) -> Bool {
        if let minimum, day < minimum { return true }
        if let maximum, day > maximum { return true }
        return false
    }

    private func centeredColumn(_ text: String) -> Int {
        max(0, (MonthCalendar.width - DisplayWidth.of(text)) / 2)
    }

    private func put(_ buffer: inout Buffer, _ area: Rect, _ text: String, row: Int, column: Int, _ style: Style) {
        buffer.put(text, x: area.x + column, y: area.y + row, style: style, clip: area)
    }
}
