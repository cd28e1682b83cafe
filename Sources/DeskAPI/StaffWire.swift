import CivilCalendar
import DeskContract
import DeskCore
import JSONText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The staff API's JSON (docs/staff-api.yaml), written and read in this one file, so the server
/// and `RemoteDesk` cannot drift apart.
///
/// Privacy rule: nothing written here holds a code or a code's hash (a record travels without
/// its `otp_hash`: the hash is the bearer token an app uploads with, and the client that typed
/// the code can compute it), a password, or any token but the session's own at sign-in.
/// Readers tolerate members they do not know (a newer server may add some), never missing ones.
public enum StaffWire {
    public static let prefix = "/staff/v1"
    public static let service = "tracedesk-staff"
    public static let version = 1

    // MARK: Times

    /// `2026-11-29T10:00:00.000Z`: UTC, whole milliseconds (``UTCTime``, the contract's one way).
    public static func time(_ date: Date) -> String { UTCTime.text(date) }

    /// Reads exactly the form ``time(_:)`` writes; nil for anything else.
    public static func parseTime(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z"),
            let day = Fields.isoDate(String(decoding: bytes[0..<10], as: UTF8.self))
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for i in range {
                guard (0x30...0x39).contains(bytes[i]) else { return nil }
                value = value * 10 + Int64(bytes[i] - 0x30)
            }
            return value
        }
        guard let hours = number(11..<13), let minutes = number(14..<16), let seconds = number(17..<19),
            let millis = number(20..<23), hours < 24, minutes < 60, seconds < 60
        else { return nil }
        let total = day.unixSecondsAtMidnightUTC + hours * 3600 + minutes * 60 + seconds
        return Date(unixMilliseconds: total * 1000 + millis)
    }

    // MARK: Writing

    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { JSONValue.Member(key: $0.0, value: $0.1) })
    }

    static func number<N: BinaryInteger>(_ n: N) -> JSONValue { .number(String(n)) }

    static func optionalTime(_ date: Date?) -> JSONValue { date.map { .string(time($0)) } ?? .null }

    /// `GET /staff/v1`: lets a client tell it reached the staff API of a TraceDesk server.
    public static func info() -> JSONValue {
        object([("service", .string(service)), ("version", number(version))])
    }

    public static func setup(needsFirstAdmin: Bool) -> JSONValue {
        object([("needs_first_admin", .bool(needsFirstAdmin))])
    }

    /// A new session: the only answer that carries a token.
    public static func session(_ session: StaffSession) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("token", .string(session.token)), ("user", .string(session.user)),
            ("role", .string(session.role.rawValue)), ("signed_in_at", .string(time(session.signedInAt))),
            ("expires_at", .string(time(session.expiresAt))), ("idle_seconds", number(session.idleSeconds)),
        ]
        if let code = session.phoneCountryCode { members.append(("phone_country_code", .string(code))) }
        return object(members)
    }

    public static func account(_ account: StaffAccount) -> JSONValue {
        object([
            ("name", .string(account.name)), ("role", .string(account.role.rawValue)),
            ("state", .string(account.stateName)), ("disabled", .bool(account.disabled)),
            ("locked", .bool(account.locked)), ("failed_sign_ins", number(account.failedSignIns)),
            ("created_at", .string(time(account.createdAt))), ("created_by", .string(account.createdBy)),
            ("password_changed_at", .string(time(account.passwordChangedAt))),
            ("last_sign_in_at", optionalTime(account.lastSignInAt)),
            ("failing_sources", number(account.failingSources)),
        ])
    }

    public static func accounts(_ accounts: [StaffAccount]) -> JSONValue {
        object([("staff", .array(accounts.map(account)))])
    }

    /// An authorisation record without its code hash.
    public static func record(_ record: OtpAuthorization) -> JSONValue {
        object([
            ("symptoms_started_on", .string(record.symptomsStartedOn.iso)),
            ("authorized_at", .string(time(record.authorizedAt))), ("expires_at", .string(time(record.expiresAt))),
            ("authorized_by", .string(record.authorizedBy)), ("state", .string(record.state.rawValue)),
            ("consumed_at", optionalTime(record.consumedAt)),
        ])
    }

    /// `POST /staff/v1/otp/authorizations` answered 201 (`authorized`) or 200 (`already_authorized`).
    public static func authorization(_ result: AuthorizeResult) -> JSONValue {
        switch result {
        case .authorized(let r): return object([("result", .string("authorized")), ("record", record(r))])
        case .alreadyAuthorized(let r):
            return object([("result", .string("already_authorized")), ("record", record(r))])
        case .invalid(let refusal): return object([("result", .string("invalid")), ("refusal", refusal.json)])
        }
    }

    public static func status(_ status: OtpStatus) -> JSONValue {
        object([("status", .string(status.name)), ("record", status.record.map(record) ?? .null)])
    }

    public static func auditEntries(_ entries: [AuditEntry]) -> JSONValue {
        object([
            (
                "entries",
                .array(
                    entries.map { entry in
                        object([
                            ("id", number(entry.id)), ("at", .string(time(entry.at))), ("actor", .string(entry.actor)),
                            ("action", .string(entry.action.rawValue)),
                            ("target", entry.target.map { .string($0) } ?? .null),
                            ("detail", .string(entry.detail)), ("previous_hash", .string(entry.previousHash)),
                            ("hash", .string(entry.hash)),
                        ])
                    })
            )
        ])
    }

    public static func verification(_ verification: AuditVerification) -> JSONValue {
        object([
            ("entries", number(verification.entries)), ("head_hash", .string(verification.headHash)),
            ("head_id", number(verification.headID)),
            (
                "first_broken",
                verification.firstBroken.map { object([("id", number($0.id)), ("reason", .string($0.reason))]) }
                    ?? .null
            ),
            (
                "hashes_at",
                .array(
                    verification.hashesAt.sorted { $0.key < $1.key }.map {
                        object([("entries", number($0.key)), ("hash", .string($0.value))])
                    })
            ),
        ])
    }

    /// The query of `GET /staff/v1/audit/verification` asking for the chain's hashes at `counts`.
    public static func verificationQueryItems(_ counts: [Int64]) -> [(name: String, value: String)] {
        counts.isEmpty ? [] : [("at", counts.map(String.init).joined(separator: ","))]
    }

    // MARK: Request bodies (written by RemoteDesk, read by StaffRequests)

    public static func credentials(name: String, password: String) -> JSONValue {
        object([("name", .string(name)), ("password", .string(password))])
    }

    /// The first admin's body: the credentials and, when given, the server's setup token.
    public static func firstAdmin(name: String, password: String, setupToken: String?) -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(name)), ("password", .string(password))]
        if let setupToken { members.append(("setup_token", .string(setupToken))) }
        return object(members)
    }

    public static func newStaff(name: String, role: StaffRole, password: String) -> JSONValue {
        object([("name", .string(name)), ("role", .string(role.rawValue)), ("password", .string(password))])
    }

    public static func newPassword(_ password: String) -> JSONValue { object([("password", .string(password))]) }

    public static func authorize(code: String, symptomsStartedOn: CivilDay) -> JSONValue {
        object([("code", .string(code)), ("symptoms_started_on", .string(symptomsStartedOn.iso))])
    }

    public static func statusRequest(code: String) -> JSONValue { object([("code", .string(code))]) }

    /// The query of `GET /staff/v1/audit`, in a fixed order; absent filters are left out.
    public static func auditQueryItems(_ query: AuditQuery) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if let actor = query.actor { items.append(("actor", actor)) }
        if let subject = query.subject { items.append(("subject", subject)) }
        if let action = query.action { items.append(("action", action.rawValue)) }
        if let from = query.from { items.append(("from", time(from))) }
        if let until = query.until { items.append(("until", time(until))) }
        if let before = query.beforeID { items.append(("before", String(before))) }
        items.append(("limit", String(query.limit)))
        return items
    }
}

/// A refusal by the rules on the wire, with the parts a screen needs (which character, which
/// position).
extension AuthorizeRefusal {
    var json: JSONValue {
        switch self {
        case .code(let error):
            switch error {
            case .empty: return StaffWire.object([("reason", .string("code_empty"))])
            case .forbiddenCharacter(let character, let position):
                return StaffWire.object([
                    ("reason", .string("code_forbidden_character")), ("character", .string(String(character))),
                    ("position", StaffWire.number(position)),
                ])
            case .tooShort(let count):
                return StaffWire.object([("reason", .string("code_too_short")), ("count", StaffWire.number(count))])
            case .tooLong(let count):
                return StaffWire.object([("reason", .string("code_too_long")), ("count", StaffWire.number(count))])
            case .checkCharacterMismatch: return StaffWire.object([("reason", .string("code_check_character"))])
            }
        case .symptomOnset(let error):
            switch error {
            case .inFuture(let day, let today):
                return StaffWire.object([
                    ("reason", .string("onset_in_future")), ("day", .string(day.iso)), ("today", .string(today.iso)),
                ])
            case .tooOld(let day, let daysAgo):
                return StaffWire.object([
                    ("reason", .string("onset_too_old")), ("day", .string(day.iso)),
                    ("days_ago", StaffWire.number(daysAgo)),
                ])
            case .notADate(let text):
                return StaffWire.object([("reason", .string("onset_not_a_date")), ("text", .string(text))])
            }
        }
    }

    /// The members a 422 adds to its error body.
    public var errorMembers: [JSONValue.Member] {
        [JSONValue.Member(key: "result", value: .string("invalid")), JSONValue.Member(key: "refusal", value: json)]
    }
}
