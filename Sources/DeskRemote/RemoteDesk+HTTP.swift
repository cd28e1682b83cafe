import DeskAPI
import DeskContract
import DeskCore
import Foundation
import JSONText

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// RemoteDesk's HTTP: one URLSession, retries of reads, and every way a call can fail turned
/// into a ``ServiceError`` that says what to do. Never traps on an answer, whatever it holds.
///
/// Threading rule: shared by every copy of a desk; `problem` is behind a lock.
final class RemoteTransport: @unchecked Sendable {
    struct Call: Sendable {
        var method: String
        /// Below `/staff/v1`, already percent-encoded.
        var path: String
        var query: [(name: String, value: String)] = []
        var body: JSONValue?
        var token: String?
        /// For messages: "sign-in", "staff list".
        var what: String
        /// Safe to send again when no answer came (reads, sign-out).
        var idempotent = false
        /// Waits for the password KDF on the server: the longer timeout.
        var slow = false
        /// Statuses whose body the caller reads; anything else is an error.
        var accept: Set<Int> = [200]
        /// Added to the call's deadline: a long poll's wait.
        var longPoll: Duration = .zero
    }

    struct Reply: Sendable {
        var status: Int
        var body: [UInt8]
    }

    let base: URL
    let options: RemoteDesk.Options
    let session: URLSession
    private let lock = SimpleLock()
    private var currentProblem: String?

    /// Title-bar words: set while retrying and after a failed call, cleared by any answer from
    /// the staff API.
    static let retrying = "server unreachable, retrying"
    static let unreachable = "server unreachable"
    static let busyRetrying = "server unavailable, retrying"
    static let unavailable = "server unavailable"
    static let wrongServer = "not a TraceDesk server"
    /// The largest answer accepted (an audit page of 1 000 entries is well under 1 MiB).
    static let maximumAnswerBytes = 16 << 20

    init(base: URL, options: RemoteDesk.Options) {
        self.base = base
        self.options = options
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = options.requestTimeout.seconds
        // Long polls wait up to a minute before their answer; every call has its own, shorter
        // deadline below, so this only has to be out of the way.
        configuration.timeoutIntervalForResource =
            (options.requestTimeout + .seconds(StaffWire.maximumWaitSeconds)).seconds
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    var problem: String? { lock.withLock { currentProblem } }

    private func setProblem(_ text: String?) { lock.withLock { currentProblem = text } }

    var location: String {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Sends `call`, trying a read again after a failure that another try may fix (no answer,
    /// or 503), with backoff. Returns the reply when its status is one of `call.accept`.
    func perform(_ call: Call) async throws(ServiceError) -> Reply {
        var attempt = 1
        while true {
            let failure: ServiceError
            let answered: Bool
            switch await send(call) {
            case .answered(let reply):
                do {
                    let accepted = try judge(reply, call)
                    setProblem(nil)
                    return accepted
                } catch {
                    switch error {
                    case .temporary(let error):
                        failure = error
                        answered = true
                    case .final(let error, let problem):
                        setProblem(problem)
                        throw error
                    }
                }
            case .unreachable(let error):
                failure = error
                answered = false
            case .refused(let error, let problem):
                setProblem(problem)
                throw error
            }
            guard call.idempotent, attempt < options.attempts, !Task.isCancelled else {
                setProblem(answered ? Self.unavailable : Self.unreachable)
                throw failure
            }
            setProblem(answered ? Self.busyRetrying : Self.retrying)
            let exponent = min(attempt - 1, 16)
            let wait = min(options.maximumBackoff, options.firstBackoff * (1 << exponent))
            do {
                try await Task.sleep(for: wait)
            } catch {
                setProblem(answered ? Self.unavailable : Self.unreachable)
                throw failure
            }
            attempt += 1
        }
    }

    enum Sent {
        case answered(Reply)
        /// No answer: another try may get one.
        case unreachable(ServiceError)
        /// No answer, and none will come by trying again (TLS, not HTTP at all).
        case refused(ServiceError, problem: String)
    }

    enum Judged: Error {
        case temporary(ServiceError)
        case final(ServiceError, problem: String?)
    }

    /// One HTTP exchange. A completion handler rather than `data(for:)`, whose cancellation
    /// handler can deadlock swift-corelibs-foundation (issue 5412); the request always runs to
    /// its answer or its timeout.
    func send(_ call: Call) async -> Sent {
        guard let url = url(call) else {
            return .refused(
                .invalid("the server URL \(location) cannot be combined with a path"), problem: Self.wrongServer)
        }
        let timeout = (call.slow ? options.requestTimeout : options.connectTimeout) + call.longPoll
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout.seconds)
        request.httpMethod = call.method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body = call.body {
            request.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.serialized.utf8)
        }
        if let token = call.token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let session = self.session
        // URLSession on Linux times out only after a silence; a server that trickles a byte a
        // second would hold the call for ever. Our own deadline cancels the whole call.
        let expired = Flag()
        let (data, response, error) = await withCheckedContinuation {
            (continuation: CheckedContinuation<(Data?, URLResponse?, (any Error)?), Never>) in
            let task = session.dataTask(with: request) { data, response, error in
                continuation.resume(returning: (data, response, error))
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { [weak task] in
                guard let task, task.state == .running else { return }
                expired.set()
                task.cancel()
            }
            task.resume()
        }
        if let error {
            if expired.isSet {
                return .unreachable(unreachable("no complete answer within \(Int(timeout.seconds.rounded())) s"))
            }
            return classify(error as NSError, timeout: timeout)
        }
        if let data, data.count > Self.maximumAnswerBytes {
            return .refused(
                notTraceDesk("it answered \(data.count) bytes, more than any staff API answer"),
                problem: Self.wrongServer)
        }
        guard let http = response as? HTTPURLResponse else {
            return .refused(notTraceDesk("it did not answer in HTTP"), problem: Self.wrongServer)
        }
        return .answered(Reply(status: http.statusCode, body: Array(data ?? Data())))
    }

    func url(_ call: Call) -> URL? {
        var text = location + StaffWire.prefix + call.path
        if !call.query.isEmpty {
            text +=
                "?"
                + call.query.map { "\(Self.escape($0.name))=\(Self.escape($0.value))" }.joined(separator: "&")
        }
        return URL(string: text)
    }

    static func escape(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// A transport error: unreachable (try again later), TLS, or not HTTP.
    func classify(_ error: NSError, timeout: Duration) -> Sent {
        guard error.domain == NSURLErrorDomain else {
            return .unreachable(unreachable("the request failed: \(error.localizedDescription)"))
        }
        switch error.code {
        case NSURLErrorCannotConnectToHost: return .unreachable(unreachable("connection refused"))
        case NSURLErrorTimedOut:
            return .unreachable(unreachable("no answer within \(Int(timeout.seconds.rounded())) s"))
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            return .unreachable(unreachable("its host name is not known"))
        case NSURLErrorNotConnectedToInternet, NSURLErrorDataNotAllowed, NSURLErrorInternationalRoamingOff:
            return .unreachable(unreachable("this machine has no network"))
        case NSURLErrorNetworkConnectionLost:
            return .unreachable(unreachable("the connection closed before an answer came"))
        case NSURLErrorCancelled: return .unreachable(unreachable("the request was cancelled"))
        case NSURLErrorSecureConnectionFailed:
            return .refused(
                .failed(
                    "a TLS connection to \(location) could not be made (the handshake failed): check https:// against http:// and the port; the server needs tls_cert and tls_key for https"
                ), problem: "TLS failed")
        case NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasUnknownRoot,
            NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateNotYetValid:
            let reason =
                switch error.code {
                case NSURLErrorServerCertificateHasBadDate: "the server's certificate has expired"
                case NSURLErrorServerCertificateNotYetValid: "the server's certificate is not valid yet"
                default: "the server's certificate is not trusted here"
                }
            return .refused(
                .failed(
                    "TLS with \(location) failed: \(reason): install its CA certificate on this machine, or ask the server's administrator"
                ), problem: "TLS failed")
        case NSURLErrorClientCertificateRejected, NSURLErrorClientCertificateRequired:
            return .refused(
                .failed(
                    "TLS with \(location) failed: the server wants a client certificate, which TraceDesk does not send"),
                problem: "TLS failed")
        case NSURLErrorBadServerResponse where error.localizedDescription == "Empty reply from server":
            // What a server that is stopping does, and what a TLS listener does to plain HTTP.
            return .unreachable(
                unreachable(
                    "it closed the connection without answering; if the server uses TLS, the URL must start with https://"
                ))
        case NSURLErrorBadServerResponse, NSURLErrorCannotParseResponse, NSURLErrorZeroByteResource,
            NSURLErrorUnsupportedURL, NSURLErrorCannotDecodeRawData, NSURLErrorCannotDecodeContentData:
            return .refused(notTraceDesk("its answer is not HTTP that this client can read"), problem: Self.wrongServer)
        default:
            // libcurl's TLS errors arrive as "unknown" with OpenSSL's reason as the description.
            let description = error.localizedDescription
            if description.contains("SSL") || description.contains("TLS") {
                return .refused(
                    .failed(
                        "a TLS connection to \(location) could not be made (\(Self.tlsReason(description))): check https:// against http:// and the port; a server serves https only when given tls_cert and tls_key"
                    ), problem: "TLS failed")
            }
            return .unreachable(unreachable("the request failed (URL error \(error.code))"))
        }
    }

    /// OpenSSL's words from libcurl's message ("OpenSSL/3.0.19: error:0A00010B:SSL
    /// routines::wrong version number" → "wrong version number"), short and printable.
    static func tlsReason(_ description: String) -> String {
        let last = description.split(separator: ":").last.map { String($0.trimmingSpaces) } ?? ""
        let printable = last.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }
        let text = String(String.UnicodeScalarView(printable.prefix(120)))
        return text.isEmpty ? "the handshake failed" : text
    }

    /// Judges an HTTP answer: accepted, a desk error (final), server trouble (temporary), or
    /// another program (final).
    func judge(_ reply: Reply, _ call: Call) throws(Judged) -> Reply {
        guard let error = StaffWire.readError(reply.body) else {
            if call.accept.contains(reply.status) { return reply }
            if reply.status == 503 || reply.status == 502 || reply.status == 504 {
                // A proxy in front of a server that is down, or stopping.
                throw .temporary(
                    .unavailable(
                        "the TraceDesk server at \(location) is unavailable (HTTP \(reply.status)): try again in a few seconds"
                    ))
            }
            throw .final(
                notTraceDesk("it answered the \(call.what) with HTTP \(reply.status) and no TraceDesk error body"),
                problem: Self.wrongServer)
        }
        let detail = error.detail ?? error.message
        if call.accept.contains(reply.status) && reply.status < 400 { return reply }
        if call.accept.contains(reply.status) && error.code == 2022 { return reply }
        if let mapped = ServiceError(staffCode: error.code, detail: detail) { throw .final(mapped, problem: nil) }
        switch error.code {
        case 1003:
            throw .temporary(
                .unavailable(
                    "the TraceDesk server at \(location) cannot reach its storage now (\(detail)): try again in a few seconds"
                ))
        case 1000:
            throw .final(
                .failed(
                    "the TraceDesk server at \(location) failed on the \(call.what) (\(detail)): tell its administrator"
                ),
                problem: nil)
        case 1004:
            throw .final(
                notTraceDesk("it answers HTTP \(reply.status) {1004} on \(StaffWire.prefix)\(call.path)"),
                problem: Self.wrongServer)
        case 1005:
            throw .final(
                .failed(
                    "the TraceDesk server at \(location) does not take this \(call.what) request (\(detail)): it may run another version than this console"
                ), problem: nil)
        case 1013:
            throw .final(
                .invalid("the \(call.what) request is larger than the server accepts (\(detail))"), problem: nil)
        default:
            throw .final(
                notTraceDesk(
                    "it answered the \(call.what) with an error code \(error.code) that the staff API does not use"),
                problem: Self.wrongServer)
        }
    }

    func unreachable(_ reason: String) -> ServiceError {
        .unavailable(
            "the TraceDesk server at \(location) cannot be reached (\(reason)): check that it is running and that the URL and port are right, then try again"
        )
    }

    /// Another program answered, or one that is not the staff API (the title bar says so).
    func notTraceDesk(_ why: String) -> ServiceError {
        setProblem(Self.wrongServer)
        return .failed(
            "\(location) is not a TraceDesk server (\(why)): check the URL and port; the staff API is on the internal listener"
        )
    }
}

/// A flag set once, from any thread.
private final class Flag: @unchecked Sendable {
    private let lock = SimpleLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// Redirects are not followed: a redirected POST could carry a password to another host. A 3xx
/// then reaches ``RemoteTransport/judge(_:_:)``, which says the URL is not the staff API.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
