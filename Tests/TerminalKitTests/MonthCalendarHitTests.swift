import CivilCalendar
import Foundation
import TerminalKit
import Testing

/// A click on the grid finds the day drawn there, and only a day that can be picked.
@Suite("Month calendar: the day under a click")
struct MonthCalendarHitTests {
    static func november(_ day: Int) -> CivilDay { CivilDay(year: 2026, month: 11, day: day)! }

    /// November 2026 starts on a Sunday; today the 29th, nothing after it allowed.
    let calendar = MonthCalendar(
        selected: Self.november(20), today: Self.november(29),
        minimum: Self.november(3), maximum: Self.november(29))
    let area = Rect(x: 10, y: 5, width: MonthCalendar.width, height: MonthCalendar.height)

    @Test("every drawn day number is found at the cells that show it, and the bracket before it")
    func drawnDays() {
        var buffer = Buffer(width: 40, height: 20)
        calendar.render(into: &buffer, area: area)
        var found = 0
        for row in 0..<6 {
            for column in 0..<7 {
                let x = area.x + 3 * column + 1
                let y = area.y + 2 + row
                let text = (buffer[x, y].symbol + buffer[x + 1, y].symbol).trimmingCharacters(
                    in: .whitespaces)
                let hit = calendar.day(atX: x, y: y, area: area)
                guard let number = Int(text) else {
                    #expect(hit == nil, "an empty cell at row \(row), column \(column)")
                    continue
                }
                let day = Self.november(number)
                let pickable = (3...29).contains(number)
                #expect(hit == (pickable ? day : nil), "\(number)")
                #expect(calendar.day(atX: x + 1, y: y, area: area) == hit)
                #expect(calendar.day(atX: x - 1, y: y, area: area) == hit, "the bracket's column is the day's")
                found += 1
            }
        }
        #expect(found == 30, "every day of November was on the grid")
    }

    @Test("the title, the weekday row, the spelled-out day, after the maximum and outside: nothing")
    func nothingThere() {
        #expect(calendar.day(atX: area.x + 5, y: area.y, area: area) == nil)
        #expect(calendar.day(atX: area.x + 5, y: area.y + 1, area: area) == nil)
        #expect(calendar.day(atX: area.x + 5, y: area.y + 8, area: area) == nil)
        #expect(calendar.day(atX: area.x + 1, y: area.y + 7, area: area) == nil, "the 30th is after the maximum")
        #expect(calendar.day(atX: area.x - 1, y: area.y + 3, area: area) == nil)
        #expect(calendar.day(atX: area.x + 21, y: area.y + 3, area: area) == nil, "past the last column")
    }
}
