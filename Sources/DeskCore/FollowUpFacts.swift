import CivilCalendar

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a store reads to compute ``FollowUpIndicators``: counts and per-case values, nothing
/// about a person. ``IndicatorMath/indicators(_:)`` turns them into the figures, so both engines
/// compute alike and each rule is a table test (FollowUpScheduleTests).
///
/// "The cases" are the cases opened in `[from, to)`; "their follow-ups" the follow-ups naming
/// at least one of them (a follow-up naming two of them counts once).
public struct FollowUpFacts: Hashable, Sendable {
    public var from: Date
    public var to: Date
    public var now: Date

    /// One per case: how many follow-ups name it (hand-added ones included).
    public var contactsPerCase: [Int]
    /// Close contacts of the cases whose first 24 h are over at `now` (a case opened less than
    /// 24 h ago is not counted yet: its contacts may still be reached in time), one per
    /// (case, follow-up) pair.
    public var closeContactsDue: Int
    /// Of those, the ones reached at most 24 h after their case was opened (one reached before
    /// the case, for an earlier case, counts as reached in time).
    public var closeContactsReachedIn24h: Int
    /// One per case with a contact reached: milliseconds from the case opened to the first of
    /// its contacts reached (0 when one was reached before the case was opened).
    public var millisecondsToFirstReach: [Int64]
    /// Their follow-ups that completed (the period ended after the person was reached).
    public var completed: [MonitoredPeriod]
    /// Their follow-ups that ended, whatever the way, and those lost to follow-up.
    public var ended: Int
    public var lost: Int
    /// The cases whose patient was a known contact (the case came from a follow-up).
    public var knownContactCases: Int
    /// Active follow-ups never reached, by whole UTC days since they began (any case, at `now`):
    /// days → how many.
    public var unreachedByDays: [Int: Int]
    /// Per tracer, by name.
    public var tracers: [TracerLoad]

    public init(
        from: Date, to: Date, now: Date, contactsPerCase: [Int] = [], closeContactsDue: Int = 0,
        closeContactsReachedIn24h: Int = 0, millisecondsToFirstReach: [Int64] = [],
        completed: [MonitoredPeriod] = [], ended: Int = 0, lost: Int = 0, knownContactCases: Int = 0,
        unreachedByDays: [Int: Int] = [:], tracers: [TracerLoad] = []
    ) {
        self.from = from
        self.to = to
        self.now = now
        self.contactsPerCase = contactsPerCase
        self.closeContactsDue = closeContactsDue
        self.closeContactsReachedIn24h = closeContactsReachedIn24h
        self.millisecondsToFirstReach = millisecondsToFirstReach
        self.completed = completed
        self.ended = ended
        self.lost = lost
        self.knownContactCases = knownContactCases
        self.unreachedByDays = unreachedByDays
        self.tracers = tracers
    }
}

/// Completed follow-ups alike: reached on `reachedOn`, period ending on `periodEndsOn`, checked
/// on `checkedDays` days; `count` of them.
public struct MonitoredPeriod: Hashable, Sendable {
    public var reachedOn: CivilDay
    public var periodEndsOn: CivilDay
    public var checkedDays: Int
    public var count: Int

    public init(reachedOn: CivilDay, periodEndsOn: CivilDay, checkedDays: Int, count: Int = 1) {
        self.reachedOn = reachedOn
        self.periodEndsOn = periodEndsOn
        self.checkedDays = checkedDays
        self.count = count
    }

    /// The days a check was due: from the day the person was reached to the period's last day,
    /// both included (0 when they were reached after it ended).
    public var daysDue: Int { max(0, periodEndsOn.daysSinceEpoch - reachedOn.daysSinceEpoch + 1) }

    /// Checked on every day a check was due.
    public var checkedEveryDay: Bool { checkedDays >= daysDue }
}

extension IndicatorMath {
    /// The figures from the facts. A share or a median with nothing to count is nil.
    public static func indicators(_ facts: FollowUpFacts) -> FollowUpIndicators {
        let contacts = facts.contactsPerCase.map(Double.init)
        // Those reached after their period ended had no check due: not counted either way.
        let monitored = facts.completed.filter { $0.daysDue > 0 }
        let checkedEveryDay = monitored.filter(\.checkedEveryDay).reduce(0) { $0 + $1.count }
        return FollowUpIndicators(
            from: facts.from, to: facts.to, cases: facts.contactsPerCase.count,
            contactsPerCaseMean: mean(contacts), contactsPerCaseMedian: median(contacts),
            reachedWithin24hPercent: percent(facts.closeContactsReachedIn24h, of: facts.closeContactsDue),
            medianHoursToFirstReach: median(facts.millisecondsToFirstReach.map { Double(max(0, $0)) / 3_600_000 }),
            checkedEveryDayPercent: percent(checkedEveryDay, of: monitored.reduce(0) { $0 + $1.count }),
            unreached: unreachedAges(facts.unreachedByDays), lostPercent: percent(facts.lost, of: facts.ended),
            knownContactPercent: percent(facts.knownContactCases, of: facts.contactsPerCase.count),
            tracers: facts.tracers.sorted { $0.tracer < $1.tracer })
    }

    /// Days since a follow-up began → how many, as the four columns: 1, 2, 3 and more than 3
    /// days (those begun today are not unreached for a day yet).
    public static func unreachedAges(_ byDays: [Int: Int]) -> UnreachedAges {
        var ages = UnreachedAges()
        for (days, count) in byDays {
            switch days {
            case ..<1: break
            case 1: ages.oneDay += count
            case 2: ages.twoDays += count
            case 3: ages.threeDays += count
            default: ages.moreThanThreeDays += count
            }
        }
        return ages
    }
}
