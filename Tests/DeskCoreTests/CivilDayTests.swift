import CivilCalendar
import DeskCore
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Calendar arithmetic shared by the rules and the console's date widget.
@Suite struct CivilDayTests {
    @Test(
        "ISO dates round-trip through parse and format, with the right epoch day",
        arguments: [
            ("1970-01-01", 0), ("1970-01-02", 1), ("1969-12-31", -1), ("1969-12-29", -3),
            ("2000-01-01", 10_957), ("2000-03-01", 11_017), ("1900-01-01", -25_567),
            ("2024-02-29", 19_782), ("2026-11-29", 20_786), ("0001-01-01", -719_162), ("9999-12-31", 2_932_896),
        ])
    func isoRoundTrip(iso: String, epochDay: Int) throws {
        let day = try #require(CivilDay(iso: iso))
        #expect(day.daysSinceEpoch == epochDay)
        #expect(day.iso == iso)
        #expect(day.description == iso)
        #expect(CivilDay(daysSinceEpoch: epochDay).iso == iso)
    }

    @Test(
        "components agree with the constructor",
        arguments: [
            (2026, 11, 29), (2024, 2, 29), (2000, 3, 1), (1969, 12, 31), (1, 1, 1), (2400, 12, 31),
        ])
    func components(year: Int, month: Int, day: Int) throws {
        let civil = try #require(CivilDay(year: year, month: month, day: day))
        #expect(civil.year == year && civil.month == month && civil.day == day)
    }

    @Test("every day from 1900 to 2100 round-trips epoch day ↔ components")
    func exhaustiveRoundTrip() throws {
        let first = try #require(CivilDay(iso: "1900-01-01")).daysSinceEpoch
        let last = try #require(CivilDay(iso: "2100-12-31")).daysSinceEpoch
        var previous: (year: Int, month: Int, day: Int)? = nil
        for epochDay in first...last {
            let (y, m, d) = CivilDay(daysSinceEpoch: epochDay).components
            let back = try #require(CivilDay(year: y, month: m, day: d), "\(y)-\(m)-\(d)")
            #expect(back.daysSinceEpoch == epochDay)
            if let previous, previous.year == y, previous.month == m {
                #expect(d == previous.day + 1, "days run consecutively at \(y)-\(m)-\(d)")
            }
            previous = (y, m, d)
        }
    }

    @Test(
        "strings that are not an existing YYYY-MM-DD day are refused",
        arguments: [
            "2026-02-29", "2026-13-01", "2026-1-01", "2026-01-1", "2026-00-10", "2026-04-31", "2026-01-00",
            "1900-02-29", "2100-02-29", "20260101", "2026/01/01", "", " 2026-01-01", "2026-01-01 ",
            "2026-01-01T00:00:00Z", "+026-01-01", "2026-0a-01", "２０２６-01-01", "2026-11-29\n",
        ])
    func invalidISO(text: String) {
        #expect(CivilDay(iso: text) == nil)
    }

    @Test(
        "impossible components are refused",
        arguments: [
            (2026, 2, 29), (2026, 0, 1), (2026, 13, 1), (2026, 6, 31), (2026, 1, 0), (2026, 1, 32), (2026, 12, -1),
        ])
    func invalidComponents(year: Int, month: Int, day: Int) {
        #expect(CivilDay(year: year, month: month, day: day) == nil)
    }

    @Test(
        "leap years",
        arguments: [
            (2024, true), (2000, true), (2400, true), (1996, true), (1900, false), (2100, false), (2026, false),
            (2023, false),
        ])
    func leapYears(year: Int, leap: Bool) {
        #expect(CivilDay.isLeap(year) == leap)
        #expect(CivilDay.daysIn(month: 2, year: year) == (leap ? 29 : 28))
        #expect((CivilDay(year: year, month: 2, day: 29) != nil) == leap)
    }

    @Test(
        "ISO weekday: Monday 1 … Sunday 7, before and after the epoch",
        arguments: [
            ("2026-11-29", 7), ("2026-11-30", 1), ("1970-01-01", 4), ("1969-12-31", 3), ("1969-12-29", 1),
            ("1969-12-28", 7), ("2000-01-01", 6), ("1900-01-01", 1), ("2024-02-29", 4), ("0001-01-01", 1),
        ])
    func isoWeekday(iso: String, weekday: Int) throws {
        #expect(try #require(CivilDay(iso: iso)).isoWeekday == weekday)
    }

    @Test(
        "adding months keeps the day of the month, clamped to the month's end",
        arguments: [
            ("2026-01-31", 1, "2026-02-28"), ("2024-01-31", 1, "2024-02-29"), ("2024-03-31", -1, "2024-02-29"),
            ("2026-05-31", 1, "2026-06-30"), ("2026-12-15", 1, "2027-01-15"), ("2026-01-15", -1, "2025-12-15"),
            ("2024-02-29", 12, "2025-02-28"), ("2024-02-29", 48, "2028-02-29"), ("2026-11-29", 0, "2026-11-29"),
            ("2026-11-29", -24, "2024-11-29"), ("1970-01-31", -1, "1969-12-31"), ("0001-03-31", -1, "0001-02-28"),
        ])
    func addingMonths(start: String, months: Int, expected: String) throws {
        #expect(try #require(CivilDay(iso: start)).adding(months: months).iso == expected)
    }

    @Test("day arithmetic, ordering and the first of the month")
    func dayArithmetic() throws {
        let day = try #require(CivilDay(iso: "2026-03-01"))
        #expect(day.adding(days: -1).iso == "2026-02-28")
        #expect(day.adding(days: 365).iso == "2027-03-01")
        #expect(day.days(since: try #require(CivilDay(iso: "2025-03-01"))) == 365)
        #expect(try #require(CivilDay(iso: "2026-02-28")) < day)
        #expect(try #require(CivilDay(iso: "2026-11-29")).firstOfMonth.iso == "2026-11-01")
        #expect(try #require(CivilDay(iso: "1969-12-31")).firstOfMonth.iso == "1969-12-01")
    }

    @Test(
        "the day containing a Unix time, in UTC or a zone east of it",
        arguments: [
            (Int64(0), 0, "1970-01-01"), (86_399, 0, "1970-01-01"), (86_400, 0, "1970-01-02"),
            (-1, 0, "1969-12-31"), (-86_400, 0, "1969-12-31"), (-86_401, 0, "1969-12-30"),
            (1_795_946_400, 0, "2026-11-29"), (1_795_995_000, 3_600, "2026-11-30"),
            (1_795_906_800, -3_600, "2026-11-28"),
        ])
    func unixSeconds(seconds: Int64, offset: Int, iso: String) {
        #expect(CivilDay(unixSeconds: seconds, offsetSeconds: offset).iso == iso)
    }

    @Test(
        "a Date's UTC day rounds down, also before 1970",
        arguments: [
            (1_795_946_400.0, "2026-11-29"), (-0.5, "1969-12-31"), (0.0, "1970-01-01"), (86_399.999, "1970-01-01"),
        ])
    func utcDay(seconds: Double, iso: String) {
        #expect(Date(timeIntervalSince1970: seconds).utcDay.iso == iso)
        #expect(CivilDay(iso: iso)!.unixSecondsAtMidnightUTC <= Int64(seconds.rounded(.down)))
    }

    @Test(
        "spoken form: short weekday, day without padding, short month, year",
        arguments: [
            ("2026-11-29", "Sun 29 Nov 2026"), ("2000-03-01", "Wed 1 Mar 2000"), ("2026-03-14", "Sat 14 Mar 2026"),
            ("2024-02-29", "Thu 29 Feb 2024"), ("1969-12-31", "Wed 31 Dec 1969"),
        ])
    func spoken(iso: String, expected: String) throws {
        #expect(try #require(CivilDay(iso: iso)).spoken == expected)
    }
}
