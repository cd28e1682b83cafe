import DeskAPI
import DeskCore
import DeskServer
import Foundation

/// An answer as a test reads it: from a handler called on values (``HandlerClient``) or off
/// the wire (the server tests' raw and HTTP clients build the same value).
public struct HandlerReply: Sendable {
    public var status: Int
    /// By name as the handler or the wire spelled it; a repeated name keeps its last value.
    public var headers: [String: String]
    public var body: Data
    /// The wait a delayed answer asked for (check-otp's artificial delay): not waited out by a
    /// ``HandlerClient``, whose time is the test's. Nil for an answer given at once, or read off
    /// the wire.
    public var delay: Duration?

    public init(status: Int, headers: [String: String], body: Data, delay: Duration? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// A header by name, whatever its case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// The body as a JSON object (empty when it is none).
    public var object: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }

    public func integer(_ key: String) -> Int64? { (object[key] as? NSNumber)?.int64Value }

    /// The `error_code` of an error body.
    public var errorCode: Int? { object["error_code"] as? Int }

    public var detail: String? { object["detail"] as? String }
}

/// One listener's handler, driven on values: a request is made as ``HTTPServer`` makes it
/// (header names lowercased, the query split off the path and unescaped, the client's
/// address), handed to `handle`, and its result awaited. A delayed answer is produced at once
/// (its delay is reported in ``HandlerReply/delay``); a suspended one is awaited.
///
/// What this does not do is the listener's: framing, the head gate, body limits (413),
/// keep-alive, TLS, connection caps, stopping. Tests of those stay on sockets.
public struct HandlerClient: Sendable {
    public let handler: any HTTPHandler
    /// The address requests come from unless `send` says otherwise (what loopback shows).
    public var clientAddress: String?
    /// The verified client certificate's CN the requests carry (a listener that trusts an authority).
    public var clientCertificateName: String?

    public init(handler: any HTTPHandler, clientAddress: String? = "127.0.0.1", clientCertificateName: String? = nil) {
        self.handler = handler
        self.clientAddress = clientAddress
        self.clientCertificateName = clientCertificateName
    }

    /// The request `method target` with `headers` and `body`; `target` is a path with an
    /// optional query (`/v1/keys/index?x=1`). `from`: another client address.
    public func send(
        _ method: String, _ target: String, headers: [String: String] = [:], body: Data? = nil, from: String? = nil
    ) async throws -> HandlerReply {
        let request = Self.request(
            method, target, headers: headers.map { (name: $0.key, value: $0.value) }, body: Array(body ?? Data()),
            clientAddress: from ?? clientAddress, clientCertificateName: clientCertificateName)
        let handler = self.handler
        // Off the cooperative pool: a handler may block on the store (its busy timeout).
        let result = try await offPool { handler.handle(request, route: handler.route(for: request)) }
        switch result {
        case .now(let response):
            return Self.reply(response)
        case .after(let delay, let produce):
            return Self.reply(try await offPool { produce() }, delay: delay)
        case .suspended(let start):
            let once = Once()
            return Self.reply(
                await withCheckedContinuation { continuation in
                    start { response in if once.first() { continuation.resume(returning: response) } }
                })
        }
    }

    /// The request ``HTTPServer`` would hand over for this target.
    public static func request(
        _ method: String, _ target: String, headers: [(name: String, value: String)], body: [UInt8],
        clientAddress: String?, clientCertificateName: String? = nil
    ) -> HTTPRequest {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map { Self.unescape(Substring($0), plus: false) } ?? "/"
        var query: [(name: String, value: String)] = []
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let items = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query.append(
                    (Self.unescape(items[0], plus: true), items.count > 1 ? Self.unescape(items[1], plus: true) : ""))
            }
        }
        return HTTPRequest(
            method: method, path: path.isEmpty ? "/" : path,
            headers: headers.map { (name: $0.name, value: String($0.value.trimmingSpaces)) }, query: query,
            body: body, clientAddress: clientAddress, clientCertificateName: clientCertificateName)
    }

    /// `%xx` decoded (and `+` as a space in a query), as libmicrohttpd does.
    static func unescape(_ text: Substring, plus: Bool) -> String {
        let spaced = plus ? text.replacingOccurrences(of: "+", with: " ") : String(text)
        return spaced.removingPercentEncoding ?? spaced
    }

    static func reply(_ response: HTTPResponse, delay: Duration? = nil) -> HandlerReply {
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name] = header.value }
        return HandlerReply(status: response.status, headers: headers, body: Data(response.body), delay: delay)
    }

    /// True the first time only: a suspended answer is taken once, as ``HTTPServer`` does.
    private final class Once: @unchecked Sendable {
        private let lock = SimpleLock()
        private var done = false
        func first() -> Bool {
            lock.withLock { () -> Bool in
                defer { done = true }
                return !done
            }
        }
    }
}

extension TraceDeskServer {
    /// The public listener's handler (phones: Immuni and APRICOT) on values.
    public var phoneClient: HandlerClient { HandlerClient(handler: phoneHandler) }
    /// The internal listener's handler (staff API, POST /v1/otp unless `his_listen`, metrics).
    public var internalClient: HandlerClient { HandlerClient(handler: internalHandler) }
    /// The HIS listener's handler (`his_listen`); nil without one.
    public var hisClient: HandlerClient? { hisHandler.map { HandlerClient(handler: $0) } }
}
