import DeskContract
import DeskCore
import JSONText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// HIS clients over the staff API (docs/staff-api.yaml): `GET|POST /staff/v1/his-clients`,
/// `POST /staff/v1/his-clients/{name}/revoke`. A client's JSON never holds its key's hash; the
/// answer to an add holds the key itself, once.
extension StaffWire {
    // MARK: Writing

    public static func hisClient(_ client: HISClient) -> JSONValue {
        object([
            ("name", .string(client.name)), ("state", .string(client.stateName)),
            ("rate_per_minute", client.ratePerMinute.map { number($0) } ?? .null),
            ("created_at", .string(time(client.createdAt))), ("created_by", .string(client.createdBy)),
            ("revoked_at", optionalTime(client.revokedAt)),
            ("revoked_by", client.revokedBy.map { .string($0) } ?? .null),
        ])
    }

    public static func hisClients(_ clients: [HISClient]) -> JSONValue {
        object([("his_clients", .array(clients.map(hisClient)))])
    }

    /// The answer to an add: the client and its key (shown once).
    public static func newHISClient(_ client: HISClient, key: String) -> JSONValue {
        object([("client", hisClient(client)), ("key", .string(key))])
    }

    /// The body of an add; `rate_per_minute` is left out for the server's setting.
    public static func newHISClientRequest(name: String, ratePerMinute: Int?) -> JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(name))]
        if let ratePerMinute { members.append(("rate_per_minute", number(ratePerMinute))) }
        return object(members)
    }

    // MARK: Reading

    static func hisClient(_ reader: ObjectReader) throws(FieldProblem) -> HISClient {
        var rate: Int?
        if let value = try reader.optional("rate_per_minute", allowNull: true) {
            rate = Int(try Fields.integer(value, name: reader.name("rate_per_minute"), in: 1...Fields.int32Max))
        }
        return HISClient(
            name: try reader.string("name")!, createdAt: try requiredTime(reader, "created_at"),
            createdBy: try reader.string("created_by")!, ratePerMinute: rate,
            revokedAt: try optionalTime(reader, "revoked_at"),
            revokedBy: try reader.string("revoked_by", required: false, allowNull: true))
    }

    public static func readHISClient(_ bytes: [UInt8]) throws(FieldProblem) -> HISClient {
        try hisClient(try document(bytes))
    }

    public static func readHISClients(_ bytes: [UInt8]) throws(FieldProblem) -> [HISClient] {
        let reader = try document(bytes)
        var out: [HISClient] = []
        for (i, item) in try reader.array("his_clients")!.enumerated() {
            out.append(try hisClient(try ObjectReader(item, path: "his_clients[\(i)]")))
        }
        return out
    }

    public static func readNewHISClient(_ bytes: [UInt8]) throws(FieldProblem) -> NewHISClient {
        let reader = try document(bytes)
        guard case .object? = try reader.optional("client") else { throw FieldProblem("client is required") }
        let client = try hisClient(try ObjectReader(try reader.required("client"), path: "client"))
        return NewHISClient(client: client, key: try reader.string("key")!)
    }
}

extension StaffRequests {
    public struct NewHISClient: Sendable {
        public var name: String
        public var ratePerMinute: Int?

        public init(name: String, ratePerMinute: Int?) {
            self.name = name
            self.ratePerMinute = ratePerMinute
        }
    }

    /// `{name, rate_per_minute?}`: an HIS client to add (the desk checks the name and the rate).
    public static func newHISClient(_ request: HTTPRequest) -> Result<NewHISClient, APIError> {
        read(request, allowed: ["name", "rate_per_minute"]) { fields throws(FieldProblem) in
            let rate = try fields.integer("rate_per_minute", in: 0...Fields.int32Max, required: false)
            return NewHISClient(name: try fields.string("name")!, ratePerMinute: rate.map { Int($0) })
        }
    }
}
