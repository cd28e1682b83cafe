import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskStore
import Foundation

/// A `LocalDesk` over a real `SQLiteStore` in its own temporary directory, on a fixed clock.
struct DeskFixture {
    /// 2026-11-29 10:00:00 UTC, a Sunday.
    static let start = Date(timeIntervalSince1970: 1_795_946_400)
    static let today = CivilDay(iso: "2026-11-29")!
    /// Passwords in tests: long enough for the rules, hashed with cheap scrypt parameters.
    static let password = "correct horse battery"
    static let cheapHasher = PasswordHasher(logN: 10, r: 8, p: 1)
    /// SHA-256 of 9K2RAY8UUQ (`printf %s 9K2RAY8UUQ | sha256sum`).
    static let hashHex = "b39e0733843b1b5d7c558f52f117a824dc41216e0c2bb671b3d79ba82105dd94"

    let directory: URL
    let storePath: String
    let store: SQLiteStore
    let clock: FixedClock
    let desk: LocalDesk
    /// Signed-in people: the admin who set the store up, two operators and a supervisor.
    let admin: StaffSession
    let rossi: StaffSession
    let bianchi: StaffSession
    let supervisor: StaffSession

    /// Runs `body` with a fresh desk; the directory is removed afterwards.
    @discardableResult
    static func with<T>(
        otpLifetime: Duration = .seconds(150), start: Date = DeskFixture.start, waits: WaitClock = .system,
        _ body: (DeskFixture) async throws -> T
    ) async throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tracedesk-service-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tracedesk.sqlite").path
        let store = try SQLiteStore(path: path)
        let clock = FixedClock(start)
        let desk = LocalDesk(store: store, clock: clock, otpLifetime: otpLifetime, hasher: cheapHasher, waits: waits)
        let admin = try await desk.createFirstAdmin(name: "admin", password: password)
        for (name, role) in [("rossi", StaffRole.operator), ("bianchi", .operator), ("sara", .supervisor)] {
            _ = try await desk.addStaff(admin, name: name, role: role, password: password)
        }
        return try await body(
            DeskFixture(
                directory: directory, storePath: path, store: store, clock: clock, desk: desk, admin: admin,
                rossi: try await desk.signIn(name: "rossi", password: password),
                bianchi: try await desk.signIn(name: "bianchi", password: password),
                supervisor: try await desk.signIn(name: "sara", password: password)))
    }

    /// A session with a token's shape that no store knows (for desks over an unreachable store).
    static let strangerSession = StaffSession(
        token: "tds_" + String(repeating: "A", count: 43), user: "rossi", role: .operator, signedInAt: start,
        expiresAt: start + 3600, idleSeconds: 600)

    /// Every event in the store but staff actions (the fixture's own accounts and sign-ins make those).
    func events() throws -> [DeskEvent] { try store.events(after: 0, limit: 1_000).filter { $0.kind != .staffAction } }
}

/// A store that cannot be reached, for the `unavailable` paths.
struct UnreachableStore: Store {
    let error: StoreError

    var location: String { "unreachable" }
    func openCase(_ request: CaseOpenRequest, now: Date, settings: FollowUpSettings) throws(StoreError)
        -> CaseOpening
    { throw error }
    func cases(status: CaseStatusFilter, openedBy: String?, limit: Int) throws(StoreError) -> [TraceCase] {
        throw error
    }
    func caseDetail(id: Int64) throws(StoreError) -> CaseDetail? { throw error }
    func closeCase(
        id: Int64, reason: CaseCloseReason, note: String, by actor: String, now: Date
    ) throws(StoreError) -> CaseClosing { throw error }
    func addFollowUp(
        caseID: Int64, personUserID: Int64, reason: String, by actor: String, now: Date, settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpAddition { throw error }
    func followUpQueue(_ query: QueueQuery, now: Date, settings: FollowUpSettings) throws(StoreError) -> QueuePage {
        throw error
    }
    func followUpDetail(id: Int64, now: Date, settings: FollowUpSettings) throws(StoreError) -> StoredFollowUpDetail? {
        throw error
    }
    func recordAttempt(
        followUpID: Int64, outcome: CallOutcome, note: String, by actor: String, onlyAssignedTo: String?, now: Date,
        settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpChange { throw error }
    func recordCheck(
        followUpID: Int64, symptoms: Bool, isolating: Bool, note: String, by actor: String, onlyAssignedTo: String?,
        now: Date, settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpChange { throw error }
    func assignFollowUps(ids: [Int64], to tracer: String, by actor: String, now: Date) throws(StoreError)
        -> FollowUpAssignment
    { throw error }
    func deleteClosedCases(closedBefore: Date) throws(StoreError) -> Int { throw error }
    func schemaVersion() throws(StoreError) -> Int { throw error }
    func info() throws(StoreError) -> StoreInfo { throw error }
    func acquireJobLock(_ job: StoreJob) throws(StoreError) -> JobLease? { throw error }

    func authorize(
        otpHash: OtpHash, symptomsStartedOn: CivilDay, by actor: String, now: Date, lifetime: Duration
    ) throws(StoreError) -> AuthorizeOutcome { throw error }

    func authorization(for otpHash: OtpHash) throws(StoreError) -> OtpAuthorization? { throw error }
    func events(after afterID: Int64, limit: Int) throws(StoreError) -> [DeskEvent] { throw error }
    func latestEventID() throws(StoreError) -> Int64 { throw error }
    func eventPage(after: Int64, limit: Int, visibleTo operatorName: String?) throws(StoreError) -> StoredEventPage {
        throw error
    }
    func eventTail(limit: Int, visibleTo operatorName: String?) throws(StoreError) -> StoredEventPage { throw error }
    func code(ofEvent position: Int64) throws(StoreError) -> EventCode { throw error }
    func codeWatch(storedKey: OtpHash, now: Date, policy: PublishingPolicy) throws(StoreError) -> StoredCodeWatch? {
        throw error
    }
    func traffic(since: Date) throws(StoreError) -> TrafficShare { throw error }
    func recordJobRun(_ job: StoreJob, ranAt: Date, nextRunAt: Date) throws(StoreError) { throw error }
    func jobRun(_ job: StoreJob) throws(StoreError) -> JobRun? { throw error }
    func recordCheck(otpHash: OtpHash, now: Date) throws(StoreError) -> OtpStatus { throw error }
    func consumeForUpload(
        otpHash: OtpHash, now: Date, evaluate: (OtpAuthorization) -> UploadRecord
    ) throws(StoreError) -> UploadOutcome { throw error }
    func countDummy(route: String, now: Date) throws(StoreError) { throw error }
    func dummyCounts(since: Date) throws(StoreError) -> [String: Int64] { throw error }
    func recordGuessesLimited(route: String, retryAfterSeconds: Int, now: Date) throws(StoreError) { throw error }
    func analyticsTokenAuthorized(tokenHash: String, month: CivilDay) throws(StoreError) -> Bool { throw error }
    func grantAnalyticsAllowances(_ allowances: [AnalyticsAllowance], expiresAt: Date) throws(StoreError) {
        throw error
    }
    func recordOperationalInfo(
        _ info: OperationalInfo, allowance: AnalyticsAllowance?, now: Date
    ) throws(StoreError) -> Bool { throw error }
    func upload(id: Int64) throws(StoreError) -> StoredUpload? { throw error }
    func attestationSaltUsed(_ salt: String, now: Date) throws(StoreError) -> Bool { throw error }
    func recordOperationalInfo(
        _ info: OperationalInfo, salt: String, now: Date, saltExpiresAt: Date
    ) throws(StoreError) -> Bool { throw error }
    func publishChunk(
        now: Date, policy: PublishingPolicy, build: (ChunkDraft) throws(StoreError) -> ChunkBuild
    ) throws(StoreError) -> ChunkSummary? { throw error }
    func publishingBacklog(now: Date, policy: PublishingPolicy) throws(StoreError) -> PublishingBacklog {
        throw error
    }
    func chunkIndexRange(since: Date) throws(StoreError) -> ClosedRange<Int64>? { throw error }
    func chunkZip(index: Int64, since: Date) throws(StoreError) -> (zip: [UInt8], publishedAt: Date)? { throw error }
    func chunks() throws(StoreError) -> [ChunkSummary] { throw error }
    func chunk(index: Int64) throws(StoreError) -> (summary: ChunkSummary, zip: [UInt8])? { throw error }
    func lastChunkIndex() throws(StoreError) -> Int64 { throw error }
    func cleanup(now: Date, policy: RetentionPolicy) throws(StoreError) -> CleanupReport { throw error }

    func issueSmsCode(
        phone: PhoneNumber, codeHMAC: String, now: Date, policy: SmsCodePolicy
    ) throws(StoreError) -> SmsCodeIssue { throw error }
    func verifySmsCode(
        phone: PhoneNumber, codeHMAC: String, now: Date, policy: SmsCodePolicy
    ) throws(StoreError) -> SmsCodeCheck { throw error }
    func login(
        phone: PhoneNumber, appID: String, deviceID: String, tokenHash: String, tokenExpiresAt: Date, now: Date,
        count: Int, nextSuffix: () -> UInt32
    ) throws(StoreError) -> ApricotLogin { throw error }
    func apricotUser(tokenHash: String, appID: String, deviceID: String, now: Date) throws(StoreError) -> Int64? {
        throw error
    }
    func pseudoIDCapacity() throws(StoreError) -> PseudoIDCapacity { throw error }
    func storeContactFile(
        userID: Int64, day: CivilDay, records: [ContactRecord], receivedAt: Date, clientClock: Int64,
        skewSeconds: Int64
    ) throws(StoreError) -> ContactFileReceipt { throw error }
    func tracePatient(phone: PhoneNumber) throws(StoreError) -> StoredTracePatient? { throw error }
    func tracePatient(userID: Int64) throws(StoreError) -> StoredTracePatient? { throw error }
    func owners(ofSuffixes suffixes: [UInt32]) throws(StoreError) -> [UInt32: (userID: Int64, phone: PhoneNumber)] {
        throw error
    }
    func contactOutcomes(patientUserID: Int64) throws(StoreError) -> [Int64: RecordedOutcome] { throw error }
    func recordContactOutcome(
        patientUserID: Int64, contactUserID: Int64, outcome: RecordedOutcome, purpose: String
    ) throws(StoreError) { throw error }
    func enqueueSms(
        phone: PhoneNumber, text: String, gateway: String, status: SmsDeliveryStatus, detail: String, now: Date,
        textExpiresAt: Date?
    ) throws(StoreError) -> Int64 {
        throw error
    }
    func recordSmsDelivery(id: Int64, status: SmsDeliveryStatus, detail: String, now: Date) throws(StoreError) {
        throw error
    }
    func smsOutbox(limit: Int) throws(StoreError) -> [SmsMessage] { throw error }
    func statistics(_ query: StatsQuery, now: Date) throws(StoreError) -> StatsReport { throw error }
    func rollUpStatistics(now: Date) throws(StoreError) -> Int { throw error }
    func followUpFacts(_ query: StatsQuery, now: Date, settings: FollowUpSettings) throws(StoreError) -> FollowUpFacts {
        throw error
    }

    func staffCount() throws(StoreError) -> Int { throw error }
    func staffAccounts() throws(StoreError) -> [StaffAccount] { throw error }
    func staffCredentials(name: String) throws(StoreError) -> StaffCredentials? { throw error }
    func addStaff(
        name: String, role: StaffRole, passwordHash: String, by actor: String, now: Date, onlyIfEmpty: Bool
    ) throws(StoreError) -> AddStaffOutcome { throw error }
    func disableStaff(name: String, by actor: String, now: Date) throws(StoreError) -> StaffAccount? { throw error }
    func setPassword(
        name: String, passwordHash: String, by actor: String, now: Date, reason: PasswordChange
    ) throws(StoreError) -> StaffAccount? { throw error }
    func beginSignIn(name: String, source: String, now: Date, policy: SignInPolicy) throws(StoreError)
        -> SignInAttempt
    { throw error }
    func finishSignIn(
        name: String, source: String, attempt: Int, checkedAgainst: String, session: NewStaffSession?,
        rehash: String?, now: Date, policy: SignInPolicy
    ) throws(StoreError) -> SignInFinish { throw error }
    func session(tokenHash: String) throws(StoreError) -> StoredSession? { throw error }
    func touchSession(tokenHash: String, now: Date) throws(StoreError) { throw error }
    func endSession(tokenHash: String, now: Date) throws(StoreError) -> Bool { throw error }
    func appendAudit(
        actor: String, action: AuditAction, target: String?, detail: String, now: Date
    ) throws(StoreError) -> AuditEntry { throw error }
    func auditEntries(after afterID: Int64, limit: Int) throws(StoreError) -> [AuditEntry] { throw error }
    func auditEntries(matching query: AuditQuery) throws(StoreError) -> [AuditEntry] { throw error }

    func addHISClient(
        name: String, keyHash: String, ratePerMinute: Int?, by actor: String, now: Date
    ) throws(StoreError) -> HISClient? { throw error }
    func hisClients() throws(StoreError) -> [HISClient] { throw error }
    func revokeHISClient(name: String, by actor: String, now: Date) throws(StoreError) -> HISClient? { throw error }
    func hisClient(keyHash: String) throws(StoreError) -> StoredHISClient? { throw error }
    func hisClient(name: String) throws(StoreError) -> HISClient? { throw error }
}

extension AuthorizeResult {
    /// The record for both successful outcomes, nil for a refusal.
    var record: OtpAuthorization? {
        switch self {
        case .authorized(let record), .alreadyAuthorized(let record): return record
        case .invalid: return nil
        }
    }
}

/// Runs `body` in `count` tasks at once, each on a thread of its own (not the cooperative pool,
/// which has as many threads as cores and would run the calls a few at a time), released
/// together; returns what each produced, in index order.
func onOwnThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) async -> T) async -> [T] {
    let executors = (0..<count).map { _ in ThreadExecutor() }
    defer { for executor in executors { executor.stop() } }
    let gate = StartGate(count)
    return await withTaskGroup(of: (Int, T).self) { group in
        for (index, executor) in executors.enumerated() {
            group.addTask(executorPreference: executor) {
                gate.arriveAndWait()
                return (index, await body(index))
            }
        }
        var results: [Int: T] = [:]
        for await (index, value) in group { results[index] = value }
        return (0..<count).map { results[$0]! }
    }
}

/// Holds its callers (each on a thread of its own) until all `count` have arrived.
final class StartGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Int

    init(_ count: Int) { waiting = count }

    func arriveAndWait() {
        condition.lock()
        defer { condition.unlock() }
        waiting -= 1
        if waiting == 0 { condition.broadcast() }
        while waiting > 0 { condition.wait() }
    }
}

/// A task executor with one thread of its own, which runs the jobs given to it in turn.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init() {
        let thread = Thread { [self] in run() }
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
