import CivilCalendar
import DeskCore

/// Who is near whom on a day, for `people` simulated APRICOT users: households, workplaces and
/// chance encounters, all drawn from a seed (the same seed and day give the same day).
///
/// - Households of 1 to 4 people, together 00:00–07:30 and 19:00–24:00 (UTC).
/// - Three in four people work; workplaces of 3 to 10, where each pair of colleagues shares
///   one to three meetings of 15 to 90 minutes between 09:00 and 17:00.
/// - Each person has 0 to 3 chance encounters with anyone, 1 to 20 minutes, 07:00–22:00.
///
/// A phone records the beacon it hears once per BEACON_DETECT_INTERVAL for as long as two
/// people are together; the beacon changes every BEACON_CHANGE_INTERVAL (``ApricotIdentity``).
public struct MobilityModel: Sendable {
    /// Two people together from `start` to `end` (seconds since the day's midnight, UTC).
    public struct Encounter: Sendable, Hashable {
        public var a: Int
        public var b: Int
        public var start: Int
        public var end: Int
    }

    public let people: Int
    public let seed: UInt64
    /// Household number of each person.
    public let households: [Int]
    /// Workplace number of each person, nil for those who do not work.
    public let workplaces: [Int?]

    public init(people: Int, seed: UInt64) {
        self.people = people
        self.seed = seed
        var random = SeededRandom(seed: seed, stream: 0x4F55_5345)
        var households: [Int] = []
        var household = 0
        while households.count < people {
            let size = Int.random(in: 1...4, using: &random)
            households.append(contentsOf: repeatElement(household, count: min(size, people - households.count)))
            household += 1
        }
        var workplaces: [Int?] = []
        var workplace = 0
        var left = 0
        for _ in 0..<people {
            guard Double.random(in: 0..<1, using: &random) < 0.75 else {
                workplaces.append(nil)
                continue
            }
            if left == 0 {
                workplace += 1
                left = Int.random(in: 3...10, using: &random)
            }
            workplaces.append(workplace)
            left -= 1
        }
        self.households = households
        self.workplaces = workplaces
    }

    /// Every encounter of `day`, each pair's time spans in order.
    public func encounters(on day: CivilDay) -> [Encounter] {
        var random = SeededRandom(seed: seed, stream: UInt64(bitPattern: Int64(day.daysSinceEpoch)))
        var out: [Encounter] = []
        func groups(_ keys: [Int?]) -> [[Int]] {
            var members: [Int: [Int]] = [:]
            for (person, key) in keys.enumerated() { if let key { members[key, default: []].append(person) } }
            return members.keys.sorted().map { members[$0]! }
        }
        for home in groups(households.map { $0 }) where home.count > 1 {
            for i in 0..<home.count {
                for j in (i + 1)..<home.count {
                    out.append(Encounter(a: home[i], b: home[j], start: 0, end: 7 * 3_600 + 1_800))
                    out.append(Encounter(a: home[i], b: home[j], start: 19 * 3_600, end: 86_400))
                }
            }
        }
        for team in groups(workplaces) where team.count > 1 {
            for i in 0..<team.count {
                for j in (i + 1)..<team.count {
                    for _ in 0..<Int.random(in: 1...3, using: &random) {
                        let length = Int.random(in: 15...90, using: &random) * 60
                        let start = Int.random(in: (9 * 3_600)...(17 * 3_600 - length), using: &random)
                        out.append(Encounter(a: team[i], b: team[j], start: start, end: start + length))
                    }
                }
            }
        }
        if people > 1 {
            for person in 0..<people {
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    var other = Int.random(in: 0..<people - 1, using: &random)
                    if other >= person { other += 1 }
                    let length = Int.random(in: 1...20, using: &random) * 60
                    let start = Int.random(in: (7 * 3_600)...(22 * 3_600 - length), using: &random)
                    out.append(Encounter(a: person, b: other, start: start, end: start + length))
                }
            }
        }
        return out
    }

    /// ``encounters(on:)`` indexed by person: each person's encounters, in the same order.
    /// Build it once per day and pass each person's list to
    /// ``records(of:on:until:encounters:identities:settings:clockOffset:)``.
    public func encountersByPerson(on day: CivilDay) -> [[Encounter]] {
        var out = [[Encounter]](repeating: [], count: people)
        for encounter in encounters(on: day) {
            out[encounter.a].append(encounter)
            out[encounter.b].append(encounter)
        }
        return out
    }

    /// The records `person`'s phone wrote on `day` up to `until` (unix seconds, server time),
    /// hearing the `beacons` of others: one per `detectSeconds` while together. `clockOffset` is
    /// the phone's clock minus true time (records carry the phone's clock); with
    /// `timestamps` off every record's time is 0.
    public func records(
        of person: Int, on day: CivilDay, until: Int64, identities: [ApricotIdentity?], settings: ApricotAppSettings,
        clockOffset: Int64 = 0
    ) -> [ContactRecord] {
        records(
            of: person, on: day, until: until,
            encounters: encounters(on: day).filter { $0.a == person || $0.b == person }, identities: identities,
            settings: settings, clockOffset: clockOffset)
    }

    /// The records `person`'s phone wrote on `day` up to `until`, from `encounters` (those of
    /// `person` on `day`, from ``encountersByPerson(on:)``).
    public func records(
        of person: Int, on day: CivilDay, until: Int64, encounters: [Encounter], identities: [ApricotIdentity?],
        settings: ApricotAppSettings, clockOffset: Int64 = 0
    ) -> [ContactRecord] {
        let midnight = day.unixSecondsAtMidnightUTC
        let detect = max(1, settings.beaconDetectSeconds)
        var records: [ContactRecord] = []
        for encounter in encounters where encounter.a == person || encounter.b == person {
            let other = encounter.a == person ? encounter.b : encounter.a
            guard other < identities.count, let heard = identities[other] else { continue }
            var time = midnight + Int64(encounter.start)
            // Scans fall on the detect interval's grid, as a phone's periodic scan does.
            time += (Int64(detect) - time % Int64(detect)) % Int64(detect)
            while time < midnight + Int64(encounter.end), time <= until {
                let beacon = heard.beacon(at: time, changeSeconds: settings.beaconChangeSeconds)
                let stamp = settings.contactTimestamps ? UInt32(clamping: time + clockOffset) : 0
                records.append(ContactRecord(beacon: beacon, time: stamp))
                time += Int64(detect)
            }
        }
        records.sort { $0.time < $1.time }
        return records
    }
}
