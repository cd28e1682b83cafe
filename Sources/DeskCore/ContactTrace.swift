import CivilCalendar
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// APRICOT contact tracing (spec/apricot-protocol.md): sightings aggregated per contact person,
// the lookup's answer and the call outcomes a tracer records.

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
        case .empty: return tr("messages.purpose.empty")
        case .tooLong(let count):
            return tr(
                "messages.purpose.tooLong", ["count": String(count), "maximum": String(TracePurpose.maximumLength)])
        case .control: return tr("messages.purpose.control")
        }
    }
}
