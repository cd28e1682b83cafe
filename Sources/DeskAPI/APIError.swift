import JSONText

/// The one error table of the HTTP API (spec/immuni-rules.md): error code ↔ HTTP status ↔
/// message. Every error body is `{"error_code": n, "message": "..."}`, plus a `detail` that says
/// which field is wrong and how — never the value sent, so no code, key or token is echoed.
public struct APIError: Error, Hashable, Sendable {
    public let code: Int
    public let status: Int
    public let message: String
    public let detail: String?

    public init(code: Int, status: Int, message: String, detail: String? = nil) {
        self.code = code
        self.status = status
        self.message = message
        self.detail = detail
    }

    public func with(detail: String) -> APIError {
        APIError(code: code, status: status, message: message, detail: detail)
    }

    /// 1000/500: a failure of ours; the log has an incident id, the client gets no stack.
    public static func unknown(incident: String? = nil) -> APIError {
        APIError(
            code: 1000, status: 500, message: "An unknown error occurred.",
            detail: incident.map { "incident \($0): please report it with this id" })
    }
    /// 1100/400: any schema, header or query problem on the phone API.
    public static func missingParameters(_ detail: String) -> APIError {
        APIError(code: 1100, status: 400, message: "Missing required input parameters.", detail: detail)
    }
    /// 1101/401: unknown, expired or used code.
    public static let unauthorizedOtp = APIError(code: 1101, status: 401, message: "Unauthorized OTP.")
    public static let chunkNotFound = APIError(code: 1300, status: 404, message: "Chunk not found.")
    public static let noChunks = APIError(code: 1301, status: 404, message: "No chunks found.")
    /// 1400/400: `POST /v1/otp` with nothing in it.
    public static let emptyBody = APIError(code: 1400, status: 400, message: "Unexpected empty body.")
    /// 1401/400: anything else wrong with a `POST /v1/otp` body.
    public static func notCompliant(_ detail: String) -> APIError {
        APIError(code: 1401, status: 400, message: "Body not compliant with the defined schema.", detail: detail)
    }
    public static let alreadyAuthorized = APIError(code: 1409, status: 409, message: "OTP already authorized.")

    // Protocol-level errors (ours; the contract only fixes their status and body shape).
    public static func notFound(_ detail: String) -> APIError {
        APIError(code: 1004, status: 404, message: "Not found.", detail: detail)
    }
    public static func methodNotAllowed(allowed: [String]) -> APIError {
        APIError(
            code: 1005, status: 405, message: "Method not allowed.",
            detail: "use \(allowed.joined(separator: " or ")) on this path")
    }
    public static func payloadTooLarge(limit: Int) -> APIError {
        APIError(
            code: 1013, status: 413, message: "Request body too large.",
            detail: "the limit is \(limit) bytes")
    }
    public static func unavailable(_ detail: String) -> APIError {
        APIError(code: 1003, status: 503, message: "Service unavailable.", detail: detail)
    }

    /// The JSON body.
    public var body: String {
        var out = #"{"error_code":\#(code),"message":"#
        JSONValue.writeString(message, into: &out)
        if let detail {
            out += #","detail":"#
            JSONValue.writeString(detail, into: &out)
        }
        out += "}"
        return out
    }
}
