import CivilCalendar

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Lowercase hex SHA-256 of an OTP: the only form in which a code is stored or compared.
public struct OtpHash: Hashable, Sendable, CustomStringConvertible {
    public let hex: String

    /// Accepts exactly 64 lowercase hex characters.
    public init?(hex: String) {
        guard hex.utf8.count == 64,
            hex.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
        else { return nil }
        self.hex = hex
    }

    /// A short, non-reversible tag for logs and screens ("b39e07…"): enough to tell two
    /// authorisations apart, far too little to use the code.
    public var shortTag: String { tag + "…" }

    /// The first 6 hex digits: how the monitor, the watch and the audit log name a code.
    public var tag: String { String(hex.prefix(6)) }

    public var description: String { shortTag }
}

/// An authorisation as the store keeps it.
public struct OtpAuthorization: Hashable, Sendable {
    public enum State: String, Hashable, Sendable {
        /// Authorised; the app may upload until `expiresAt`.
        case authorized
        /// Used by an upload (one-time).
        case consumed
    }

    public var otpHash: OtpHash
    public var symptomsStartedOn: CivilDay
    public var authorizedAt: Date
    public var expiresAt: Date
    public var authorizedBy: String
    public var state: State
    public var consumedAt: Date?

    public init(
        otpHash: OtpHash, symptomsStartedOn: CivilDay, authorizedAt: Date, expiresAt: Date,
        authorizedBy: String, state: State = .authorized, consumedAt: Date? = nil
    ) {
        self.otpHash = otpHash
        self.symptomsStartedOn = symptomsStartedOn
        self.authorizedAt = authorizedAt
        self.expiresAt = expiresAt
        self.authorizedBy = authorizedBy
        self.state = state
        self.consumedAt = consumedAt
    }

    /// Whether an app could still use it at `now`.
    public func isUsable(at now: Date) -> Bool {
        state == .authorized && now < expiresAt
    }
}

/// What a code looks like to staff at a given moment.
public enum OtpStatus: Hashable, Sendable {
    /// Never authorised here (or its record was cleaned up).
    case unknown
    case authorized(OtpAuthorization)
    case expired(OtpAuthorization)
    case consumed(OtpAuthorization)

    public init(_ record: OtpAuthorization?, now: Date) {
        guard let record else {
            self = .unknown
            return
        }
        switch record.state {
        case .consumed: self = .consumed(record)
        case .authorized: self = now < record.expiresAt ? .authorized(record) : .expired(record)
        }
    }

    /// One word, for the CLI and JSON: unknown, authorized, expired, consumed.
    public var name: String {
        switch self {
        case .unknown: return "unknown"
        case .authorized: return "authorized"
        case .expired: return "expired"
        case .consumed: return "consumed"
        }
    }

    public var record: OtpAuthorization? {
        switch self {
        case .unknown: return nil
        case .authorized(let r), .expired(let r), .consumed(let r): return r
        }
    }
}

/// What happened when a store was asked to authorise a code.
public enum AuthorizeOutcome: Hashable, Sendable {
    case authorized(OtpAuthorization)
    /// An earlier authorisation of the same code is still usable; nothing was changed.
    case alreadyAuthorized(OtpAuthorization)
}

/// One entry of the store's event stream (the live monitor reads it in order of `id`).
public struct DeskEvent: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case otpAuthorized = "otp_authorized"
        case otpChecked = "otp_checked"
        case uploadAccepted = "upload_accepted"
        case uploadRefused = "upload_refused"
        case analyticsReceived = "analytics_received"
        case chunkPublished = "chunk_published"
        /// A staff action from the audit log (sign-in, staff change…): `detail` names the
        /// ``AuditAction`` (`{"action":"sign_in"}`) and, for staff changes, the account.
        case staffAction = "staff_action"
        /// An APRICOT app registered (a new user; detail `{"pseudo_ids":N}`) or logged in again
        /// (`{"pseudo_ids":N,"returning":true}`). Never the phone number.
        case apricotRegistered = "apricot_registered"
        /// An APRICOT contact file arrived (detail: day, records, distinct and unknown beacons,
        /// skew, whether it replaced an earlier file).
        case contactFileReceived = "contact_file_received"
        /// A client address sent so many wrong codes that the phone API answers it 429 for a
        /// while (issue 18, point 10a); detail `{"route":…,"retry_after_s":N}`, never the address.
        case otpGuessesLimited = "otp_guesses_limited"
        /// A tracer opened a case (issue 21); detail ``Detail/FollowUpActivity``: the case and how
        /// many follow-ups it made and joined. Never a phone number or the reference.
        case caseOpened = "case_opened"
        /// A case was closed; detail the case, the reason and how many follow-ups ended with it.
        case caseClosed = "case_closed"
        /// A follow-up changed: a call attempt, a daily check, an assignment, one added by hand,
        /// or time's effect (completed, lost); detail the follow-up, what happened, its state.
        case followUpChanged = "follow_up_changed"
    }

    /// The event's position in the stream: strictly increasing across the whole store, in the
    /// order events were committed (the same number as ``MonitorEvent/id``).
    public var id: Int64
    public var at: Date
    public var kind: Kind
    public var otpHash: OtpHash?
    public var actor: String?
    /// Small JSON object with non-personal details (counts, reasons); never a code or key.
    public var detail: String

    public init(id: Int64, at: Date, kind: Kind, otpHash: OtpHash?, actor: String?, detail: String) {
        self.id = id
        self.at = at
        self.kind = kind
        self.otpHash = otpHash
        self.actor = actor
        self.detail = detail
    }
}
