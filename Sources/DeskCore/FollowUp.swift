import CivilCalendar
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Contact follow-up (issue 21): cases opened for positive patients, the follow-ups of their
// contacts, call attempts, daily checks, the schedule that says who is due when, and the
// indicators supervisors read. Pure values and rules; the stores, the desks, the staff API and
// the console share them. Days are UTC days, as everywhere else in TraceDesk.

// MARK: Settings

/// The follow-up rules' settings, each configurable on the server, with their defaults.
public struct FollowUpSettings: Hashable, Sendable {
    /// Days a contact is followed after their last exposure (the period ends on last exposure + N).
    public var periodDays: Int = 14
    /// After no answer or voicemail, the next attempt is due this many seconds later.
    public var retrySeconds: Int = 7_200
    /// At most this many attempts are scheduled on one day; after the last, the next is due the
    /// next day.
    public var attemptsPerDay: Int = 3
    /// A contact never reached this many days after their follow-up began is lost to follow-up.
    public var lostAfterDays: Int = 3
    /// Closed cases (and the follow-ups that name no other open case) are deleted this many days
    /// after they closed.
    public var closedRetentionDays: Int = 30

    public init() {}

    public static let standard = FollowUpSettings()
}

// MARK: Cases

/// What the index day of a case is.
public enum IndexDayKind: String, Hashable, Sendable, CaseIterable {
    /// The day the patient's symptoms started.
    case symptomOnset = "symptom_onset"
    /// The day of the positive test, for a patient without symptoms.
    case testDay = "test_day"

    public var label: String {
        switch self {
        case .symptomOnset: return "symptom onset"
        case .testDay: return "test day"
        }
    }
}

/// Why a case was closed.
public enum CaseCloseReason: String, Hashable, Sendable, CaseIterable {
    /// The patient recovered / finished isolation.
    case recovered
    /// Handed to another health authority.
    case transferred
    /// Opened twice or for the wrong person.
    case openedInError = "opened_in_error"
    /// Any other reason (the note says which).
    case other

    public var label: String {
        switch self {
        case .recovered: return "recovered"
        case .transferred: return "transferred"
        case .openedInError: return "opened in error"
        case .other: return "other"
        }
    }
}

/// A case's state.
public enum CaseStatus: Hashable, Sendable {
    case open
    case closed(reason: CaseCloseReason, by: String, at: Date)

    public var isOpen: Bool {
        if case .open = self { return true }
        return false
    }
}

/// One side of a chain: the case a follow-up belongs to, or the case a contact became.
public struct CaseLink: Hashable, Sendable {
    public var caseID: Int64
    public var reference: String
    /// The follow-up that joins the two cases.
    public var followUpID: Int64

    public init(caseID: Int64, reference: String, followUpID: Int64) {
        self.caseID = caseID
        self.reference = reference
        self.followUpID = followUpID
    }
}

/// A case: a positive patient and the contacts followed because of them.
public struct TraceCase: Hashable, Sendable {
    public var id: Int64
    /// The health authority's case reference (what every view of the case is audited with).
    public var reference: String
    public var patientUserID: Int64
    public var phone: PhoneNumber
    public var indexDay: CivilDay
    public var indexKind: IndexDayKind
    public var openedBy: String
    public var openedAt: Date
    public var status: CaseStatus
    /// Follow-ups naming this case.
    public var contacts: Int
    /// The cases whose contact this patient was (the follow-up that became this case); empty
    /// when the patient was nobody's known contact.
    public var cameFrom: [CaseLink]
    /// The contacts of this case that later became cases themselves.
    public var ledTo: [CaseLink]

    public init(
        id: Int64, reference: String, patientUserID: Int64, phone: PhoneNumber, indexDay: CivilDay,
        indexKind: IndexDayKind, openedBy: String, openedAt: Date, status: CaseStatus, contacts: Int,
        cameFrom: [CaseLink] = [], ledTo: [CaseLink] = []
    ) {
        self.id = id
        self.reference = reference
        self.patientUserID = patientUserID
        self.phone = phone
        self.indexDay = indexDay
        self.indexKind = indexKind
        self.openedBy = openedBy
        self.openedAt = openedAt
        self.status = status
        self.contacts = contacts
        self.cameFrom = cameFrom
        self.ledTo = ledTo
    }

    /// The longest a case reference may be, in characters.
    public static let maximumReferenceLength = 64
}

/// The rules a case reference obeys; the message says what to do.
public enum CaseReference {
    /// The reference trimmed, or why it cannot be one.
    public static func checked(_ text: String) -> Result<String, CaseInputError> {
        let scalars = Array(text.unicodeScalars)
        let first = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.count
        let last = scalars.lastIndex { !$0.properties.isWhitespace } ?? -1
        var trimmed = ""
        if first <= last { trimmed.unicodeScalars.append(contentsOf: scalars[first...last]) }
        if trimmed.isEmpty {
            return .failure(.init(tr("errors.reference.required")))
        }
        if trimmed.count > TraceCase.maximumReferenceLength {
            return .failure(.init(tr("errors.reference.tooLong", ["max": String(TraceCase.maximumReferenceLength)])))
        }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .failure(.init(tr("errors.reference.control")))
        }
        return .success(trimmed)
    }
}

/// A case's input refused; the message says what to do.
public struct CaseInputError: Error, Hashable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// One line of a case's history: what happened to it or its follow-ups, by whom.
public struct CaseHistoryEntry: Hashable, Sendable {
    public var at: Date
    public var actor: String
    /// A few words, never a phone number: "opened with 12 contacts", "follow-up 44: reached".
    public var text: String

    public init(at: Date, actor: String, text: String) {
        self.at = at
        self.actor = actor
        self.text = text
    }
}

/// What opening a case did (the desks' and the store's answer alike).
public struct CaseOpening: Hashable, Sendable {
    public var trace: TraceCase
    /// The patient already had an open case: this is it, unchanged (the reference typed was
    /// not used).
    public var existing: Bool
    /// Follow-ups made for this case, and open follow-ups of other cases it joined.
    public var followUpsCreated: Int
    public var followUpsJoined: Int

    public init(trace: TraceCase, existing: Bool, followUpsCreated: Int, followUpsJoined: Int) {
        self.trace = trace
        self.existing = existing
        self.followUpsCreated = followUpsCreated
        self.followUpsJoined = followUpsJoined
    }
}

/// A case with its follow-ups (active first, then by id) and its history (oldest first).
public struct CaseDetail: Hashable, Sendable {
    public var trace: TraceCase
    public var followUps: [FollowUp]
    public var history: [CaseHistoryEntry]

    public init(trace: TraceCase, followUps: [FollowUp], history: [CaseHistoryEntry]) {
        self.trace = trace
        self.followUps = followUps
        self.history = history
    }
}

// MARK: Follow-ups

/// What a tracer recorded about one call attempt.
public enum CallOutcome: String, Hashable, Sendable, CaseIterable {
    case noAnswer = "no_answer"
    case voicemail
    case wrongNumber = "wrong_number"
    case reached
    case refused

    public var label: String {
        switch self {
        case .noAnswer: return "no answer"
        case .voicemail: return "voicemail"
        case .wrongNumber: return "wrong number"
        case .reached: return "reached"
        case .refused: return "refused"
        }
    }

    /// The command line's spelling: `no-answer`, `voicemail`, `wrong-number`, `reached`, `refused`.
    public var argument: String { String(rawValue.map { $0 == "_" ? "-" : $0 }) }

    public init?(argument: String) {
        self.init(rawValue: String(argument.map { $0 == "-" ? "_" : $0 }))
    }

    /// The console's digit key for the outcome (1…5, in this order).
    public var digit: Int { Self.allCases.firstIndex(of: self)! + 1 }
}

/// Where a follow-up stands.
public enum FollowUpState: String, Hashable, Sendable, CaseIterable {
    /// Not reached yet: calls are due.
    case calling
    /// Reached: a daily check is due each day until the period ends.
    case monitoring
    /// The period ended after the person was reached.
    case completed
    /// Never reached within the days the settings allow.
    case lost
    /// The number is not the person's.
    case wrongNumber = "wrong_number"
    /// Reached and refused follow-up.
    case refused
    /// Every case the follow-up named was closed before it ended.
    case caseClosed = "case_closed"
    /// The person was opened as a case themselves.
    case becameCase = "became_case"

    /// Whether calls or checks are still due.
    public var isActive: Bool { self == .calling || self == .monitoring }

    public var label: String {
        switch self {
        case .calling: return "to call"
        case .monitoring: return "monitoring"
        case .completed: return "completed"
        case .lost: return "lost to follow-up"
        case .wrongNumber: return "wrong number"
        case .refused: return "refused"
        case .caseClosed: return "case closed"
        case .becameCase: return "became a case"
        }
    }
}

/// Why the person is followed for one case: the APRICOT evidence when they were opened.
public struct FollowUpReason: Hashable, Sendable {
    public var caseID: Int64
    public var caseReference: String
    /// The last day the patient's phone heard the person's.
    public var lastExposureDay: CivilDay
    /// Minutes of proximity over every day, days with sightings, and the most minutes on one day.
    public var minutes: Int
    public var days: Int
    public var mostMinutesOnOneDay: Int
    /// Whether the close-contact rule picked them.
    public var isCloseContact: Bool
    /// Set when a tracer added the person by hand: why (the evidence is then zero).
    public var addedByHand: String?

    public init(
        caseID: Int64, caseReference: String, lastExposureDay: CivilDay, minutes: Int, days: Int,
        mostMinutesOnOneDay: Int, isCloseContact: Bool, addedByHand: String? = nil
    ) {
        self.caseID = caseID
        self.caseReference = caseReference
        self.lastExposureDay = lastExposureDay
        self.minutes = minutes
        self.days = days
        self.mostMinutesOnOneDay = mostMinutesOnOneDay
        self.isCloseContact = isCloseContact
        self.addedByHand = addedByHand
    }
}

/// One person followed: a contact of one or more open cases.
public struct FollowUp: Hashable, Sendable {
    public var id: Int64
    public var personUserID: Int64
    public var phone: PhoneNumber
    /// One per case naming the person, oldest case first.
    public var reasons: [FollowUpReason]
    /// The latest exposure over every case.
    public var lastExposureDay: CivilDay
    /// The last day of the follow-up period.
    public var periodEndsOn: CivilDay
    /// The tracer it is assigned to; nil while nobody is (no active tracer).
    public var assignedTo: String?
    public var state: FollowUpState
    public var createdAt: Date
    /// When the next call or check is due; nil once the follow-up ended.
    public var nextDueAt: Date?
    public var attempts: Int
    /// Attempts on the UTC day of the last one (for the per-day limit).
    public var attemptsOnLastDay: Int
    public var lastOutcome: CallOutcome?
    public var lastAttemptAt: Date?
    public var reachedAt: Date?
    /// Days a daily check was recorded on, and the last such day.
    public var checkedDays: Int
    public var lastCheckDay: CivilDay?
    /// A daily check said symptoms: the supervisor and the case's tracer should act.
    public var symptomsFlagged: Bool
    /// When the follow-up ended (any state that is not active).
    public var endedAt: Date?
    /// The case the person became, when they did.
    public var becameCaseID: Int64?

    public init(
        id: Int64, personUserID: Int64, phone: PhoneNumber, reasons: [FollowUpReason], lastExposureDay: CivilDay,
        periodEndsOn: CivilDay, assignedTo: String?, state: FollowUpState, createdAt: Date, nextDueAt: Date?,
        attempts: Int = 0, attemptsOnLastDay: Int = 0, lastOutcome: CallOutcome? = nil, lastAttemptAt: Date? = nil,
        reachedAt: Date? = nil, checkedDays: Int = 0, lastCheckDay: CivilDay? = nil, symptomsFlagged: Bool = false,
        endedAt: Date? = nil, becameCaseID: Int64? = nil
    ) {
        self.id = id
        self.personUserID = personUserID
        self.phone = phone
        self.reasons = reasons
        self.lastExposureDay = lastExposureDay
        self.periodEndsOn = periodEndsOn
        self.assignedTo = assignedTo
        self.state = state
        self.createdAt = createdAt
        self.nextDueAt = nextDueAt
        self.attempts = attempts
        self.attemptsOnLastDay = attemptsOnLastDay
        self.lastOutcome = lastOutcome
        self.lastAttemptAt = lastAttemptAt
        self.reachedAt = reachedAt
        self.checkedDays = checkedDays
        self.lastCheckDay = lastCheckDay
        self.symptomsFlagged = symptomsFlagged
        self.endedAt = endedAt
        self.becameCaseID = becameCaseID
    }
}

/// One call attempt.
public struct CallAttempt: Hashable, Sendable {
    public var id: Int64
    public var followUpID: Int64
    public var at: Date
    public var by: String
    public var outcome: CallOutcome
    /// At most ``ServiceChecks`` note length; never audited.
    public var note: String

    public init(id: Int64, followUpID: Int64, at: Date, by: String, outcome: CallOutcome, note: String) {
        self.id = id
        self.followUpID = followUpID
        self.at = at
        self.by = by
        self.outcome = outcome
        self.note = note
    }
}

/// One daily check of a reached contact.
public struct DailyCheck: Hashable, Sendable {
    public var id: Int64
    public var followUpID: Int64
    public var day: CivilDay
    public var at: Date
    public var by: String
    public var symptoms: Bool
    public var isolating: Bool
    public var note: String

    public init(
        id: Int64, followUpID: Int64, day: CivilDay, at: Date, by: String, symptoms: Bool, isolating: Bool,
        note: String
    ) {
        self.id = id
        self.followUpID = followUpID
        self.day = day
        self.at = at
        self.by = by
        self.symptoms = symptoms
        self.isolating = isolating
        self.note = note
    }
}

// MARK: The schedule

/// The follow-up rules as pure functions: what a new follow-up, an attempt, a check and the
/// passing of time do to one. Stores apply them in the transaction that records the change, so
/// every engine schedules alike; FollowUpScheduleTests holds them as tables.
public enum FollowUpSchedule {
    /// The last day of the period for a last exposure on `day`.
    public static func periodEnd(lastExposure day: CivilDay, settings: FollowUpSettings) -> CivilDay {
        day.adding(days: settings.periodDays)
    }

    /// The start (00:00 UTC) of `day`.
    public static func start(of day: CivilDay) -> Date {
        Date(unixMilliseconds: Int64(day.daysSinceEpoch) * 86_400_000)
    }

    /// A new follow-up at `now` for a last exposure: the first call is due at once. A period that
    /// already ended (an exposure long ago) still asks for one call: the person should know.
    public static func opened(lastExposure: CivilDay, now: Date, settings: FollowUpSettings) -> (
        periodEndsOn: CivilDay, nextDueAt: Date
    ) {
        (periodEnd(lastExposure: lastExposure, settings: settings), now)
    }

    /// What one more case naming the follow-up does: the latest exposure wins, and so does its
    /// period. Nothing else changes (the calls already made still count).
    public static func merged(_ followUp: FollowUp, lastExposure: CivilDay, settings: FollowUpSettings) -> FollowUp {
        var next = followUp
        if lastExposure > followUp.lastExposureDay {
            next.lastExposureDay = lastExposure
            next.periodEndsOn = periodEnd(lastExposure: lastExposure, settings: settings)
        }
        return next
    }

    /// A call attempt's effect, recorded at `now`. Only an active follow-up takes attempts
    /// (``attemptProblem(_:)`` says why not).
    public static func attempted(
        _ followUp: FollowUp, outcome: CallOutcome, at now: Date, settings: FollowUpSettings
    ) -> FollowUp {
        var next = followUp
        let today = now.utcDay
        let sameDay = followUp.lastAttemptAt.map { $0.utcDay == today } ?? false
        next.attempts += 1
        next.attemptsOnLastDay = sameDay ? followUp.attemptsOnLastDay + 1 : 1
        next.lastOutcome = outcome
        next.lastAttemptAt = now
        switch outcome {
        case .noAnswer, .voicemail:
            if followUp.state == .monitoring {
                // A missed daily check call: try again later today, or tomorrow's check.
                next.nextDueAt = retry(after: now, attemptsToday: next.attemptsOnLastDay, settings: settings)
                if let due = next.nextDueAt, due.utcDay > followUp.periodEndsOn {
                    return ended(next, as: .completed, at: now)
                }
                return next
            }
            if unreachableTooLong(next, now: now, settings: settings) {
                return ended(next, as: .lost, at: now)
            }
            next.nextDueAt = retry(after: now, attemptsToday: next.attemptsOnLastDay, settings: settings)
            return next
        case .wrongNumber:
            return ended(next, as: .wrongNumber, at: now)
        case .refused:
            return ended(next, as: .refused, at: now)
        case .reached:
            if next.reachedAt == nil { next.reachedAt = now }
            next.state = .monitoring
            // Today's check is due at once unless one was recorded today already.
            if next.lastCheckDay == today {
                return scheduleNextCheck(next, after: today, at: now)
            }
            if today > next.periodEndsOn {
                return ended(next, as: .completed, at: now)
            }
            next.nextDueAt = now
            return next
        }
    }

    /// A daily check's effect on `day` (today), recorded at `now`. Symptoms flag the follow-up.
    public static func checked(
        _ followUp: FollowUp, symptoms: Bool, at now: Date, settings: FollowUpSettings
    ) -> FollowUp {
        var next = followUp
        let today = now.utcDay
        if next.lastCheckDay != today { next.checkedDays += 1 }
        next.lastCheckDay = today
        if symptoms { next.symptomsFlagged = true }
        return scheduleNextCheck(next, after: today, at: now)
    }

    /// The passing of time at `now`: a monitored follow-up whose period ended is completed; a
    /// follow-up still calling past the days allowed is lost. Nil when nothing changes.
    public static func settled(_ followUp: FollowUp, now: Date, settings: FollowUpSettings) -> FollowUp? {
        switch followUp.state {
        case .monitoring where now.utcDay > followUp.periodEndsOn:
            return ended(followUp, as: .completed, at: now)
        case .calling where unreachableTooLong(followUp, now: now, settings: settings) && followUp.attempts > 0:
            return ended(followUp, as: .lost, at: now)
        default:
            return nil
        }
    }

    /// Why an attempt cannot be recorded on this follow-up; nil when it can.
    public static func attemptProblem(_ followUp: FollowUp) -> String? {
        followUp.state.isActive
            ? nil
            : tr(
                "errors.followUp.endedNoCall",
                ["id": String(followUp.id), "state": tr("console.queue.state.\(followUp.state.rawValue)")])
    }

    /// Why a daily check cannot be recorded on this follow-up; nil when it can.
    public static func checkProblem(_ followUp: FollowUp) -> String? {
        switch followUp.state {
        case .monitoring: return nil
        case .calling:
            return tr("errors.followUp.notReached", ["id": String(followUp.id)])
        default:
            return tr(
                "errors.followUp.endedNoCheck",
                ["id": String(followUp.id), "state": tr("console.queue.state.\(followUp.state.rawValue)")])
        }
    }

    /// Never reached and `lostAfterDays` whole days past the start of the follow-up.
    static func unreachableTooLong(_ followUp: FollowUp, now: Date, settings: FollowUpSettings) -> Bool {
        guard followUp.reachedAt == nil else { return false }
        let days = now.utcDay.daysSinceEpoch - followUp.createdAt.utcDay.daysSinceEpoch
        return days >= settings.lostAfterDays
    }

    /// The next attempt after a missed call: a retry interval later, or the next day's start once
    /// the day's attempts are used (or the retry would fall on the next day anyway).
    static func retry(after now: Date, attemptsToday: Int, settings: FollowUpSettings) -> Date {
        let tomorrow = start(of: now.utcDay.adding(days: 1))
        if attemptsToday >= settings.attemptsPerDay { return tomorrow }
        let later = Date(unixMilliseconds: now.unixMilliseconds + Int64(settings.retrySeconds) * 1000)
        return later.utcDay > now.utcDay ? tomorrow : later
    }

    static func scheduleNextCheck(_ followUp: FollowUp, after day: CivilDay, at now: Date) -> FollowUp {
        var next = followUp
        let tomorrow = day.adding(days: 1)
        if tomorrow > followUp.periodEndsOn {
            return ended(next, as: .completed, at: now)
        }
        next.nextDueAt = start(of: tomorrow)
        return next
    }

    static func ended(_ followUp: FollowUp, as state: FollowUpState, at now: Date) -> FollowUp {
        var next = followUp
        next.state = state
        next.nextDueAt = nil
        next.endedAt = now
        return next
    }
}

// MARK: The queue

/// How pressing a queue row is.
public enum QueueUrgency: String, Hashable, Sendable, CaseIterable {
    /// Due for longer than a retry interval.
    case overdue
    /// Due now.
    case due
    /// Due later today.
    case laterToday = "later_today"
    /// Due on a later day.
    case later

    public static func of(dueAt: Date, now: Date, settings: FollowUpSettings) -> QueueUrgency {
        let due = dueAt.unixMilliseconds
        let current = now.unixMilliseconds
        if due <= current - Int64(settings.retrySeconds) * 1000 { return .overdue }
        if due <= current { return .due }
        if dueAt.utcDay == now.utcDay { return .laterToday }
        return .later
    }

    public var label: String {
        switch self {
        case .overdue: return "overdue"
        case .due: return "due now"
        case .laterToday: return "later today"
        case .later: return "later"
        }
    }
}

/// Whose follow-ups a queue shows.
public enum QueueScope: Hashable, Sendable {
    /// The signed-in tracer's (a tracer's only choice).
    case mine
    /// One tracer's (supervisor).
    case tracer(String)
    /// Nobody's yet (supervisor): follow-ups waiting for an active tracer.
    case unassigned
    /// Everyone's (supervisor).
    case everyone
}

/// A page of the queue: active follow-ups by when they are due, then by id.
public struct QueueQuery: Hashable, Sendable {
    public var scope: QueueScope
    /// Include follow-ups due on later days (the queue shows only today's by default).
    public var includeLater: Bool
    /// Only follow-ups whose case reference or phone number contains this text (digits of a
    /// number match wherever they appear); nil or empty: all.
    public var search: String?
    /// Where the page starts: after this (due time, id); nil: from the first.
    public var after: QueueCursor?
    /// 1…``maximumLimit``.
    public var limit: Int

    public static let maximumLimit = 500

    public init(
        scope: QueueScope = .mine, includeLater: Bool = false, search: String? = nil, after: QueueCursor? = nil,
        limit: Int = 100
    ) {
        self.scope = scope
        self.includeLater = includeLater
        self.search = search
        self.after = after
        self.limit = limit
    }
}

/// A place in the queue's order.
public struct QueueCursor: Hashable, Sendable {
    public var dueAtMilliseconds: Int64
    public var followUpID: Int64

    public init(dueAtMilliseconds: Int64, followUpID: Int64) {
        self.dueAtMilliseconds = dueAtMilliseconds
        self.followUpID = followUpID
    }

    /// Its text form on the wire and the command line: `<ms>-<id>`.
    public var text: String { "\(dueAtMilliseconds)-\(followUpID)" }

    public init?(text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let due = Int64(parts[0]), let id = Int64(parts[1]), due >= 0, id > 0 else {
            return nil
        }
        self.init(dueAtMilliseconds: due, followUpID: id)
    }
}

/// Counts over the whole queue the query names (not only the page).
public struct QueueCounts: Hashable, Sendable {
    public var overdue: Int
    public var due: Int
    public var laterToday: Int
    public var later: Int

    public init(overdue: Int = 0, due: Int = 0, laterToday: Int = 0, later: Int = 0) {
        self.overdue = overdue
        self.due = due
        self.laterToday = laterToday
        self.later = later
    }
}

/// One page of a queue.
public struct QueuePage: Hashable, Sendable {
    public var rows: [FollowUp]
    public var counts: QueueCounts
    /// Where the next page starts; nil after the last.
    public var next: QueueCursor?
    /// The desk's time the page was read at (urgency is measured against it).
    public var readAt: Date

    public init(rows: [FollowUp], counts: QueueCounts, next: QueueCursor?, readAt: Date) {
        self.rows = rows
        self.counts = counts
        self.next = next
        self.readAt = readAt
    }
}

// MARK: Indicators

/// How many contacts have gone unreached, by days since their follow-up began.
public struct UnreachedAges: Hashable, Sendable {
    public var oneDay: Int
    public var twoDays: Int
    public var threeDays: Int
    public var moreThanThreeDays: Int

    public init(oneDay: Int = 0, twoDays: Int = 0, threeDays: Int = 0, moreThanThreeDays: Int = 0) {
        self.oneDay = oneDay
        self.twoDays = twoDays
        self.threeDays = threeDays
        self.moreThanThreeDays = moreThanThreeDays
    }
}

/// One tracer's load today.
public struct TracerLoad: Hashable, Sendable {
    public var tracer: String
    /// Active follow-ups assigned, due now (not overdue), overdue, and attempts and checks
    /// recorded today.
    public var assigned: Int
    public var due: Int
    public var overdue: Int
    public var doneToday: Int

    public init(tracer: String, assigned: Int, due: Int, overdue: Int, doneToday: Int) {
        self.tracer = tracer
        self.assigned = assigned
        self.due = due
        self.overdue = overdue
        self.doneToday = doneToday
    }
}

/// The tracing indicators over cases opened in a range (docs/supervisor-guide.md says what each
/// counts). A percentage or median with nothing to count is nil, shown as "–".
public struct FollowUpIndicators: Hashable, Sendable {
    public var from: Date
    public var to: Date
    /// Cases opened in the range.
    public var cases: Int
    /// Follow-ups of those cases, per case.
    public var contactsPerCaseMean: Double?
    public var contactsPerCaseMedian: Double?
    /// Close contacts of those cases reached within 24 h of their case being opened, in %.
    public var reachedWithin24hPercent: Double?
    /// Median hours from a case opened to its first contact reached.
    public var medianHoursToFirstReach: Double?
    /// Of the follow-ups whose monitoring period ended, those checked on every day of it, in %.
    public var checkedEveryDayPercent: Double?
    /// Active follow-ups never reached, by days since they began (now, not the range).
    public var unreached: UnreachedAges
    /// Of the follow-ups of those cases that ended, those lost to follow-up, in %.
    public var lostPercent: Double?
    /// Of the cases opened in the range, those whose patient was a known contact, in %.
    public var knownContactPercent: Double?
    /// Per active tracer, by name.
    public var tracers: [TracerLoad]

    public init(
        from: Date, to: Date, cases: Int, contactsPerCaseMean: Double?, contactsPerCaseMedian: Double?,
        reachedWithin24hPercent: Double?, medianHoursToFirstReach: Double?, checkedEveryDayPercent: Double?,
        unreached: UnreachedAges, lostPercent: Double?, knownContactPercent: Double?, tracers: [TracerLoad]
    ) {
        self.from = from
        self.to = to
        self.cases = cases
        self.contactsPerCaseMean = contactsPerCaseMean
        self.contactsPerCaseMedian = contactsPerCaseMedian
        self.reachedWithin24hPercent = reachedWithin24hPercent
        self.medianHoursToFirstReach = medianHoursToFirstReach
        self.checkedEveryDayPercent = checkedEveryDayPercent
        self.unreached = unreached
        self.lostPercent = lostPercent
        self.knownContactPercent = knownContactPercent
        self.tracers = tracers
    }
}

/// The indicators' arithmetic on plain values, so each is a table test and both stores agree:
/// a store gathers the facts (FollowUpFacts) and this computes the figures.
public enum IndicatorMath {
    /// The median of `values` (the mean of the middle two for an even count); nil when empty.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    public static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// `part` of `whole` in %, nil when `whole` is 0.
    public static func percent(_ part: Int, of whole: Int) -> Double? {
        whole == 0 ? nil : Double(part) * 100 / Double(whole)
    }
}
