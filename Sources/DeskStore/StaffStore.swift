import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Staff accounts, sessions and the audit log: the part of a ``Store`` that ties every action
/// to a named person. Every method is one transaction; every change to accounts or sessions
/// appends its audit entry in that same transaction, so an action and its trace commit (or fail)
/// together.
///
/// Privacy rule: passwords arrive only as KDF strings, tokens only as SHA-256 hex; neither is
/// ever in an error or an audit entry.
public protocol StaffStore: Sendable {
    /// How many accounts exist (disabled ones included).
    func staffCount() throws(StoreError) -> Int

    /// Every account, by name.
    func staffAccounts() throws(StoreError) -> [StaffAccount]

    /// One account with its password hash (for the KDF check), or nil.
    func staffCredentials(name: String) throws(StoreError) -> StaffCredentials?

    /// Adds an account and audits `staff_added` (actor `by`, target the name, detail the role).
    /// `onlyIfEmpty`: the first admin; refused with `.notEmpty` once any account exists (checked
    /// inside the transaction, so two consoles cannot both create one).
    func addStaff(
        name: String, role: StaffRole, passwordHash: String, by actor: String, now: Date, onlyIfEmpty: Bool
    ) throws(StoreError) -> AddStaffOutcome

    /// Disables an account, ends its open sessions, audits `staff_disabled`. Nil when there is no
    /// such account; an account already disabled is returned unchanged (and not audited again).
    func disableStaff(name: String, by actor: String, now: Date) throws(StoreError) -> StaffAccount?

    /// Sets a new password hash.
    /// - `.reset`: an admin's reset: clears the failure count (attempts in flight included) and
    ///   the lock, ends the account's sessions, audits `password_reset`. Does not re-enable a
    ///   disabled account.
    /// - `.rehash`: the same password under stronger KDF parameters after a successful sign-in:
    ///   changes nothing else and is not audited.
    /// Nil when there is no such account.
    func setPassword(
        name: String, passwordHash: String, by actor: String, now: Date, reason: PasswordChange
    ) throws(StoreError) -> StaffAccount?

    /// The first half of a sign-in, before the (slow) password check, in one transaction:
    /// - no such account: audits `sign_in_failed` with actor "-" (the typed name is not recorded:
    ///   people type passwords into name fields), returns `.unknownAccount`;
    /// - disabled or locked: audits `sign_in_refused`, returns `.disabled` / `.locked`;
    /// - the confirmed failures (those whose password turned out wrong; attempts in flight do
    ///   not count here) ask for a wait (``SignInPolicy/delaySeconds(afterFailures:)``, since the
    ///   last confirmed failure) that has not passed: `.wait(seconds)`, nothing written. The wait
    ///   follows `source`'s own confirmed failures on the account, not the account's: another
    ///   source's failures never hold this one back (``SignInPolicy``);
    /// - the failure count, attempts in flight included, has reached
    ///   `policy.failuresBeforeLock` while attempts are in flight: `.busy`, nothing written (no
    ///   more passwords than the limit are checked before the lock);
    /// - otherwise counts the attempt as a failure now, and as in flight, so concurrent guesses
    ///   cannot slip past the lock, and returns `.verify` with the credentials and the attempt's
    ///   number (the failure count after this one).
    /// Attempts left in flight by a process that died are dropped from both counts once the
    /// latest attempt is ``SignInPolicy/abandonedAfterSeconds`` old: they never lock an account
    /// or hold its sign-ins back for good.
    func beginSignIn(name: String, source: String, now: Date, policy: SignInPolicy) throws(StoreError)
        -> SignInAttempt

    /// The second half, after the password check, in one transaction. `checkedAgainst` is the
    /// password hash the password was checked against (the credentials `.verify` returned).
    /// - success (`session` given): resets the failure count (attempts in flight included: a
    ///   success ends the episode), records the last sign-in, stores the
    ///   session (with the idle limit it was given), ends `source`'s failures (other sources keep
    ///   theirs), replaces the password hash with `rehash` when given, audits `sign_in` (detail
    ///   has no token). If the account was disabled, locked or given a new password since
    ///   ``beginSignIn(name:now:policy:)`` (its hash is no longer `checkedAgainst`), nothing is
    ///   stored and `.refused` is returned.
    /// - failure (`session` nil): the attempt is no longer in flight and its failure is confirmed
    ///   (the time of the last confirmed failure is now); audits `sign_in_failed` with the
    ///   confirmed failures, and counts one more failure for `source`; when the account's
    ///   confirmed failures reached `policy.failuresBeforeLock`, locks the account and
    ///   audits `account_locked` too (once: not when it is locked already). An attempt no longer
    ///   counted (the password was reset since: that guess was at the old one; a success since;
    ///   or abandoned) is audited with `attempt` and changes nothing else.
    func finishSignIn(
        name: String, source: String, attempt: Int, checkedAgainst: String, session: NewStaffSession?,
        rehash: String?, now: Date, policy: SignInPolicy
    ) throws(StoreError) -> SignInFinish

    /// The session with this token hash, with its account's current role and state; nil if unknown.
    func session(tokenHash: String) throws(StoreError) -> StoredSession?

    /// Records activity on a session (for the idle limit). Writes only when the last record is
    /// older than 30 s, so a busy console does not write on every request.
    func touchSession(tokenHash: String, now: Date) throws(StoreError)

    /// Ends a session and audits `sign_out` (actor the session's user). False when it was
    /// unknown or already ended (nothing audited).
    @discardableResult
    func endSession(tokenHash: String, now: Date) throws(StoreError) -> Bool

    /// Appends an entry under the log's lock: id = last id + 1, previous hash = the last entry's
    /// hash (64 zeros for the first), hash per ``AuditEntry/canonicalBytes``.
    @discardableResult
    func appendAudit(
        actor: String, action: AuditAction, target: String?, detail: String, now: Date
    ) throws(StoreError) -> AuditEntry

    /// Entries with `id > afterID`, oldest first, at most `limit` (for verifying the chain).
    func auditEntries(after afterID: Int64, limit: Int) throws(StoreError) -> [AuditEntry]

    /// Entries matching `query`, newest first, at most `query.limit`.
    func auditEntries(matching query: AuditQuery) throws(StoreError) -> [AuditEntry]
}

extension StaffStore {
    /// A sign-in from the store itself (``SignInSource/local``): the console and CLI commands.
    public func beginSignIn(name: String, now: Date, policy: SignInPolicy) throws(StoreError) -> SignInAttempt {
        try beginSignIn(name: name, source: SignInSource.local, now: now, policy: policy)
    }

    /// The second half of a sign-in from the store itself (``SignInSource/local``).
    public func finishSignIn(
        name: String, attempt: Int, checkedAgainst: String, session: NewStaffSession?, rehash: String?, now: Date,
        policy: SignInPolicy
    ) throws(StoreError) -> SignInFinish {
        try finishSignIn(
            name: name, source: SignInSource.local, attempt: attempt, checkedAgainst: checkedAgainst,
            session: session, rehash: rehash, now: now, policy: policy)
    }
}

/// An account with the KDF string of its password.
public struct StaffCredentials: Hashable, Sendable {
    public var account: StaffAccount
    public var passwordHash: String

    public init(account: StaffAccount, passwordHash: String) {
        self.account = account
        self.passwordHash = passwordHash
    }
}

public enum AddStaffOutcome: Hashable, Sendable {
    case added(StaffAccount)
    case nameTaken
    /// `onlyIfEmpty` was set and an account exists.
    case notEmpty
}

public enum PasswordChange: String, Hashable, Sendable {
    case reset
    case rehash
}

/// What the first half of a sign-in decided.
public enum SignInAttempt: Hashable, Sendable {
    case unknownAccount
    case disabled
    case locked
    /// Too soon after the last confirmed failure: try again in this many seconds.
    case wait(seconds: Int)
    /// As many attempts as the lock allows are being checked: try again when one has finished
    /// (a moment: one password check).
    case busy
    /// Check the password; `attempt` is the failure count if it turns out wrong.
    case verify(StaffCredentials, attempt: Int)
}

/// What the second half of a sign-in stored.
public enum SignInFinish: Hashable, Sendable {
    case signedIn(StaffAccount)
    /// A wrong password: `failures`, the confirmed failures with this one (or the attempt's
    /// number, when it was no longer counted); `locked` when this failure locked the account.
    case failed(failures: Int, locked: Bool)
    /// The account changed while the password was checked (disabled, locked, new password).
    case refused
}

/// A session to store at sign-in.
public struct NewStaffSession: Hashable, Sendable {
    public var tokenHash: String
    public var createdAt: Date
    public var expiresAt: Date
    /// The idle limit of the desk that signed it in, kept with the session so that every server
    /// on the store applies the same one (nil: none recorded; the checking desk's own applies).
    public var idleSeconds: Int?

    public init(tokenHash: String, createdAt: Date, expiresAt: Date, idleSeconds: Int? = nil) {
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.idleSeconds = idleSeconds
    }
}

/// A session as stored, with its account's current state.
public struct StoredSession: Hashable, Sendable {
    public var user: String
    /// The account's role now (a role is read per request, not frozen at sign-in).
    public var role: StaffRole
    public var accountDisabled: Bool
    public var createdAt: Date
    public var lastSeenAt: Date
    public var expiresAt: Date
    public var endedAt: Date?
    /// The idle limit recorded at sign-in; nil for a session from before migration 8.
    public var idleSeconds: Int?

    public init(
        user: String, role: StaffRole, accountDisabled: Bool, createdAt: Date, lastSeenAt: Date, expiresAt: Date,
        endedAt: Date?, idleSeconds: Int? = nil
    ) {
        self.idleSeconds = idleSeconds
        self.user = user
        self.role = role
        self.accountDisabled = accountDisabled
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
        self.endedAt = endedAt
    }
}

/// How often a session's activity is written: a record younger than this stands (a console's
/// feed polls many times a minute; the idle limit is minutes).
public enum SessionActivity {
    public static let writtenEveryMilliseconds: Int64 = 30_000
}
