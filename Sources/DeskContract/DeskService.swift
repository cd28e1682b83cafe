import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The staff use cases, whatever reaches the data: ``LocalDesk`` over a store, or
/// ``RemoteDesk`` over a server's staff API. Screens and CLI commands talk only to this protocol.
///
/// Every use case that acts for a person takes the ``StaffSession`` that ``signIn(name:password:)``
/// returned; the desk checks the session (not ended, not past 12 h, not idle too long, account
/// still enabled) and the account's role (``DeskUseCase/roles``) before anything else, so both
/// modes obey the same rules. The UI only hides what a role cannot do.
///
/// Threading rule: callable from any task. Privacy rule: codes and passwords go in as typed text
/// and are hashed before they reach a store; results and errors never echo a code, a password or
/// a token.
public protocol DeskService: Sendable {
    /// Where the data lives, for title bars: a store path, a PostgreSQL URL without its password,
    /// or the server's URL.
    var location: String { get }

    /// The current instant by the desk's clock (countdowns are measured against it).
    func now() -> Date

    /// Nil while the data is reachable; otherwise a few words for the title bar, e.g. "server
    /// unreachable, retrying" while a remote desk retries. Cheap: the console asks every tick.
    var connectionProblem: String? { get }

    // MARK: Accounts and sessions

    /// Whether no staff account exists yet (the console then offers to create the first admin).
    func needsFirstAdmin() async throws(ServiceError) -> Bool

    /// Creates the first admin and signs them in. Refused (`.conflict`) once any account exists.
    /// `setupToken`: the one-time token `tracedesk serve` printed at start (and wrote beside the
    /// store), which a server asks for (`.forbidden` without it or when it is wrong); a desk on
    /// the store itself needs none (whoever can write the store can make accounts anyway).
    func createFirstAdmin(name: String, password: String, setupToken: String?) async throws(ServiceError)
        -> StaffSession

    /// Whether ``createFirstAdmin(name:password:setupToken:)`` needs the setup token (a server's
    /// staff API does; the store itself does not): the first-admin screen asks for it then.
    var firstAdminNeedsSetupToken: Bool { get }

    /// Signs a person in. Wrong name or password, a disabled or locked account, or a wait after
    /// failures: `.signInFailed` with a message that says what to do.
    func signIn(name: String, password: String) async throws(ServiceError) -> StaffSession

    /// Ends the session (audited). Ending one that already ended is not an error.
    func signOut(_ session: StaffSession) async throws(ServiceError)

    // MARK: Operator

    /// Authorises the upload of the app showing `code`, for symptoms that started on a day.
    func authorize(
        _ session: StaffSession, code: String, symptomsStartedOn: CivilDay
    ) async throws(ServiceError) -> AuthorizeResult

    /// What the desk knows about `code` now. An operator sees only codes they authorised
    /// (another's code: `.forbidden`); a supervisor sees every code.
    func status(_ session: StaffSession, of code: String) async throws(ServiceError) -> OtpStatus

    // MARK: Monitor (operator: own codes; supervisor: everything)

    /// Events with an id above `after`, oldest first, at most `limit` (1…1000). When there are
    /// none yet, waits up to `wait` for one (zero: answers at once), then answers, possibly
    /// with an empty page. Locally the store is polled a few times a second; remotely this is
    /// a long poll (`GET /staff/v1/events?after=…&wait=…`). An operator's page holds only their
    /// own codes' events, their own staff actions and published chunks; its cursor still moves
    /// past what they may not see.
    func events(
        _ session: StaffSession, after: Int64, limit: Int, wait: Duration
    ) async throws(ServiceError) -> EventPage

    /// The newest `limit` (1…1000) events the person may see, oldest first, with the latest
    /// position as the cursor: where a console starts following, so that signing in never
    /// reads the whole history. Remotely `GET /staff/v1/events?newest=N`.
    func newestEvents(_ session: StaffSession, limit: Int) async throws(ServiceError) -> EventPage

    /// Real and dummy phone requests since the start of the hour `since` falls in.
    func traffic(_ session: StaffSession, since: Date) async throws(ServiceError) -> TrafficShare

    /// The watch of one code. An operator watches only codes they authorised (another's:
    /// `.forbidden`); an unknown code or an event about no code: `.invalid` saying so.
    func watch(_ session: StaffSession, _ target: WatchTarget) async throws(ServiceError) -> CodeWatch

    // MARK: Contact tracing (tracer; APRICOT)

    /// Looks a patient up by phone number (typed: normalised with the configured default
    /// country code) for a purpose / case reference (required). Audited (`trace_lookup`) with
    /// the purpose. A number in a wrong format, an empty purpose, a phone that never registered:
    /// `.invalid` saying what to do. A registered patient without uploads is an answer with
    /// no contacts (`patient.daysUploaded == 0`).
    func traceLookup(_ session: StaffSession, phone: String, purpose: String) async throws(ServiceError) -> TraceLookup

    /// The raw sightings of a patient's kept files, oldest first: of one contact, or all of
    /// them (unresolved included) when `contactUserID` is nil; `limit` (1…50 000) from `offset`.
    func traceSightings(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64?, purpose: String, offset: Int, limit: Int
    ) async throws(ServiceError) -> TraceSightingsPage

    /// Records a call outcome with a note (at most 500 characters) for one contact of a
    /// patient. Audited (`contact_outcome`) with the purpose; the note's text is not audited.
    func recordOutcome(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64, outcome: ContactOutcome, note: String,
        purpose: String
    ) async throws(ServiceError) -> RecordedOutcome

    /// Records that a lookup was exported (`kind`: "contacts_csv", "sightings_csv", "json"),
    /// with how many rows: audited (`trace_export`) with the purpose. Call before writing the file.
    func recordTraceExport(
        _ session: StaffSession, patientUserID: Int64, purpose: String, kind: String, rows: Int
    ) async throws(ServiceError)

    /// Records that the tracer copies a contact's phone number (the console's `y`): audited
    /// (`copy_phone`) like a view, with the contact as target, the patient and the purpose, and
    /// never the number. The console copies only after this succeeded. `contactUserID` is a
    /// contact of the patient, or the patient.
    func recordPhoneCopy(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64, purpose: String
    ) async throws(ServiceError)

    // MARK: Cases and follow-ups (issue 21; tracer, supervisor)

    /// Opens a case for the patient registered with `phone` (normalised as in
    /// ``traceLookup(_:phone:purpose:)``), with a case reference (required) and the index day
    /// (nil: today, as a test day). Every close contact of the patient's kept files becomes a
    /// follow-up of the case, or joins the open follow-up the person already has (latest
    /// exposure wins); each new follow-up is assigned to the active tracer with the fewest open
    /// follow-ups, or to the opener when `assignToMe`. A patient who already has an open case:
    /// that case, unchanged (``CaseOpening/existing``). A patient who is an active follow-up's
    /// person: that follow-up ends as `became_case` and the two cases are linked. Audited
    /// (`case_opened`) with the reference.
    func openCase(
        _ session: StaffSession, phone: String, reference: String, indexDay: CivilDay?, indexKind: IndexDayKind,
        assignToMe: Bool
    ) async throws(ServiceError) -> CaseOpening

    /// Cases, newest first: a tracer sees the ones they opened, a supervisor every one.
    /// Audited (`follow_up_viewed`, target `cases`) with how many were read.
    func cases(_ session: StaffSession, query: CaseQuery) async throws(ServiceError) -> [TraceCase]

    /// One case with its follow-ups and history. A tracer reads a case they opened or one with a
    /// follow-up assigned to them; a supervisor any. Audited (`follow_up_viewed`, `case N`).
    func caseDetail(_ session: StaffSession, caseID: Int64) async throws(ServiceError) -> CaseDetail

    /// Closes an open case: a tracer closes a case they opened, a supervisor any. Its follow-ups
    /// naming no other open case end as `case_closed`. Audited (`case_closed`; never the note).
    func closeCase(
        _ session: StaffSession, caseID: Int64, reason: CaseCloseReason, note: String
    ) async throws(ServiceError) -> TraceCase

    /// Adds a person to an open case by hand, by their phone number (they must be a registered
    /// APRICOT user), with why (required). Someone already followed for the case: that follow-up.
    /// Audited (`follow_up_added`; never the reason's text).
    func addFollowUp(
        _ session: StaffSession, caseID: Int64, phone: String, reason: String
    ) async throws(ServiceError) -> FollowUp

    /// A page of the queue (``QueueQuery``): a tracer only `.mine`, a supervisor any scope.
    /// Time has its effect first (periods ended → completed, never reached → lost). Audited
    /// (`follow_up_viewed`, target `queue`) with how many persons the page showed.
    func followUpQueue(_ session: StaffSession, query: QueueQuery) async throws(ServiceError) -> QueuePage

    /// One follow-up with its attempts, checks and the evidence. A tracer reads one assigned to
    /// them or of a case they opened; a supervisor any. Audited (`follow_up_viewed`).
    func followUpDetail(_ session: StaffSession, followUpID: Int64) async throws(ServiceError) -> FollowUpDetail

    /// Records a call attempt on a follow-up assigned to the tracer and schedules the next
    /// (``FollowUpSchedule``). An ended follow-up, or someone else's: `.invalid`/`.forbidden`
    /// saying what to do. Audited (`follow_up_attempt`; never the note).
    func recordAttempt(
        _ session: StaffSession, followUpID: Int64, outcome: CallOutcome, note: String
    ) async throws(ServiceError) -> FollowUp

    /// Records today's daily check of a reached follow-up assigned to the tracer. Before the
    /// person was reached: `.invalid` saying so. Audited (`follow_up_check`; never the note).
    func recordCheck(
        _ session: StaffSession, followUpID: Int64, symptoms: Bool, isolating: Bool, note: String
    ) async throws(ServiceError) -> FollowUp

    /// Assigns active follow-ups to an enabled tracer (supervisor). A name that is not an
    /// enabled tracer's account: `.invalid` saying so; nothing changes. Audited
    /// (`follow_up_assigned`).
    func assignFollowUps(
        _ session: StaffSession, ids: [Int64], to tracer: String
    ) async throws(ServiceError) -> [FollowUp]

    /// Records that the console copies a follow-up's phone number (`y`): audited
    /// (`copy_phone`, target the person's `user N`) before the copy, never the number.
    func recordFollowUpPhoneCopy(_ session: StaffSession, followUpID: Int64) async throws(ServiceError)

    /// The tracing indicators over cases opened in the range (supervisor). Not audited: figures.
    func followUpIndicators(_ session: StaffSession, query: StatsQuery) async throws(ServiceError)
        -> FollowUpIndicators

    // MARK: Statistics (supervisor)

    /// Every figure of the dashboard over `query` (``StatsReport``). Not audited: figures only,
    /// nothing about a person.
    func statistics(_ session: StaffSession, query: StatsQuery) async throws(ServiceError) -> StatsReport

    // MARK: Admin

    /// The SMS outbox, newest first (admin): what the `outbox` gateway kept and what the
    /// `http` gateway sent. Reading it is audited.
    func smsOutbox(_ session: StaffSession, limit: Int) async throws(ServiceError) -> [SmsMessage]

    /// Every staff account.
    func staff(_ session: StaffSession) async throws(ServiceError) -> [StaffAccount]

    /// Adds an account (name and password checked by ``StaffName`` and ``PasswordRules``).
    func addStaff(
        _ session: StaffSession, name: String, role: StaffRole, password: String
    ) async throws(ServiceError) -> StaffAccount

    /// Disables an account and ends its sessions. An admin cannot disable their own account.
    func disableStaff(_ session: StaffSession, name: String) async throws(ServiceError) -> StaffAccount

    /// Gives an account a new password, unlocks it and ends its sessions.
    func resetPassword(
        _ session: StaffSession, name: String, password: String
    ) async throws(ServiceError) -> StaffAccount

    /// Audit entries, newest first.
    func audit(_ session: StaffSession, query: AuditQuery) async throws(ServiceError) -> [AuditEntry]

    /// Checks the whole audit chain, and gives the hash of entry N for each count N asked
    /// (at most ``AuditCheckpoint/maximumCountsAsked``) that lies in the part that verifies:
    /// what checking checkpoints kept outside the store needs.
    func verifyAudit(_ session: StaffSession, hashesAt counts: [Int64]) async throws(ServiceError)
        -> AuditVerification

    // MARK: Hospital systems (admin)

    /// Every HIS client, revoked ones included, by name.
    func hisClients(_ session: StaffSession) async throws(ServiceError) -> [HISClient]

    /// Adds an HIS client (name checked by ``HISClientName``; `ratePerMinute` nil: the server's
    /// setting) and returns it with its API key: the only time the key is shown. Audited.
    func addHISClient(
        _ session: StaffSession, name: String, ratePerMinute: Int?
    ) async throws(ServiceError) -> NewHISClient

    /// Revokes an HIS client: its key and certificate are refused from the next request on, on
    /// every server of the store. Audited.
    func revokeHISClient(_ session: StaffSession, name: String) async throws(ServiceError) -> HISClient
}

/// A client just added, with the API key it authenticates with. The key is shown once and never
/// stored; `description` leaves it out.
public struct NewHISClient: Hashable, Sendable, CustomStringConvertible {
    public var client: HISClient
    public var key: String

    public init(client: HISClient, key: String) {
        self.client = client
        self.key = key
    }

    public var description: String { "HIS client \(client.name)" }
}

extension DeskService {
    /// The first admin without a setup token (a desk on the store itself).
    public func createFirstAdmin(name: String, password: String) async throws(ServiceError) -> StaffSession {
        try await createFirstAdmin(name: name, password: password, setupToken: nil)
    }

    public var connectionProblem: String? { nil }

    /// Checks the whole audit chain.
    public func verifyAudit(_ session: StaffSession) async throws(ServiceError) -> AuditVerification {
        try await verifyAudit(session, hashesAt: [])
    }
}

/// A page of raw sightings.
public struct TraceSightingsPage: Hashable, Sendable {
    public var sightings: [Sighting]
    /// Sightings matching, all pages together.
    public var total: Int
    /// Where the next page starts; nil after the last.
    public var nextOffset: Int?

    public init(sightings: [Sighting], total: Int, nextOffset: Int?) {
        self.sightings = sightings
        self.total = total
        self.nextOffset = nextOffset
    }

    public static let maximumLimit = 50_000
}

/// The answer to an authorisation request.
public enum AuthorizeResult: Hashable, Sendable {
    /// Authorised: the app must upload before `record.expiresAt`.
    case authorized(OtpAuthorization)
    /// An earlier authorisation of the same code is still running; nothing changed.
    case alreadyAuthorized(OtpAuthorization)
    /// Refused before anything was stored.
    case invalid(AuthorizeRefusal)
}

/// Why an authorisation was refused; the message says what to do next.
public enum AuthorizeRefusal: Hashable, Sendable {
    case code(OtpError)
    case symptomOnset(SymptomOnsetError)

    public var message: String {
        switch self {
        case .code(let error): return error.message
        case .symptomOnset(let error): return error.message
        }
    }
}

/// Why a use case could not run at all (as opposed to a refusal it decided on).
public enum ServiceError: Error, Hashable, Sendable {
    /// The request itself is wrong; the message says how.
    case invalid(String)
    /// The data cannot be reached (store locked, file damaged, server down).
    case unavailable(String)
    /// A fault that retrying soon will not fix (a damaged or read-only store, a failed
    /// statement). Only ``PhoneDesk`` tells it apart from `unavailable`, for the HTTP status.
    case failed(String)
    /// No valid session: never signed in, signed out, past its 12 h, idle too long, or the
    /// account was disabled. Sign in again.
    case notSignedIn(String)
    /// Signed in, but the role does not allow this use case (or this record).
    case forbidden(String)
    /// A sign-in that did not succeed: wrong name or password, disabled or locked account, or
    /// too soon after failures. The message says what to do.
    case signInFailed(String)
    /// The change collides with what exists (a name taken, the first admin already made).
    case conflict(String)

    public var message: String {
        switch self {
        case .invalid(let text), .unavailable(let text), .failed(let text), .notSignedIn(let text),
            .forbidden(let text), .signInFailed(let text), .conflict(let text):
            return text
        }
    }
}
