#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension AuditEntry {
    /// The `detail` of an audit entry, typed per action: written by the store and the desk,
    /// read by the console, each key spelled once (each struct's `Key`).
    ///
    /// `json` gives exactly the bytes the log has always held (the chain hash covers them;
    /// golden tests pin them), and ``init(kind:json:)`` reads those. Privacy: never a password,
    /// a token, a code, a phone number or a note's text.
    public enum Detail: Hashable, Sendable {
        case signIn(SignIn)
        case signInFailed(SignInFailed)
        case signInRefused(SignInRefused)
        case accountLocked(AccountLocked)
        case signOut
        case otpAuthorized(DeskEvent.Detail.OtpAuthorized)
        case staffAdded(StaffAdded)
        case staffDisabled(StaffDisabled)
        case passwordReset(PasswordReset)
        case traceLookup(TraceLookup)
        case traceExport(TraceExport)
        case contactOutcome(ContactOutcomeRecorded)
        case smsOutboxRead(SmsOutboxRead)
        case hisClientAdded(HISClientAdded)
        case hisClientRevoked
        case phoneCopied(PhoneCopied)
        case caseOpened(CaseOpened)
        case followUpViewed(FollowUpViewed)
        case caseClosed(CaseClosed)
        case followUpAdded(FollowUpAdded)
        case followUpAttempt(FollowUpAttempt)
        case followUpCheck(FollowUpCheck)
        case followUpAssigned(FollowUpAssigned)

        /// Nil when `kind` is an action this version does not know, or `json` is not its detail.
        public init?(kind: AuditAction, json: String) {
            guard let r = DetailReader(json) else { return nil }
            switch kind {
            case .signIn:
                guard let d = SignIn(r) else { return nil }
                self = .signIn(d)
            case .signInFailed:
                guard let d = SignInFailed(r) else { return nil }
                self = .signInFailed(d)
            case .signInRefused:
                guard let d = SignInRefused(r) else { return nil }
                self = .signInRefused(d)
            case .accountLocked:
                guard let d = AccountLocked(r) else { return nil }
                self = .accountLocked(d)
            case .signOut: self = .signOut
            case .otpAuthorized:
                guard let d = DeskEvent.Detail.OtpAuthorized(r) else { return nil }
                self = .otpAuthorized(d)
            case .staffAdded:
                guard let d = StaffAdded(r) else { return nil }
                self = .staffAdded(d)
            case .staffDisabled:
                guard let d = StaffDisabled(r) else { return nil }
                self = .staffDisabled(d)
            case .passwordReset:
                guard let d = PasswordReset(r) else { return nil }
                self = .passwordReset(d)
            case .traceLookup:
                guard let d = TraceLookup(r) else { return nil }
                self = .traceLookup(d)
            case .traceExport:
                guard let d = TraceExport(r) else { return nil }
                self = .traceExport(d)
            case .contactOutcome:
                guard let d = ContactOutcomeRecorded(r) else { return nil }
                self = .contactOutcome(d)
            case .smsOutboxRead:
                guard let d = SmsOutboxRead(r) else { return nil }
                self = .smsOutboxRead(d)
            case .hisClientAdded:
                guard let d = HISClientAdded(r) else { return nil }
                self = .hisClientAdded(d)
            case .hisClientRevoked: self = .hisClientRevoked
            case .phoneCopied:
                guard let d = PhoneCopied(r) else { return nil }
                self = .phoneCopied(d)
            case .caseOpened:
                guard let d = CaseOpened(r) else { return nil }
                self = .caseOpened(d)
            case .followUpViewed:
                guard let d = FollowUpViewed(r) else { return nil }
                self = .followUpViewed(d)
            case .caseClosed:
                guard let d = CaseClosed(r) else { return nil }
                self = .caseClosed(d)
            case .followUpAdded:
                guard let d = FollowUpAdded(r) else { return nil }
                self = .followUpAdded(d)
            case .followUpAttempt:
                guard let d = FollowUpAttempt(r) else { return nil }
                self = .followUpAttempt(d)
            case .followUpCheck:
                guard let d = FollowUpCheck(r) else { return nil }
                self = .followUpCheck(d)
            case .followUpAssigned:
                guard let d = FollowUpAssigned(r) else { return nil }
                self = .followUpAssigned(d)
            default: return nil
            }
        }

        /// The action this detail belongs to.
        public var kind: AuditAction {
            switch self {
            case .signIn: return .signIn
            case .signInFailed: return .signInFailed
            case .signInRefused: return .signInRefused
            case .accountLocked: return .accountLocked
            case .signOut: return .signOut
            case .otpAuthorized: return .otpAuthorized
            case .staffAdded: return .staffAdded
            case .staffDisabled: return .staffDisabled
            case .passwordReset: return .passwordReset
            case .traceLookup: return .traceLookup
            case .traceExport: return .traceExport
            case .contactOutcome: return .contactOutcome
            case .smsOutboxRead: return .smsOutboxRead
            case .hisClientAdded: return .hisClientAdded
            case .hisClientRevoked: return .hisClientRevoked
            case .phoneCopied: return .phoneCopied
            case .caseOpened: return .caseOpened
            case .followUpViewed: return .followUpViewed
            case .caseClosed: return .caseClosed
            case .followUpAdded: return .followUpAdded
            case .followUpAttempt: return .followUpAttempt
            case .followUpCheck: return .followUpCheck
            case .followUpAssigned: return .followUpAssigned
            }
        }

        /// The stored text.
        public var json: String {
            switch self {
            case .signIn(let d): return d.json
            case .signInFailed(let d): return d.json
            case .signInRefused(let d): return d.json
            case .accountLocked(let d): return d.json
            case .signOut, .hisClientRevoked: return DetailWriter().json
            case .otpAuthorized(let d): return d.json
            case .staffAdded(let d): return d.json
            case .staffDisabled(let d): return d.json
            case .passwordReset(let d): return d.json
            case .traceLookup(let d): return d.json
            case .traceExport(let d): return d.json
            case .contactOutcome(let d): return d.json
            case .smsOutboxRead(let d): return d.json
            case .hisClientAdded(let d): return d.json
            case .phoneCopied(let d): return d.json
            case .caseOpened(let d): return d.json
            case .followUpViewed(let d): return d.json
            case .caseClosed(let d): return d.json
            case .followUpAdded(let d): return d.json
            case .followUpAttempt(let d): return d.json
            case .followUpCheck(let d): return d.json
            case .followUpAssigned(let d): return d.json
            }
        }
    }
}

extension AuditEntry.Detail {
    /// A sign-in: when the session expires, whether the password's hash was renewed.
    public struct SignIn: Hashable, Sendable {
        public enum Key {
            public static let expiresAt = "expires_at_ms"
            public static let passwordRehashed = "password_rehashed"
        }
        /// Whole milliseconds, as stored.
        public var expiresAt: Date
        public var passwordRehashed: Bool

        public init(expiresAt: Date, passwordRehashed: Bool) {
            self.expiresAt = expiresAt
            self.passwordRehashed = passwordRehashed
        }

        init?(_ r: DetailReader) {
            guard let ms = r.int64(Key.expiresAt) else { return nil }
            self.init(expiresAt: Date(unixMilliseconds: ms), passwordRehashed: r.bool(Key.passwordRehashed) ?? false)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.expiresAt, expiresAt.unixMilliseconds)
            w.add(Key.passwordRehashed, passwordRehashed)
            return w.json
        }
    }

    /// A failed sign-in: a wrong password (the account's failures so far), or a name no
    /// account has (`reason`, the name itself never kept).
    public struct SignInFailed: Hashable, Sendable {
        public enum Key {
            public static let failures = "failures"
            public static let reason = "reason"
        }
        /// The reason written for a name no account has.
        public static let unknownAccount = "unknown account"

        public var failures: Int?
        public var reason: String?

        public init(failures: Int) {
            self.failures = failures
            self.reason = nil
        }

        public init(reason: String) {
            self.failures = nil
            self.reason = reason
        }

        init?(_ r: DetailReader) {
            failures = r.int(Key.failures)
            reason = r.string(Key.reason)
            if failures == nil && reason == nil { return nil }
        }

        public var json: String {
            var w = DetailWriter()
            w.addIfPresent(Key.reason, reason)
            w.addIfPresent(Key.failures, failures)
            return w.json
        }
    }

    /// A sign-in refused without a password check: why (disabled, locked).
    public struct SignInRefused: Hashable, Sendable {
        public enum Key { public static let reason = "reason" }
        public var reason: String

        public init(reason: String) { self.reason = reason }

        init?(_ r: DetailReader) {
            guard let reason = r.string(Key.reason) else { return nil }
            self.init(reason: reason)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.reason, reason)
            return w.json
        }
    }

    /// An account locked: after how many failures, and how many abandoned attempts counted.
    public struct AccountLocked: Hashable, Sendable {
        public enum Key {
            public static let failures = "failures"
            public static let abandoned = "abandoned"
        }
        public var failures: Int
        /// Attempts abandoned in flight (their process died) that were counted as failures.
        public var abandoned: Int?

        public init(failures: Int, abandoned: Int? = nil) {
            self.failures = failures
            self.abandoned = abandoned
        }

        init?(_ r: DetailReader) {
            guard let failures = r.int(Key.failures) else { return nil }
            self.init(failures: failures, abandoned: r.int(Key.abandoned))
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.failures, failures)
            w.addIfPresent(Key.abandoned, abandoned)
            return w.json
        }
    }

    /// An account added, with its role.
    public struct StaffAdded: Hashable, Sendable {
        public enum Key { public static let role = "role" }
        /// A ``StaffRole`` raw value (kept as text: a newer version may add roles).
        public var role: String

        public init(role: StaffRole) { self.role = role.rawValue }
        public init(roleName: String) { self.role = roleName }

        init?(_ r: DetailReader) {
            guard let role = r.string(Key.role) else { return nil }
            self.init(roleName: role)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.role, role)
            return w.json
        }
    }

    /// An account disabled: how many of its sessions ended.
    public struct StaffDisabled: Hashable, Sendable {
        public enum Key { public static let sessionsEnded = "sessions_ended" }
        public var sessionsEnded: Int

        public init(sessionsEnded: Int) { self.sessionsEnded = sessionsEnded }

        init?(_ r: DetailReader) {
            guard let ended = r.int(Key.sessionsEnded) else { return nil }
            self.init(sessionsEnded: ended)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.sessionsEnded, sessionsEnded)
            return w.json
        }
    }

    /// A password reset by an admin: sessions ended, whether the account was locked before.
    public struct PasswordReset: Hashable, Sendable {
        public enum Key {
            public static let sessionsEnded = "sessions_ended"
            public static let wasLocked = "was_locked"
        }
        public var sessionsEnded: Int
        public var wasLocked: Bool

        public init(sessionsEnded: Int, wasLocked: Bool) {
            self.sessionsEnded = sessionsEnded
            self.wasLocked = wasLocked
        }

        init?(_ r: DetailReader) {
            guard let ended = r.int(Key.sessionsEnded) else { return nil }
            self.init(sessionsEnded: ended, wasLocked: r.bool(Key.wasLocked) ?? false)
        }

        public var json: String {
            var w = DetailWriter()
            w.add(Key.sessionsEnded, sessionsEnded)
            w.add(Key.wasLocked, wasLocked)
            return w.json
        }
    }
}
