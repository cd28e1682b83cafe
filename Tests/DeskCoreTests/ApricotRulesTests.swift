import CivilCalendar
import DeskCore
import Foundation
import Testing

@Suite("APRICOT: phone numbers")
struct PhoneNumberTests {
    @Test(
        "typed numbers are normalised to E.164",
        arguments: [
            ("333 123 4567", "+393331234567"), ("0039 333-123.4567", "+393331234567"),
            ("+39 (333) 123/4567", "+393331234567"), ("06 1234 5678", "+390612345678"),
            ("+1 (202) 555-0100", "+12025550100"), ("\u{00A0}+44\t20 7946 0958 ", "+442079460958"),
        ])
    func normalizes(_ typed: String, _ expected: String) throws {
        #expect(try PhoneNumber.normalize(typed, defaultCountryCode: "+39").e164 == expected)
    }

    @Test(
        "every way a number can be wrong has its error, and no message repeats the number",
        arguments: [
            ("", "+39", PhoneNumberError.empty), (" - ( ) ", "+39", .empty),
            ("3331234567", "39", .noPlus), ("+39+3331234567", "+39", .misplacedPlus),
            ("333 abc 4567", "+39", .notADigit), ("+39 333 l23 4567", "+39", .notADigit),
            ("+39 12345", "+39", .tooShort(digits: 7)), ("+39 1234567890123456", "+39", .tooLong(digits: 18)),
            ("+0391234567", "+39", .countryCodeStartsWithZero), ("00 0391234567", "+39", .countryCodeStartsWithZero),
        ])
    func errors(_ typed: String, _ country: String, _ expected: PhoneNumberError) {
        #expect(throws: expected) { try PhoneNumber.normalize(typed, defaultCountryCode: country) }
        #expect(!expected.message.contains("1234"))
        #expect(!expected.message.isEmpty)
    }

    @Test("E.164 as phones send it: 8 to 15 digits after +, the first not 0")
    func exact() {
        #expect(PhoneNumber(e164: "+393331234567")?.e164 == "+393331234567")
        #expect(PhoneNumber(e164: "+12345678") != nil)
        #expect(PhoneNumber(e164: "+123456789012345") != nil)
        #expect(PhoneNumber(e164: "+1234567") == nil)
        #expect(PhoneNumber(e164: "+1234567890123456") == nil)
        #expect(PhoneNumber(e164: "393331234567") == nil)
        #expect(PhoneNumber(e164: "+39 333 1234567") == nil)
        #expect(PhoneNumber(e164: "+0393331234567") == nil)
    }

    @Test("spaced for reading aloud, masked where the number is not needed")
    func display() throws {
        let italian = try #require(PhoneNumber(e164: "+393331234567"))
        #expect(italian.spaced == "+39 333 123 4567")
        #expect(italian.masked == "+39 … 67")
        #expect(italian.description == "+39 … 67", "interpolation never shows the whole number")
        #expect(try #require(PhoneNumber(e164: "+12025550100")).spaced == "+1 202 555 0100")
        #expect(try #require(PhoneNumber(e164: "+3531234567")).spaced == "+353 123 4567")
    }
}

@Suite("APRICOT: pseudo-ids")
struct PseudoIDTests {
    @Test("16 bytes of 0x88 then the 4-byte suffix, big-endian; 40 lowercase hex digits")
    func bytesAndHex() throws {
        let id = PseudoID(suffix: 0x0102_03FF)
        #expect(id.bytes == Array(repeating: 0x88, count: 16) + [0x01, 0x02, 0x03, 0xFF])
        #expect(id.hex == String(repeating: "88", count: 16) + "010203ff")
        #expect(PseudoID(hex: id.hex) == id)
        #expect(PseudoID(hex: id.hex.uppercased()) == id)
        #expect(PseudoID(beacon: id.bytes) == id)
        #expect(PseudoID(suffix: 0).hex.hasSuffix("00000000"))
        #expect(PseudoID(suffix: .max).hex.hasSuffix("ffffffff"))
        // A beacon read from the middle of a file (a slice whose indices do not start at 0).
        let file = [UInt8](repeating: 7, count: 4) + id.bytes + [9]
        #expect(PseudoID(beacon: file[4..<24]) == id)
    }

    @Test("foreign beacons and malformed hex are not pseudo-ids")
    func refusals() {
        var foreign = PseudoID(suffix: 1).bytes
        foreign[15] = 0x87
        #expect(PseudoID(beacon: foreign) == nil)
        #expect(PseudoID(beacon: Array(repeating: 0x88, count: 19)) == nil)
        #expect(PseudoID(beacon: Array(repeating: 0x88, count: 21)) == nil)
        #expect(PseudoID(hex: String(repeating: "88", count: 16) + "0102030") == nil)
        #expect(PseudoID(hex: String(repeating: "88", count: 16) + "0102030g") == nil)
        #expect(PseudoID(hex: String(repeating: "87", count: 16) + "01020304") == nil)
    }

    @Test("capacity: 2^32 pseudo-ids, a warning past half, whether a registration fits")
    func capacity() {
        #expect(PseudoID.capacity == 4_294_967_296)
        #expect(!PseudoIDCapacity(used: 1 << 31).isWarning)
        #expect(PseudoIDCapacity(used: (1 << 31) + 1).isWarning)
        #expect(PseudoIDCapacity(used: PseudoID.capacity - 1000).fits(1000))
        #expect(!PseudoIDCapacity(used: PseudoID.capacity - 999).fits(1000))
        #expect(PseudoIDCapacity(used: 12_000_000).summary == "12000000 of 4294967296 pseudo-ids used (0.28 %)")
    }
}

@Suite("APRICOT: contact files")
struct ContactFileTests {
    @Test("records are 20 beacon bytes and a 4-byte big-endian time; encode and parse agree")
    func roundTrip() throws {
        let records = [
            ContactRecord(beacon: PseudoID(suffix: 5).bytes, time: 0x6A2B_3C4D),
            ContactRecord(beacon: Array(repeating: 0x42, count: 20), time: 0),
        ]
        let bytes = ContactFile.encode(records)
        #expect(bytes.count == 48)
        #expect(Array(bytes[20..<24]) == [0x6A, 0x2B, 0x3C, 0x4D])
        #expect(try ContactFile.parse(bytes) == records)
        #expect(try ContactFile.parse(bytes)[0].pseudoID == PseudoID(suffix: 5))
        #expect(try ContactFile.parse(bytes)[1].pseudoID == nil)
    }

    @Test("scan walks the same records as parse, in place; a bad length walks nothing")
    func scanAgrees() throws {
        let records = [
            ContactRecord(beacon: PseudoID(suffix: 0xDEAD_BEEF).bytes, time: 1_795_860_000),
            ContactRecord(beacon: Array(repeating: 0x42, count: 20), time: 0),
            ContactRecord(beacon: Array(repeating: 0x88, count: 15) + [0x87, 0, 0, 0, 1], time: 7),
        ]
        let bytes = ContactFile.encode(records)
        var walked: [(Int, UInt32?, UInt32)] = []
        ContactFile.scan(bytes) { walked.append(($0, $1, $2)) }
        #expect(walked.map(\.0) == [0, 24, 48])
        #expect(walked.map(\.1) == records.map { $0.pseudoID?.suffix })
        #expect(walked.map(\.2) == records.map(\.time))
        var none = 0
        ContactFile.scan(Array(bytes.dropLast())) { _, _, _ in none += 1 }
        #expect(none == 0)
    }

    @Test(
        "a file's length must be 1 to 43 690 whole records",
        arguments: [
            (0, ContactFileError.empty), (23, .notWholeRecords(bytes: 23)), (25, .notWholeRecords(bytes: 25)),
            (1_048_584, .tooLarge(bytes: 1_048_584)), (1_048_561, .tooLarge(bytes: 1_048_561)),
        ])
    func badLengths(_ length: Int, _ expected: ContactFileError) {
        #expect(ContactFile.checkLength(length) == expected)
        #expect(throws: expected) { try ContactFile.parse([UInt8](repeating: 0x88, count: length)) }
        #expect(!expected.message.isEmpty)
    }

    @Test("the largest file parses: 1 048 560 bytes, 43 690 records")
    func largest() throws {
        #expect(ContactFile.maxBytes == 1_048_560)
        #expect(ContactFile.checkLength(ContactFile.maxBytes) == nil)
        #expect(ContactFile.checkLength(24) == nil)
        #expect(try ContactFile.parse([UInt8](repeating: 1, count: ContactFile.maxBytes)).count == 43_690)
    }

    @Test(
        "a day is accepted from the history's oldest day (a day of slack for phones behind UTC) to tomorrow (phones ahead)"
    )
    func days() {
        let today = CivilDay(iso: "2026-11-29")!
        #expect(ContactFile.checkDay(today, today: today, historyDays: 30) == nil)
        // The history's 30 days end on 2026-10-31; a phone behind UTC may still be on 10-30.
        #expect(ContactFile.checkDay(CivilDay(iso: "2026-10-31")!, today: today, historyDays: 30) == nil)
        #expect(ContactFile.checkDay(CivilDay(iso: "2026-10-30")!, today: today, historyDays: 30) == nil)
        #expect(ContactFile.oldestDay(today: today, historyDays: 30) == CivilDay(iso: "2026-10-30")!)
        let tooOld = CivilDay(iso: "2026-10-29")!
        #expect(ContactFile.checkDay(tooOld, today: today, historyDays: 30) == .dayTooOld(tooOld, historyDays: 30))
        // A phone in Italy at 00:30 on 11-30 is an hour ahead of UTC, still on 11-29.
        let tomorrow = CivilDay(iso: "2026-11-30")!
        #expect(ContactFile.checkDay(tomorrow, today: today, historyDays: 30) == nil)
        let future = CivilDay(iso: "2026-12-01")!
        #expect(ContactFile.checkDay(future, today: today, historyDays: 30) == .dayInFuture(future))
        #expect(ContactFile.checkDay(today.adding(days: -1), today: today, historyDays: 1) == nil)
        #expect(
            ContactFile.checkDay(today.adding(days: -2), today: today, historyDays: 1)
                == .dayTooOld(today.adding(days: -2), historyDays: 1))
        #expect(ContactFileError.dayTooOld(tooOld, historyDays: 30).message.contains("2026-10-29"))
    }

    @Test("times are shifted by the clock skew; no time stays none; the result stays within 1…2^32−1")
    func adjusted() {
        #expect(ContactFile.adjusted(0, skewSeconds: 100) == 0)
        #expect(ContactFile.adjusted(0, skewSeconds: -100) == 0)
        #expect(ContactFile.adjusted(1_000, skewSeconds: 100) == 1_100)
        #expect(ContactFile.adjusted(1_000, skewSeconds: -400) == 600)
        #expect(ContactFile.adjusted(1_000, skewSeconds: -5_000) == 1)
        #expect(ContactFile.adjusted(.max - 1, skewSeconds: 10) == .max)
    }
}

@Suite("APRICOT: aggregation and purposes")
struct ContactAggregationTests {
    static let nov27: Int64 = 1_795_737_600  // 2026-11-27 00:00 UTC
    static let nov28: Int64 = 1_795_824_000
    static let nov29: Int64 = 1_795_910_400
    static let day27 = CivilDay(iso: "2026-11-27")!
    static let day28 = CivilDay(iso: "2026-11-28")!
    static let day29 = CivilDay(iso: "2026-11-29")!

    static func seen(_ user: Int64?, _ time: Int64, file: CivilDay) -> Sighting {
        Sighting(time: time, fileDay: file, beacon: PseudoID(suffix: UInt32(user ?? 0)).bytes, contactUserID: user)
    }

    /// The case, worked out by hand:
    ///
    /// - user 10: on 11-28 every minute 09:00…09:15 (16 minutes) and again at 09:00:30 (the same
    ///   minute: counted once) → 16 minutes; on 11-27 at 20:00, 20:01 and 21:00 (3) and two
    ///   sightings without a time in the 11-27 file (each counts) → 5 minutes. Sightings 17 + 3 + 2
    ///   = 22, minutes 21, days 2, most on one day 16 ≥ 15: close. First 11-27 20:00, last 11-28 09:15.
    /// - user 20: 11-28 14:00…14:14, 15 minutes: exactly the threshold, close.
    /// - user 25: 11-28 15:00…15:13, 14 minutes, the last one heard in the 11-29 file (its time
    ///   says 11-28: it counts there): not close.
    /// - user 30: three sightings without a time in the 11-29 file: 3 minutes on 11-29, no first
    ///   or last seen.
    /// - user 40 has no phone (not a contact row); unresolved sightings count nowhere.
    static var sightings: [Sighting] {
        var all: [Sighting] = []
        for minute in 0...15 { all.append(seen(10, nov28 + 9 * 3600 + Int64(minute) * 60, file: day28)) }
        all.append(seen(10, nov28 + 9 * 3600 + 30, file: day28))
        for offset: Int64 in [20 * 3600, 20 * 3600 + 60, 21 * 3600] {
            all.append(seen(10, nov27 + offset, file: day27))
        }
        all += [seen(10, 0, file: day27), seen(10, 0, file: day27)]
        for minute in 0...14 { all.append(seen(20, nov28 + 14 * 3600 + Int64(minute) * 60, file: day28)) }
        for minute in 0...12 { all.append(seen(25, nov28 + 15 * 3600 + Int64(minute) * 60, file: day28)) }
        all.append(seen(25, nov28 + 15 * 3600 + 13 * 60 + 5, file: day29))
        all += [seen(30, 0, file: day29), seen(30, 0, file: day29), seen(30, 0, file: day29)]
        all += [seen(40, nov28 + 3600, file: day28), seen(nil, nov28 + 3600, file: day28)]
        return all
    }

    static let phones: [Int64: PhoneNumber] = [
        10: PhoneNumber(e164: "+393330000010")!, 20: PhoneNumber(e164: "+393330000020")!,
        25: PhoneNumber(e164: "+393330000025")!, 30: PhoneNumber(e164: "+393330000030")!,
    ]

    @Test("a small case computed by hand: minutes once per minute, untimed sightings, days, the threshold at 15")
    func handCase() {
        let summaries = ContactAggregation.summarize(Self.sightings, phones: Self.phones, settings: ApricotSettings())
        #expect(summaries.map(\.userID) == [10, 20, 25, 30], "most minutes first")
        let user10 = summaries[0]
        #expect(user10.phone == Self.phones[10])
        #expect(user10.sightings == 22)
        #expect(user10.minutes == 21)
        #expect(user10.days == 2)
        #expect(user10.mostMinutesOnOneDay == 16)
        #expect(user10.isCloseContact)
        #expect(user10.firstSeen == Date(timeIntervalSince1970: Double(Self.nov27 + 20 * 3600)))
        #expect(user10.lastSeen == Date(timeIntervalSince1970: Double(Self.nov28 + 9 * 3600 + 15 * 60)))
        var hours28 = Array(repeating: 0, count: 24)
        hours28[9] = 16
        var hours27 = Array(repeating: 0, count: 24)
        hours27[20] = 2
        hours27[21] = 1
        #expect(
            user10.timeline == [
                DayHours(day: Self.day28, minutesByHour: hours28, untimed: 0, minutes: 16),
                DayHours(day: Self.day27, minutesByHour: hours27, untimed: 2, minutes: 5),
            ])
        let user20 = summaries[1]
        #expect((user20.sightings, user20.minutes, user20.days, user20.mostMinutesOnOneDay) == (15, 15, 1, 15))
        #expect(user20.isCloseContact, "exactly the threshold is close")
        let user25 = summaries[2]
        #expect((user25.sightings, user25.minutes, user25.days, user25.mostMinutesOnOneDay) == (14, 14, 1, 14))
        #expect(!user25.isCloseContact)
        #expect(user25.timeline.map(\.day) == [Self.day28])
        let user30 = summaries[3]
        #expect((user30.sightings, user30.minutes, user30.days, user30.mostMinutesOnOneDay) == (3, 3, 1, 3))
        #expect(user30.firstSeen == nil && user30.lastSeen == nil)
        #expect(user30.timeline == [DayHours(day: Self.day29, untimed: 3, minutes: 3)])
    }

    /// Worked out by hand with D = 30 s: one contact heard at every scan (two records a minute)
    /// from 10:00:00 to 10:14:30 on 11-28: 30 records, 15 minutes of 2 distinct times, each
    /// min(2 × 30, 60) = 60 s → 15 minutes, close. Another heard once a minute for 15 minutes:
    /// 15 × 30 s = 7 minutes (7.5 rounded down), not close. With D = 120 s, one record every two
    /// minutes for 16 minutes: 8 minutes with a record, 120 s each → 16 minutes.
    @Test("scans faster than once a minute fill the minute; slower ones count their interval")
    func scanIntervals() {
        var settings = ApricotSettings()
        settings.beaconDetectSeconds = 30
        let ten = Self.nov28 + 10 * 3600
        let everyScan = (0..<30).map { Self.seen(10, ten + Int64($0) * 30, file: Self.day28) }
        let everyMinute = (0..<15).map { Self.seen(20, ten + Int64($0) * 60, file: Self.day28) }
        let byUser = Dictionary(
            uniqueKeysWithValues: ContactAggregation.summarize(
                everyScan + everyMinute, phones: Self.phones, settings: settings
            ).map { ($0.userID, $0) })
        #expect(byUser[10]?.minutes == 15 && byUser[10]?.isCloseContact == true)
        #expect(byUser[10]?.timeline.first?.minutesByHour[10] == 15)
        #expect(byUser[20]?.minutes == 7 && byUser[20]?.isCloseContact == false)
        settings.beaconDetectSeconds = 120
        let everyOther = (0..<8).map { Self.seen(10, ten + Int64($0) * 120, file: Self.day28) }
        let slow = ContactAggregation.summarize(everyOther, phones: Self.phones, settings: settings)
        #expect(slow.first?.minutes == 16 && slow.first?.timeline.first?.minutes == 16)
    }

    /// 3 000 untimed records of one contact on one day (a hostile or broken app) would be 3 000
    /// minutes; a day holds 1 440. Records whose time is far from their file's day (a clock
    /// clamped to 1970, or 2106) count as untimed on the file's day: no extra days, no first or
    /// last seen from them.
    @Test("a day's minutes stop at 1 440; a record timed far from its file's day counts as untimed there")
    func wildRecords() {
        let flood = Array(repeating: Self.seen(10, 0, file: Self.day28), count: 3_000)
        let capped = ContactAggregation.summarize(flood, phones: Self.phones, settings: ApricotSettings())
        #expect(capped.first?.minutes == 1_440 && capped.first?.mostMinutesOnOneDay == 1_440)
        let wild = [
            Self.seen(20, 1, file: Self.day28), Self.seen(20, 4_294_967_295, file: Self.day28),
            Self.seen(20, Self.nov28 + 3_600, file: Self.day28),
        ]
        let summary = ContactAggregation.summarize(wild, phones: Self.phones, settings: ApricotSettings()).first
        #expect(summary?.days == 1)
        #expect(summary?.minutes == 3, "two untimed on 11-28 and one timed minute")
        #expect(summary?.firstSeen == Date(timeIntervalSince1970: Double(Self.nov28 + 3_600)))
        #expect(summary?.lastSeen == summary?.firstSeen)
        #expect(
            summary?.timeline == [
                DayHours(
                    day: Self.day28, minutesByHour: [0, 1] + Array(repeating: 0, count: 22), untimed: 2, minutes: 3)
            ])
    }

    @Test("a 30 s scan interval halves the minutes, rounded down per day; the threshold follows the settings")
    func otherSettings() {
        var settings = ApricotSettings()
        settings.beaconDetectSeconds = 30
        let halved = ContactAggregation.summarize(Self.sightings, phones: Self.phones, settings: settings)
        let byUser = Dictionary(uniqueKeysWithValues: halved.map { ($0.userID, $0) })
        #expect(byUser[10]?.minutes == 8 + 2, "16 × 30 / 60 = 8 on 11-28, 5 × 30 / 60 = 2 on 11-27")
        #expect(byUser[20]?.minutes == 7)
        #expect(byUser[20]?.isCloseContact == false)
        settings.closeContactMinutes = 7
        #expect(
            ContactAggregation.summarize(Self.sightings, phones: Self.phones, settings: settings).filter(
                \.isCloseContact
            )
            .map(\.userID) == [10, 25, 20], "7 minutes each: the later last seen first")
    }

    @Test("a purpose is required, trimmed, one line, at most 200 characters")
    func purposes() {
        #expect(TracePurpose.check("  case 2026-1234 \n") == .success("case 2026-1234"))
        #expect(TracePurpose.check("") == .failure(.empty))
        #expect(TracePurpose.check(" \t ") == .failure(.empty))
        #expect(TracePurpose.check(String(repeating: "x", count: 200)) == .success(String(repeating: "x", count: 200)))
        #expect(TracePurpose.check(String(repeating: "x", count: 201)) == .failure(.tooLong(201)))
        #expect(TracePurpose.check("case\u{7}1") == .failure(.control))
        #expect(TracePurpose.check("case\n1") == .failure(.control))
    }
}
