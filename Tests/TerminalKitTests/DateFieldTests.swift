import CivilCalendar
import Testing

@testable import TerminalKit

@Suite struct DateFieldTests {
    static func day(_ iso: String) -> CivilDay {
        CivilDay(iso: iso) ?? CivilDay(daysSinceEpoch: 0)
    }

    static let today = day("2026-11-27")

    /// A symptom-onset field: no later than today, no earlier than 30 days ago.
    static func field(_ value: String? = nil) -> DateFieldState {
        DateFieldState(value: value.map(day), today: today, minimum: day("2026-10-28"), maximum: today)
    }

    static func type(_ text: String, into field: inout DateFieldState) -> DateFieldEdit {
        for character in text { _ = field.handle(.char(character)) }
        return field.handle(.enter)
    }

    @Test(
        arguments: [
            ("2026-11-20", "2026-11-20"),
            ("2026-1-5", nil),
            ("20/11", "2026-11-20"),
            ("20/11/2026", "2026-11-20"),
            ("5/11", "2026-11-05"),
            ("-3", "2026-11-24"),
            ("0", "2026-11-27"),
            ("-0", "2026-11-27"),
        ] as [(String, String?)])
    func typedForms(_ text: String, _ want: String?) {
        var field = Self.field()
        let edit = Self.type(text, into: &field)
        if let want {
            #expect(edit == .changed)
            #expect(field.value == Self.day(want))
            #expect(!field.isTyping)
        } else {
            // 2026-01-05 parses but is before the minimum.
            #expect(edit == .refused("2026-01-05 is before the earliest allowed day (2026-10-28)"))
            #expect(field.typed.text == text)
        }
    }

    @Test func dayAndMonthAfterTheLatestDayMeansLastYear() {
        var field = DateFieldState(today: Self.day("2026-01-03"), maximum: Self.day("2026-01-03"))
        #expect(Self.type("30/12", into: &field) == .changed)
        #expect(field.value == Self.day("2025-12-30"))
        var noMaximum = DateFieldState(today: Self.day("2026-01-03"))
        _ = Self.type("02/01", into: &noMaximum)
        #expect(noMaximum.value == Self.day("2026-01-02"))
    }

    @Test(arguments: [
        ("2026-12-01", "2026-12-01 is after the latest allowed day (2026-11-27)"),
        ("-40", "2026-10-18 is before the earliest allowed day (2026-10-28)"),
        ("31/02/2026", "31/02/2026 is not a day of the calendar: check the day and month"),
        ("2026-13-01", "2026-13-01 is not a day of the calendar: check the day and month"),
        ("12-3", "“12-3” is not a date: type YYYY-MM-DD, DD/MM or -N days"),
        ("1/2/3", "“1/2/3” is not a date: type YYYY-MM-DD, DD/MM or -N days"),
    ])
    func refusedTypedText(_ text: String, _ message: String) {
        var field = Self.field("2026-11-20")
        #expect(Self.type(text, into: &field) == .refused(message))
        #expect(field.value == Self.day("2026-11-20"))
        #expect(field.typed.text == text)
    }

    @Test func lettersWhileTypingAreRefusedAndEscClearsTheText() {
        var field = Self.field()
        #expect(field.handle(.char("2")) == .changed)
        #expect(field.handle(.char("x")) == .refused("“x” cannot be part of a date: type YYYY-MM-DD, DD/MM or -N days"))
        #expect(field.handle(.char("t")) != .changed)
        #expect(field.handle(.escape) == .changed)
        #expect(!field.isTyping)
        #expect(field.value == nil)
    }

    @Test(arguments: [
        (Key.left, "2026-11-19"), (.right, "2026-11-21"), (.up, "2026-11-13"), (.down, "2026-11-27"),
        (.pageUp, "2026-10-28"), (.pageDown, "2026-11-27"), (.home, "2026-11-01"), (.end, "2026-11-27"),
        (.char("t"), "2026-11-27"), (.char("y"), "2026-11-26"),
    ])
    func movesAreClampedToTheBounds(_ key: Key, _ want: String) {
        var field = Self.field("2026-11-20")
        #expect(field.handle(key) == .changed)
        #expect(field.value == Self.day(want))
    }

    @Test func pageMovesClampToTheMonthLength() {
        var field = DateFieldState(value: Self.day("2026-01-31"), today: Self.today)
        _ = field.handle(.pageDown)
        #expect(field.value == Self.day("2026-02-28"))
        _ = field.handle(.pageUp)
        #expect(field.value == Self.day("2026-01-28"))
    }

    @Test func moveAtTheBoundIsUnchanged() {
        var field = Self.field("2026-11-27")
        #expect(field.handle(.right) == .unchanged)
        #expect(field.handle(.char("t")) == .unchanged)
    }

    @Test func todayOutsideTheBoundsIsRefusedNotClamped() {
        var field = DateFieldState(today: Self.today, maximum: Self.day("2026-11-20"))
        #expect(field.handle(.char("t")) == .refused("2026-11-27 is after the latest allowed day (2026-11-20)"))
        #expect(field.value == nil)
    }

    @Test func firstMoveStartsFromTodayClamped() {
        var field = DateFieldState(today: Self.today, maximum: Self.day("2026-11-20"))
        _ = field.handle(.left)
        #expect(field.value == Self.day("2026-11-19"))
    }

    @Test func calendarOpensPicksAndCancels() {
        var field = Self.field("2026-11-20")
        #expect(field.handle(.enter) == .notHandled)
        #expect(field.handle(.escape) == .notHandled)
        #expect(field.handle(.char(" ")) == .changed)
        #expect(field.calendarOpen)
        _ = field.handle(.left)
        #expect(field.handle(.escape) == .changed)
        #expect(!field.calendarOpen)
        #expect(field.value == Self.day("2026-11-20"))
        _ = field.handle(.char(" "))
        _ = field.handle(.left)
        #expect(field.handle(.enter) == .changed)
        #expect(!field.calendarOpen)
        #expect(field.value == Self.day("2026-11-19"))
    }

    @Test func pickingWithNoValueTakesTheHighlightedDay() {
        var field = Self.field()
        _ = field.handle(.char(" "))
        #expect(field.handle(.enter) == .changed)
        #expect(field.value == Self.today)
    }

    @Test func otherKeysAreLeftToTheScreen() {
        var field = Self.field()
        #expect(field.handle(.tab) == .notHandled)
        #expect(field.handle(.char("q")) == .notHandled)
        #expect(field == Self.field())
    }

    @Test func interpretGivesAStructuredReason() {
        #expect(
            Self.field().interpret("2026-12-01") == .failure(.afterMaximum(Self.day("2026-12-01"), maximum: Self.today))
        )
        #expect(Self.field().interpret("-1") == .success(Self.day("2026-11-26")))
    }

    @Test func fieldRendersValueSpokenPlaceholderOrTypedText() {
        var buffer = Buffer(width: 30, height: 3)
        Self.field("2026-11-27").render(into: &buffer, area: Rect(x: 0, y: 0, width: 30, height: 1), focused: false)
        Self.field().render(into: &buffer, area: Rect(x: 0, y: 1, width: 30, height: 1), focused: false)
        var typing = Self.field()
        _ = typing.handle(.char("-"))
        _ = typing.handle(.char("3"))
        typing.render(into: &buffer, area: Rect(x: 0, y: 2, width: 30, height: 1), focused: true)
        expectLines(
            buffer.lines,
            [
                "2026-11-27  Fri 27 Nov 2026",
                "YYYY-MM-DD, DD/MM or -N days",
                "-3",
            ])
        #expect(buffer.cursor?.x == 2)
        #expect(buffer.cursor?.y == 2)
    }

    @Test func calendarRendersTheMonthGrid() {
        var buffer = Buffer(width: 22, height: 9)
        Self.field("2026-11-20").renderCalendar(into: &buffer, area: buffer.area)
        expectLines(
            buffer.lines,
            lines(
                """
                    November 2026
                 Mo Tu We Th Fr Sa Su
                                    1
                  2  3  4  5  6  7  8
                  9 10 11 12 13 14 15
                 16 17 18 19 20 21 22
                 23 24 25 26[27]28 29
                 30
                   Fri 20 Nov 2026
                """))
        let roles = buffer.roleLines
        #expect(Array(roles[5])[13...14] == ["S", "S"])
        #expect(Array(roles[6])[12] == "a")
        #expect(Array(roles[6])[15] == "a")
        #expect(Array(roles[6])[16...17] == ["m", "m"])
        #expect(Array(roles[2])[19...20] == [".", "."])
        #expect(Array(roles[1])[1...2] == ["m", "m"])
        #expect(Array(roles[7])[1...2] == ["m", "m"])
    }

    @Test func calendarClipsToASmallArea() {
        var buffer = Buffer(width: 10, height: 3)
        Self.field("2026-11-20").renderCalendar(into: &buffer, area: Rect(x: 1, y: 1, width: 8, height: 2))
        expectLines(buffer.lines, ["", "     Nove", "  Mo Tu W"])
    }

    @Test func monthStartingOnSundayNeedsSixWeekRows() {
        var buffer = Buffer(width: 22, height: 9)
        MonthCalendar(selected: Self.day("2026-03-31"), today: Self.today).render(into: &buffer, area: buffer.area)
        #expect(buffer.lines[2] == "                    1")
        #expect(buffer.lines[7] == " 30 31")
    }
}
