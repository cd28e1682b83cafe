/// A day of the proleptic Gregorian calendar, with no time and no time zone.
///
/// Shared by the domain (symptom onset, key days) and the console's date widget, so both do
/// the same arithmetic. Stored as the number of days since 1970-01-01; comparisons and
/// differences are plain integer maths. Pure value type: safe on any thread.
public struct CivilDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    public let daysSinceEpoch: Int

    public init(daysSinceEpoch: Int) {
        self.daysSinceEpoch = daysSinceEpoch
    }

    /// Creates a day from a year, month (1...12) and day (1...31); nil if that day does not exist.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDay.daysIn(month: month, year: year) else {
            return nil
        }
        self.daysSinceEpoch = CivilDay.days(fromYear: year, month: month, day: day)
    }

    /// Parses exactly `YYYY-MM-DD` (the API's date format); nil for anything else.
    public init?(iso text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day that contains a Unix time, in a zone `offsetSeconds` east of UTC.
    public init(unixSeconds: Int64, offsetSeconds: Int = 0) {
        let local = unixSeconds + Int64(offsetSeconds)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        self.daysSinceEpoch = Int(days)
    }

    public var year: Int { components.year }
    public var month: Int { components.month }
    public var day: Int { components.day }

    /// Year, month and day (Howard Hinnant's civil-from-days algorithm).
    public var components: (year: Int, month: Int, day: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        let w = (daysSinceEpoch + 3) % 7  // 1970-01-01 was a Thursday (ISO 4).
        return (w < 0 ? w + 7 : w) + 1
    }

    /// `YYYY-MM-DD`.
    public var iso: String {
        let (y, m, d) = components
        return CivilDay.pad(y, 4) + "-" + CivilDay.pad(m, 2) + "-" + CivilDay.pad(d, 2)
    }

    public var description: String { iso }

    /// Unix time of this day's midnight in UTC.
    public var unixSecondsAtMidnightUTC: Int64 { Int64(daysSinceEpoch) * 86_400 }

    public func adding(days: Int) -> CivilDay {
        CivilDay(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// The same day of the month `months` later, clamped to the month's last day.
    public func adding(months: Int) -> CivilDay {
        let (y, m, d) = components
        let total = y * 12 + (m - 1) + months
        let year = total >= 0 ? total / 12 : (total - 11) / 12
        let month = total - year * 12 + 1
        let day = min(d, CivilDay.daysIn(month: month, year: year))
        return CivilDay(daysSinceEpoch: CivilDay.days(fromYear: year, month: month, day: day))
    }

    /// Whole days from `other` to `self` (positive when `self` is later).
    public func days(since other: CivilDay) -> Int {
        daysSinceEpoch - other.daysSinceEpoch
    }

    /// The first day of this day's month.
    public var firstOfMonth: CivilDay {
        let (y, m, _) = components
        return CivilDay(daysSinceEpoch: CivilDay.days(fromYear: y, month: m, day: 1))
    }

    public static func < (lhs: CivilDay, rhs: CivilDay) -> Bool {
        lhs.daysSinceEpoch < rhs.daysSinceEpoch
    }

    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
    public static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    /// "Sat 14 Mar 2026": what an operator reads back to a caller.
    public var spoken: String {
        let (y, m, d) = components
        return String(CivilDay.weekdayNames[isoWeekday - 1].prefix(3)) + " " + String(d) + " "
            + String(CivilDay.monthNames[m - 1].prefix(3)) + " " + String(y)
    }

    private static func days(fromYear year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
