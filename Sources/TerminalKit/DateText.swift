import CivilCalendar
import DeskText

/// The typed forms a ``DateFieldState`` accepts, read without Foundation.
///
/// Operators type what the caller says: a full date (`2026-11-27`, `27/11/2026`), a day and
/// month (`27/11`: the latest such day not after `latest`, so in early January `30/12` means
/// last December), or a count of days back (`-3`; `0` is today).
enum DateText {
    /// The day `text` names, or nil when it is not one of the forms or names no real day.
    static func parse(_ text: String, today: CivilDay, latest: CivilDay) -> CivilDay? {
        guard let shape = Shape(text) else { return nil }
        switch shape {
        case .daysAgo(let n):
            return today.adding(days: -n)
        case .ymd(let y, let m, let d), .dmy(let d, let m, let y):
            return CivilDay(year: y, month: m, day: d)
        case .dm(let d, let m):
            if let day = CivilDay(year: latest.year, month: m, day: d), day <= latest { return day }
            return CivilDay(year: latest.year - 1, month: m, day: d)
        }
    }

    /// True when `text` has one of the accepted shapes, even if it names no real day.
    static func isWellFormed(_ text: String) -> Bool {
        Shape(text) != nil
    }

    /// The recognised layouts of typed text, with their numbers.
    private enum Shape: Equatable {
        case daysAgo(Int)
        case ymd(Int, Int, Int)
        case dmy(Int, Int, Int)
        case dm(Int, Int)

        init?(_ text: String) {
            if text == "0" {
                self = .daysAgo(0)
                return
            }
            if text.first == "-", let n = Shape.number(text.dropFirst(), digits: 1...5) {
                self = .daysAgo(n)
                return
            }
            let dashed = text.split(separator: "-", omittingEmptySubsequences: false)
            if dashed.count == 3, let y = Shape.number(dashed[0], digits: 4...4),
                let m = Shape.number(dashed[1], digits: 1...2), let d = Shape.number(dashed[2], digits: 1...2)
            {
                self = .ymd(y, m, d)
                return
            }
            let slashed = text.split(separator: "/", omittingEmptySubsequences: false)
            if slashed.count == 2, let d = Shape.number(slashed[0], digits: 1...2),
                let m = Shape.number(slashed[1], digits: 1...2)
            {
                self = .dm(d, m)
                return
            }
            if slashed.count == 3, let d = Shape.number(slashed[0], digits: 1...2),
                let m = Shape.number(slashed[1], digits: 1...2), let y = Shape.number(slashed[2], digits: 4...4)
            {
                self = .dmy(d, m, y)
                return
            }
            return nil
        }

        /// The value of an all-ASCII-digit run whose length is in `digits`.
        private static func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
            guard digits.contains(text.count) else { return nil }
            var value = 0
            for character in text {
                guard let ascii = character.asciiValue, ascii >= 48, ascii <= 57 else { return nil }
                value = value * 10 + Int(ascii - 48)
            }
            return value
        }
    }
}

extension CivilDay {
    /// The day spelled out in the current language ("Fri 27 Nov 2026", "ven 27 nov 2026"), as
    /// an operator reads it back to a caller.
    public var spokenWords: String {
        let (y, m, d) = components
        return DateWords.day(year: y, month: m, day: d, weekday: isoWeekday)
    }
}
