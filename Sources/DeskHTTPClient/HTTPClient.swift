import Foundation

/// The one HTTP client of TraceDesk: RemoteDesk's staff API calls, DeviceCheck, the SMS
/// provider, the simulated phones and the tests' requests all go through it.
///
/// It runs on libcurl (Debian's libcurl4-openssl-dev), driven by one thread per client with a
/// multi handle, not on URLSession: on Linux URLSession has no connect timeout of its own, its
/// request timeout is a silence timer, and cancelling a request from a Swift task's
/// cancellation can deadlock swift-corelibs-foundation (its issue 5412). docs/decisions.md
/// (2026-12-01) has the measurements.
///
/// What every request gets: a connect timeout apart from the whole-request deadline, a cap on
/// the answer's size, redirects never followed (a 3xx is the answer; each caller says why it
/// wants that), cancellation that ends the request at once and closes its connection, and
/// failures as ``HTTPClientError`` kinds for the caller to put in its own words.
///
/// Threading rule: `send` may be called from any task, any number at a time; connections to a
/// host are reused and at most ``Options/maxConnectionsPerHost`` are open at once (more
/// requests wait for one). Privacy rule: nothing here logs; errors carry libcurl's words, which
/// name a host and port but never a header or a body.
public final class HTTPClient: Sendable {
    /// Settings of the client as a whole.
    public struct Options: Sendable {
        /// Connections open at once to one host and port; further requests wait for one.
        public var maxConnectionsPerHost: Int
        /// Idle connections kept for reuse.
        public var keptConnections: Int

        public init(maxConnectionsPerHost: Int = 8, keptConnections: Int = 64) {
            self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
            self.keptConnections = max(1, keptConnections)
        }
    }

    /// One request. The URL must be http or https.
    public struct Request: Sendable {
        public var method: String
        public var url: URL
        /// Sent in this order; a header libcurl would add itself (`Accept`, `Content-Type`) is
        /// replaced by one given here.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]?
        /// Limit on making the connection (TCP, and TLS for https).
        public var connectTimeout: Duration
        /// Limit on the whole exchange, connecting included: a server that trickles its answer
        /// is cut off at it.
        public var deadline: Duration
        /// Answers with a larger body end in ``HTTPClientError/tooLarge(limit:)``.
        public var maxAnswerBytes: Int

        public init(
            _ method: String, _ url: URL, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil,
            connectTimeout: Duration = .seconds(5), deadline: Duration = .seconds(30),
            maxAnswerBytes: Int = 16 << 20
        ) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.connectTimeout = connectTimeout
            self.deadline = deadline
            self.maxAnswerBytes = maxAnswerBytes
        }
    }

    /// An answer, whatever its status (a 3xx included: redirects are not followed).
    public struct Response: Sendable {
        public var status: Int
        /// As received, in order; names as the server wrote them.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The first header called `name`, compared without case.
        public func header(_ name: String) -> String? {
            let wanted = name.lowercased()
            return headers.first { $0.name.lowercased() == wanted }?.value
        }
    }

    private let engine: CurlEngine

    public init(options: Options = Options()) {
        engine = CurlEngine(options: options)
    }

    deinit {
        engine.stop()
    }

    /// Sends `request` and returns its answer. A cancelled task ends the request at once (its
    /// connection closed, never reused) with ``HTTPClientError/cancelled``.
    public func send(_ request: Request) async throws(HTTPClientError) -> Response {
        let transfer: CurlTransfer
        do {
            transfer = try CurlTransfer(request)
        } catch {
            throw error
        }
        // `self` is held until the answer: a client dropped meanwhile would cancel it.
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<Response, HTTPClientError>, Never>) in
                self.engine.start(transfer, continuation)
            }
        } onCancel: {
            self.engine.cancel(transfer)
        }
        return try result.get()
    }

    /// ``send(_:)`` as a value: for callers that keep the outcome, or send from a task of
    /// their own.
    public func result(_ request: Request) async -> Result<Response, HTTPClientError> {
        do { return .success(try await send(request)) } catch { return .failure(error) }
    }
}
