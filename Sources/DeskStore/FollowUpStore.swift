import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Contact follow-up (issue 21): cases, the follow-ups of their contacts, call attempts, daily
/// checks, the queue. Same rules as ``Store``: every method is one transaction; the schedule is
/// ``FollowUpSchedule``, applied in Swift inside the transaction that records the change, so both
/// engines schedule alike; every change writes its audit entry and its event in that transaction.
///
/// Privacy rule: no phone number reaches an error, an event, an audit entry or a history line
/// (persons are `user N`, follow-ups `follow-up N`, cases `case N`).
public protocol FollowUpStore: Sendable {
    /// Opens a case for `request.patientUserID` unless the patient has an open case (then that
    /// one, unchanged, `existing`). Each contact gets a new follow-up (``FollowUpSchedule/opened``)
    /// or joins the person's active one (``FollowUpSchedule/merged``), with its evidence; new
    /// follow-ups go to the opener (`assignToOpener`) or, round-robin, to the enabled tracer with
    /// the fewest active follow-ups. A patient who is an active follow-up's person: that
    /// follow-up ends as `became_case`, and the case names it as its source. Appends the
    /// `case_opened` audit entry and event.
    func openCase(_ request: CaseOpenRequest, now: Date, settings: FollowUpSettings) throws(StoreError)
        -> CaseOpening

    /// Cases, newest first, at most `limit`.
    func cases(status: CaseStatusFilter, openedBy: String?, limit: Int) throws(StoreError) -> [TraceCase]

    /// One case with its follow-ups (active first, then by id), its history and its links.
    func caseDetail(id: Int64) throws(StoreError) -> CaseDetail?

    /// Closes an open case; its active follow-ups naming no other open case end as
    /// `case_closed`. Appends the `case_closed` audit entry (never the note) and event.
    func closeCase(
        id: Int64, reason: CaseCloseReason, note: String, by actor: String, now: Date
    ) throws(StoreError) -> CaseClosing

    /// Adds a person to an open case by hand (zero evidence, last exposure today), or names the
    /// case on their active follow-up. Appends the `follow_up_added` audit entry and event.
    func addFollowUp(
        caseID: Int64, personUserID: Int64, reason: String, by actor: String, now: Date, settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpAddition

    /// A page of the queue. Time has its effect first (``FollowUpSchedule/settled``) on the
    /// scope's follow-ups due before today. `scope`'s tracer is a name (`.mine` resolved by the
    /// caller to `.tracer`).
    func followUpQueue(_ query: QueueQuery, now: Date, settings: FollowUpSettings) throws(StoreError) -> QueuePage

    /// One follow-up with its attempts and checks (time settled first).
    func followUpDetail(id: Int64, now: Date, settings: FollowUpSettings) throws(StoreError) -> StoredFollowUpDetail?

    /// Records a call attempt and schedules the next (``FollowUpSchedule/attempted``). With
    /// `onlyAssignedTo`, only on a follow-up assigned to that tracer. Appends the
    /// `follow_up_attempt` audit entry (never the note), a history line per case and the event.
    func recordAttempt(
        followUpID: Int64, outcome: CallOutcome, note: String, by actor: String, onlyAssignedTo: String?, now: Date,
        settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpChange

    /// Records today's daily check (``FollowUpSchedule/checked``), as ``recordAttempt``.
    func recordCheck(
        followUpID: Int64, symptoms: Bool, isolating: Bool, note: String, by actor: String, onlyAssignedTo: String?,
        now: Date, settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpChange

    /// Assigns active follow-ups to an enabled tracer's account; nothing changes unless every id
    /// is an active follow-up and the tracer is one. Appends `follow_up_assigned`.
    func assignFollowUps(ids: [Int64], to tracer: String, by actor: String, now: Date) throws(StoreError)
        -> FollowUpAssignment

    /// Deletes cases closed before `closedBefore`, their history, and the follow-ups that named
    /// only deleted cases and have ended (with their attempts and checks). Returns the cases deleted.
    func deleteClosedCases(closedBefore: Date) throws(StoreError) -> Int
}

/// Which cases ``FollowUpStore/cases(status:openedBy:limit:)`` lists.
public enum CaseStatusFilter: String, Hashable, Sendable { case open, closed, all }

/// One contact of a case being opened, with the APRICOT evidence.
public struct CaseContact: Hashable, Sendable {
    public var userID: Int64
    public var lastExposureDay: CivilDay
    public var minutes: Int
    public var days: Int
    public var mostMinutesOnOneDay: Int
    public var isCloseContact: Bool

    public init(
        userID: Int64, lastExposureDay: CivilDay, minutes: Int, days: Int, mostMinutesOnOneDay: Int,
        isCloseContact: Bool
    ) {
        self.userID = userID
        self.lastExposureDay = lastExposureDay
        self.minutes = minutes
        self.days = days
        self.mostMinutesOnOneDay = mostMinutesOnOneDay
        self.isCloseContact = isCloseContact
    }
}

public struct CaseOpenRequest: Hashable, Sendable {
    public var patientUserID: Int64
    /// Checked already (``CaseReference/checked(_:)``).
    public var reference: String
    public var indexDay: CivilDay
    public var indexKind: IndexDayKind
    public var openedBy: String
    public var assignToOpener: Bool
    public var contacts: [CaseContact]

    public init(
        patientUserID: Int64, reference: String, indexDay: CivilDay, indexKind: IndexDayKind, openedBy: String,
        assignToOpener: Bool, contacts: [CaseContact]
    ) {
        self.patientUserID = patientUserID
        self.reference = reference
        self.indexDay = indexDay
        self.indexKind = indexKind
        self.openedBy = openedBy
        self.assignToOpener = assignToOpener
        self.contacts = contacts
    }
}

public struct StoredFollowUpDetail: Hashable, Sendable {
    public var followUp: FollowUp
    public var attempts: [CallAttempt]
    public var checks: [DailyCheck]
    /// Who opened each case the follow-up names (a tracer reads the follow-ups of their cases).
    public var caseOpeners: [Int64: String]
}

public enum CaseClosing: Hashable, Sendable {
    case closed(TraceCase, followUpsEnded: Int)
    case alreadyClosed(TraceCase)
    case notFound
}

public enum FollowUpAddition: Hashable, Sendable {
    /// A new follow-up, or the person's active one now naming the case (`joined`).
    case added(FollowUp, joined: Bool)
    /// The person is followed for this case already.
    case alreadyFollowed(FollowUp)
    case caseNotOpen(TraceCase)
    /// The person is the case's patient.
    case isPatient
    case caseNotFound
}

public enum FollowUpChange: Hashable, Sendable {
    case recorded(FollowUp)
    case notFound
    /// Assigned to someone else (or nobody): whose.
    case notAssigned(assignedTo: String?)
    /// ``FollowUpSchedule/attemptProblem(_:)`` / ``FollowUpSchedule/checkProblem(_:)``.
    case refused(String)
}

public enum FollowUpAssignment: Hashable, Sendable {
    case assigned([FollowUp])
    /// No enabled tracer's account has the name.
    case notATracer
    /// These ids are no follow-up.
    case notFound([Int64])
    /// These follow-ups have ended.
    case ended([Int64])
}
