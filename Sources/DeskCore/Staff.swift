import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a staff account may do. One role per account; roles do not include one another
/// (least privilege: an admin manages accounts but does not read codes or contacts).
public enum StaffRole: String, Hashable, Sendable, CaseIterable, Comparable {
    /// HIS operator: authorises uploads during a call and watches their own codes.
    case `operator`
    /// Contact tracer: looks up positive patients and their contacts.
    case tracer
    /// Supervisor: watches all activity and the dashboard.
    case supervisor
    /// Admin: staff accounts and the audit log.
    case admin

    /// What the role is for, one line (`staff add --help`, the staff screen).
    public var summary: String {
        switch self {
        case .operator: return "authorises uploads during a call, sees their own codes"
        case .tracer: return "looks up positive patients and their contacts"
        case .supervisor: return "watches all activity and the dashboard"
        case .admin: return "manages staff accounts, reads the audit log"
        }
    }

    public static func < (a: StaffRole, b: StaffRole) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// Parses `operator|tracer|supervisor|admin` (any case).
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    public static var namesList: String { allCases.map(\.rawValue).joined(separator: "|") }
}

/// Every use case of a ``DeskService`` that needs a signed-in person, with the roles that may
/// run it. The role matrix test walks every case × every role.
public enum DeskUseCase: String, Hashable, Sendable, CaseIterable {
    case authorizeCode = "authorize_code"
    /// The status of a code; an operator sees only codes they authorised.
    case codeStatus = "code_status"
    case listStaff = "list_staff"
    case addStaff = "add_staff"
    case disableStaff = "disable_staff"
    case resetPassword = "reset_password"
    case readAudit = "read_audit"
    case verifyAudit = "verify_audit"
    /// The live activity feed and its traffic share; an operator sees only their own codes
    /// (and published chunks), a supervisor everything.
    case monitorEvents = "monitor_events"
    /// The watch of one code (authorised → checked → uploaded → published); an operator
    /// watches only codes they authorised.
    case watchCode = "watch_code"
    /// Look a patient up by phone number, export the lookup, record call outcomes (APRICOT).
    case traceContacts = "trace_contacts"
    /// Read the SMS outbox (messages with codes and phone numbers).
    case readSmsOutbox = "read_sms_outbox"
    /// The dashboard's statistics: authorisations per operator, uploads, chunks, analytics,
    /// APRICOT figures and lookups per tracer.
    case readStatistics = "read_statistics"
    /// Add, list and revoke the hospital systems (HIS clients) that may authorise codes.
    case manageHISClients = "manage_his_clients"
    /// Open a case for a positive patient, add a contact by hand, close a case (issue 21).
    case manageCases = "manage_cases"
    /// Record call attempts and daily checks of follow-ups assigned to oneself.
    case workFollowUps = "work_follow_ups"
    /// Read cases, follow-ups and the queue: a tracer their own, a supervisor everyone's.
    case readFollowUps = "read_follow_ups"
    /// Assign follow-ups to tracers by hand.
    case assignFollowUps = "assign_follow_ups"

    public var roles: Set<StaffRole> {
        switch self {
        case .authorizeCode: return [.operator]
        case .codeStatus, .monitorEvents, .watchCode: return [.operator, .supervisor]
        case .listStaff, .addStaff, .disableStaff, .resetPassword, .readAudit, .verifyAudit, .readSmsOutbox,
            .manageHISClients:
            return [.admin]
        case .traceContacts, .manageCases, .workFollowUps: return [.tracer]
        case .readStatistics, .assignFollowUps: return [.supervisor]
        case .readFollowUps: return [.tracer, .supervisor]
        }
    }

    /// For messages: "authorise codes".
    public var phrase: String {
        switch self {
        case .authorizeCode: return "authorise codes"
        case .codeStatus: return "see the status of codes"
        case .listStaff: return "list staff accounts"
        case .addStaff: return "add staff accounts"
        case .disableStaff: return "disable staff accounts"
        case .resetPassword: return "reset passwords"
        case .readAudit: return "read the audit log"
        case .verifyAudit: return "verify the audit log"
        case .monitorEvents: return "watch the activity feed"
        case .watchCode: return "watch codes"
        case .traceContacts: return "trace contacts"
        case .readSmsOutbox: return "read the SMS outbox"
        case .readStatistics: return "read the statistics"
        case .manageHISClients: return "manage hospital systems (HIS clients)"
        case .manageCases: return "open and close cases"
        case .workFollowUps: return "record calls and checks of follow-ups"
        case .readFollowUps: return "read cases and follow-ups"
        case .assignFollowUps: return "assign follow-ups to tracers"
        }
    }
}

extension StaffRole {
    public func may(_ useCase: DeskUseCase) -> Bool { useCase.roles.contains(self) }
}

/// Staff account names: what people type at sign-in and what the audit log shows.
public enum StaffName {
    public static let maximumLength = 32

    /// The name in its stored form (lowercase), or a message that says what is wrong.
    /// `noun` names what is named in messages ("client name" for HIS clients, which follow
    /// the same rules).
    public static func normalize(_ text: String, noun: Noun = .user) -> Result<String, StaffInputError> {
        let name = String(text.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed()).lowercased()
        if name.isEmpty { return .failure(.name(tr("errors.name.\(noun.rawValue).empty"))) }
        if name.count > maximumLength {
            return .failure(.name(tr("errors.name.\(noun.rawValue).tooLong", ["max": String(maximumLength)])))
        }
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else {
            return .failure(.name(tr("errors.name.\(noun.rawValue).firstLetter")))
        }
        for scalar in name.unicodeScalars
        where !(("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar)) {
            return .failure(.name(tr("errors.name.\(noun.rawValue).characters")))
        }
        return .success(name)
    }

    /// What a name names, in messages: a staff account's user name, or a HIS client's name
    /// (which follows the same rules).
    public enum Noun: String, Sendable {
        case user, client
    }
}

/// Password rules: long enough to resist guessing once slowed by the KDF, short enough to hash.
public enum PasswordRules {
    public static let minimumLength = 10
    public static let maximumLength = 256

    /// nil when `password` is acceptable for `user`; otherwise what to change.
    public static func problem(_ password: String, user: String) -> StaffInputError? {
        let count = password.count
        if count < minimumLength { return .password(tr("errors.password.tooShort", ["min": String(minimumLength)])) }
        if count > maximumLength { return .password(tr("errors.password.tooLong", ["max": String(maximumLength)])) }
        if password.lowercased().contains(user.lowercased()) && !user.isEmpty {
            return .password(tr("errors.password.hasName"))
        }
        if Set(password).count < 4 { return .password(tr("errors.password.variety")) }
        return nil
    }
}

/// A staff input that cannot be used; the message says what to type instead.
public enum StaffInputError: Error, Hashable, Sendable {
    case name(String)
    case password(String)

    public var message: String {
        switch self {
        case .name(let text), .password(let text): return text
        }
    }
}

/// A staff account as staff see it (never with its password hash).
public struct StaffAccount: Hashable, Sendable {
    public var name: String
    public var role: StaffRole
    /// Disabled by an admin: cannot sign in, sessions ended. Not reversible (add a new account).
    public var disabled: Bool
    /// Locked after ``SignInPolicy/failuresBeforeLock`` failed sign-ins in a row (from every
    /// source together), until an admin resets the password.
    public var locked: Bool
    /// Failed sign-ins since the last success, attempts whose password is still being checked
    /// included (each attempt is counted before the password is checked).
    public var failedSignIns: Int
    public var createdAt: Date
    public var createdBy: String
    public var passwordChangedAt: Date
    public var lastSignInAt: Date?
    /// How many sources (client addresses; "local" for the console and CLI on the store) have
    /// failed to sign in to this account since their last success: the admin's sign of an
    /// attack spread over many addresses. Filled by the staff list only (0 elsewhere).
    public var failingSources: Int

    public init(
        name: String, role: StaffRole, disabled: Bool = false, locked: Bool = false, failedSignIns: Int = 0,
        createdAt: Date, createdBy: String, passwordChangedAt: Date, lastSignInAt: Date? = nil, failingSources: Int = 0
    ) {
        self.failingSources = failingSources
        self.name = name
        self.role = role
        self.disabled = disabled
        self.locked = locked
        self.failedSignIns = failedSignIns
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.passwordChangedAt = passwordChangedAt
        self.lastSignInAt = lastSignInAt
    }

    /// "active", "locked", "disabled".
    public var stateName: String { disabled ? "disabled" : locked ? "locked" : "active" }
}

/// How long sessions last.
public struct SessionPolicy: Hashable, Sendable {
    /// A session ends this long after sign-in, whatever happens.
    public var maximumSeconds: Int
    /// A session with no request for this long is over (the console shows its lock screen).
    public var idleSeconds: Int

    public init(maximumSeconds: Int = 12 * 3600, idleSeconds: Int = 600) {
        self.maximumSeconds = maximumSeconds
        self.idleSeconds = idleSeconds
    }
}

/// A signed-in person. The token is the secret a client presents; the store keeps only its
/// SHA-256. `description` never shows the token.
public struct StaffSession: Hashable, Sendable, CustomStringConvertible {
    public var token: String
    public var user: String
    public var role: StaffRole
    public var signedInAt: Date
    public var expiresAt: Date
    /// After this long without a request the session is over (and the console locks).
    public var idleSeconds: Int
    /// The country code the desk adds to phone numbers typed without one (APRICOT's
    /// `default_country_code`), so a screen can show the number it will look up; nil when the
    /// desk did not say.
    public var phoneCountryCode: String?

    public init(
        token: String, user: String, role: StaffRole, signedInAt: Date, expiresAt: Date, idleSeconds: Int,
        phoneCountryCode: String? = nil
    ) {
        self.token = token
        self.user = user
        self.role = role
        self.signedInAt = signedInAt
        self.expiresAt = expiresAt
        self.idleSeconds = idleSeconds
        self.phoneCountryCode = phoneCountryCode
    }

    public var description: String { "\(user) (\(role.rawValue))" }
}

// MARK: Audit

/// What an audit entry records. A string underneath, so entries written by a newer TraceDesk
/// still read (and verify) in an older one.
public struct AuditAction: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let signIn = AuditAction(rawValue: "sign_in")
    public static let signInFailed = AuditAction(rawValue: "sign_in_failed")
    /// A sign-in refused without checking the password (disabled or locked account).
    public static let signInRefused = AuditAction(rawValue: "sign_in_refused")
    public static let accountLocked = AuditAction(rawValue: "account_locked")
    public static let signOut = AuditAction(rawValue: "sign_out")
    public static let otpAuthorized = AuditAction(rawValue: "otp_authorized")
    public static let staffAdded = AuditAction(rawValue: "staff_added")
    public static let staffDisabled = AuditAction(rawValue: "staff_disabled")
    public static let passwordReset = AuditAction(rawValue: "password_reset")
    /// A tracer looked a patient up (target `user N`, detail the purpose and counts).
    public static let traceLookup = AuditAction(rawValue: "trace_lookup")
    /// A tracer exported a lookup (target `user N`, detail the purpose, the kind and rows).
    public static let traceExport = AuditAction(rawValue: "trace_export")
    /// A tracer recorded a call outcome (target the contact's `user N`, detail the patient,
    /// the outcome and the purpose; never the note's text).
    public static let contactOutcome = AuditAction(rawValue: "contact_outcome")
    /// An admin read the SMS outbox (the messages hold codes and phone numbers).
    public static let smsOutboxRead = AuditAction(rawValue: "sms_outbox_read")
    /// An admin added an HIS client (target its name, detail its rate limit; never its key).
    public static let hisClientAdded = AuditAction(rawValue: "his_client_added")
    /// An admin revoked an HIS client (target its name).
    public static let hisClientRevoked = AuditAction(rawValue: "his_client_revoked")
    /// A tracer copied a contact's phone number to the clipboard (target the contact's
    /// `user N`, detail the patient and the purpose; never the number), audited like a view.
    public static let phoneCopied = AuditAction(rawValue: "copy_phone")

    /// A tracer opened a case (target the patient's `user N`, detail the case id, reference and
    /// how many follow-ups it made or joined).
    public static let caseOpened = AuditAction(rawValue: "case_opened")
    /// Someone read a case, a follow-up or a page of the queue (target `case N`, `follow-up N` or
    /// `queue`; detail what was read and, for a page, how many persons): every view of a person.
    public static let followUpViewed = AuditAction(rawValue: "follow_up_viewed")
    /// A case was closed (target `case N`, detail the reason).
    public static let caseClosed = AuditAction(rawValue: "case_closed")
    /// A contact was added to a case by hand (target the contact's `user N`, detail the case and
    /// the follow-up; never the reason's text).
    public static let followUpAdded = AuditAction(rawValue: "follow_up_added")
    /// A call attempt was recorded (target `follow-up N`, detail the outcome; never the note).
    public static let followUpAttempt = AuditAction(rawValue: "follow_up_attempt")
    /// A daily check was recorded (target `follow-up N`, detail symptoms and isolating; never
    /// the note).
    public static let followUpCheck = AuditAction(rawValue: "follow_up_check")
    /// Follow-ups were assigned (target the tracer, detail the ids and from whom).
    public static let followUpAssigned = AuditAction(rawValue: "follow_up_assigned")

    /// The actions this version writes, for filters and help.
    public static let known: [AuditAction] = [
        .signIn, .signInFailed, .signInRefused, .accountLocked, .signOut, .otpAuthorized, .staffAdded,
        .staffDisabled, .passwordReset, .traceLookup, .traceExport, .contactOutcome,
        .smsOutboxRead, .hisClientAdded, .hisClientRevoked, .phoneCopied, .caseOpened, .followUpViewed,
        .caseClosed, .followUpAdded, .followUpAttempt, .followUpCheck, .followUpAssigned,
    ]

    public var description: String { rawValue }
}

/// One entry of the audit log. Each carries the hash of the one before, so editing, inserting
/// or deleting an entry breaks the chain from there on (``AuditChain`` in DeskCrypto).
public struct AuditEntry: Hashable, Sendable {
    /// 1, 2, 3… with no gaps (given under the log's lock, not by a sequence).
    public var id: Int64
    public var at: Date
    /// Who acted: a staff name, an integration ("his-api"), or "-" for a name nobody owns.
    public var actor: String
    public var action: AuditAction
    /// What it was done to: a staff name, a code's hash tag; nil when nothing.
    public var target: String?
    /// Small JSON object with non-secret details; never a password, token or code.
    public var detail: String
    public var previousHash: String
    public var hash: String

    public init(
        id: Int64, at: Date, actor: String, action: AuditAction, target: String?, detail: String,
        previousHash: String, hash: String
    ) {
        self.id = id
        self.at = at
        self.actor = actor
        self.action = action
        self.target = target
        self.detail = detail
        self.previousHash = previousHash
        self.hash = hash
    }

    /// The bytes the chain hash covers: every field, each length-prefixed so no two different
    /// entries share them. `at` counts in whole milliseconds, as stored.
    public static func canonicalBytes(
        id: Int64, atMilliseconds: Int64, actor: String, action: String, target: String?, detail: String,
        previousHash: String
    ) -> [UInt8] {
        var out = Array("tracedesk-audit-v1\n".utf8)
        func field(_ text: String?) {
            guard let text else {
                out += Array("-\n".utf8)
                return
            }
            let bytes = Array(text.utf8)
            out += Array("\(bytes.count):".utf8)
            out += bytes
            out.append(0x0A)
        }
        field(String(id))
        field(String(atMilliseconds))
        field(actor)
        field(action)
        field(target)
        field(detail)
        field(previousHash)
        return out
    }
}

/// Which entries an audit browse wants: newest first, optionally by who acted, whom or what
/// it was done to, action and time.
public struct AuditQuery: Hashable, Sendable {
    public var actor: String?
    /// The entry's target exactly: the account an admin changed, the `user N` a tracer viewed.
    public var subject: String?
    public var action: AuditAction?
    /// Entries at or after this instant.
    public var from: Date?
    /// Entries before this instant.
    public var until: Date?
    /// Entries with an id below this (the next page, newest first).
    public var beforeID: Int64?
    public var limit: Int

    public init(
        actor: String? = nil, subject: String? = nil, action: AuditAction? = nil, from: Date? = nil,
        until: Date? = nil, beforeID: Int64? = nil, limit: Int = 100
    ) {
        self.actor = actor
        self.subject = subject
        self.action = action
        self.from = from
        self.until = until
        self.beforeID = beforeID
        self.limit = limit
    }
}

/// The result of checking the whole chain.
public struct AuditVerification: Hashable, Sendable {
    /// Entries checked.
    public var entries: Int64
    /// The hash of the last entry (write it down elsewhere: it also catches a cut-off tail).
    public var headHash: String
    public var headID: Int64
    /// The first entry that does not verify; nil when the chain is whole.
    public var firstBroken: AuditBreak?
    /// The hash of entry N for each count N that was asked for and lies in the verified part
    /// (for checking ``AuditCheckpoint``s against the chain).
    public var hashesAt: [Int64: String]

    public init(
        entries: Int64, headHash: String, headID: Int64, firstBroken: AuditBreak?, hashesAt: [Int64: String] = [:]
    ) {
        self.entries = entries
        self.headHash = headHash
        self.headID = headID
        self.firstBroken = firstBroken
        self.hashesAt = hashesAt
    }
}

/// Where and why the audit chain breaks.
public struct AuditBreak: Hashable, Sendable {
    public var id: Int64
    /// In English, as the check writes it and the staff API carries it (``shownReason`` words it
    /// for a person).
    public var reason: String

    public init(id: Int64, reason: String) {
        self.id = id
        self.reason = reason
    }

    /// Entries `from`…`to` are missing before `id`.
    public static func missing(id: Int64, from: Int64, to: Int64) -> AuditBreak {
        AuditBreak(id: id, reason: "entries \(from)…\(to) are missing: deleted from the log")
    }
    public static func outOfOrder(id: Int64, after: Int64) -> AuditBreak {
        AuditBreak(id: id, reason: "id \(id) is out of order after \(after)")
    }
    public static func firstNotStart(id: Int64) -> AuditBreak {
        AuditBreak(
            id: id, reason: "the first entry does not start the chain: entries before it were removed or it was edited")
    }
    public static func previousMismatch(id: Int64, previous: Int64) -> AuditBreak {
        AuditBreak(
            id: id,
            reason: "its previous-hash does not match entry \(previous): entry \(previous) was edited or replaced")
    }
    public static func contentsMismatch(id: Int64) -> AuditBreak {
        AuditBreak(id: id, reason: "its contents do not match its hash: the entry was edited after it was written")
    }

    /// ``reason`` in the current language: the check's own reasons in the catalogue's words,
    /// any other (an older server's) as it is.
    public var shownReason: String {
        let r = reason
        func numbers(_ text: Substring) -> [String] {
            text.split(whereSeparator: { !$0.isASCII || !$0.isNumber }).map(String.init)
        }
        if r.hasPrefix("entries "), r.hasSuffix(" are missing: deleted from the log") {
            let n = numbers(r.dropLast(" are missing: deleted from the log".count))
            if n.count == 2 { return tr("audit.break.missing", ["from": n[0], "to": n[1]]) }
        }
        if r.hasPrefix("id "), r.contains(" is out of order after ") {
            let n = numbers(Substring(r))
            if n.count == 2 { return tr("audit.break.outOfOrder", ["id": n[0], "after": n[1]]) }
        }
        if r == AuditBreak.firstNotStart(id: 1).reason { return tr("audit.break.firstNotStart") }
        if r.hasPrefix("its previous-hash does not match entry ") {
            let n = numbers(Substring(r))
            if n.count == 2, n[0] == n[1] { return tr("audit.break.previousMismatch", ["previous": n[0]]) }
        }
        if r == AuditBreak.contentsMismatch(id: 1).reason { return tr("audit.break.contentsMismatch") }
        return r
    }
}
