import CivilCalendar
import DeskCore
import Testing

/// The symptom-onset rule: not after today (UTC), at most 180 days back, warned past 14.
@Suite struct SymptomOnsetTests {
    static let today = CivilDay(year: 2026, month: 11, day: 29)!

    @Test(
        "days from today to 180 back are accepted; a warning appears past 14",
        arguments: [(0, false), (1, false), (13, false), (14, false), (15, true), (30, true), (179, true), (180, true)])
    func accepted(daysAgo: Int, warned: Bool) throws {
        let day = Self.today.adding(days: -daysAgo)
        let verdict = try SymptomOnset.check(day, today: Self.today)
        #expect(verdict.day == day)
        #expect(verdict.daysAgo == daysAgo)
        #expect((verdict.warning != nil) == warned, "warning: \(verdict.warning ?? "none")")
        if let warning = verdict.warning {
            #expect(warning.contains("\(daysAgo) days ago"))
            #expect(warning.contains("confirm the date"))
        }
    }

    @Test("a day after today is refused and the message says future", arguments: [1, 2, 365])
    func future(daysAhead: Int) {
        let day = Self.today.adding(days: daysAhead)
        #expect(throws: SymptomOnsetError.inFuture(day, today: Self.today)) {
            try SymptomOnset.check(day, today: Self.today)
        }
        let message = SymptomOnsetError.inFuture(day, today: Self.today).message
        #expect(message.contains("future"))
        #expect(message.contains(day.iso) && message.contains("2026-11-29"))
    }

    @Test("more than 180 days back is refused with the count", arguments: [181, 182, 1000])
    func tooOld(daysAgo: Int) {
        let day = Self.today.adding(days: -daysAgo)
        #expect(throws: SymptomOnsetError.tooOld(day, daysAgo: daysAgo)) {
            try SymptomOnset.check(day, today: Self.today)
        }
        let message = SymptomOnsetError.tooOld(day, daysAgo: daysAgo).message
        #expect(message.contains("\(daysAgo) days ago") && message.contains("180"))
    }

    @Test("the 180-day window follows the calendar across a leap day")
    func leapWindow() throws {
        // Given a today whose 180-day window contains 29 February 2024.
        let today = try #require(CivilDay(iso: "2024-06-01"))
        // When the earliest allowed day is computed, then it is exactly 180 days back,
        // and the day before it is refused.
        let earliest = SymptomOnset.earliest(today: today)
        #expect(earliest.iso == "2023-12-04")
        #expect(throws: Never.self) { try SymptomOnset.check(earliest, today: today) }
        #expect(throws: SymptomOnsetError.tooOld(earliest.adding(days: -1), daysAgo: 181)) {
            try SymptomOnset.check(earliest.adding(days: -1), today: today)
        }
    }

    @Test(
        "relative wording",
        arguments: [
            (0, "today"), (1, "yesterday"), (-1, "tomorrow"), (-3, "in 3 days"), (3, "3 days ago"),
            (180, "180 days ago"),
        ])
    func relative(daysAgo: Int, expected: String) {
        #expect(SymptomOnset.relative(Self.today.adding(days: -daysAgo), today: Self.today) == expected)
    }

    @Test(
        "notADate echoes at most 20 characters of what was typed",
        arguments: [
            ("yesterday", "'yesterday' is not a date: use YYYY-MM-DD"),
            ("2026-11-29T10:00:00+01:00", "'2026-11-29T10:00:00+…' is not a date: use YYYY-MM-DD"),
        ])
    func notADate(text: String, expected: String) {
        #expect(SymptomOnsetError.notADate(text).message == expected)
    }
}
