import CivilCalendar

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The APRICOT centralised design (spec/apricot-protocol.md): phone numbers, pseudo-ids,
// contact files and their rules. Pure values; the store, the server and the console share them.

/// The design's settings, each configurable on the server, with the design's defaults.
public struct ApricotSettings: Hashable, Sendable {
    /// Pseudo-ids made per user (NUM_PSEUDO_IDS).
    public var pseudoIDsPerUser: Int = 1000
    /// How often an app changes the beacon it broadcasts, seconds (BEACON_CHANGE_INTERVAL).
    public var beaconChangeSeconds: Int = 300
    /// How often an app scans, seconds (BEACON_DETECT_INTERVAL): one record ≈ this much proximity.
    public var beaconDetectSeconds: Int = 60
    /// Whether apps put a timestamp in each record (CONTACT_TIMESTAMP_OPTION).
    public var contactTimestamps: Bool = true
    /// Days of contact files kept and accepted (CONTACT_HISTORY_MAX).
    public var contactHistoryDays: Int = 30
    /// The close-contact rule: at least this many minutes of proximity on one day.
    public var closeContactMinutes: Int = 15
    /// Added to staff-typed numbers without a country code, e.g. "+39".
    public var defaultCountryCode: String = "+39"

    public init() {}
}

// MARK: Phone numbers

/// A phone number in E.164 form: `+` and 8 to 15 digits. Personal data: never put one in a log
/// line or an error message.
public struct PhoneNumber: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// "+393331234567".
    public let e164: String

    /// Exactly E.164, as phones send it: `+` then 8–15 digits, the first not 0.
    public init?(e164 text: String) {
        guard PhoneNumber.problem(ofE164: text) == nil else { return nil }
        e164 = text
    }

    /// Normalises what staff type: spaces, dashes, dots and parentheses are removed, a leading
    /// `00` becomes `+`, and a number without a country code gets `defaultCountryCode`.
    public static func normalize(_ typed: String, defaultCountryCode: String) throws(PhoneNumberError) -> PhoneNumber {
        var text = ""
        for character in typed where !" \t-.()/\u{00A0}".contains(character) {
            text.append(character)
        }
        if text.isEmpty { throw .empty }
        if text.hasPrefix("00") {
            text = "+" + text.dropFirst(2)
        } else if !text.hasPrefix("+") {
            guard text.allSatisfy(\.isASCIIDigit) else { throw .notADigit }
            // A national number: the trunk prefix 0 is kept (Italian numbers keep it).
            text = defaultCountryCode + text
        }
        if let problem = PhoneNumber.problem(ofE164: text) { throw problem }
        return PhoneNumber(checked: text)
    }

    private init(checked: String) { e164 = checked }

    /// What is wrong with `text` as E.164; nil when it is right.
    static func problem(ofE164 text: String) -> PhoneNumberError? {
        guard text.hasPrefix("+") else { return .noPlus }
        let digits = text.dropFirst()
        if digits.contains("+") { return .misplacedPlus }
        guard digits.allSatisfy(\.isASCIIDigit) else { return .notADigit }
        if digits.count < 8 { return .tooShort(digits: digits.count) }
        if digits.count > 15 { return .tooLong(digits: digits.count) }
        if digits.first == "0" { return .countryCodeStartsWithZero }
        return nil
    }

    /// "+39 333 123 4567"-like grouping for reading aloud: the country part, then threes, the
    /// last group four digits. Only for screens; the stored form is ``e164``.
    public var spaced: String {
        let digits = Array(e164.dropFirst())
        let countryLength = PhoneNumber.countryCodeLength(digits)
        var groups = ["+" + String(digits[..<countryLength])]
        var rest = Array(digits[countryLength...])
        while rest.count > 4 {
            let take = rest.count == 5 ? 2 : 3
            groups.append(String(rest[..<take]))
            rest.removeFirst(take)
        }
        if !rest.isEmpty { groups.append(String(rest)) }
        return groups.joined(separator: " ")
    }

    /// A display that does not reveal the number: "+39 … 67" (for places a full number is not needed).
    public var masked: String {
        let digits = Array(e164.dropFirst())
        let countryLength = PhoneNumber.countryCodeLength(digits)
        return "+" + String(digits[..<countryLength]) + " … " + String(digits.suffix(2))
    }

    /// ITU country codes are 1–3 digits; the common ones are told apart by their first digits.
    static func countryCodeLength(_ digits: [Character]) -> Int {
        guard let first = digits.first else { return 0 }
        if first == "1" || first == "7" { return 1 }
        let two = String(digits.prefix(2))
        let twoDigitCodes: Set<String> = [
            "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47", "48",
            "49", "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66", "81",
            "82", "84", "86", "90", "91", "92", "93", "94", "95", "98",
        ]
        return twoDigitCodes.contains(two) ? 2 : min(3, digits.count)
    }

    public var description: String { masked }

    public static func < (lhs: PhoneNumber, rhs: PhoneNumber) -> Bool { lhs.e164 < rhs.e164 }
}

/// Why typed text is not a phone number; the message says what to type instead and never
/// repeats the number.
public enum PhoneNumberError: Error, Hashable, Sendable {
    case empty
    case noPlus
    case misplacedPlus
    case notADigit
    case tooShort(digits: Int)
    case tooLong(digits: Int)
    case countryCodeStartsWithZero

    public var message: String {
        let example = "type it like +39 333 123 4567, or without the country code"
        switch self {
        case .empty: return "type the patient's phone number: \(example)"
        case .noPlus: return "an international number starts with + or 00: \(example)"
        case .misplacedPlus: return "a + may come only first: \(example)"
        case .notADigit:
            return "a phone number has only digits (spaces, dashes, dots and brackets are fine): \(example)"
        case .tooShort(let digits):
            return "\(digits) digits with the country code is too short for a phone number (8 to 15): check the number"
        case .tooLong(let digits):
            return "\(digits) digits with the country code is too long for a phone number (8 to 15): check the number"
        case .countryCodeStartsWithZero:
            return "no country code starts with 0: after + or 00 comes the country code, e.g. +39"
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

// MARK: Pseudo-ids

/// A pseudo-id: 20 bytes, the first 16 are `0x88` (the design's 32 hexadecimal 8s), the last 4
/// random. Only the last 4 bytes tell pseudo-ids apart, so at most 2^32 exist.
public struct PseudoID: Hashable, Sendable, Comparable {
    /// The 4 random bytes, big-endian.
    public let suffix: UInt32

    public init(suffix: UInt32) { self.suffix = suffix }

    public static let byteCount = 20
    public static let prefixByte: UInt8 = 0x88
    public static let prefixLength = 16
    /// Every pseudo-id the design allows: 2^32.
    public static let capacity: Int64 = 1 << 32

    /// The pseudo-id in a 20-byte beacon; nil when the beacon lacks the `0x88…` prefix (a foreign beacon).
    public init?<Bytes: RandomAccessCollection>(beacon: Bytes) where Bytes.Element == UInt8, Bytes.Index == Int {
        guard beacon.count == PseudoID.byteCount else { return nil }
        let start = beacon.startIndex
        for offset in 0..<PseudoID.prefixLength where beacon[start + offset] != PseudoID.prefixByte {
            return nil
        }
        var value: UInt32 = 0
        for offset in PseudoID.prefixLength..<PseudoID.byteCount {
            value = value << 8 | UInt32(beacon[start + offset])
        }
        suffix = value
    }

    /// 40 lowercase hex characters, as the login response lists them.
    public init?(hex: String) {
        let bytes = Array(hex.utf8)
        guard bytes.count == 40 else { return nil }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(20)
        var index = 0
        while index < 40 {
            guard let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]) else { return nil }
            decoded.append(high << 4 | low)
            index += 2
        }
        self.init(beacon: decoded)
    }

    public var bytes: [UInt8] {
        [UInt8](repeating: PseudoID.prefixByte, count: PseudoID.prefixLength) + [
            UInt8(suffix >> 24), UInt8(suffix >> 16 & 0xff), UInt8(suffix >> 8 & 0xff), UInt8(suffix & 0xff),
        ]
    }

    public var hex: String { String(repeating: "88", count: PseudoID.prefixLength) + PseudoID.hex8(suffix) }

    static func hex8(_ value: UInt32) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for shift in stride(from: 28, through: 0, by: -4) {
            text.append(digits[Int(value >> UInt32(shift) & 0xf)])
        }
        return text
    }

    public static func < (lhs: PseudoID, rhs: PseudoID) -> Bool { lhs.suffix < rhs.suffix }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
}

/// How full the pseudo-id space is.
public struct PseudoIDCapacity: Hashable, Sendable {
    public var used: Int64
    public var capacity: Int64 = PseudoID.capacity

    public init(used: Int64) { self.used = used }

    public var fraction: Double { Double(used) / Double(capacity) }
    /// Past half: registration still works but each new pseudo-id takes more tries to find.
    public var isWarning: Bool { used * 2 > capacity }
    /// Whether `count` more pseudo-ids fit.
    public func fits(_ count: Int) -> Bool { used + Int64(count) <= capacity }

    /// "12 000 000 of 4 294 967 296 pseudo-ids used (0.28 %)".
    public var summary: String {
        let percent = (fraction * 10_000).rounded() / 100
        return "\(used) of \(capacity) pseudo-ids used (\(percent) %)"
    }
}

// MARK: Contact files

/// One record of a contact file: the beacon heard and when (app clock; 0 = no timestamp).
public struct ContactRecord: Hashable, Sendable {
    /// The 20 beacon bytes as heard: a pseudo-id, or a foreign beacon.
    public var beacon: [UInt8]
    /// Unix seconds, or 0 when the app sent none.
    public var time: UInt32

    public init(beacon: [UInt8], time: UInt32) {
        self.beacon = beacon
        self.time = time
    }

    public var pseudoID: PseudoID? { PseudoID(beacon: beacon) }
}

/// The binary contact file: records of 24 bytes, 20-byte beacon + 4-byte big-endian unix time.
public enum ContactFile {
    public static let recordSize = 24
    public static let maxRecords = 43_690
    public static let maxBytes = maxRecords * recordSize  // 1 048 560

    /// Checks the length alone (before the body is read whole, for the 413).
    public static func checkLength(_ length: Int) -> ContactFileError? {
        if length == 0 { return .empty }
        if length > maxBytes { return .tooLarge(bytes: length) }
        if length % recordSize != 0 { return .notWholeRecords(bytes: length) }
        return nil
    }

    /// The records of a file; the length must be 1…43 690 whole records.
    public static func parse(_ bytes: [UInt8]) throws(ContactFileError) -> [ContactRecord] {
        if let problem = checkLength(bytes.count) { throw problem }
        var records: [ContactRecord] = []
        records.reserveCapacity(bytes.count / recordSize)
        var offset = 0
        while offset < bytes.count {
            let beacon = Array(bytes[offset..<offset + 20])
            let time =
                UInt32(bytes[offset + 20]) << 24 | UInt32(bytes[offset + 21]) << 16 | UInt32(bytes[offset + 22]) << 8
                | UInt32(bytes[offset + 23])
            records.append(ContactRecord(beacon: beacon, time: time))
            offset += recordSize
        }
        return records
    }

    /// Walks a file's records without copying them: `body` gets each record's byte offset, its
    /// pseudo-id suffix (nil for a foreign beacon) and its time. For reading many files fast
    /// (a lookup walks 864 000 records); the length must pass ``checkLength(_:)`` (nothing is
    /// walked otherwise). Agrees with ``parse(_:)`` record for record.
    public static func scan(_ bytes: [UInt8], _ body: (_ offset: Int, _ suffix: UInt32?, _ time: UInt32) -> Void) {
        guard checkLength(bytes.count) == nil else { return }
        bytes.withUnsafeBytes { raw in
            let prefix = UInt64(0x8888_8888_8888_8888)
            var offset = 0
            while offset < raw.count {
                let isPseudoID =
                    raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == prefix
                    && raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self) == prefix
                let suffix = UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt32.self))
                let time = UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 20, as: UInt32.self))
                body(offset, isPseudoID ? suffix : nil, time)
                offset += recordSize
            }
        }
    }

    /// The records as a file.
    public static func encode(_ records: [ContactRecord]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.count * recordSize)
        for record in records {
            bytes += record.beacon
            bytes += [
                UInt8(record.time >> 24), UInt8(record.time >> 16 & 0xff), UInt8(record.time >> 8 & 0xff),
                UInt8(record.time & 0xff),
            ]
        }
        return bytes
    }

    /// Whether a file for `day` may be uploaded `today` (UTC). The day is the phone's local day,
    /// which can be a day ahead of or behind UTC, so the window is the last `historyDays` days
    /// (today counting as one) widened by one day on each side: from
    /// ``oldestDay(today:historyDays:)`` to tomorrow.
    public static func checkDay(_ day: CivilDay, today: CivilDay, historyDays: Int) -> ContactFileError? {
        if day > today.adding(days: 1) { return .dayInFuture(day) }
        if day < oldestDay(today: today, historyDays: historyDays) { return .dayTooOld(day, historyDays: historyDays) }
        return nil
    }

    /// The oldest day whose file is accepted and kept: `historyDays` days back from today (UTC),
    /// today counting as one, and one more for phones behind UTC. Uploads, cleanup and lookups
    /// all use it.
    public static func oldestDay(today: CivilDay, historyDays: Int) -> CivilDay {
        today.adding(days: -max(1, historyDays))
    }

    /// A record's time as stored: app time + skew (server receive time − app clock at upload);
    /// zero stays zero ("no timestamp"). Kept within 1…UInt32.max.
    public static func adjusted(_ time: UInt32, skewSeconds: Int64) -> UInt32 {
        if time == 0 { return 0 }
        let value = Int64(time) + skewSeconds
        return UInt32(clamping: max(1, value))
    }
}

/// Why a contact file is refused; nothing is stored. Messages are for app developers and
/// staff reading logs: they say what is wrong and never quote the content.
public enum ContactFileError: Error, Hashable, Sendable {
    case empty
    case notWholeRecords(bytes: Int)
    case tooLarge(bytes: Int)
    case dayInFuture(CivilDay)
    case dayTooOld(CivilDay, historyDays: Int)

    public var message: String {
        switch self {
        case .empty:
            return
                "the contact file is empty: send 1 to 43690 records of 24 bytes, or send nothing for a day without contacts"
        case .notWholeRecords(let bytes):
            return
                "the contact file has \(bytes) bytes, not a multiple of 24: each record is a 20-byte beacon and a 4-byte big-endian time"
        case .tooLarge(let bytes):
            return
                "the contact file has \(bytes) bytes, more than 1048560 (43690 records): split the day or drop repeats"
        case .dayInFuture(let day):
            return "the contact file's day \(day.iso) is in the future (UTC): check the phone's date"
        case .dayTooOld(let day, let historyDays):
            return
                "the contact file's day \(day.iso) is older than the \(historyDays)-day contact history: it is not kept"
        }
    }
}

// MARK: Contact tracing

/// What a tracer recorded about calling one contact.
public enum ContactOutcome: String, Hashable, Sendable, CaseIterable {
    case notYetCalled = "not_yet_called"
    case noAnswer = "no_answer"
    case reachedIsolating = "reached_isolating"
    case reachedRefused = "reached_refused"
    case wrongNumber = "wrong_number"

    public var label: String {
        switch self {
        case .notYetCalled: return "not yet called"
        case .noAnswer: return "no answer"
        case .reachedIsolating: return "reached, isolating"
        case .reachedRefused: return "reached, refused"
        case .wrongNumber: return "wrong number"
        }
    }
}

/// One sighting after resolution: a record of the patient's files with its owner.
public struct Sighting: Hashable, Sendable {
    /// Unix seconds (server clock), or 0 when the app sent no time.
    public var time: Int64
    /// The day of the file the record came from.
    public var fileDay: CivilDay
    /// The beacon heard (20 bytes).
    public var beacon: [UInt8]
    /// The contact person's user id; nil when unresolved (foreign beacon, no known owner, or
    /// the patient's own pseudo-id).
    public var contactUserID: Int64?

    public init(time: Int64, fileDay: CivilDay, beacon: [UInt8], contactUserID: Int64?) {
        self.time = time
        self.fileDay = fileDay
        self.beacon = beacon
        self.contactUserID = contactUserID
    }

    /// The day the sighting counts for: the UTC day of its time, or the file's day without one.
    public var day: CivilDay { time == 0 ? fileDay : CivilDay(unixSeconds: time) }
}

/// One day of a contact's timeline (UTC).
public struct DayHours: Hashable, Sendable {
    public var day: CivilDay
    /// Minutes of proximity credited in each hour, 0 to 23 (UTC), at most 60 each: timed
    /// sightings only (see ``ContactAggregation``).
    public var minutesByHour: [Int]
    /// Sightings without a time on this day (not in any hour).
    public var untimed: Int
    /// The day's minutes of proximity as the table and the close-contact rule count them:
    /// timed and untimed sightings, at most 1 440.
    public var minutes: Int

    public init(
        day: CivilDay, minutesByHour: [Int] = Array(repeating: 0, count: 24), untimed: Int = 0, minutes: Int = 0
    ) {
        self.day = day
        self.minutesByHour = minutesByHour
        self.untimed = untimed
        self.minutes = minutes
    }
}

/// One contact person of a patient, aggregated over every sighting.
public struct ContactSummary: Hashable, Sendable {
    public var userID: Int64
    public var phone: PhoneNumber
    /// Earliest and latest timed sighting; nil when every sighting lacked a time.
    public var firstSeen: Date?
    public var lastSeen: Date?
    public var sightings: Int
    /// Minutes of proximity (see ``ContactAggregation``).
    public var minutes: Int
    public var days: Int
    public var mostMinutesOnOneDay: Int
    public var isCloseContact: Bool
    /// Newest day first.
    public var timeline: [DayHours]

    public init(
        userID: Int64, phone: PhoneNumber, firstSeen: Date?, lastSeen: Date?, sightings: Int, minutes: Int, days: Int,
        mostMinutesOnOneDay: Int, isCloseContact: Bool, timeline: [DayHours]
    ) {
        self.userID = userID
        self.phone = phone
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.sightings = sightings
        self.minutes = minutes
        self.days = days
        self.mostMinutesOnOneDay = mostMinutesOnOneDay
        self.isCloseContact = isCloseContact
        self.timeline = timeline
    }
}

/// Turns resolved sightings into one summary per contact person.
///
/// Rules (docs/decisions.md, "APRICOT minutes of proximity"), with D = BEACON_DETECT_INTERVAL:
/// - every sighting stands for D seconds of proximity;
/// - timed sightings of one contact are counted once per minute (UTC, `time / 60`): a minute
///   with n distinct record times is credited min(n × D, max(60, D)) seconds, so one scan heard
///   twice (two beacons of one phone) counts once, scans every 30 s count 60 s in a minute,
///   and a scan every 120 s counts its 120 s;
/// - sightings without a time each count D seconds on their file's day;
/// - a timed sighting more than a day away from its file's day (a wild app clock) counts as
///   untimed on the file's day, so it cannot add days or move first and last seen;
/// - a day's minutes are its seconds / 60, at most 1 440; a contact is close when the minutes
///   of one day reach the close-contact threshold.
public enum ContactAggregation {
    public static func summarize(
        _ sightings: [Sighting], phones: [Int64: PhoneNumber], settings: ApricotSettings
    ) -> [ContactSummary] {
        // Per contact: the times heard (sorted once at the end: minutes and days then come in
        // order, without a set or a dictionary per sighting) and the untimed ones per file day.
        struct Accumulator {
            var sightings = 0
            var times: [Int64] = []
            var untimed: [CivilDay: Int] = [:]
        }
        var slots: [Int64: Int] = [:]
        var entries: [(contact: Int64, entry: Accumulator)] = []
        for sighting in sightings {
            guard let contact = sighting.contactUserID else { continue }
            let slot: Int
            if let found = slots[contact] {
                slot = found
            } else {
                slot = entries.count
                slots[contact] = slot
                entries.append((contact, Accumulator()))
            }
            // Changed in place through the array's subscript: nothing is copied.
            entries[slot].entry.sightings += 1
            let offset = sighting.time / 86_400 - Int64(sighting.fileDay.daysSinceEpoch)
            if sighting.time == 0 || offset < -1 || offset > 1 {
                entries[slot].entry.untimed[sighting.fileDay, default: 0] += 1
            } else {
                entries[slot].entry.times.append(sighting.time)
            }
        }
        let detect = Int64(max(1, settings.beaconDetectSeconds))
        let minuteCap = max(60, detect)
        var summaries: [ContactSummary] = []
        summaries.reserveCapacity(entries.count)
        for (contact, entry) in entries {
            guard let phone = phones[contact] else { continue }
            var hours: [CivilDay: DayHours] = [:]
            var hourSeconds: [CivilDay: [Int64]] = [:]
            var daySeconds: [CivilDay: Int64] = [:]
            for (day, count) in entry.untimed {
                hours[day] = DayHours(day: day, untimed: count)
                daySeconds[day, default: 0] += Int64(count) * detect
            }
            let times = entry.times.sorted()
            var index = 0
            while index < times.count {
                // One minute: count its distinct record times.
                let minute = times[index] / 60
                var distinct: Int64 = 0
                var previous: Int64 = -1
                while index < times.count, times[index] / 60 == minute {
                    if times[index] != previous { distinct += 1 }
                    previous = times[index]
                    index += 1
                }
                let credit = min(distinct * detect, minuteCap)
                let day = CivilDay(unixSeconds: minute * 60)
                daySeconds[day, default: 0] += credit
                hourSeconds[day, default: Array(repeating: 0, count: 24)][Int(minute * 60 % 86_400 / 3_600)] += credit
                if hours[day] == nil { hours[day] = DayHours(day: day) }
            }
            var minutes = 0
            var most = 0
            for (day, seconds) in daySeconds {
                let dayMinutes = Int(min(seconds / 60, 1_440))
                minutes += dayMinutes
                most = max(most, dayMinutes)
                hours[day]?.minutes = dayMinutes
                if let perHour = hourSeconds[day] {
                    hours[day]?.minutesByHour = perHour.map { Int(min($0 / 60, 60)) }
                }
            }
            let first = times.first
            let last = times.last
            summaries.append(
                ContactSummary(
                    userID: contact, phone: phone, firstSeen: first.map { Date(timeIntervalSince1970: Double($0)) },
                    lastSeen: last.map { Date(timeIntervalSince1970: Double($0)) }, sightings: entry.sightings,
                    minutes: minutes, days: daySeconds.count, mostMinutesOnOneDay: most,
                    isCloseContact: most >= settings.closeContactMinutes,
                    timeline: hours.values.sorted { $0.day > $1.day }))
        }
        // Most minutes first, then the latest seen, then the user id: one stable order.
        summaries.sort {
            if $0.minutes != $1.minutes { return $0.minutes > $1.minutes }
            let lhs = $0.lastSeen ?? .distantPast
            let rhs = $1.lastSeen ?? .distantPast
            if lhs != rhs { return lhs > rhs }
            return $0.userID < $1.userID
        }
        return summaries
    }
}

/// The patient a lookup found.
public struct TracePatient: Hashable, Sendable {
    public var userID: Int64
    public var phone: PhoneNumber
    public var registeredAt: Date
    /// Days with a contact file kept.
    public var daysUploaded: Int
    public var records: Int
    /// The clock skew of the latest upload (server − app), seconds.
    public var skewSeconds: Int64
    /// The first and last day with a file kept; nil when none.
    public var firstDay: CivilDay?
    public var lastDay: CivilDay?
    public var lastUploadAt: Date?

    public init(
        userID: Int64, phone: PhoneNumber, registeredAt: Date, daysUploaded: Int, records: Int, skewSeconds: Int64,
        firstDay: CivilDay?, lastDay: CivilDay?, lastUploadAt: Date?
    ) {
        self.userID = userID
        self.phone = phone
        self.registeredAt = registeredAt
        self.daysUploaded = daysUploaded
        self.records = records
        self.skewSeconds = skewSeconds
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.lastUploadAt = lastUploadAt
    }
}

/// A recorded call outcome.
public struct RecordedOutcome: Hashable, Sendable {
    public var outcome: ContactOutcome
    public var note: String
    public var by: String
    public var at: Date

    public init(outcome: ContactOutcome, note: String, by: String, at: Date) {
        self.outcome = outcome
        self.note = note
        self.by = by
        self.at = at
    }

    /// Notes are free text a tracer types: at most this many characters.
    public static let maximumNoteLength = 500
}

/// One row of the contact-trace table: the aggregate and the latest outcome.
public struct TraceContact: Hashable, Sendable {
    public var summary: ContactSummary
    /// Nil until a tracer records one (shown as "not yet called").
    public var outcome: RecordedOutcome?

    public init(summary: ContactSummary, outcome: RecordedOutcome?) {
        self.summary = summary
        self.outcome = outcome
    }

    public var currentOutcome: ContactOutcome { outcome?.outcome ?? .notYetCalled }
}

/// Everything one lookup answers.
public struct TraceLookup: Hashable, Sendable {
    public var patient: TracePatient
    /// Sorted by minutes, most first.
    public var contacts: [TraceContact]
    /// Sightings that name no other registered person: foreign beacons, unknown pseudo-ids, and
    /// the patient's own pseudo-ids.
    public var unresolved: Int
    /// All sightings, resolved or not.
    public var totalSightings: Int
    public var closeContactMinutes: Int
    public var purpose: String
    public var lookedUpAt: Date

    public init(
        patient: TracePatient, contacts: [TraceContact], unresolved: Int, totalSightings: Int,
        closeContactMinutes: Int, purpose: String, lookedUpAt: Date
    ) {
        self.patient = patient
        self.contacts = contacts
        self.unresolved = unresolved
        self.totalSightings = totalSightings
        self.closeContactMinutes = closeContactMinutes
        self.purpose = purpose
        self.lookedUpAt = lookedUpAt
    }
}

/// The purpose / case reference every lookup, export and outcome carries (audited).
public enum TracePurpose {
    public static let maximumLength = 200

    /// The purpose trimmed, or a message saying what to type.
    public static func check(_ text: String) -> Result<String, TracePurposeError> {
        let trimmed = String(
            text.drop(while: { $0.isWhitespace }).reversed().drop(while: { $0.isWhitespace }).reversed())
        if trimmed.isEmpty { return .failure(.empty) }
        if trimmed.count > maximumLength { return .failure(.tooLong(trimmed.count)) }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .failure(.control)
        }
        return .success(trimmed)
    }
}

public enum TracePurposeError: Error, Hashable, Sendable {
    case empty
    case tooLong(Int)
    case control

    public var message: String {
        switch self {
        case .empty:
            return "type the purpose or case reference (e.g. case 2026-1234): every lookup is audited with it"
        case .tooLong(let count):
            return "the purpose has \(count) characters, at most \(TracePurpose.maximumLength): shorten it"
        case .control: return "the purpose may not contain control characters: type it on one line"
        }
    }
}

// MARK: SMS

public enum SmsDeliveryStatus: String, Hashable, Sendable {
    /// In the outbox gateway: kept for admins to read; no delivery happens.
    case held
    case pending
    case sent
    case failed
}

/// One SMS message (the text includes the code: shown only to admins by `tracedesk sms outbox`).
public struct SmsMessage: Hashable, Sendable {
    public var id: Int64
    public var phone: PhoneNumber
    public var text: String
    public var gateway: String
    public var status: SmsDeliveryStatus
    public var attempts: Int
    public var detail: String
    public var createdAt: Date
    public var updatedAt: Date
    /// Why `text` is empty: the code it carried is dead, so the store keeps no more of it.
    public var textDropped: SmsTextDropped?

    public init(
        id: Int64, phone: PhoneNumber, text: String, gateway: String, status: SmsDeliveryStatus, attempts: Int,
        detail: String, createdAt: Date, updatedAt: Date, textDropped: SmsTextDropped? = nil
    ) {
        self.textDropped = textDropped
        self.id = id
        self.phone = phone
        self.text = text
        self.gateway = gateway
        self.status = status
        self.attempts = attempts
        self.detail = detail
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// Why an SMS's text was dropped from the outbox: its code can no longer be used.
public enum SmsTextDropped: String, Hashable, Sendable {
    case expired
    case used
    /// A newer code was sent to the same phone.
    case replaced

    /// For `tracedesk sms outbox`: what happened, and that nothing is lost.
    public var explanation: String {
        switch self {
        case .expired: "text dropped: its code expired"
        case .used: "text dropped: its code was used"
        case .replaced: "text dropped: a newer code replaced it"
        }
    }
}
