import CCurl
import Glibc

/// How a request failed, by kind, for callers to say in their own words. No case carries a
/// header or a body: `detail` texts are libcurl's, which name at most a host and a port.
public enum HTTPClientError: Error, Equatable, Sendable {
    /// No connection could be made: `reason` is ``connectionRefused``, ``unknownHost``,
    /// ``noRoute`` or libcurl's words.
    case cannotConnect(reason: String)
    /// A deadline passed: while connecting (`connecting`, the connect timeout) or after (the
    /// whole-request deadline).
    case timedOut(connecting: Bool)
    /// TLS could not be set up: `detail` is libcurl's message, with OpenSSL's reason last
    /// ("SSL certificate problem: self-signed certificate").
    case tls(detail: String)
    /// The connection ended before the whole answer: `beforeAnswer` when not even a status
    /// line came (a server stopping, a TLS listener spoken to in plain HTTP).
    case cutOff(beforeAnswer: Bool)
    /// The answer's body is larger than the request's `maxAnswerBytes`.
    case tooLarge(limit: Int)
    /// What came back is not HTTP/1.x (another protocol, bytes at random).
    case notHTTP
    /// The task that sent it was cancelled.
    case cancelled
    /// The request cannot be sent as given (not http or https, no host).
    case invalidRequest(String)
    /// Anything else libcurl reports, with its words.
    case failed(detail: String)

    public static let connectionRefused = "connection refused"
    public static let unknownHost = "host name not known"
    public static let noRoute = "no route to the host"

    /// The kind of a libcurl result. `detail` is the transfer's error buffer; `osError` the
    /// errno of its last socket call; `answered` says whether a status line came; `overLimit`
    /// whether the write callback refused more bytes.
    static func classify(
        _ code: CURLcode, detail: String, osError: Int32, answered: Bool, overLimit: Bool, limit: Int
    ) -> HTTPClientError {
        switch code {
        case CURLE_COULDNT_CONNECT:
            if osError == ECONNREFUSED { return .cannotConnect(reason: connectionRefused) }
            if osError == ENETUNREACH || osError == EHOSTUNREACH { return .cannotConnect(reason: noRoute) }
            return .cannotConnect(reason: detail.isEmpty ? "the connection failed" : detail)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .cannotConnect(reason: unknownHost)
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl words a connect-phase timeout "Failed to connect … Timeout was reached" or
            // "Connection timed out after"; the whole deadline "Operation timed out after".
            return .timedOut(connecting: !answered && !detail.hasPrefix("Operation timed out"))
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED:
            return .tls(detail: detail)
        case CURLE_GOT_NOTHING:
            return .cutOff(beforeAnswer: true)
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            return .cutOff(beforeAnswer: !answered)
        case CURLE_FILESIZE_EXCEEDED:
            return .tooLarge(limit: limit)
        case CURLE_WRITE_ERROR where overLimit:
            return .tooLarge(limit: limit)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2,
            CURLE_HTTP3:
            return .notHTTP
        case CURLE_URL_MALFORMAT:
            return .invalidRequest(detail)
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        default:
            return .failed(detail: detail.isEmpty ? "libcurl error \(code.rawValue)" : detail)
        }
    }
}
