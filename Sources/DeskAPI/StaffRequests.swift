import CivilCalendar
import DeskCore
import JSONText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The staff API's requests, read strictly (docs/staff-api.yaml). Only the shape is checked here:
/// names, passwords, codes and days are judged by the desk, whose messages say what to do.
/// Every problem is a 2000 whose detail names the field and never repeats its value (a
/// password or a code may be in it).
public enum StaffRequests {
    public struct Credentials: Sendable {
        public var name: String
        public var password: String
        /// The first admin's one-time setup token (`POST /setup` only).
        public var setupToken: String? = nil
    }

    public struct NewStaff: Sendable {
        public var name: String
        public var role: StaffRole
        public var password: String

        public init(name: String, role: StaffRole, password: String) {
            self.name = name
            self.role = role
            self.password = password
        }
    }

    /// A new password for the account named in the path (`POST /staff/{name}/password`).
    public struct NewPassword: Sendable {
        public var name: String
        public var password: String

        public init(name: String, password: String) {
            self.name = name
            self.password = password
        }
    }

    public struct Authorization: Sendable {
        public var code: String
        public var symptomsStartedOn: CivilDay
    }

    /// The session token after `Bearer` in the one Authorization header (possibly empty: the
    /// desk then says what is wrong with it); nil when there is no bearer header at all.
    public static func bearerToken(_ request: HTTPRequest) -> String? {
        let values = request.headerValues("authorization")
        guard values.count == 1 else { return nil }
        let value = values[0].trimmingSpaces
        guard value.prefix(6).lowercased() == "bearer", value.count == 6 || value.dropFirst(6).first == " " else {
            return nil
        }
        return String(value.dropFirst(6).trimmingSpaces)
    }

    /// `{name, password, setup_token}`: the first admin of a server.
    public static func firstAdmin(_ request: HTTPRequest) -> Result<Credentials, APIError> {
        read(request, allowed: ["name", "password", "setup_token"]) { fields throws(FieldProblem) in
            Credentials(
                name: try fields.string("name")!, password: try fields.string("password")!,
                setupToken: try fields.string("setup_token", required: false))
        }
    }

    /// `{name, password}`: sign-in.
    public static func credentials(_ request: HTTPRequest) -> Result<Credentials, APIError> {
        read(request, allowed: ["name", "password"]) { fields throws(FieldProblem) in
            Credentials(name: try fields.string("name")!, password: try fields.string("password")!)
        }
    }

    /// `{name, role, password}`.
    public static func newStaff(_ request: HTTPRequest) -> Result<NewStaff, APIError> {
        read(request, allowed: ["name", "role", "password"]) { fields throws(FieldProblem) in
            let name = try fields.string("name")!
            guard let role = StaffRole(rawValue: try fields.string("role")!) else {
                throw FieldProblem("role must be one of \(StaffRole.namesList)")
            }
            return NewStaff(name: name, role: role, password: try fields.string("password")!)
        }
    }

    /// `{password}`: a reset.
    public static func newPassword(_ request: HTTPRequest) -> Result<String, APIError> {
        read(request, allowed: ["password"]) { fields throws(FieldProblem) in try fields.string("password")! }
    }

    /// `{code, symptoms_started_on}`.
    public static func authorization(_ request: HTTPRequest) -> Result<Authorization, APIError> {
        read(request, allowed: ["code", "symptoms_started_on"]) { fields throws(FieldProblem) in
            Authorization(code: try fields.string("code")!, symptomsStartedOn: try fields.date("symptoms_started_on")!)
        }
    }

    /// `{code}`: a status request (a POST, so the code stays out of URLs and access logs).
    public static func statusCode(_ request: HTTPRequest) -> Result<String, APIError> {
        read(request, allowed: ["code"]) { fields throws(FieldProblem) in try fields.string("code")! }
    }

    /// `?actor=&subject=&action=&from=&until=&before=&limit=`, each at most once; an empty value is the
    /// same as leaving it out.
    public static func auditQuery(_ request: HTTPRequest) -> Result<AuditQuery, APIError> {
        let allowed: Set<String> = ["actor", "subject", "action", "from", "until", "before", "limit"]
        var query = AuditQuery()
        do throws(FieldProblem) {
            if let extra = request.query.first(where: { !allowed.contains($0.name) }) {
                throw FieldProblem(
                    "\(Fields.safeName(extra.name)) is not a parameter of this request (allowed: \(allowed.sorted().joined(separator: ", ")))"
                )
            }
            func value(_ name: String) throws(FieldProblem) -> String? {
                let values = request.queryValues(name)
                if values.count > 1 { throw FieldProblem("\(name) may be given once") }
                guard let text = values.first, !text.isEmpty else { return nil }
                return text
            }
            func time(_ name: String) throws(FieldProblem) -> Date? {
                guard let text = try value(name) else { return nil }
                guard let date = StaffWire.parseTime(text) else {
                    throw FieldProblem("\(name) must be a UTC time written 2026-11-29T10:00:00.000Z")
                }
                return date
            }
            if let actor = try value("actor") {
                guard actor.count <= 64 else { throw FieldProblem("actor has at most 64 characters") }
                query.actor = actor
            }
            if let subject = try value("subject") {
                guard subject.count <= 64 else { throw FieldProblem("subject has at most 64 characters") }
                query.subject = subject
            }
            if let action = try value("action") {
                guard action.utf8.count <= 40, action.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F })
                else {
                    throw FieldProblem(
                        "action must be an audit action such as \(AuditAction.known.map(\.rawValue).prefix(3).joined(separator: ", "))"
                    )
                }
                query.action = AuditAction(rawValue: action)
            }
            query.from = try time("from")
            query.until = try time("until")
            if let text = try value("before") {
                guard let id = Fields.parseInteger(text), id >= 1 else {
                    throw FieldProblem("before must be an entry id, a whole number from 1")
                }
                query.beforeID = id
            }
            if let text = try value("limit") {
                guard let limit = Fields.parseInteger(text), (1...1_000).contains(limit) else {
                    throw FieldProblem("limit must be a whole number from 1 to 1000")
                }
                query.limit = Int(limit)
            }
            return .success(query)
        } catch {
            return .failure(.invalidRequest(error.text))
        }
    }

    /// The query of `GET /staff/v1/audit/verification`: `at`, once, a comma-separated list of
    /// entry counts (each from 1) whose chain hashes the answer is to carry; none without it.
    public static func verificationCounts(_ request: HTTPRequest) -> Result<[Int64], APIError> {
        if let extra = request.query.first(where: { $0.name != "at" }) {
            return .failure(
                .invalidRequest("\(Fields.safeName(extra.name)) is not a parameter of this request (allowed: at)"))
        }
        let values = request.queryValues("at")
        if values.count > 1 { return .failure(.invalidRequest("at may be given once: a comma-separated list")) }
        guard let text = values.first, !text.isEmpty else { return .success([]) }
        var counts: [Int64] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let count = Fields.parseInteger(String(part)), count >= 1 else {
                return .failure(.invalidRequest("at must list entry counts, whole numbers from 1, separated by commas"))
            }
            counts.append(count)
            if counts.count > AuditCheckpoint.maximumCountsAsked {
                return .failure(
                    .invalidRequest("at lists at most \(AuditCheckpoint.maximumCountsAsked) counts: ask for fewer"))
            }
        }
        return .success(counts)
    }

    /// A JSON object body with only `allowed` members, read by `body`.
    static func read<T>(
        _ request: HTTPRequest, allowed: Set<String>, _ body: (ObjectReader) throws(FieldProblem) -> T
    ) -> Result<T, APIError> {
        ImmuniRequests.readObject(request, allowed: allowed, invalid: APIError.invalidRequest, body)
    }
}
