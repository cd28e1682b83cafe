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
    /// 1102/429: too many wrong codes from this client address (the guess limit, per server);
    /// `Retry-After` says when. The contract's body, as every Immuni error.
    public static func otpGuessesLimited(retryAfter seconds: Int) -> APIError {
        APIError(
            code: 1102, status: 429, message: "Too many unauthorized OTPs.",
            detail:
                "too many wrong codes came from this network address: try again in \(seconds) s, with the code the operator authorised"
        )
    }
    public static let chunkNotFound = APIError(code: 1300, status: 404, message: "Chunk not found.")
    public static let noChunks = APIError(code: 1301, status: 404, message: "No chunks found.")
    /// 1400/400: `POST /v1/otp` with nothing in it.
    public static let emptyBody = APIError(code: 1400, status: 400, message: "Unexpected empty body.")
    /// 1401/400: anything else wrong with a `POST /v1/otp` body.
    public static func notCompliant(_ detail: String) -> APIError {
        APIError(code: 1401, status: 400, message: "Body not compliant with the defined schema.", detail: detail)
    }
    public static let alreadyAuthorized = APIError(code: 1409, status: 409, message: "OTP already authorized.")
    /// 1402/401: `POST /v1/otp` without a valid HIS credential (no key, an unknown or revoked
    /// key, no verified client certificate). Ours: Immuni's HIS was reached over a private
    /// network only; the body of `/v1/otp` stays the contract's.
    public static func hisNotAuthenticated(_ detail: String) -> APIError {
        APIError(code: 1402, status: 401, message: "HIS client not authenticated.", detail: detail)
    }
    /// 1429/429: an HIS client past its authorisations a minute; `Retry-After` says when.
    public static func hisRateLimited(perMinute: Int, retryAfter seconds: Int) -> APIError {
        APIError(
            code: 1429, status: 429, message: "Too many authorisations.",
            detail:
                "this HIS client may authorise \(perMinute) codes a minute on this server: retry in \(seconds) s (an admin can raise its limit: tracedesk his add --rate, or his_rate_per_minute)"
        )
    }

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

    // The staff API (docs/staff-api.yaml). `detail` carries the desk's message, which says what to
    // do next and never holds a code, a password or a token.

    /// 2000/400: a staff request that cannot be used: bad JSON, a missing or wrong field (named,
    /// never echoed), or a value the desk refused (a name or password against the rules).
    public static func invalidRequest(_ detail: String) -> APIError {
        APIError(code: 2000, status: 400, message: "Invalid request.", detail: detail)
    }
    /// 2001/401: no usable session (none sent, unknown, ended, expired, idle, account disabled).
    public static func notSignedIn(_ detail: String) -> APIError {
        APIError(code: 2001, status: 401, message: "Not signed in.", detail: detail)
    }
    /// 2002/401: a sign-in that did not succeed (wrong name or password, locked, disabled, wait).
    public static func signInFailed(_ detail: String) -> APIError {
        APIError(code: 2002, status: 401, message: "Sign-in failed.", detail: detail)
    }
    /// 2029/429: a sign-in refused before its password was checked, by the server's budgets
    /// (per client address, per account name); `Retry-After` says when to try again.
    public static func tooManySignIns(_ detail: String) -> APIError {
        APIError(code: 2029, status: 429, message: "Too many sign-ins.", detail: detail)
    }
    /// 2003/403: signed in, but the role does not allow this (or this record).
    public static func forbidden(_ detail: String) -> APIError {
        APIError(code: 2003, status: 403, message: "Forbidden.", detail: detail)
    }
    /// 2009/409: the change collides with what exists (a name taken, the first admin made).
    public static func conflict(_ detail: String) -> APIError {
        APIError(code: 2009, status: 409, message: "Conflict.", detail: detail)
    }
    /// 2022/422: an authorisation the desk refused by its rules (bad code, symptom day out of
    /// range); the body also carries the structured `refusal`.
    public static func authorizationRefused(_ detail: String) -> APIError {
        APIError(code: 2022, status: 422, message: "Authorisation refused.", detail: detail)
    }

    // The APRICOT phone API (docs/apricot-api.md). Like the Immuni API's, a detail names the
    // field or the rule and never the value: no phone number, code or token is echoed.

    /// 3000/400: a request that cannot be used: bad JSON, a missing or wrong field or header.
    public static func apricotInvalid(_ detail: String) -> APIError {
        APIError(code: 3000, status: 400, message: "Invalid request.", detail: detail)
    }
    /// 3001/401: a wrong code, or no code asked for this phone.
    public static let apricotWrongCode = APIError(
        code: 3001, status: 401, message: "Wrong code.",
        detail: "the code does not match the last one sent to this phone: check it, or ask for a new one")
    /// 3002/401: the code's lifetime is over.
    public static let apricotExpiredCode = APIError(
        code: 3002, status: 401, message: "Expired code.", detail: "the code is older than 5 minutes: ask for a new one"
    )
    /// 3003/429: the code took its 5 attempts.
    public static let apricotTooManyAttempts = APIError(
        code: 3003, status: 429, message: "Too many attempts.",
        detail: "this code was tried 5 times: ask for a new one")
    /// 3004/429: a new code too soon (30 s apart, 5 an hour); `Retry-After` says when.
    public static func apricotTooSoon(retryAfter seconds: Int) -> APIError {
        APIError(
            code: 3004, status: 429, message: "Too many codes.",
            detail: "a phone may ask for a code every 30 seconds and 5 times an hour: ask again in \(seconds) s")
    }
    /// 3005/401: no usable access token (unknown, expired, or issued to another app or device).
    public static let apricotNotSignedIn = APIError(
        code: 3005, status: 401, message: "Not signed in.",
        detail:
            "the access token is unknown, older than 30 days, or was issued to another app_id or device_id: sign in again"
    )
    /// 3006/422: a contact file (or its day) that breaks a rule; nothing was stored.
    public static func apricotContactFileRefused(_ detail: String) -> APIError {
        APIError(code: 3006, status: 422, message: "Contact file refused.", detail: detail)
    }
    /// 3007/429: more contact-file uploads from one token than the hour allows.
    public static func apricotUploadsTooFrequent(perHour: Int, retryAfter seconds: Int) -> APIError {
        APIError(
            code: 3007, status: 429, message: "Too many uploads.",
            detail: "at most \(perHour) contact-file uploads an hour per sign-in: upload again in \(seconds) s")
    }
    /// 3009/429: more code requests than this server takes a minute, or than one client address
    /// may make in an hour; `Retry-After` says when.
    public static func apricotCodeRequestsLimited(fromAddress: Bool, retryAfter seconds: Int) -> APIError {
        APIError(
            code: 3009, status: 429, message: "Too many code requests.",
            detail: fromAddress
                ? "too many codes were asked for from this network address: ask again in \(seconds) s"
                : "the server is sending as many codes as it may now: ask again in \(seconds) s")
    }
    /// 3010/422: a number this server sends no SMS to (premium, satellite, another country,
    /// unassigned): SMS pumping costs a paid message each. `detail` names the rule, never the number.
    public static func apricotNumberNotServed(_ detail: String) -> APIError {
        APIError(code: 3010, status: 422, message: "Phone number not served.", detail: detail)
    }
    /// 3008/507: the pseudo-id space of the design (2^32) cannot hold another user. Not a
    /// temporary state: no Retry-After.
    public static let apricotRegistrationFull = APIError(
        code: 3008, status: 507, message: "Registration closed.",
        detail:
            "the pseudo-id space is full: no new phone can register (the design allows 2^32 pseudo-ids); known phones still sign in"
    )

    /// Every code with its status and message, for docs and the table test. Codes with a
    /// per-case detail are listed with an empty one.
    public static let table: [APIError] = [
        .unknown(), .unavailable(""), .notFound(""), .methodNotAllowed(allowed: []), .payloadTooLarge(limit: 0),
        .missingParameters(""), .unauthorizedOtp, .otpGuessesLimited(retryAfter: 0), .chunkNotFound, .noChunks,
        .emptyBody, .notCompliant(""),
        .alreadyAuthorized, .invalidRequest(""), .notSignedIn(""), .signInFailed(""), .tooManySignIns(""),
        .forbidden(""),
        .conflict(""), .authorizationRefused(""), .apricotInvalid(""), .apricotWrongCode, .apricotExpiredCode,
        .apricotTooManyAttempts, .apricotTooSoon(retryAfter: 0), .apricotNotSignedIn, .apricotContactFileRefused(""),
        .apricotUploadsTooFrequent(perHour: 0, retryAfter: 0), .apricotRegistrationFull,
        .apricotCodeRequestsLimited(fromAddress: false, retryAfter: 0), .apricotNumberNotServed(""),
    ]

    /// The JSON body.
    public var body: String { body(extra: []) }

    /// The JSON body with more members after `detail` (the refusal of a 422).
    public func body(extra: [JSONValue.Member]) -> String {
        var out = #"{"error_code":\#(code),"message":"#
        JSONValue.writeString(message, into: &out)
        if let detail {
            out += #","detail":"#
            JSONValue.writeString(detail, into: &out)
        }
        for member in extra {
            out += ","
            JSONValue.writeString(member.key, into: &out)
            out += ":"
            member.value.write(into: &out)
        }
        out += "}"
        return out
    }
}
