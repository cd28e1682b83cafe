import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskStore
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The staff use cases over a ``Store``: session and role checks, rules from DeskCore, then one
/// store transaction.
///
/// Used by the console on the embedded store, by the CLI, and by the server's staff API, so every
/// rule (roles included) lives in one place.
public struct LocalDesk: DeskService {
    public let store: any Store
    public let clock: any Clock
    /// How long an authorised code stays usable (Immuni: 150 s).
    public let otpLifetime: Duration
    public let sessions: SessionPolicy
    public let signIns: SignInPolicy
    /// New passwords are hashed with these parameters; older, weaker hashes are replaced at the
    /// next successful sign-in.
    public let hasher: PasswordHasher
    /// The publishing rules the watch of a code tells waiting keys by (their embargo, the age
    /// past which they are never published): the server's, where there is one.
    public let publishing: PublishingPolicy
    /// The APRICOT settings lookups follow: the default country code of typed numbers, the
    /// contact history kept, how sightings become minutes and the close-contact threshold.
    public let apricot: ApricotSettings
    /// The contact follow-up rules (issue 21): the period, the retries, when a contact is lost,
    /// how long closed cases are kept.
    public let followUps: FollowUpSettings
    /// The one-time token the first admin needs (a server's desk); nil: none (the store itself).
    public let setupToken: SetupToken?
    /// Failed sign-ins with unknown names, per (name, source), in this process.
    let unknownNames: UnknownNameFailures
    /// The clock of the waits: a sign-in waiting for a place, a feed page waiting for an event.
    public let waits: WaitClock

    public init(
        store: any Store, clock: any Clock = SystemClock(), otpLifetime: Duration = .seconds(150),
        sessions: SessionPolicy = SessionPolicy(), signIns: SignInPolicy = SignInPolicy(),
        hasher: PasswordHasher = PasswordHasher(), publishing: PublishingPolicy = PublishingPolicy(),
        apricot: ApricotSettings = ApricotSettings(), setupToken: SetupToken? = nil,
        unknownNames: UnknownNameFailures = UnknownNameFailures(), waits: WaitClock = .system,
        followUps: FollowUpSettings = .standard
    ) {
        self.followUps = followUps
        self.waits = waits
        self.setupToken = setupToken
        self.unknownNames = unknownNames
        self.store = store
        self.clock = clock
        self.otpLifetime = otpLifetime
        self.sessions = sessions
        self.signIns = signIns
        self.hasher = hasher
        self.publishing = publishing
        self.apricot = apricot
    }

    public var location: String { store.location }

    public func now() -> Date { clock.now() }

    // MARK: Accounts and sessions

    public func needsFirstAdmin() async throws(ServiceError) -> Bool {
        try storeCall { () throws(StoreError) in try store.staffCount() == 0 }
    }

    public var firstAdminNeedsSetupToken: Bool { setupToken != nil }

    public func createFirstAdmin(name: String, password: String, setupToken given: String?) async throws(ServiceError)
        -> StaffSession
    {
        if let required = setupToken {
            if try storeCall({ () throws(StoreError) in try store.staffCount() }) > 0 { throw Self.accountsExist }
            guard let given, required.matches(given) else { throw Self.setupTokenRefused(required) }
        }
        let name = try Self.checkedName(name)
        if let problem = PasswordRules.problem(password, user: name) { throw .invalid(problem.message) }
        // Refused before the KDF when accounts exist: this call needs no sign-in, so it must not
        // be a way to make the server hash passwords at will. (The store checks again, atomically.)
        if try storeCall({ () throws(StoreError) in try store.staffCount() }) > 0 { throw Self.accountsExist }
        let hash = try hashed(password)
        let outcome = try storeCall { () throws(StoreError) in
            try store.addStaff(
                name: name, role: .admin, passwordHash: hash, by: "setup", now: clock.now(), onlyIfEmpty: true)
        }
        switch outcome {
        case .added:
            setupToken?.useUp()
            return try await signIn(name: name, password: password)
        case .nameTaken, .notEmpty: throw Self.accountsExist
        }
    }

    public func signIn(name: String, password: String) async throws(ServiceError) -> StaffSession {
        try await signIn(name: name, password: password, from: SignInSource.local)
    }

    /// Signs a person in from `source`: the client's address (an IPv6 /64) on the staff API,
    /// ``SignInSource/local`` on the store itself. Failures slow down that source only
    /// (``SignInPolicy``).
    ///
    /// A name no account has, a disabled or locked account and a wrong password all get the
    /// same words after the same work (one password check), and the same waits after the same
    /// failures (``UnknownNameFailures``): nothing here tells a real name from an unknown one.
    public func signIn(name: String, password: String, from source: String) async throws(ServiceError)
        -> StaffSession
    {
        var checked = false
        return try await signIn(name: name, password: password, from: source, checked: &checked)
    }

    /// A sign-in and whether a password was checked for it (the staff API's admission gives the
    /// budget back when none was: ``passwordChecked``).
    public func attemptSignIn(name: String, password: String, from source: String) async -> SignInResult {
        var checked = false
        do throws(ServiceError) {
            let session = try await signIn(name: name, password: password, from: source, checked: &checked)
            return SignInResult(outcome: .success(session), passwordChecked: checked)
        } catch {
            return SignInResult(outcome: .failure(error), passwordChecked: checked)
        }
    }

    private func signIn(name: String, password: String, from source: String, checked: inout Bool)
        async throws(ServiceError) -> StaffSession
    {
        guard case .success(let name) = StaffName.normalize(name) else {
            throw .signInFailed(Self.wrongNameOrPassword)
        }
        if password.isEmpty { throw .signInFailed(tr("errors.signIn.typePassword")) }
        // No password is that long: refused before any store or KDF work (a huge one would cost
        // the KDF's first pass over every byte).
        if password.count > PasswordRules.maximumLength { throw .signInFailed(Self.wrongNameOrPassword) }
        let policy = signIns
        let attempt = try await beginSignIn(name: name, source: source, policy: policy)
        switch attempt {
        case .unknownAccount:
            let nowMs = clock.now().unixMilliseconds
            if case .wait(let seconds) = policy.decide(unknownNames.state(name: name, source: source), nowMs: nowMs) {
                throw Self.wait(seconds, source: source)
            }
            // The same work as a real check, so the time taken does not tell which names exist.
            checked = true
            _ = PasswordHasher.verify(password, against: Self.decoyHash(for: hasher))
            unknownNames.failed(name: name, source: source, nowMs: nowMs, policy: policy)
            throw .signInFailed(Self.wrongNameOrPassword)
        case .disabled, .locked:
            // Told apart only on the Staff screen: here, the answer of a wrong password.
            checked = true
            _ = PasswordHasher.verify(password, against: Self.decoyHash(for: hasher))
            throw .signInFailed(Self.wrongNameOrPassword)
        case .wait(let seconds):
            throw Self.wait(seconds, source: source)
        case .busy:
            throw .signInFailed(tr("errors.signIn.busy"))
        case .verify(let credentials, let number):
            checked = true
            let matches = PasswordHasher.verify(password, against: credentials.passwordHash)
            let now = clock.now()
            if matches {
                let token = SessionToken.make()
                let new = NewStaffSession(
                    tokenHash: SessionToken.hash(token), createdAt: now,
                    expiresAt: now.addingTimeInterval(Double(sessions.maximumSeconds)),
                    idleSeconds: sessions.idleSeconds)
                let rehash = hasher.isWeaker(credentials.passwordHash) ? try? hasher.hash(password) : nil
                let finish = try storeCall { () throws(StoreError) in
                    try store.finishSignIn(
                        name: name, source: source, attempt: number, checkedAgainst: credentials.passwordHash,
                        session: new, rehash: rehash, now: now, policy: policy)
                }
                switch finish {
                case .signedIn(let account):
                    return StaffSession(
                        token: token, user: account.name, role: account.role,
                        signedInAt: Date(unixMilliseconds: now.unixMilliseconds),
                        expiresAt: Date(unixMilliseconds: new.expiresAt.unixMilliseconds),
                        idleSeconds: sessions.idleSeconds, phoneCountryCode: apricot.defaultCountryCode)
                case .failed, .refused:
                    // Disabled, locked or given a new password during the check: as a wrong one.
                    throw .signInFailed(Self.wrongNameOrPassword)
                }
            }
            _ = try storeCall { () throws(StoreError) in
                try store.finishSignIn(
                    name: name, source: source, attempt: number, checkedAgainst: credentials.passwordHash,
                    session: nil, rehash: nil, now: now, policy: policy)
            }
            throw .signInFailed(Self.wrongNameOrPassword)
        }
    }

    /// What ``attemptSignIn(name:password:from:)`` gives: the outcome, and whether a password
    /// (or the decoy of an unknown name) was checked.
    public struct SignInResult: Sendable {
        public var outcome: Result<StaffSession, ServiceError>
        public var passwordChecked: Bool
    }

    /// The refusal of a source that failed too recently (the same for every name).
    static func wait(_ seconds: Int, source: String) -> ServiceError {
        .signInFailed(
            tr(
                source == SignInSource.local ? "errors.signIn.wait.local" : "errors.signIn.wait.remote",
                ["seconds": String(seconds)]))
    }

    /// How long a sign-in waits, at most, for one of the attempts the store reports in flight
    /// (``SignInAttempt/busy``) to finish before it gives up.
    static let busyPatience: Duration = .seconds(5)

    /// The first half of a sign-in. When as many attempts as the lock allows are being checked
    /// (someone running several commands at once, each signing in), waits for one of them to
    /// finish (a password check: a fraction of a second) and asks again, for a few seconds.
    private func beginSignIn(name: String, source: String, policy: SignInPolicy) async throws(ServiceError)
        -> SignInAttempt
    {
        let giveUp = waits.now() + Self.busyPatience
        var pause = Duration.milliseconds(10)
        while true {
            let attempt = try storeCall { () throws(StoreError) in
                try store.beginSignIn(name: name, source: source, now: clock.now(), policy: policy)
            }
            guard attempt == .busy, waits.now() + pause < giveUp else { return attempt }
            do {
                try await waits.sleep(pause)
            } catch {
                return attempt
            }
            pause = min(pause * 2, .milliseconds(200))
        }
    }

    public func signOut(_ session: StaffSession) async throws(ServiceError) {
        guard SessionToken.looksValid(session.token) else { return }
        _ = try storeCall { () throws(StoreError) in
            try store.endSession(tokenHash: SessionToken.hash(session.token), now: clock.now())
        }
    }

    // MARK: Operator

    public func authorize(
        _ session: StaffSession, code: String, symptomsStartedOn: CivilDay
    ) async throws(ServiceError) -> AuthorizeResult {
        let person = try authenticate(session, for: .authorizeCode)
        let otp: Otp
        do {
            otp = try Otp(operatorInput: code)
        } catch {
            return .invalid(.code(error))
        }
        let now = clock.now()
        do {
            _ = try SymptomOnset.check(symptomsStartedOn, today: now.utcDay)
        } catch {
            return .invalid(.symptomOnset(error))
        }
        let lifetime = otpLifetime
        switch try storeCall({ () throws(StoreError) in
            try store.authorize(
                otpHash: otp.hash, symptomsStartedOn: symptomsStartedOn, by: person.user, now: now,
                lifetime: lifetime)
        }) {
        case .authorized(let record): return .authorized(record)
        case .alreadyAuthorized(var record):
            // Operators follow only their own codes: another's is reported without their name.
            if record.authorizedBy != person.user { record.authorizedBy = Self.anotherOperator }
            return .alreadyAuthorized(record)
        }
    }

    public func status(_ session: StaffSession, of code: String) async throws(ServiceError) -> OtpStatus {
        let person = try authenticate(session, for: .codeStatus)
        let otp: Otp
        do {
            otp = try Otp(operatorInput: code)
        } catch {
            throw .invalid(error.message)
        }
        let record = try storeCall { () throws(StoreError) in try store.authorization(for: otp.hash) }
        if person.role == .operator, let record, record.authorizedBy != person.user {
            throw .forbidden(Self.anotherOperatorsCode)
        }
        return OtpStatus(record, now: clock.now())
    }

    // MARK: Admin

    public func staff(_ session: StaffSession) async throws(ServiceError) -> [StaffAccount] {
        _ = try authenticate(session, for: .listStaff)
        return try storeCall { () throws(StoreError) in try store.staffAccounts() }
    }

    public func addStaff(
        _ session: StaffSession, name: String, role: StaffRole, password: String
    ) async throws(ServiceError) -> StaffAccount {
        let person = try authenticate(session, for: .addStaff)
        let name = try Self.checkedName(name)
        if let problem = PasswordRules.problem(password, user: name) { throw .invalid(problem.message) }
        let hash = try hashed(password)
        let outcome = try storeCall { () throws(StoreError) in
            try store.addStaff(
                name: name, role: role, passwordHash: hash, by: person.user, now: clock.now(), onlyIfEmpty: false)
        }
        switch outcome {
        case .added(let account): return account
        case .nameTaken, .notEmpty:
            throw .conflict(tr("errors.staff.nameTaken", ["name": name]))
        }
    }

    public func disableStaff(_ session: StaffSession, name: String) async throws(ServiceError) -> StaffAccount {
        let person = try authenticate(session, for: .disableStaff)
        let name = try Self.checkedName(name)
        if name == person.user { throw .invalid(tr("errors.staff.disableSelf")) }
        guard
            let account = try storeCall({ () throws(StoreError) in
                try store.disableStaff(name: name, by: person.user, now: clock.now())
            })
        else { throw .invalid(tr("errors.staff.noAccount", ["name": name])) }
        return account
    }

    public func resetPassword(
        _ session: StaffSession, name: String, password: String
    ) async throws(ServiceError) -> StaffAccount {
        let person = try authenticate(session, for: .resetPassword)
        let name = try Self.checkedName(name)
        if let problem = PasswordRules.problem(password, user: name) { throw .invalid(problem.message) }
        let hash = try hashed(password)
        guard
            let account = try storeCall({ () throws(StoreError) in
                try store.setPassword(name: name, passwordHash: hash, by: person.user, now: clock.now(), reason: .reset)
            })
        else { throw .invalid(tr("errors.staff.noAccount", ["name": name])) }
        return account
    }

    public func audit(_ session: StaffSession, query: AuditQuery) async throws(ServiceError) -> [AuditEntry] {
        _ = try authenticate(session, for: .readAudit)
        var query = query
        query.limit = min(max(query.limit, 1), 1_000)
        if let actor = query.actor { query.actor = actor.lowercased() }
        if let subject = query.subject { query.subject = subject.lowercased() }
        let bounded = query
        return try storeCall { () throws(StoreError) in try store.auditEntries(matching: bounded) }
    }

    public func verifyAudit(_ session: StaffSession, hashesAt counts: [Int64]) async throws(ServiceError)
        -> AuditVerification
    {
        _ = try authenticate(session, for: .verifyAudit)
        guard counts.count <= AuditCheckpoint.maximumCountsAsked else {
            throw .invalid(tr("errors.audit.tooManyCounts", ["count": String(AuditCheckpoint.maximumCountsAsked)]))
        }
        return try storeCall { () throws(StoreError) in try Self.verifyChain(store, hashesAt: Set(counts)) }
    }

    /// Walks the whole audit chain in pages, oldest first, noting the hash of entry N for each
    /// count N in `counts` that lies in the part that verifies.
    public static func verifyChain(
        _ store: any Store, hashesAt counts: Set<Int64> = [], pageSize: Int = 2_000
    ) throws(StoreError) -> AuditVerification {
        var last: (id: Int64, hash: String)?
        var count: Int64 = 0
        var hashes: [Int64: String] = [:]
        func note(_ entries: some Sequence<AuditEntry>) {
            guard !counts.isEmpty else { return }
            for entry in entries where counts.contains(entry.id) { hashes[entry.id] = entry.hash }
        }
        while true {
            let page = try store.auditEntries(after: last?.id ?? 0, limit: pageSize)
            if let broken = AuditChain.check(page, after: last) {
                // The entries of this page before the break verified: count them, and report the
                // last of them as the head of the good part.
                let good = page.prefix { $0.id != broken.id }
                note(good)
                if let tail = good.last { last = (id: tail.id, hash: tail.hash) }
                return AuditVerification(
                    entries: count + Int64(good.count), headHash: last?.hash ?? AuditChain.genesis,
                    headID: last?.id ?? 0, firstBroken: broken, hashesAt: hashes)
            }
            guard let tail = page.last else { break }
            note(page)
            count += Int64(page.count)
            last = (id: tail.id, hash: tail.hash)
            if page.count < pageSize { break }
        }
        return AuditVerification(
            entries: count, headHash: last?.hash ?? AuditChain.genesis, headID: last?.id ?? 0, firstBroken: nil,
            hashesAt: hashes)
    }

    // MARK: Checks

    /// The person behind `session`, if the session is valid now and their role may run `useCase`.
    /// Records activity on the session.
    func authenticate(_ session: StaffSession, for useCase: DeskUseCase) throws(ServiceError) -> (
        user: String, role: StaffRole
    ) {
        guard SessionToken.looksValid(session.token) else { throw .notSignedIn(tr("errors.session.none")) }
        let tokenHash = SessionToken.hash(session.token)
        let now = clock.now()
        guard let stored = try storeCall({ () throws(StoreError) in try store.session(tokenHash: tokenHash) }) else {
            throw .notSignedIn(tr("errors.session.unknown"))
        }
        if stored.endedAt != nil {
            throw .notSignedIn(tr("errors.session.ended"))
        }
        if stored.accountDisabled { throw .notSignedIn(tr("errors.session.disabled", ["user": stored.user])) }
        if now >= stored.expiresAt {
            throw .notSignedIn(
                tr(
                    "errors.session.expired",
                    ["duration": Self.hours(Int(stored.expiresAt.timeIntervalSince(stored.createdAt)))]))
        }
        // The limit the session was given at sign-in, whichever server signed it in: every
        // server on the store applies the same one (older sessions: this desk's own).
        let idle = stored.idleSeconds ?? sessions.idleSeconds
        if now.timeIntervalSince(stored.lastSeenAt) > Double(idle) {
            throw .notSignedIn(tr("errors.session.idle", ["duration": Self.minutes(idle)]))
        }
        guard stored.role.may(useCase) else { throw ServiceChecks.forbidden(stored.role, useCase) }
        // Every call is activity, but the store writes it only when its record is older than
        // ``SessionActivity``'s interval: the UPDATE that would change nothing is not even sent
        // (on SQLite it would still take the write lock, against the phones' uploads).
        if now.unixMilliseconds - stored.lastSeenAt.unixMilliseconds > SessionActivity.writtenEveryMilliseconds {
            try storeCall { () throws(StoreError) in try store.touchSession(tokenHash: tokenHash, now: now) }
        }
        return (stored.user, stored.role)
    }

    /// The refusal of a use case the role may not run (also what RemoteDesk says when it checks
    /// the session's role before asking).
    private func hashed(_ password: String) throws(ServiceError) -> String {
        do {
            return try hasher.hash(password)
        } catch {
            throw .unavailable(error.message)
        }
    }

    func storeCall<T>(_ body: () throws(StoreError) -> T) throws(ServiceError) -> T {
        do {
            return try body()
        } catch {
            throw ServiceError(error)
        }
    }

    static func checkedName(_ text: String) throws(ServiceError) -> String {
        switch StaffName.normalize(text) {
        case .success(let name): return name
        case .failure(let problem): throw .invalid(problem.message)
        }
    }

    /// A first admin without the setup token, or with another one (never echoed).
    static func setupTokenRefused(_ token: SetupToken) -> ServiceError {
        let file = token.path.map { tr("errors.setup.tokenFile", ["file": $0]) } ?? ""
        return .forbidden(tr("errors.setup.tokenRefused", ["file": file]))
    }

    static var accountsExist: ServiceError { .conflict(tr("errors.setup.accountsExist")) }

    /// Why an operator cannot follow a code (its status, its watch).
    static var anotherOperatorsCode: String { tr("errors.code.anotherOperator") }

    /// Who authorised a code, as shown to an operator who did not.
    public static let anotherOperator = "another operator"

    /// Every failed sign-in's words, whatever the reason (no such name, a wrong password, a
    /// disabled or locked account): an answer must not tell which names exist.
    static var wrongNameOrPassword: String { tr("errors.signIn.wrong") }

    /// Makes the decoy hash of `hasher` now (one hash), so that the first unknown name a server
    /// sees does not take two hashes' time where a real name takes one (servers call it at start).
    public static func prepareDecoy(for hasher: PasswordHasher = PasswordHasher()) { _ = decoyHash(for: hasher) }

    /// A valid hash of a random password with `hasher`'s parameters: checked against when the
    /// account does not exist, so that costs what checking a real account's hash costs (the
    /// desk's own parameters: tests that lower the cost lower it here too).
    static func decoyHash(for hasher: PasswordHasher) -> String { decoys.hash(for: hasher) }

    private static let decoys = DecoyHashes()

    static func minutes(_ seconds: Int) -> String {
        seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s"
    }

    static func hours(_ seconds: Int) -> String {
        seconds % 3600 == 0 ? "\(seconds / 3600) h" : minutes(seconds)
    }
}
