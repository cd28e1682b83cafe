import DeskCore
import DeskCrypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The statements of staff accounts, sessions and the audit log, in one adapter's dialect.
struct StaffStatements: Sendable {
    var countStaff, selectAccounts, selectAccount, insertStaff, disable, resetPassword, rehash: String
    var countAttempt, failedAttempt, signedIn, lockAccount, lockAbandoned: String
    var selectSource, sourceFailed, sourceSucceeded, clearSources, countSources: String
    var insertSession, selectSession, touchSession, endSession, endSessionsOf: String
    var lastAudit, lastAuditOf, insertAudit, auditAfter: String
    /// The `staff_action` event each audit entry (but `otp_authorized`'s) is mirrored by.
    var insertEvent: String
    /// Taken before the log's last entry is read: PostgreSQL's transaction-level advisory lock,
    /// which also orders every audited transaction of every server. Nil for SQLite, whose write
    /// transaction is exclusive already.
    var lockAudit: String?
    /// Whether placeholders are numbered (`$1`…): the audit browse is built per query.
    var numbered: Bool

    static let sqlite = StaffStatements(.sqlite)
    static let postgres = StaffStatements(.postgres)

    private init(_ dialect: SQLDialect) {
        let text = dialect.text
        countStaff = text(StaffSQL.countStaff)
        selectAccounts = text(StaffSQL.selectAccounts)
        selectAccount = text(StaffSQL.selectAccount)
        insertStaff = text(StaffSQL.insertStaff)
        disable = text(StaffSQL.disable)
        resetPassword = text(StaffSQL.resetPassword)
        rehash = text(StaffSQL.rehash)
        countAttempt = text(StaffSQL.countAttempt)
        failedAttempt = text(StaffSQL.failedAttempt)
        signedIn = text(StaffSQL.signedIn)
        lockAccount = text(StaffSQL.lockAccount)
        lockAbandoned = text(StaffSQL.lockAbandoned)
        selectSource = text(StaffSQL.selectSource)
        sourceFailed = text(StaffSQL.sourceFailed)
        sourceSucceeded = text(StaffSQL.sourceSucceeded)
        clearSources = text(StaffSQL.clearSources)
        countSources = text(StaffSQL.countSources)
        insertSession = text(StaffSQL.insertSession)
        selectSession = text(StaffSQL.selectSession)
        touchSession = text(StaffSQL.touchSession)
        endSession = text(StaffSQL.endSession)
        endSessionsOf = text(StaffSQL.endSessionsOf)
        lastAudit = text(StaffSQL.lastAudit)
        lastAuditOf = text(StaffSQL.lastAuditOf)
        insertAudit = text(StaffSQL.insertAudit)
        auditAfter = text(StaffSQL.auditAfter)
        insertEvent = text(SQL.insertEvent)
        lockAudit =
            dialect == .postgres ? "SELECT pg_advisory_xact_lock(\(PGSQL.lockClass), \(PGSQL.auditLock))" : nil
        numbered = dialect == .postgres
    }
}

/// Staff accounts, sessions and the audit log: one implementation for every adapter, run inside
/// the transaction the adapter opened (one per public method).
///
/// Lock order on PostgreSQL: a transaction that will append to the log takes the log's lock
/// before it touches any row, so no transaction holds a row another one waits for while it
/// waits for the log (``Store/authorize(otpHash:symptomsStartedOn:by:now:lifetime:)`` locks
/// only its code's row first, which no holder of the log's lock ever waits for).
///
/// Privacy rule: no password hash, token hash or code reaches an error or an audit entry;
/// a code appears in the log only as the first 6 hex digits of its hash (the tag the console shows: 24 bits, far too few to find the code from, where 12 digits would single it out).
struct StaffWork<DB: SQLRunning> {
    let db: DB
    let sql: StaffStatements

    /// Sign-in attempts that lost a race to count themselves before one gives up.
    static var attemptRounds: Int { 64 }
    /// Other sources' failures older than this are forgotten at a success.
    static var sourceMemoryMilliseconds: Int64 { SignInPolicy.sourceMemoryMilliseconds }
    /// How long a session's last record stands before activity is written again.
    static var touchIntervalMilliseconds: Int64 { SessionActivity.writtenEveryMilliseconds }

    // MARK: Accounts

    func staffCount() throws(StoreError) -> Int {
        Int(try db.query(sql.countStaff, operation: "count staff") { $0.integer(0) }.first ?? 0)
    }

    func staffAccounts() throws(StoreError) -> [StaffAccount] {
        let op = "list staff"
        var sources: [String: Int] = [:]
        let counted = try db.query(sql.countSources, operation: op) { (name: $0.text(0), count: Int($0.integer(1))) }
        for row in counted { sources[row.name] = row.count }
        return try db.query(sql.selectAccounts, operation: op) { StaffRow($0) }.compactMap { row in
            guard var account = row?.account else { return nil }
            account.failingSources = sources[account.name] ?? 0
            return account
        }
    }

    func credentials(name: String) throws(StoreError) -> StaffCredentials? {
        try row(name: name, operation: "read staff account")?.credentials
    }

    /// In a write transaction.
    func addStaff(
        name: String, role: StaffRole, passwordHash: String, by actor: String, now: Date, onlyIfEmpty: Bool
    ) throws(StoreError) -> AddStaffOutcome {
        let op = "add staff account"
        // First, so that the count below sees every account committed before (PostgreSQL).
        try lockAudit(operation: op)
        if onlyIfEmpty, try staffCount() > 0 { return .notEmpty }
        let nowMs = now.unixMilliseconds
        let added = try db.run(
            sql.insertStaff,
            [.text(name), .text(role.rawValue), .text(passwordHash), .integer(nowMs), .text(actor), .integer(nowMs)],
            operation: op)
        guard added == 1 else { return .nameTaken }
        try appendAudit(
            actor: actor, action: .staffAdded, target: name, detail: AuditEntry.Detail.StaffAdded(role: role).json,
            at: nowMs)
        let at = Date(unixMilliseconds: nowMs)
        return .added(StaffAccount(name: name, role: role, createdAt: at, createdBy: actor, passwordChangedAt: at))
    }

    /// In a write transaction.
    func disableStaff(name: String, by actor: String, now: Date) throws(StoreError) -> StaffAccount? {
        let op = "disable staff account"
        try lockAudit(operation: op)
        guard let before = try row(name: name, operation: op) else { return nil }
        if before.account.disabled { return before.account }
        let nowMs = now.unixMilliseconds
        try db.run(sql.disable, [.text(name)], operation: op)
        let ended = try db.run(sql.endSessionsOf, [.integer(nowMs), .text(name)], operation: op)
        try appendAudit(
            actor: actor, action: .staffDisabled, target: name,
            detail: AuditEntry.Detail.StaffDisabled(sessionsEnded: ended).json, at: nowMs)
        return try row(name: name, operation: op)?.account
    }

    /// In a write transaction.
    func setPassword(
        name: String, passwordHash: String, by actor: String, now: Date, reason: PasswordChange
    ) throws(StoreError) -> StaffAccount? {
        let nowMs = now.unixMilliseconds
        switch reason {
        case .rehash:
            let changed = try db.run(sql.rehash, [.text(passwordHash), .text(name)], operation: "rehash password")
            guard changed == 1 else { return nil }
        case .reset:
            let op = "reset password"
            try lockAudit(operation: op)
            guard let before = try row(name: name, operation: op) else { return nil }
            try db.run(sql.resetPassword, [.text(passwordHash), .integer(nowMs), .text(name)], operation: op)
            try db.run(sql.clearSources, [.text(name)], operation: op)
            let ended = try db.run(sql.endSessionsOf, [.integer(nowMs), .text(name)], operation: op)
            try appendAudit(
                actor: actor, action: .passwordReset, target: name,
                detail: AuditEntry.Detail.PasswordReset(sessionsEnded: ended, wasLocked: before.account.locked).json,
                at: nowMs)
        }
        return try row(name: name, operation: "read staff account")?.account
    }

    // MARK: Signing in

    /// In a write transaction. The attempt is counted by a conditional update of the account's
    /// row, so attempts racing on several servers each count once: one that finds the row
    /// changed since it was read decides again on what it reads now.
    ///
    /// Two counts decide: `failed_sign_ins` (F) counts every attempt taken since the last success
    /// or reset, those still in flight (`sign_ins_in_flight`, I) included; F − I are the
    /// confirmed failures. The wait follows the confirmed failures and the time of the last one,
    /// so attempts in flight (most of them right, when someone runs a few commands at once) do
    /// not slow the others down. The lock follows F: once F reaches the policy's limit while
    /// attempts are in flight, further attempts are answered `.busy` until one finishes, so no
    /// more passwords than the limit are ever checked before the lock. Attempts in flight when
    /// the latest one was taken more than ``SignInPolicy/abandonedAfterSeconds`` ago are
    /// abandoned (their process died, or a server's clock runs ahead): they leave I but stay in
    /// F, as failures. Failing closed so, no clock or crash can widen the limit: if they bring
    /// the confirmed failures to the limit, the account is locked there and then.
    ///
    /// The wait is the source's own: its confirmed failures on this account (one row of
    /// `staff_sign_in_sources` per account and source, written when a failure is confirmed) and
    /// the time of its last one. The whole decision is ``SignInPolicy/decide(_:nowMs:)``.
    func beginSignIn(name: String, source: String, now: Date, policy: SignInPolicy) throws(StoreError)
        -> SignInAttempt
    {
        let op = "begin sign-in"
        let nowMs = now.unixMilliseconds
        // The log's lock first, as every appending transaction does: a conditional update below
        // that loses a race keeps the row locked, and taking the log's lock after it could
        // deadlock against a transaction that holds the log's lock and waits for this row.
        try lockAudit(operation: op)
        for _ in 0..<Self.attemptRounds {
            guard let found = try row(name: name, operation: op) else {
                // The typed name is not recorded: people type passwords into name fields. At most
                // one such entry a second: the log cannot be pruned, and this path needs no account.
                if try audits(.unknownAccount, actor: Self.unknownName, action: .signInFailed, at: nowMs, operation: op)
                {
                    try appendAudit(
                        actor: Self.unknownName, action: .signInFailed, target: nil,
                        detail: AuditEntry.Detail.SignInFailed(reason: AuditEntry.Detail.SignInFailed.unknownAccount)
                            .json,
                        at: nowMs)
                }
                return .unknownAccount
            }
            let failedHere = try db.query(sql.selectSource, [.text(name), .text(source)], operation: op) {
                (failures: Int($0.integer(0)), at: $0.integer(1))
            }.first
            let state = SignInPolicy.State(
                disabled: found.account.disabled, locked: found.account.locked,
                attempts: found.account.failedSignIns, inFlight: found.inFlight, lastAttemptAtMs: found.lastAttemptMs,
                sourceFailures: failedHere?.failures ?? 0, sourceLastFailedAtMs: failedHere?.at)
            let dropInFlight: Bool
            switch policy.decide(state, nowMs: nowMs) {
            case .disabled, .locked:
                // Refused without a password check, so anyone can ask again and again: one entry
                // per account a minute says it happened without letting a flood fill the log.
                let reason = found.account.disabled ? "disabled" : "locked"
                if try audits(.refused, actor: name, action: .signInRefused, at: nowMs, operation: op) {
                    try appendAudit(
                        actor: name, action: .signInRefused, target: nil,
                        detail: AuditEntry.Detail.SignInRefused(reason: reason).json,
                        at: nowMs)
                }
                return found.account.disabled ? .disabled : .locked
            case .lockAbandoned(let confirmed):
                let changed = try db.run(
                    sql.lockAbandoned,
                    [.text(name), .integer(Int64(found.account.failedSignIns)), .integer(Int64(found.inFlight))],
                    operation: op)
                guard changed == 1 else { continue }
                try appendAudit(
                    actor: name, action: .accountLocked, target: name,
                    detail: AuditEntry.Detail.AccountLocked(failures: confirmed, abandoned: found.inFlight).json,
                    at: nowMs)
                return .locked
            case .wait(let seconds): return .wait(seconds: seconds)
            case .busy: return .busy
            case .check(let drop): dropInFlight = drop
            }
            let (attempts, inFlight) = SignInPolicy.taking(state, dropInFlight: dropInFlight)
            let counted = try db.query(
                sql.countAttempt,
                [
                    .integer(Int64(attempts)), .integer(Int64(inFlight)), .integer(nowMs), .text(name),
                    .integer(Int64(found.account.failedSignIns)), .integer(Int64(found.inFlight)),
                    .integer(found.lastFailedMs ?? -1), .integer(found.lastAttemptMs ?? -1),
                ], operation: op
            ) { StaffRow($0) }
            if let counted = counted.first ?? nil {
                return .verify(counted.credentials, attempt: counted.account.failedSignIns)
            }
        }
        throw StoreError.conflict(operation: op, reason: "too many sign-ins for one account at once")
    }

    /// Whether a `refusal` at `nowMs` gets an entry, from `actor`'s last entry with `action`.
    func audits(
        _ refusal: SignInPolicy.QuietRefusal, actor: String, action: AuditAction, at nowMs: Int64, operation: String
    ) throws(StoreError) -> Bool {
        let last = try db.query(
            sql.lastAuditOf, [.text(actor), .text(action.rawValue)], operation: operation
        ) { $0.integer(0) }.first
        return SignInPolicy.audits(refusal, lastAtMs: last, nowMs: nowMs)
    }

    /// In a write transaction. `checkedHash` is the password hash the password was checked against.
    func finishSignIn(
        name: String, source: String, attempt: Int, checkedAgainst checkedHash: String, session: NewStaffSession?,
        rehash: String?, now: Date, policy: SignInPolicy
    ) throws(StoreError) -> SignInFinish {
        let op = "finish sign-in"
        let nowMs = now.unixMilliseconds
        try lockAudit(operation: op)
        guard let session else {
            // The confirmed failures now; nil when this attempt is no longer counted (a reset, a
            // success or abandoned attempts since): then it is audited with its number, and can
            // neither lock nor delay anything.
            let confirmed = try db.query(
                sql.failedAttempt, [.integer(nowMs), .text(name), .text(checkedHash)], operation: op
            ) { Int($0.integer(0)) }.first
            let failure = policy.failure(attempt: attempt, confirmed: confirmed)
            let failures = failure.failures
            if failure.counts {
                try db.run(sql.sourceFailed, [.text(name), .text(source), .integer(nowMs)], operation: op)
            }
            try appendAudit(
                actor: name, action: .signInFailed, target: nil,
                detail: AuditEntry.Detail.SignInFailed(failures: failures).json, at: nowMs)
            var locked = false
            if failure.locks {
                // Not when locked already, nor when an admin reset the password meanwhile.
                locked = try db.run(sql.lockAccount, [.text(name), .text(checkedHash)], operation: op) == 1
                if locked {
                    try appendAudit(
                        actor: name, action: .accountLocked, target: name,
                        detail: AuditEntry.Detail.AccountLocked(failures: failures).json,
                        at: nowMs)
                }
            }
            return .failed(failures: failures, locked: locked)
        }
        let updated = try db.query(
            sql.signedIn, [.integer(nowMs), rehash.map { .text($0) } ?? .null, .text(name), .text(checkedHash)],
            operation: op
        ) { StaffRow($0) }
        guard let account = (updated.first ?? nil)?.account else { return .refused }
        try db.run(
            sql.sourceSucceeded, [.text(name), .text(source), .integer(nowMs - Self.sourceMemoryMilliseconds)],
            operation: op)
        let createdMs = session.createdAt.unixMilliseconds
        let expiresMs = session.expiresAt.unixMilliseconds
        try db.run(
            sql.insertSession,
            [
                .text(session.tokenHash), .text(name), .integer(createdMs), .integer(createdMs), .integer(expiresMs),
                session.idleSeconds.map { .integer(Int64($0)) } ?? .null,
            ],
            operation: op)
        try appendAudit(
            actor: name, action: .signIn, target: nil,
            detail: AuditEntry.Detail.SignIn(
                expiresAt: Date(unixMilliseconds: expiresMs), passwordRehashed: rehash != nil
            ).json, at: nowMs)
        return .signedIn(account)
    }

    // MARK: Sessions

    func session(tokenHash: String) throws(StoreError) -> StoredSession? {
        let rows = try db.query(sql.selectSession, [.text(tokenHash)], operation: "read session") {
            row -> StoredSession? in
            // A role this version does not know (a newer TraceDesk's) grants nothing here.
            guard let role = StaffRole(rawValue: row.text(1)) else { return nil }
            return StoredSession(
                user: row.text(0), role: role, accountDisabled: row.integer(2) != 0,
                createdAt: Date(unixMilliseconds: row.integer(3)), lastSeenAt: Date(unixMilliseconds: row.integer(4)),
                expiresAt: Date(unixMilliseconds: row.integer(5)),
                endedAt: row.optionalInteger(6).map(Date.init(unixMilliseconds:)),
                idleSeconds: row.optionalInteger(7).map { Int($0) })
        }
        return rows.first ?? nil
    }

    /// One statement: writes only when the last record is older than 30 s.
    func touchSession(tokenHash: String, now: Date) throws(StoreError) {
        let nowMs = now.unixMilliseconds
        try db.run(
            sql.touchSession, [.integer(nowMs), .text(tokenHash), .integer(nowMs - Self.touchIntervalMilliseconds)],
            operation: "record session activity")
    }

    /// In a write transaction.
    func endSession(tokenHash: String, now: Date) throws(StoreError) -> Bool {
        let op = "end session"
        let nowMs = now.unixMilliseconds
        try lockAudit(operation: op)
        let ended = try db.query(sql.endSession, [.integer(nowMs), .text(tokenHash)], operation: op) { $0.text(0) }
        guard let user = ended.first else { return false }
        try appendAudit(actor: user, action: .signOut, target: nil, detail: AuditEntry.Detail.signOut.json, at: nowMs)
        return true
    }

    // MARK: The audit log

    /// Takes the log's lock (PostgreSQL; held to the end of the transaction, and taking it
    /// again is free). Call it before touching any row in a transaction that will append.
    func lockAudit(operation: String) throws(StoreError) {
        guard let lockAudit = sql.lockAudit else { return }
        _ = try db.query(lockAudit, operation: operation) { _ in 0 }
    }

    /// In a write transaction: the next entry, chained to the last one, and its `staff_action`
    /// event (``staffEvent(actor:action:target:)``).
    @discardableResult
    func appendAudit(
        actor: String, action: AuditAction, target: String?, detail: String, at ms: Int64
    ) throws(StoreError) -> AuditEntry {
        let op = "append to the audit log"
        try lockAudit(operation: op)
        let last = try db.query(sql.lastAudit, operation: op) { (id: $0.integer(0), hash: $0.text(1)) }.first
        let id = (last?.id ?? 0) + 1
        let previous = last?.hash ?? AuditChain.genesis
        let hash = AuditChain.hash(
            id: id, atMilliseconds: ms, actor: actor, action: action.rawValue, target: target, detail: detail,
            previousHash: previous)
        try db.run(
            sql.insertAudit,
            [
                .integer(id), .integer(ms), .text(actor), .text(action.rawValue), target.map { .text($0) } ?? .null,
                .text(detail), .text(previous), .text(hash),
            ], operation: op)
        if let event = Self.staffEvent(actor: actor, action: action, target: target) {
            try db.run(
                sql.insertEvent,
                [
                    .integer(ms), .text(DeskEvent.Kind.staffAction.rawValue), .null,
                    event.actor.map { .text($0) } ?? .null, .text(event.detail),
                ], operation: op)
        }
        return AuditEntry(
            id: id, at: Date(unixMilliseconds: ms), actor: actor, action: action, target: target, detail: detail,
            previousHash: previous, hash: hash)
    }

    /// The monitor's mirror of an audit entry: actor the entry's, detail the action and, for a
    /// change to an account, the account's name. Nil for `otp_authorized`, which has an event of
    /// its own. A sign-in with a name nobody owns (actor `-`) has no actor and says so: what
    /// was typed is never recorded (it may have been a password typed in the wrong field).
    static func staffEvent(
        actor: String, action: AuditAction, target: String?
    ) -> (actor: String?, detail: String)? {
        if action == .otpAuthorized { return nil }
        if actor == Self.unknownName {
            return (nil, DeskEvent.Detail.StaffAction(action: action, unknownName: true).json)
        }
        // Only actions whose target is an account name: other targets (a code's tag) stay in the log.
        let account = Self.accountActions.contains(action) ? target : nil
        return (actor, DeskEvent.Detail.StaffAction(action: action, target: account).json)
    }

    /// The audit actor for a sign-in with a name no account has.
    static var unknownName: String { "-" }

    /// The actions whose target is a staff account.
    static var accountActions: Set<AuditAction> { [.staffAdded, .staffDisabled, .passwordReset, .accountLocked] }

    /// The `otp_authorized` entry of an authorisation, in its transaction.
    func auditAuthorization(_ record: OtpAuthorization) throws(StoreError) {
        try appendAudit(
            actor: record.authorizedBy, action: .otpAuthorized, target: record.otpHash.tag,
            detail: record.storedDetail, at: record.authorizedAt.unixMilliseconds)
    }

    func auditEntries(after afterID: Int64, limit: Int) throws(StoreError) -> [AuditEntry] {
        try db.query(
            sql.auditAfter, [.integer(afterID), .integer(Int64(max(0, limit)))], operation: "read the audit log"
        ) { AuditEntry(auditRow: $0) }
    }

    func auditEntries(matching query: AuditQuery) throws(StoreError) -> [AuditEntry] {
        var conditions: [String] = []
        var values: [SQLValue] = []
        if let actor = query.actor {
            conditions.append("actor = ?")
            values.append(.text(actor))
        }
        if let subject = query.subject {
            conditions.append("target = ?")
            values.append(.text(subject))
        }
        if let action = query.action {
            conditions.append("action = ?")
            values.append(.text(action.rawValue))
        }
        if let from = query.from {
            conditions.append("at_ms >= ?")
            values.append(.integer(from.unixMilliseconds))
        }
        if let until = query.until {
            conditions.append("at_ms < ?")
            values.append(.integer(until.unixMilliseconds))
        }
        if let beforeID = query.beforeID {
            conditions.append("id < ?")
            values.append(.integer(beforeID))
        }
        values.append(.integer(Int64(max(0, query.limit))))
        let text = StaffSQL.auditMatching(conditions)
        return try db.query(
            sql.numbered ? PGSQL.numbered(text) : text, values, operation: "read the audit log"
        ) { AuditEntry(auditRow: $0) }
    }

    // MARK: Internals

    private func row(name: String, operation: String) throws(StoreError) -> StaffRow? {
        try db.query(sql.selectAccount, [.text(name)], operation: operation) { StaffRow($0) }.first ?? nil
    }
}

/// An account row (``StaffSQL/accountColumns``) with what only the store needs.
struct StaffRow {
    var account: StaffAccount
    var passwordHash: String
    /// The last confirmed failure.
    var lastFailedMs: Int64?
    /// Attempts whose password is being checked (counted in `account.failedSignIns` too).
    var inFlight: Int
    /// The latest attempt taken.
    var lastAttemptMs: Int64?

    var credentials: StaffCredentials { StaffCredentials(account: account, passwordHash: passwordHash) }

    /// Nil for a role this version does not know (a newer TraceDesk's): such an account is
    /// neither listed nor able to sign in here.
    init?(_ row: some SQLRowReading) {
        guard let role = StaffRole(rawValue: row.text(1)) else { return nil }
        account = StaffAccount(
            name: row.text(0), role: role, disabled: row.integer(2) != 0, locked: row.integer(3) != 0,
            failedSignIns: Int(row.integer(4)), createdAt: Date(unixMilliseconds: row.integer(5)),
            createdBy: row.text(6), passwordChangedAt: Date(unixMilliseconds: row.integer(7)),
            lastSignInAt: row.optionalInteger(8).map(Date.init(unixMilliseconds:)))
        passwordHash = row.text(9)
        lastFailedMs = row.optionalInteger(10)
        inFlight = Int(row.integer(11))
        lastAttemptMs = row.optionalInteger(12)
    }
}

extension AuditEntry {
    /// An entry from a row of ``StaffSQL/auditColumns``.
    init(auditRow row: some SQLRowReading) {
        self.init(
            id: row.integer(0), at: Date(unixMilliseconds: row.integer(1)), actor: row.text(2),
            action: AuditAction(rawValue: row.text(3)), target: row.optionalText(4), detail: row.text(5),
            previousHash: row.text(6), hash: row.text(7))
    }
}

extension OtpAuthorization {
    /// The detail of an authorisation's event and of its audit entry (the same text in both).
    var storedDetail: String {
        DeskEvent.Detail.OtpAuthorized(symptomsStartedOn: symptomsStartedOn, expiresAt: expiresAt).json
    }
}
