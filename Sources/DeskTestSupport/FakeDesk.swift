import CivilCalendar
import DeskContract
import DeskCore
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``DeskService`` in memory, for the tests of what sits above the contract (the console's
/// screens and program loop): no store, no server, no password hashing, so those tests need
/// neither SQLite nor a socket. What the desks decide is tested by the contract suite against
/// LocalDesk and RemoteDesk; the fake keeps only the rules a screen's flow depends on, in the
/// contract's words where the contract has them (``ServiceChecks``): sessions and roles, the
/// code and symptom-onset checks, the page limits, staff names and passwords. Everything a
/// screen shows that a store would compute (statistics, contact lookups, watches) is given by
/// the test (``Canned``).
///
/// Threading rule: callable from any task (one lock around the state). The clock stands still
/// unless a test moves it (``advance(seconds:)``).
public final class FakeDesk: DeskService, @unchecked Sendable {
    /// What a test sets for the use cases whose answers a store would compute.
    public struct Canned: Sendable {
        public var traffic: TrafficShare?
        public var statistics: StatsReport?
        public var lookups: [String: TraceLookup] = [:]
        public var sightings: [Sighting] = []
        public var watch: CodeWatch?
        public var outbox: [SmsMessage] = []
        /// The tracing indicators; nil: none of the range's cases (every figure empty).
        public var indicators: FollowUpIndicators?
        public init() {}
    }

    /// The password every account made by ``init(accounts:now:location:)`` has.
    public static let password = "correct horse battery"

    /// What a failed sign-in is told (LocalDesk's words, so screens read as they would).
    public static let wrongPassword =
        tr("errors.signIn.wrong")

    public let location: String
    public let firstAdminNeedsSetupToken: Bool

    let lock = SimpleLock()
    var clock: Date
    var accounts: [String: (account: StaffAccount, password: String)] = [:]
    private var sessions: [String: StaffSession] = [:]
    private var records: [String: OtpAuthorization] = [:]
    private var eventLog: [MonitorEvent] = []
    private var auditLog: [AuditEntry] = []
    private var clients: [String: HISClient] = [:]
    private var outcomes: [Int64: RecordedOutcome] = [:]
    private var problem: String?
    private var failure: ServiceError?
    private var calls: [String] = []
    var canned = Canned()
    /// Cases and follow-ups (FakeDesk+FollowUp.swift).
    var book = FakeFollowUpBook()
    private var nextToken = 0

    /// Accounts (name and role) with ``password``, made by `admin` at `now`.
    public init(
        accounts: [(String, StaffRole)] = [], now: Date, location: String = "fake desk",
        firstAdminNeedsSetupToken: Bool = false
    ) {
        clock = now
        self.location = location
        self.firstAdminNeedsSetupToken = firstAdminNeedsSetupToken
        for (name, role) in accounts {
            self.accounts[name] = (Self.account(name, role, by: "admin", at: now), Self.password)
        }
    }

    // MARK: What a test sets and reads

    /// Sets the canned answers.
    public func canned(_ change: (inout Canned) -> Void) { lock.withLock { change(&canned) } }
    /// Every call from now on throws `error` (nil: calls answer again), as a desk whose data
    /// cannot be reached would.
    public func fail(with error: ServiceError?) { lock.withLock { failure = error } }
    /// What ``connectionProblem`` says.
    public func setConnectionProblem(_ text: String?) { lock.withLock { problem = text } }
    /// Moves the desk's clock on.
    public func advance(seconds: Double) { lock.withLock { clock = clock.addingTimeInterval(seconds) } }
    /// The use cases called so far, in order (`"authorize"`, `"events"`…).
    public var callLog: [String] { lock.withLock { calls } }
    /// The audit entries written so far, oldest first (actions only: the fake keeps no chain).
    public var auditActions: [AuditAction] { lock.withLock { auditLog.map(\.action) } }
    /// The audit log as written, oldest first.
    public var auditEntries: [AuditEntry] { lock.withLock { auditLog } }
    /// An event as the phones' side of a server would add it (an upload, a check…).
    public func addEvent(kind: String, actor: String? = nil, codeTag: String? = nil, detail: String = "{}") {
        lock.withLock { appendEvent(kind: kind, actor: actor, codeTag: codeTag, detail: detail) }
    }

    // MARK: DeskService

    public func now() -> Date { lock.withLock { clock } }
    public var connectionProblem: String? { lock.withLock { problem } }

    public func needsFirstAdmin() async throws(ServiceError) -> Bool {
        try run("needsFirstAdmin") { () throws(ServiceError) in accounts.isEmpty }
    }

    public func createFirstAdmin(name: String, password: String, setupToken: String?) async throws(ServiceError)
        -> StaffSession
    {
        try run("createFirstAdmin") { () throws(ServiceError) in
            guard accounts.isEmpty else { throw .conflict("the first admin exists already: sign in") }
            if firstAdminNeedsSetupToken, setupToken?.isEmpty ?? true {
                throw .forbidden("give the setup token the server printed at start")
            }
            let name = try Self.checked(name: name, password: password)
            accounts[name] = (Self.account(name, .admin, by: name, at: clock), password)
            audit(name, .staffAdded, target: name)
            return openSession(for: accounts[name]!.account)
        }
    }

    public func signIn(name: String, password: String) async throws(ServiceError) -> StaffSession {
        try run("signIn") { () throws(ServiceError) in
            guard let entry = accounts[name], entry.password == password, !entry.account.disabled else {
                throw .signInFailed(Self.wrongPassword)
            }
            audit(name, .signIn, target: nil)
            return openSession(for: entry.account)
        }
    }

    public func signOut(_ session: StaffSession) async throws(ServiceError) {
        try run("signOut") { () throws(ServiceError) in
            guard sessions.removeValue(forKey: session.token) != nil else { return }
            audit(session.user, .signOut, target: nil)
        }
    }

    public func authorize(
        _ session: StaffSession, code: String, symptomsStartedOn: CivilDay
    ) async throws(ServiceError) -> AuthorizeResult {
        try run("authorize") { () throws(ServiceError) in
            let person = try signedIn(session, for: .authorizeCode)
            let otp: Otp
            do throws(OtpError) { otp = try Otp(operatorInput: code) } catch { return .invalid(.code(error)) }
            do throws(SymptomOnsetError) { _ = try SymptomOnset.check(symptomsStartedOn, today: clock.utcDay) } catch {
                return .invalid(.symptomOnset(error))
            }
            if let record = records[otp.characters], case .authorized = OtpStatus(record, now: clock) {
                return .alreadyAuthorized(record)
            }
            let record = OtpAuthorization(
                otpHash: Self.hash(otp), symptomsStartedOn: symptomsStartedOn, authorizedAt: clock,
                expiresAt: clock.addingTimeInterval(150), authorizedBy: person.user)
            records[otp.characters] = record
            appendEvent(kind: "authorized", actor: person.user, codeTag: record.otpHash.tag, detail: "{}")
            return .authorized(record)
        }
    }

    public func status(_ session: StaffSession, of code: String) async throws(ServiceError) -> OtpStatus {
        try run("status") { () throws(ServiceError) in
            _ = try signedIn(session, for: .codeStatus)
            let otp: Otp
            do throws(OtpError) { otp = try Otp(operatorInput: code) } catch { throw .invalid(error.message) }
            return OtpStatus(records[otp.characters], now: clock)
        }
    }

    public func events(
        _ session: StaffSession, after: Int64, limit: Int, wait: Duration
    ) async throws(ServiceError) -> EventPage {
        // Answers at once whatever the wait: a test adds events and steps the loop itself.
        try run("events") { () throws(ServiceError) in
            _ = try signedIn(session, for: .monitorEvents)
            if let problem = ServiceChecks.pageProblem(after: after, limit: limit, wait: wait) { throw problem }
            let page = Array(eventLog.filter { $0.id > after }.prefix(limit))
            return EventPage(events: page, cursor: page.last?.id ?? max(after, eventLog.last?.id ?? 0))
        }
    }

    public func newestEvents(_ session: StaffSession, limit: Int) async throws(ServiceError) -> EventPage {
        try run("newestEvents") { () throws(ServiceError) in
            _ = try signedIn(session, for: .monitorEvents)
            if let problem = ServiceChecks.pageProblem(after: 0, limit: limit, wait: .zero) { throw problem }
            return EventPage(events: Array(eventLog.suffix(limit)), cursor: eventLog.last?.id ?? 0)
        }
    }

    public func traffic(_ session: StaffSession, since: Date) async throws(ServiceError) -> TrafficShare {
        try run("traffic") { () throws(ServiceError) in
            _ = try signedIn(session, for: .monitorEvents)
            return canned.traffic ?? TrafficShare(since: since, realRequests: 0, dummyRequests: 0)
        }
    }

    public func watch(_ session: StaffSession, _ target: WatchTarget) async throws(ServiceError) -> CodeWatch {
        try run("watch") { () throws(ServiceError) in
            _ = try signedIn(session, for: .watchCode)
            guard let watch = canned.watch else {
                throw .invalid(tr("errors.monitor.noAuthorization"))
            }
            return watch
        }
    }

    public func traceLookup(_ session: StaffSession, phone: String, purpose: String) async throws(ServiceError)
        -> TraceLookup
    {
        try run("traceLookup") { () throws(ServiceError) in
            let person = try signedIn(session, for: .traceContacts)
            guard let lookup = canned.lookups[phone] else {
                audit(person.user, .traceLookup, target: nil)
                throw .invalid(ServiceChecks.unknownPatient)
            }
            audit(person.user, .traceLookup, target: "user \(lookup.patient.userID)")
            return lookup
        }
    }

    public func traceSightings(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64?, purpose: String, offset: Int, limit: Int
    ) async throws(ServiceError) -> TraceSightingsPage {
        try run("traceSightings") { () throws(ServiceError) in
            _ = try signedIn(session, for: .traceContacts)
            guard (1...TraceSightingsPage.maximumLimit).contains(limit) else {
                throw .invalid("a page holds 1 to \(TraceSightingsPage.maximumLimit) sightings: ask for fewer")
            }
            let matching = canned.sightings.filter { contactUserID == nil || $0.contactUserID == contactUserID }
            let page = Array(matching.dropFirst(max(0, offset)).prefix(limit))
            let next = offset + page.count < matching.count ? offset + page.count : nil
            return TraceSightingsPage(sightings: page, total: matching.count, nextOffset: next)
        }
    }

    public func recordOutcome(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64, outcome: ContactOutcome, note: String,
        purpose: String
    ) async throws(ServiceError) -> RecordedOutcome {
        try run("recordOutcome") { () throws(ServiceError) in
            let person = try signedIn(session, for: .traceContacts)
            if let problem = ServiceChecks.noteProblem(note) { throw .invalid(problem) }
            let recorded = RecordedOutcome(outcome: outcome, note: note, by: person.user, at: clock)
            outcomes[contactUserID] = recorded
            audit(person.user, .contactOutcome, target: "user \(contactUserID)")
            return recorded
        }
    }

    public func recordTraceExport(
        _ session: StaffSession, patientUserID: Int64, purpose: String, kind: String, rows: Int
    ) async throws(ServiceError) {
        try run("recordTraceExport") { () throws(ServiceError) in
            let person = try signedIn(session, for: .traceContacts)
            guard ServiceChecks.exportKinds.contains(kind) else {
                throw .invalid(
                    "unknown export kind: use one of \(ServiceChecks.exportKinds.sorted().joined(separator: ", "))")
            }
            audit(person.user, .traceExport, target: "user \(patientUserID)")
        }
    }

    public func recordPhoneCopy(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64, purpose: String
    ) async throws(ServiceError) {
        try run("recordPhoneCopy") { () throws(ServiceError) in
            let person = try signedIn(session, for: .traceContacts)
            audit(
                person.user, .phoneCopied, target: "user \(contactUserID)",
                detail: AuditEntry.Detail.PhoneCopied(patient: "user \(patientUserID)", purpose: purpose).json)
        }
    }

    public func statistics(_ session: StaffSession, query: StatsQuery) async throws(ServiceError) -> StatsReport {
        try run("statistics") { () throws(ServiceError) in
            _ = try signedIn(session, for: .readStatistics)
            if let problem = ServiceChecks.statsProblem(query) { throw problem }
            return canned.statistics ?? StatsReport(query: query, generatedAt: clock)
        }
    }

    public func smsOutbox(_ session: StaffSession, limit: Int) async throws(ServiceError) -> [SmsMessage] {
        try run("smsOutbox") { () throws(ServiceError) in
            let person = try signedIn(session, for: .readSmsOutbox)
            guard (1...ServiceChecks.maximumOutboxPage).contains(limit) else {
                throw .invalid("the outbox shows 1 to \(ServiceChecks.maximumOutboxPage) messages: ask for fewer")
            }
            audit(person.user, .smsOutboxRead, target: nil)
            return Array(canned.outbox.prefix(limit))
        }
    }

    public func staff(_ session: StaffSession) async throws(ServiceError) -> [StaffAccount] {
        try run("staff") { () throws(ServiceError) in
            _ = try signedIn(session, for: .listStaff)
            return accounts.values.map(\.account).sorted { $0.name < $1.name }
        }
    }

    public func addStaff(
        _ session: StaffSession, name: String, role: StaffRole, password: String
    ) async throws(ServiceError) -> StaffAccount {
        try run("addStaff") { () throws(ServiceError) in
            let person = try signedIn(session, for: .addStaff)
            let name = try Self.checked(name: name, password: password)
            guard accounts[name] == nil else { throw .conflict("\(name) exists already: choose another name") }
            let account = Self.account(name, role, by: person.user, at: clock)
            accounts[name] = (account, password)
            audit(person.user, .staffAdded, target: name)
            return account
        }
    }

    public func disableStaff(_ session: StaffSession, name: String) async throws(ServiceError) -> StaffAccount {
        try run("disableStaff") { () throws(ServiceError) in
            let person = try signedIn(session, for: .disableStaff)
            guard name != person.user else { throw .invalid("you cannot disable your own account") }
            guard var entry = accounts[name] else { throw .invalid("no account is named \(name)") }
            entry.account.disabled = true
            accounts[name] = entry
            sessions = sessions.filter { $0.value.user != name }
            audit(person.user, .staffDisabled, target: name)
            return entry.account
        }
    }

    public func resetPassword(
        _ session: StaffSession, name: String, password: String
    ) async throws(ServiceError) -> StaffAccount {
        try run("resetPassword") { () throws(ServiceError) in
            let person = try signedIn(session, for: .resetPassword)
            guard var entry = accounts[name] else { throw .invalid("no account is named \(name)") }
            _ = try Self.checked(name: name, password: password)
            entry.password = password
            entry.account.locked = false
            entry.account.failedSignIns = 0
            entry.account.passwordChangedAt = clock
            accounts[name] = entry
            sessions = sessions.filter { $0.value.user != name }
            audit(person.user, .passwordReset, target: name)
            return entry.account
        }
    }

    public func audit(_ session: StaffSession, query: AuditQuery) async throws(ServiceError) -> [AuditEntry] {
        try run("audit") { () throws(ServiceError) in
            _ = try signedIn(session, for: .readAudit)
            let matching = auditLog.reversed().filter { entry in
                (query.actor.map { $0 == entry.actor } ?? true) && (query.action.map { $0 == entry.action } ?? true)
                    && (query.subject.map { $0 == entry.target } ?? true)
                    && (query.beforeID.map { entry.id < $0 } ?? true)
            }
            return Array(matching.prefix(query.limit))
        }
    }

    public func verifyAudit(_ session: StaffSession, hashesAt counts: [Int64]) async throws(ServiceError)
        -> AuditVerification
    {
        try run("verifyAudit") { () throws(ServiceError) in
            _ = try signedIn(session, for: .verifyAudit)
            let head = auditLog.last
            return AuditVerification(
                entries: Int64(auditLog.count), headHash: head?.hash ?? "", headID: head?.id ?? 0, firstBroken: nil)
        }
    }

    public func hisClients(_ session: StaffSession) async throws(ServiceError) -> [HISClient] {
        try run("hisClients") { () throws(ServiceError) in
            _ = try signedIn(session, for: .manageHISClients)
            return clients.values.sorted { $0.name < $1.name }
        }
    }

    public func addHISClient(
        _ session: StaffSession, name: String, ratePerMinute: Int?
    ) async throws(ServiceError) -> NewHISClient {
        try run("addHISClient") { () throws(ServiceError) in
            let person = try signedIn(session, for: .manageHISClients)
            guard clients[name] == nil else { throw .conflict("an HIS client is named \(name) already") }
            let client = HISClient(name: name, createdAt: clock, createdBy: person.user, ratePerMinute: ratePerMinute)
            clients[name] = client
            audit(person.user, .hisClientAdded, target: name)
            return NewHISClient(client: client, key: "fake-key-\(name)")
        }
    }

    public func revokeHISClient(_ session: StaffSession, name: String) async throws(ServiceError) -> HISClient {
        try run("revokeHISClient") { () throws(ServiceError) in
            let person = try signedIn(session, for: .manageHISClients)
            guard var client = clients[name] else { throw .invalid("no HIS client is named \(name)") }
            client.revokedAt = clock
            client.revokedBy = person.user
            clients[name] = client
            audit(person.user, .hisClientRevoked, target: name)
            return client
        }
    }

    // MARK: Internals (called under the lock)

    /// Runs one use case under the lock, after the failure a test set, and logs the call.
    func run<T>(_ name: String, _ body: () throws(ServiceError) -> T) throws(ServiceError) -> T {
        try lock.withLock { () throws(ServiceError) -> T in
            calls.append(name)
            if let failure { throw failure }
            return try body()
        }
    }

    func signedIn(_ session: StaffSession, for useCase: DeskUseCase) throws(ServiceError) -> StaffSession {
        guard let open = sessions[session.token], open.expiresAt > clock else {
            throw .notSignedIn(tr("errors.session.ended"))
        }
        guard open.role.may(useCase) else { throw ServiceChecks.forbidden(open.role, useCase) }
        return open
    }

    private func openSession(for account: StaffAccount) -> StaffSession {
        nextToken += 1
        let session = StaffSession(
            token: "fake-token-\(nextToken)", user: account.name, role: account.role, signedInAt: clock,
            expiresAt: clock.addingTimeInterval(12 * 3600), idleSeconds: 600)
        sessions[session.token] = session
        return session
    }

    private func appendEvent(kind: String, actor: String?, codeTag: String?, detail: String) {
        let id = (eventLog.last?.id ?? 0) + 1
        eventLog.append(MonitorEvent(id: id, at: clock, kind: kind, actor: actor, codeTag: codeTag, detail: detail))
    }

    func audit(_ actor: String, _ action: AuditAction, target: String?, detail: String = "{}") {
        let id = Int64(auditLog.count + 1)
        auditLog.append(
            AuditEntry(
                id: id, at: clock, actor: actor, action: action, target: target, detail: detail,
                previousHash: auditLog.last?.hash ?? "", hash: "fake-\(id)"))
    }

    private static func checked(name: String, password: String) throws(ServiceError) -> String {
        let normalized: String
        switch StaffName.normalize(name) {
        case .success(let text): normalized = text
        case .failure(let problem): throw .invalid(problem.message)
        }
        if let problem = PasswordRules.problem(password, user: normalized) { throw .invalid(problem.message) }
        return normalized
    }

    private static func account(_ name: String, _ role: StaffRole, by creator: String, at: Date) -> StaffAccount {
        StaffAccount(name: name, role: role, createdAt: at, createdBy: creator, passwordChangedAt: at)
    }

    /// Not the code's SHA-256 (that is DeskCrypto's, which the fake does without): a stand-in
    /// (FNV-1a, one round per byte) that is the same for the same code and differs from code to
    /// code, tag included.
    private static func hash(_ otp: Otp) -> OtpHash {
        var hex = ""
        for round in 0..<32 {
            var value: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(round)
            for byte in otp.characters.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let text = String(value >> 56, radix: 16)
            hex += text.count == 1 ? "0" + text : text
        }
        return OtpHash(hex: hex)!
    }
}
