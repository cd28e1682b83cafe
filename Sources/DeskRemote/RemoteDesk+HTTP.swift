import DeskAPI
import DeskContract
import DeskCore
import DeskHTTPClient
import DeskText
import Foundation
import JSONText

/// RemoteDesk's HTTP: one ``HTTPClient``, retries of reads, and every way a call can fail
/// turned into a ``ServiceError`` that says what to do. Never traps on an answer, whatever it
/// holds. Redirects are not followed: a redirected POST could carry a password to another
/// host, so a 3xx reaches ``judge(_:_:)``, which says the URL is not the staff API.
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
    let client = HTTPClient()
    private let lock = SimpleLock()
    private var currentProblem: String?

    /// Title-bar words: set while retrying and after a failed call, cleared by any answer from
    /// the staff API.
    static var retrying: String { tr("errors.remote.title.retrying") }
    static var unreachable: String { tr("errors.remote.title.unreachable") }
    static var busyRetrying: String { tr("errors.remote.title.busyRetrying") }
    static var unavailable: String { tr("errors.remote.title.unavailable") }
    static var wrongServer: String { tr("errors.remote.title.wrongServer") }
    /// The largest answer accepted (an audit page of 1 000 entries is well under 1 MiB).
    static let maximumAnswerBytes = 16 << 20

    init(base: URL, options: RemoteDesk.Options) {
        self.base = base
        self.options = options
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

    /// One HTTP exchange, within the connect timeout and the call's deadline: a server that
    /// trickles its answer is cut off at the deadline. A cancelled task ends it at once.
    func send(_ call: Call) async -> Sent {
        guard let url = url(call) else {
            return .refused(
                .invalid(tr("errors.remote.withPath", ["location": location])), problem: Self.wrongServer)
        }
        let deadline = (call.slow ? options.requestTimeout : options.connectTimeout) + call.longPoll
        // The server words its refusals in the console's language.
        var headers: [(name: String, value: String)] = [
            ("Accept", "application/json"), ("Accept-Language", Language.current.rawValue),
        ]
        var body: [UInt8]?
        if let json = call.body {
            headers.append(("Content-Type", "application/json; charset=utf-8"))
            body = Array(json.serialized.utf8)
        }
        if let token = call.token { headers.append(("Authorization", "Bearer \(token)")) }
        let request = HTTPClient.Request(
            call.method, url, headers: headers, body: body, connectTimeout: min(options.connectTimeout, deadline),
            deadline: deadline, maxAnswerBytes: Self.maximumAnswerBytes)
        do {
            let response = try await client.send(request)
            return .answered(Reply(status: response.status, body: response.body))
        } catch {
            return classify(error, deadline: deadline)
        }
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
    func classify(_ error: HTTPClientError, deadline: Duration) -> Sent {
        switch error {
        case .cannotConnect(let reason):
            switch reason {
            case HTTPClientError.connectionRefused: return .unreachable(unreachable(tr("errors.remote.reason.refused")))
            case HTTPClientError.unknownHost: return .unreachable(unreachable(tr("errors.remote.reason.unknownHost")))
            case HTTPClientError.noRoute: return .unreachable(unreachable(tr("errors.remote.reason.noRoute")))
            default: return .unreachable(unreachable(tr("errors.remote.reason.connectFailed")))
            }
        case .timedOut(connecting: true):
            return .unreachable(
                unreachable(
                    tr("errors.remote.reason.noConnection", ["seconds": String(Self.seconds(options.connectTimeout))])))
        case .timedOut(connecting: false):
            return .unreachable(
                unreachable(tr("errors.remote.reason.noAnswer", ["seconds": String(Self.seconds(deadline))])))
        case .cutOff(beforeAnswer: true):
            // What a server that is stopping does, and what a TLS listener does to plain HTTP.
            return .unreachable(
                unreachable(tr("errors.remote.reason.closedTLS")))
        case .cutOff(beforeAnswer: false):
            return .unreachable(unreachable(tr("errors.remote.reason.closedEarly")))
        case .cancelled: return .unreachable(unreachable(tr("errors.remote.reason.cancelled")))
        case .tls(let detail):
            return .refused(
                .failed(tr("errors.remote.tls", ["location": location, "reason": Self.tlsReason(detail)])),
                problem: tr("errors.remote.title.tls"))
        case .tooLarge:
            return .refused(
                notTraceDesk(tr("errors.remote.reason.tooLarge", ["bytes": String(Self.maximumAnswerBytes)])),
                problem: Self.wrongServer)
        case .notHTTP:
            return .refused(notTraceDesk(tr("errors.remote.reason.notHTTP")), problem: Self.wrongServer)
        case .invalidRequest:
            return .refused(
                .invalid(tr("errors.remote.withPath", ["location": location])), problem: Self.wrongServer)
        case .failed(let detail):
            return .unreachable(unreachable(tr("errors.remote.reason.failed", ["detail": detail])))
        }
    }

    static func seconds(_ duration: Duration) -> Int { Int(duration.seconds.rounded()) }

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
                        tr("errors.remote.unavailableHTTP", ["location": location, "status": String(reply.status)])))
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
                .unavailable(tr("errors.remote.storage", ["location": location, "detail": detail])))
        case 1000:
            throw .final(
                .failed(tr("errors.remote.serverFailed", ["location": location, "what": call.what, "detail": detail])),
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
        .unavailable(tr("errors.remote.unreachable", ["location": location, "reason": reason]))
    }

    /// Another program answered, or one that is not the staff API (the title bar says so).
    func notTraceDesk(_ why: String) -> ServiceError {
        setProblem(Self.wrongServer)
        return .failed(tr("errors.remote.notTraceDesk", ["location": location, "why": why]))
    }
}
