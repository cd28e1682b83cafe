import DeskContract

extension ServiceError {
    /// The row of the one error table (``APIError``) that answers this error; `detail` is the
    /// desk's message. The server replaces the detail of `unavailable` and `failed` with an
    /// incident id (store messages can name files and hosts; the log has them).
    public var apiError: APIError {
        switch self {
        case .invalid(let text): return .invalidRequest(text)
        case .notSignedIn(let text): return .notSignedIn(text)
        case .signInFailed(let text): return .signInFailed(text)
        case .forbidden(let text): return .forbidden(text)
        case .conflict(let text): return .conflict(text)
        case .unavailable(let text): return .unavailable(text)
        case .failed: return .unknown()
        }
    }

    /// The error a staff error code stands for, with the server's detail; nil for codes that
    /// are not the desk's own decisions (those are judged by the client: server trouble,
    /// an unknown path…).
    public init?(staffCode code: Int, detail: String) {
        switch code {
        case 2000: self = .invalid(detail)
        case 2001: self = .notSignedIn(detail)
        case 2002: self = .signInFailed(detail)
        case 2003: self = .forbidden(detail)
        case 2029: self = .signInFailed(detail)
        case 2009: self = .conflict(detail)
        case 2022: self = .invalid(detail)
        default: return nil
        }
    }
}
