import JSONText

/// An HTTP request as the API layer sees it: no sockets, so every rule is testable as data.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path, without the query string.
    public var path: String
    /// Header names lowercased, in arrival order, repeats kept.
    public var headers: [(name: String, value: String)]
    /// Query arguments in arrival order, repeats kept.
    public var query: [(name: String, value: String)]
    public var body: [UInt8]
    /// The address the connection comes from (`203.0.113.7`, `2001:db8::1`), as the socket
    /// says: behind a reverse proxy, the proxy's. Nil when unknown (requests made in tests).
    public var clientAddress: String?
    /// The common name (CN) of the TLS client certificate the connection presented, set only
    /// when its chain verified against the configured trust (`his_ca_file`); nil otherwise.
    public var clientCertificateName: String?

    public init(
        method: String, path: String, headers: [(name: String, value: String)] = [],
        query: [(name: String, value: String)] = [], body: [UInt8] = [], clientAddress: String? = nil,
        clientCertificateName: String? = nil
    ) {
        self.clientCertificateName = clientCertificateName
        self.method = method
        self.path = path
        self.headers = headers.map { ($0.name.lowercased(), $0.value) }
        self.query = query
        self.body = body
        self.clientAddress = clientAddress
    }

    public func headerValues(_ name: String) -> [String] {
        let key = name.lowercased()
        return headers.filter { $0.name == key }.map(\.value)
    }

    public func queryValues(_ name: String) -> [String] {
        query.filter { $0.name == name }.map(\.value)
    }
}

/// An HTTP response: status, headers and bytes.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// 204, empty, `Cache-Control: no-store` (every successful write of the Immuni API).
    public static let noContent = HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")])

    public static func json(_ status: Int, _ text: String, cacheControl: String? = nil) -> HTTPResponse {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json; charset=utf-8")]
        if let cacheControl { headers.append(("Cache-Control", cacheControl)) }
        return HTTPResponse(status: status, headers: headers, body: Array(text.utf8))
    }

    /// The error body; error responses never carry Cache-Control. A 503 says when to retry.
    public static func error(_ error: APIError, extra: [JSONValue.Member] = []) -> HTTPResponse {
        var response = json(error.status, error.body(extra: extra))
        if error.status == 503 { response.headers.append(("Retry-After", String(retryAfterSeconds))) }
        // A 401 of the staff API names its scheme (RFC 9110 §11.6.1); the phone API's 1101 is the
        // contract's and stays as it was.
        if error.code == 2001 || error.code == 2002 {
            response.headers.append(("WWW-Authenticate", #"Bearer realm="tracedesk-staff""#))
        }
        if error.code == 1402 { response.headers.append(("WWW-Authenticate", #"Bearer realm="tracedesk-his""#)) }
        return response
    }

    /// `Retry-After` of a 503: the store or the server is back within seconds in the cases we know.
    public static let retryAfterSeconds = 5
}
