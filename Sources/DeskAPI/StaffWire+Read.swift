import CivilCalendar
import DeskContract
import DeskCore
import JSONText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading the staff API's answers (RemoteDesk). A body that does not have the shape this
/// version writes throws a ``FieldProblem`` naming what is wrong: the client then knows it did
/// not reach a TraceDesk staff API (or reached an incompatible one), and says so.
extension StaffWire {
    /// An error body: `{"error_code": n, "message": "...", "detail"?: "..."}`; nil when `bytes`
    /// are not one.
    public struct ErrorBody: Hashable, Sendable {
        public var code: Int
        public var message: String
        public var detail: String?
        /// The whole document (a 422 carries its refusal beside the error).
        public var document: JSONValue
    }

    public static func readError(_ bytes: [UInt8]) -> ErrorBody? {
        guard let document = try? JSONReader.parse(utf8: bytes), case .object = document,
            case .number(let codeText)? = document["error_code"], let code = Int(codeText),
            case .string(let message)? = document["message"]
        else { return nil }
        var detail: String?
        if case .string(let text)? = document["detail"] { detail = text }
        return ErrorBody(code: code, message: message, detail: detail, document: document)
    }

    static func document(_ bytes: [UInt8]) throws(FieldProblem) -> ObjectReader {
        let value: JSONValue
        do {
            value = try JSONReader.parse(utf8: bytes)
        } catch {
            throw FieldProblem("the answer is not JSON")
        }
        return try ObjectReader(value, path: "")
    }

    static func requiredTime(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> Date {
        guard let date = parseTime(try reader.string(key)!) else {
            throw FieldProblem("\(reader.name(key)) is not a time such as 2026-11-29T10:00:00.000Z")
        }
        return date
    }

    static func optionalTime(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> Date? {
        guard let text = try reader.string(key, required: false, allowNull: true) else { return nil }
        guard let date = parseTime(text) else {
            throw FieldProblem("\(reader.name(key)) is not a time such as 2026-11-29T10:00:00.000Z")
        }
        return date
    }

    static func bool(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> Bool {
        guard case .bool(let flag) = try reader.required(key) else {
            throw FieldProblem("\(reader.name(key)) must be true or false")
        }
        return flag
    }

    static func int(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> Int64 {
        try reader.integer(key, in: Int64.min...Int64.max)!
    }

    static func role(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> StaffRole {
        guard let role = StaffRole(rawValue: try reader.string(key)!) else {
            throw FieldProblem("\(reader.name(key)) is not a role this version knows (\(StaffRole.namesList))")
        }
        return role
    }

    static func nested(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> ObjectReader {
        try ObjectReader(try reader.required(key), path: reader.name(key))
    }

    // MARK: Answers

    /// `GET /staff/v1`: the service name and version.
    public static func readInfo(_ bytes: [UInt8]) throws(FieldProblem) -> (service: String, version: Int64) {
        let reader = try document(bytes)
        return (try reader.string("service")!, try int(reader, "version"))
    }

    public static func readSetup(_ bytes: [UInt8]) throws(FieldProblem) -> Bool {
        try bool(try document(bytes), "needs_first_admin")
    }

    public static func readSession(_ bytes: [UInt8]) throws(FieldProblem) -> StaffSession {
        let reader = try document(bytes)
        return StaffSession(
            token: try reader.string("token")!, user: try reader.string("user")!, role: try role(reader, "role"),
            signedInAt: try requiredTime(reader, "signed_in_at"), expiresAt: try requiredTime(reader, "expires_at"),
            idleSeconds: Int(try reader.integer("idle_seconds", in: 0...Int64(Int32.max))!),
            phoneCountryCode: try reader.string("phone_country_code", required: false))
    }

    static func account(_ reader: ObjectReader) throws(FieldProblem) -> StaffAccount {
        StaffAccount(
            name: try reader.string("name")!, role: try role(reader, "role"), disabled: try bool(reader, "disabled"),
            locked: try bool(reader, "locked"),
            failedSignIns: Int(try reader.integer("failed_sign_ins", in: 0...Int64(Int32.max))!),
            createdAt: try requiredTime(reader, "created_at"), createdBy: try reader.string("created_by")!,
            passwordChangedAt: try requiredTime(reader, "password_changed_at"),
            lastSignInAt: try optionalTime(reader, "last_sign_in_at"),
            failingSources: Int(try reader.integer("failing_sources", in: 0...Int64(Int32.max), required: false) ?? 0))
    }

    public static func readAccount(_ bytes: [UInt8]) throws(FieldProblem) -> StaffAccount {
        try account(try document(bytes))
    }

    public static func readAccounts(_ bytes: [UInt8]) throws(FieldProblem) -> [StaffAccount] {
        let reader = try document(bytes)
        var out: [StaffAccount] = []
        for (i, item) in try reader.array("staff")!.enumerated() {
            out.append(try account(try ObjectReader(item, path: "staff[\(i)]")))
        }
        return out
    }

    /// A record; `otpHash` is the hash of the code the client sent (the wire never carries it).
    static func record(_ reader: ObjectReader, otpHash: OtpHash) throws(FieldProblem) -> OtpAuthorization {
        let stateText = try reader.string("state")!
        guard let state = OtpAuthorization.State(rawValue: stateText) else {
            throw FieldProblem("\(reader.name("state")) must be authorized or consumed")
        }
        return OtpAuthorization(
            otpHash: otpHash, symptomsStartedOn: try reader.date("symptoms_started_on")!,
            authorizedAt: try requiredTime(reader, "authorized_at"), expiresAt: try requiredTime(reader, "expires_at"),
            authorizedBy: try reader.string("authorized_by")!, state: state,
            consumedAt: try optionalTime(reader, "consumed_at"))
    }

    /// A 200 or 201 answer to an authorisation (the 422 refusal is read by ``readRefusal(_:)``).
    public static func readAuthorization(_ bytes: [UInt8], otpHash: OtpHash) throws(FieldProblem) -> AuthorizeResult {
        let reader = try document(bytes)
        switch try reader.string("result")! {
        case "authorized": return .authorized(try record(try nested(reader, "record"), otpHash: otpHash))
        case "already_authorized":
            return .alreadyAuthorized(try record(try nested(reader, "record"), otpHash: otpHash))
        case "invalid": return .invalid(try refusal(try nested(reader, "refusal")))
        default: throw FieldProblem("result must be authorized, already_authorized or invalid")
        }
    }

    /// The `refusal` of a 422 error body.
    public static func readRefusal(_ document: JSONValue) throws(FieldProblem) -> AuthorizeRefusal {
        try refusal(try nested(try ObjectReader(document, path: ""), "refusal"))
    }

    static func refusal(_ reader: ObjectReader) throws(FieldProblem) -> AuthorizeRefusal {
        func count(_ key: String) throws(FieldProblem) -> Int {
            Int(try reader.integer(key, in: 0...Int64(Int32.max))!)
        }
        switch try reader.string("reason")! {
        case "code_empty": return .code(.empty)
        case "code_forbidden_character":
            let text = try reader.string("character")!
            guard text.count == 1, let character = text.first else {
                throw FieldProblem("\(reader.name("character")) must be one character")
            }
            return .code(.forbiddenCharacter(character, position: try count("position")))
        case "code_too_short": return .code(.tooShort(count: try count("count")))
        case "code_too_long": return .code(.tooLong(count: try count("count")))
        case "code_check_character": return .code(.checkCharacterMismatch)
        case "onset_in_future":
            return .symptomOnset(.inFuture(try reader.date("day")!, today: try reader.date("today")!))
        case "onset_too_old":
            return .symptomOnset(.tooOld(try reader.date("day")!, daysAgo: try count("days_ago")))
        case "onset_not_a_date": return .symptomOnset(.notADate(try reader.string("text")!))
        default: throw FieldProblem("\(reader.name("reason")) is not a refusal this version knows")
        }
    }

    /// `status` and `record`; the record is read with the hash of the code the client sent.
    public static func readStatus(_ bytes: [UInt8], otpHash: () -> OtpHash?) throws(FieldProblem) -> OtpStatus {
        let reader = try document(bytes)
        let name = try reader.string("status")!
        if name == "unknown" { return .unknown }
        guard let hash = otpHash() else { throw FieldProblem("a record came back for a code that is not valid") }
        let found = try record(try nested(reader, "record"), otpHash: hash)
        switch name {
        case "authorized": return .authorized(found)
        case "expired": return .expired(found)
        case "consumed": return .consumed(found)
        default: throw FieldProblem("status must be unknown, authorized, expired or consumed")
        }
    }

    public static func readAuditEntries(_ bytes: [UInt8]) throws(FieldProblem) -> [AuditEntry] {
        let reader = try document(bytes)
        var out: [AuditEntry] = []
        for (i, item) in try reader.array("entries")!.enumerated() {
            let entry = try ObjectReader(item, path: "entries[\(i)]")
            out.append(
                AuditEntry(
                    id: try int(entry, "id"), at: try requiredTime(entry, "at"), actor: try entry.string("actor")!,
                    action: AuditAction(rawValue: try entry.string("action")!),
                    target: try entry.string("target", required: false, allowNull: true),
                    detail: try entry.string("detail")!, previousHash: try entry.string("previous_hash")!,
                    hash: try entry.string("hash")!))
        }
        return out
    }

    public static func readVerification(_ bytes: [UInt8]) throws(FieldProblem) -> AuditVerification {
        let reader = try document(bytes)
        var broken: AuditBreak?
        if let value = try reader.optional("first_broken", allowNull: true) {
            let item = try ObjectReader(value, path: "first_broken")
            broken = AuditBreak(id: try int(item, "id"), reason: try item.string("reason")!)
        }
        var hashes: [Int64: String] = [:]
        // Absent from a server of an older version: then no hashes were given.
        if let items = try reader.array("hashes_at", required: false) {
            for (i, item) in items.enumerated() {
                let pair = try ObjectReader(item, path: "hashes_at[\(i)]")
                hashes[try int(pair, "entries")] = try pair.string("hash")!
            }
        }
        return AuditVerification(
            entries: try int(reader, "entries"), headHash: try reader.string("head_hash")!,
            headID: try int(reader, "head_id"), firstBroken: broken, hashesAt: hashes)
    }
}
