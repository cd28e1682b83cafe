import CivilCalendar

extension MonthCalendar {
    /// The day drawn at (`x`, `y`) when the grid is rendered at the top-left of `area` (a click);
    /// nil outside the day cells and for days outside [minimum, maximum], which cannot be picked.
    /// Each day's cell is three columns wide, its number and the bracket before it.
    public func day(atX x: Int, y: Int, area: Rect) -> CivilDay? {
        guard area.contains(x: x, y: y) else { return nil }
        let row = y - area.y - 2
        let column = x - area.x
        guard row >= 0, row < 6, column >= 0, column < 3 * 7 else { return nil }
        let first = selected.firstOfMonth
        let (year, month, _) = first.components
        let number = row * 7 + column / 3 - (first.isoWeekday - 1) + 1
        guard (1...CivilDay.daysIn(month: month, year: year)).contains(number) else { return nil }
        let day = first.adding(days: number - 1)
        if let minimum, day < minimum { return nil }
        if let maximum, day > maximum { return nil }
        return day
    }
}
