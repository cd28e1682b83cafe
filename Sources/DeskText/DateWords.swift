/// Weekdays, months and a day's date in the current language's own forms ("Tue 1 Dec 2026",
/// "mar 1 dic 2026").
public enum DateWords {
    /// `weekday` 1 = Monday … 7 = Sunday (ISO 8601).
    public static func weekday(_ weekday: Int, short: Bool = true) -> String {
        tr("common.weekday.\(short ? "short" : "long").\(weekday)")
    }

    /// `month` 1 = January … 12.
    public static func month(_ month: Int, short: Bool = true) -> String {
        tr("common.month.\(short ? "short" : "long").\(month)")
    }

    /// A day, with its weekday (1 = Monday), in the language's order; without the year when
    /// `withYear` is false.
    public static func day(year: Int, month: Int, day: Int, weekday: Int, withYear: Bool = true) -> String {
        tr(
            withYear ? "common.date.day" : "common.date.dayShort",
            [
                "weekday": self.weekday(weekday), "day": String(day), "month": self.month(month),
                "year": String(year),
            ])
    }
}
