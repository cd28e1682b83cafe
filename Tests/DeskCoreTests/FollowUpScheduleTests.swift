import CivilCalendar
import DeskCore
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// ``FollowUpSchedule``: issue 21's rules as tables. Day 0 is 2026-12-01 (UTC); the contact was
/// last exposed on day -2, so with the default 14 days the period ends on day 12.
@Suite("Follow-up schedule")
struct FollowUpScheduleTests {
    static let settings = FollowUpSettings.standard
    static let day0 = CivilDay(year: 2026, month: 12, day: 1)!
    static let exposure = day0.adding(days: -2)
    static let periodEnd = day0.adding(days: 12)

    /// Day `day` (from day 0) at `hour`:`minute` UTC.
    static func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        let ms = Int64(day0.adding(days: day).daysSinceEpoch) * 86_400_000 + Int64(hour * 60 + minute) * 60_000
        return Date(unixMilliseconds: ms)
    }

    /// A follow-up opened at day 0, 08:00, as ``FollowUpSchedule/opened(lastExposure:now:settings:)`` makes it.
    static func fresh(exposure: CivilDay = exposure, createdAt: Date = at(0, 8)) -> FollowUp {
        let opened = FollowUpSchedule.opened(lastExposure: exposure, now: createdAt, settings: settings)
        return FollowUp(
            id: 7, personUserID: 3, phone: PhoneNumber(e164: "+393331234567")!,
            reasons: [
                FollowUpReason(
                    caseID: 1, caseReference: "ASL-1", lastExposureDay: exposure, minutes: 40, days: 2,
                    mostMinutesOnOneDay: 30, isCloseContact: true)
            ], lastExposureDay: exposure, periodEndsOn: opened.periodEndsOn, assignedTo: "tina", state: .calling,
            createdAt: createdAt, nextDueAt: opened.nextDueAt)
    }

    enum Step: Sendable, CustomStringConvertible {
        case call(CallOutcome, Date)
        case check(symptoms: Bool, Date)

        var description: String {
            switch self {
            case .call(let outcome, let at): return "\(outcome.label) at \(at.unixMilliseconds)"
            case .check(let symptoms, let at): return "check symptoms=\(symptoms) at \(at.unixMilliseconds)"
            }
        }
    }

    static func run(_ steps: [Step], from start: FollowUp = fresh()) -> FollowUp {
        var followUp = start
        for step in steps {
            switch step {
            case .call(let outcome, let now):
                followUp = FollowUpSchedule.attempted(followUp, outcome: outcome, at: now, settings: settings)
            case .check(let symptoms, let now):
                followUp = FollowUpSchedule.checked(followUp, symptoms: symptoms, at: now, settings: settings)
            }
        }
        return followUp
    }

    @Test("a new follow-up: the first call is due at once, the period ends N days after the last exposure")
    func opened() {
        let opened = FollowUpSchedule.opened(
            lastExposure: Self.exposure, now: Self.at(0, 8, 17), settings: Self.settings)
        #expect(opened.nextDueAt == Self.at(0, 8, 17))
        #expect(opened.periodEndsOn == Self.periodEnd)
        var short = Self.settings
        short.periodDays = 5
        #expect(FollowUpSchedule.periodEnd(lastExposure: Self.exposure, settings: short) == Self.day0.adding(days: 3))
        // An exposure long ago: the period is over, yet one call is still due now.
        let old = FollowUpSchedule.opened(
            lastExposure: Self.day0.adding(days: -30), now: Self.at(0, 8), settings: Self.settings)
        #expect(old.nextDueAt == Self.at(0, 8))
        #expect(old.periodEndsOn < Self.day0)
    }

    /// Steps from a fresh follow-up → state, next due, attempts on the last day.
    static let calls: [([Step], FollowUpState, Date?, Int)] = [
        // No answer or voicemail: the retry interval (2 h) later.
        ([.call(.noAnswer, at(0, 9))], .calling, at(0, 11), 1),
        ([.call(.voicemail, at(0, 9))], .calling, at(0, 11), 1),
        ([.call(.noAnswer, at(0, 9)), .call(.voicemail, at(0, 11))], .calling, at(0, 13), 2),
        // The third of the day (attemptsPerDay 3): the next day's start.
        (
            [.call(.noAnswer, at(0, 9)), .call(.noAnswer, at(0, 11)), .call(.noAnswer, at(0, 13))], .calling, at(1, 0),
            3
        ),
        // A retry that would fall on the next day: the next day's start.
        ([.call(.noAnswer, at(0, 22, 30))], .calling, at(1, 0), 1),
        ([.call(.noAnswer, at(0, 21, 59))], .calling, at(0, 23, 59), 1),
        // A new day: its own attempts.
        (
            [
                .call(.noAnswer, at(0, 9)), .call(.noAnswer, at(0, 11)), .call(.noAnswer, at(0, 13)),
                .call(.noAnswer, at(1, 9)),
            ],
            .calling, at(1, 11), 1
        ),
        // Unreachable on days 0, 1 and 2: still calling; a missed call on day 3 (lostAfterDays 3): lost.
        ([.call(.noAnswer, at(0, 9)), .call(.noAnswer, at(1, 9)), .call(.noAnswer, at(2, 9))], .calling, at(2, 11), 1),
        (
            [
                .call(.noAnswer, at(0, 9)), .call(.noAnswer, at(1, 9)), .call(.noAnswer, at(2, 9)),
                .call(.voicemail, at(3, 9)),
            ],
            .lost, nil, 1
        ),
        // Wrong number and refused end it at once.
        ([.call(.wrongNumber, at(0, 9))], .wrongNumber, nil, 1),
        ([.call(.noAnswer, at(0, 9)), .call(.wrongNumber, at(0, 11))], .wrongNumber, nil, 2),
        ([.call(.refused, at(0, 9))], .refused, nil, 1),
        // Reached: monitoring, today's check due at once.
        ([.call(.reached, at(0, 9))], .monitoring, at(0, 9), 1),
        ([.call(.noAnswer, at(0, 9)), .call(.reached, at(1, 10))], .monitoring, at(1, 10), 1),
        // Reached, a check today, reached again the same day: tomorrow's check.
        (
            [.call(.reached, at(0, 9)), .check(symptoms: false, at(0, 9, 5)), .call(.reached, at(0, 15))], .monitoring,
            at(1, 0), 2
        ),
        // A monitored contact not answering the check call: retried as any call.
        (
            [.call(.reached, at(0, 9)), .check(symptoms: false, at(0, 9, 5)), .call(.noAnswer, at(1, 9))], .monitoring,
            at(1, 11), 1
        ),
        // ...and missing calls for days while monitored is never "lost": they were reached.
        (
            [
                .call(.reached, at(0, 9)), .call(.noAnswer, at(4, 9)), .call(.noAnswer, at(4, 11)),
                .call(.noAnswer, at(4, 13)),
            ],
            .monitoring, at(5, 0), 3
        ),
        // A missed check call on the period's last day whose retry falls after it: completed.
        ([.call(.reached, at(0, 9)), .call(.noAnswer, at(12, 22, 30))], .completed, nil, 1),
    ]

    @Test("call outcomes from a fresh follow-up", arguments: calls)
    func callOutcome(steps: [Step], state: FollowUpState, due: Date?, today: Int) {
        let followUp = Self.run(steps)
        #expect(followUp.state == state)
        #expect(followUp.nextDueAt == due)
        #expect(followUp.attemptsOnLastDay == today)
        #expect(followUp.attempts == steps.filter { if case .call = $0 { true } else { false } }.count)
        if case .call(let outcome, let last) = steps.last(where: { if case .call = $0 { true } else { false } }) {
            #expect(followUp.lastOutcome == outcome)
            #expect(followUp.lastAttemptAt == last)
        }
        #expect((followUp.endedAt != nil) == !state.isActive)
        #expect(state.isActive == (followUp.nextDueAt != nil))
    }

    @Test("reached: the first reach is kept, later ones do not move it")
    func reachedAt() {
        let followUp = Self.run([
            .call(.reached, Self.at(0, 9)), .check(symptoms: false, Self.at(0, 9, 5)), .call(.reached, Self.at(1, 9)),
        ])
        #expect(followUp.reachedAt == Self.at(0, 9))
    }

    @Test("reached after the period ended: completed at once, nothing more due")
    func reachedLate() {
        let late = Self.fresh(exposure: Self.day0.adding(days: -20))
        let followUp = Self.run([.call(.reached, Self.at(0, 9))], from: late)
        #expect(followUp.state == .completed)
        #expect(followUp.nextDueAt == nil)
        #expect(followUp.endedAt == Self.at(0, 9))
        #expect(followUp.reachedAt == Self.at(0, 9))
    }

    /// Checks after a reach at day 0, 09:00 → state, next due, days checked, flagged.
    static let checks: [([Step], FollowUpState, Date?, Int, Bool)] = [
        ([.check(symptoms: false, at(0, 9, 5))], .monitoring, at(1, 0), 1, false),
        // Two checks on one day count one day.
        ([.check(symptoms: false, at(0, 9, 5)), .check(symptoms: false, at(0, 18))], .monitoring, at(1, 0), 1, false),
        ([.check(symptoms: false, at(0, 9, 5)), .check(symptoms: false, at(1, 10))], .monitoring, at(2, 0), 2, false),
        // Symptoms flag it (and the flag stays on later checks without symptoms).
        ([.check(symptoms: true, at(0, 9, 5))], .monitoring, at(1, 0), 1, true),
        ([.check(symptoms: true, at(0, 9, 5)), .check(symptoms: false, at(1, 9))], .monitoring, at(2, 0), 2, true),
        // A skipped day: the next check is still tomorrow's.
        ([.check(symptoms: false, at(0, 9, 5)), .check(symptoms: false, at(3, 9))], .monitoring, at(4, 0), 2, false),
        // The check on the period's last day (day 12) completes it.
        ([.check(symptoms: false, at(11, 9))], .monitoring, at(12, 0), 1, false),
        ([.check(symptoms: false, at(11, 9)), .check(symptoms: false, at(12, 9))], .completed, nil, 2, false),
    ]

    @Test("daily checks of a contact reached on day 0", arguments: checks)
    func dailyCheck(steps: [Step], state: FollowUpState, due: Date?, days: Int, flagged: Bool) {
        let followUp = Self.run([.call(.reached, Self.at(0, 9))] + steps)
        #expect(followUp.state == state)
        #expect(followUp.nextDueAt == due)
        #expect(followUp.checkedDays == days)
        #expect(followUp.symptomsFlagged == flagged)
        if case .check(_, let last) = steps.last { #expect(followUp.lastCheckDay == last.utcDay) }
    }

    /// A follow-up's state, attempts, reach → what the passing of time at `now` makes it (nil: unchanged).
    static let settles: [(FollowUpState, Int, Bool, Date, FollowUpState?)] = [
        // Monitored: completed once the period's last day (12) is over.
        (.monitoring, 1, true, at(12, 23, 59), nil),
        (.monitoring, 1, true, at(13, 0), .completed),
        (.monitoring, 1, true, at(40, 0), .completed),
        // Calling, created on day 0: lost from day 3 on, if anyone ever called.
        (.calling, 2, false, at(2, 23, 59), nil),
        (.calling, 2, false, at(3, 0), .lost),
        (.calling, 1, false, at(9, 0), .lost),
        // Nobody called: not the person's doing, still to call.
        (.calling, 0, false, at(9, 0), nil),
        // Ended follow-ups stay as they are.
        (.completed, 3, true, at(40, 0), nil),
        (.lost, 3, false, at(40, 0), nil),
        (.wrongNumber, 1, false, at(40, 0), nil),
        (.refused, 1, true, at(40, 0), nil),
        (.caseClosed, 0, false, at(40, 0), nil),
        (.becameCase, 1, true, at(40, 0), nil),
    ]

    @Test("settled: the period ending completes, days unreachable lose", arguments: settles)
    func settling(state: FollowUpState, attempts: Int, reached: Bool, now: Date, becomes: FollowUpState?) {
        var followUp = Self.fresh()
        followUp.state = state
        followUp.attempts = attempts
        followUp.reachedAt = reached ? Self.at(0, 9) : nil
        followUp.nextDueAt = state.isActive ? Self.at(0, 9) : nil
        let settled = FollowUpSchedule.settled(followUp, now: now, settings: Self.settings)
        #expect(settled?.state == becomes)
        if let settled {
            #expect(settled.nextDueAt == nil)
            #expect(settled.endedAt == now)
        }
    }

    @Test("lostAfterDays is a setting")
    func lostAfterSetting() {
        var settings = Self.settings
        settings.lostAfterDays = 1
        let followUp = FollowUpSchedule.attempted(
            FollowUpSchedule.attempted(Self.fresh(), outcome: .noAnswer, at: Self.at(0, 9), settings: settings),
            outcome: .noAnswer, at: Self.at(1, 9), settings: settings)
        #expect(followUp.state == .lost)
    }

    /// The last exposure of the existing follow-up, the new case's → the exposure and period kept.
    static let merges: [(CivilDay, CivilDay, CivilDay, CivilDay)] = [
        // A later exposure wins, and so does its period.
        (exposure, day0.adding(days: 1), day0.adding(days: 1), day0.adding(days: 15)),
        // An earlier or the same one changes nothing.
        (exposure, day0.adding(days: -5), exposure, periodEnd),
        (exposure, exposure, exposure, periodEnd),
    ]

    @Test("several cases: the latest exposure wins and its period", arguments: merges)
    func merging(existing: CivilDay, added: CivilDay, exposure: CivilDay, periodEnd: CivilDay) {
        let before = Self.run([.call(.noAnswer, Self.at(0, 9))], from: Self.fresh(exposure: existing))
        let after = FollowUpSchedule.merged(before, lastExposure: added, settings: Self.settings)
        #expect(after.lastExposureDay == exposure)
        #expect(after.periodEndsOn == periodEnd)
        // The calls made still count; the next call stays when it was.
        #expect(after.attempts == before.attempts)
        #expect(after.nextDueAt == before.nextDueAt)
        #expect(after.state == before.state)
    }

    @Test("merged into a monitored follow-up: the later period keeps the checks going")
    func mergedMonitoring() {
        let reached = Self.run([.call(.reached, Self.at(0, 9))])
        let merged = FollowUpSchedule.merged(reached, lastExposure: Self.day0.adding(days: 3), settings: Self.settings)
        #expect(merged.periodEndsOn == Self.day0.adding(days: 17))
        let checked = Self.run([.check(symptoms: false, Self.at(12, 9))], from: merged)
        #expect(checked.state == .monitoring)
        #expect(checked.nextDueAt == Self.at(13, 0))
    }

    static let allowed: [(FollowUpState, Bool, Bool)] = [
        // state, attempt allowed, check allowed
        (.calling, true, false),
        (.monitoring, true, true),
        (.completed, false, false),
        (.lost, false, false),
        (.wrongNumber, false, false),
        (.refused, false, false),
        (.caseClosed, false, false),
        (.becameCase, false, false),
    ]

    @Test("what may be recorded on a follow-up, and the message when not", arguments: allowed)
    func recordable(state: FollowUpState, attempt: Bool, check: Bool) {
        var followUp = Self.fresh()
        followUp.state = state
        let attemptProblem = FollowUpSchedule.attemptProblem(followUp)
        let checkProblem = FollowUpSchedule.checkProblem(followUp)
        #expect((attemptProblem == nil) == attempt)
        #expect((checkProblem == nil) == check)
        for message in [attemptProblem, checkProblem].compactMap({ $0 }) {
            // Names the follow-up, says what to do, never the phone number.
            #expect(message.contains("follow-up 7"))
            #expect(message.contains(":"))
            #expect(!message.contains("3331234567"))
        }
        if state == .calling { #expect(checkProblem?.contains("reached first") == true) }
        if !state.isActive { #expect(attemptProblem?.contains(state.label) == true) }
    }

    /// Due at, now → urgency (retry interval 2 h).
    static let urgencies: [(Date, Date, QueueUrgency)] = [
        (at(0, 7), at(0, 9), .overdue),
        (at(0, 7, 1), at(0, 9), .due),
        (at(0, 9), at(0, 9), .due),
        (at(0, 9, 1), at(0, 9), .laterToday),
        (at(0, 23, 59), at(0, 9), .laterToday),
        (at(1, 0), at(0, 9), .later),
        (at(-3, 0), at(0, 9), .overdue),
        // Just after midnight: yesterday evening's is overdue or due, as the interval says.
        (at(-1, 23), at(0, 0, 30), .due),
        (at(-1, 22), at(0, 0, 30), .overdue),
    ]

    @Test("queue urgency", arguments: urgencies)
    func urgencyOf(due: Date, now: Date, urgency: QueueUrgency) {
        #expect(QueueUrgency.of(dueAt: due, now: now, settings: Self.settings) == urgency)
    }

    @Test(
        "queue cursor text round-trips",
        arguments: [(0, 1), (1_764_547_200_000, 42), (5, Int64.max)] as [(Int64, Int64)])
    func cursorRoundTrip(due: Int64, id: Int64) {
        let cursor = QueueCursor(dueAtMilliseconds: due, followUpID: id)
        #expect(cursor.text == "\(due)-\(id)")
        #expect(QueueCursor(text: cursor.text) == cursor)
    }

    @Test(
        "queue cursor text that is not one",
        arguments: ["", "-", "12", "12-", "-12", "12-0", "12--3", "-5-3", "1.5-3", "a-b", "12-3-4", " 12-3", "12-3 "])
    func cursorRefused(text: String) {
        #expect(QueueCursor(text: text) == nil)
    }

    @Test("digit keys follow the outcomes' order; the command line's spelling round-trips")
    func outcomes() {
        #expect(CallOutcome.allCases.map(\.digit) == [1, 2, 3, 4, 5])
        #expect(CallOutcome.allCases == [.noAnswer, .voicemail, .wrongNumber, .reached, .refused])
        for outcome in CallOutcome.allCases { #expect(CallOutcome(argument: outcome.argument) == outcome) }
        #expect(CallOutcome.noAnswer.argument == "no-answer")
        #expect(CallOutcome(argument: "hung-up") == nil)
    }
}

/// ``IndicatorMath``: the indicators' arithmetic, and the figures of a small case by hand.
@Suite("Indicator math")
struct IndicatorMathTests {
    @Test(
        "median",
        arguments: [
            ([Double](), nil), ([4], 4), ([3, 1], 2), ([5, 1, 3], 3), ([1, 2, 3, 10], 2.5), ([7, 7, 7, 7], 7),
            ([0, 0, 9], 0),
        ] as [([Double], Double?)])
    func median(values: [Double], expected: Double?) {
        #expect(IndicatorMath.median(values) == expected)
    }

    @Test("mean", arguments: [([Double](), nil), ([4], 4), ([1, 2], 1.5), ([0, 0, 3], 1)] as [([Double], Double?)])
    func mean(values: [Double], expected: Double?) {
        #expect(IndicatorMath.mean(values) == expected)
    }

    @Test(
        "percent",
        arguments: [(0, 0, nil), (0, 4, 0), (1, 4, 25), (4, 4, 100), (1, 3, 100.0 / 3)] as [(Int, Int, Double?)])
    func percent(part: Int, whole: Int, expected: Double?) {
        #expect(IndicatorMath.percent(part, of: whole) == expected)
    }

    @Test("unreached by days since the follow-up began: 1, 2, 3, more; today's not yet")
    func unreached() {
        let ages = IndicatorMath.unreachedAges([0: 9, 1: 4, 2: 3, 3: 2, 4: 1, 10: 5])
        #expect(ages == UnreachedAges(oneDay: 4, twoDays: 3, threeDays: 2, moreThanThreeDays: 6))
        #expect(IndicatorMath.unreachedAges([:]) == UnreachedAges())
    }

    static let day = CivilDay(year: 2026, month: 12, day: 1)!

    @Test(
        "checked every day: from the day reached to the period's last, both included",
        arguments: [
            (0, 0, 1, true), (0, 0, 0, false), (0, 4, 5, true), (0, 4, 4, false), (2, 0, 0, true), (0, 13, 14, true),
        ] as [(Int, Int, Int, Bool)])
    func everyDay(reached: Int, ends: Int, checked: Int, every: Bool) {
        let period = MonitoredPeriod(
            reachedOn: Self.day.adding(days: reached), periodEndsOn: Self.day.adding(days: ends), checkedDays: checked)
        #expect(period.checkedEveryDay == every)
        #expect(period.daysDue == max(0, ends - reached + 1))
    }

    /// Three cases by hand (docs/supervisor-guide.md's example):
    /// - case A: 4 contacts (3 close), opened 3 days ago; 2 close contacts reached within 24 h, the
    ///   third after 30 h; its first contact reached 2 h after it opened;
    /// - case B: 2 contacts (1 close, reached within 24 h), its patient a known contact; first reach after 5 h;
    /// - case C: opened an hour ago, 0 contacts (its close contacts would not count yet).
    /// Ended: 5, lost 1; completed: two checked every day, one missing a day, one reached late.
    @Test("the indicators of a small case, computed by hand")
    func smallCase() {
        let now = Date(unixMilliseconds: 1_764_590_400_000)
        let facts = FollowUpFacts(
            from: Date(unixMilliseconds: 0), to: now, now: now, contactsPerCase: [4, 2, 0], closeContactsDue: 4,
            closeContactsReachedIn24h: 3, millisecondsToFirstReach: [2 * 3_600_000, 5 * 3_600_000],
            completed: [
                MonitoredPeriod(reachedOn: Self.day, periodEndsOn: Self.day.adding(days: 9), checkedDays: 10, count: 2),
                MonitoredPeriod(reachedOn: Self.day, periodEndsOn: Self.day.adding(days: 9), checkedDays: 9),
                MonitoredPeriod(
                    reachedOn: Self.day.adding(days: 11), periodEndsOn: Self.day.adding(days: 9), checkedDays: 0),
            ], ended: 5, lost: 1, knownContactCases: 1, unreachedByDays: [0: 2, 1: 1, 5: 1],
            tracers: [
                TracerLoad(tracer: "zoe", assigned: 1, due: 1, overdue: 0, doneToday: 0),
                TracerLoad(tracer: "ada", assigned: 3, due: 1, overdue: 2, doneToday: 7),
            ])
        let figures = IndicatorMath.indicators(facts)
        #expect(figures.cases == 3)
        #expect(figures.contactsPerCaseMean == 2)
        #expect(figures.contactsPerCaseMedian == 2)
        #expect(figures.reachedWithin24hPercent == 75)
        #expect(figures.medianHoursToFirstReach == 3.5)
        #expect(figures.checkedEveryDayPercent.map { ($0 * 100).rounded() / 100 } == 66.67)
        #expect(figures.unreached == UnreachedAges(oneDay: 1, twoDays: 0, threeDays: 0, moreThanThreeDays: 1))
        #expect(figures.lostPercent == 20)
        #expect(figures.knownContactPercent.map { ($0 * 100).rounded() / 100 } == 33.33)
        #expect(figures.tracers.map(\.tracer) == ["ada", "zoe"])
        #expect(figures.from == facts.from && figures.to == now)
    }

    @Test("no cases: every share and median is nil, counts 0")
    func nothing() {
        let now = Date(unixMilliseconds: 1_764_590_400_000)
        let figures = IndicatorMath.indicators(FollowUpFacts(from: now, to: now, now: now))
        #expect(figures.cases == 0)
        #expect(figures.contactsPerCaseMean == nil && figures.contactsPerCaseMedian == nil)
        #expect(figures.reachedWithin24hPercent == nil && figures.medianHoursToFirstReach == nil)
        #expect(figures.checkedEveryDayPercent == nil && figures.lostPercent == nil)
        #expect(figures.knownContactPercent == nil)
        #expect(figures.unreached == UnreachedAges())
        #expect(figures.tracers.isEmpty)
    }

    @Test("a first reach before the case opened counts as 0 hours")
    func reachBefore() {
        let now = Date(unixMilliseconds: 1_764_590_400_000)
        let figures = IndicatorMath.indicators(
            FollowUpFacts(from: now, to: now, now: now, contactsPerCase: [1], millisecondsToFirstReach: [-3_600_000]))
        #expect(figures.medianHoursToFirstReach == 0)
    }
}
