import DeskHTTPClient
import Foundation

/// What one simulated request came back with.
public struct SimulatedReply: Sendable {
    public var status: Int
    public var body: Data
    public var headers: [String: String]

    /// The `error_code` of an error body, if it has one.
    public var errorCode: Int? {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error_code"] as? Int
    }
}

/// The phones' HTTP: real requests over one ``HTTPClient``, each timed and counted in a
/// ``SimulationRecorder`` under an endpoint name (`check-otp`, `apricot login`…). Redirects are
/// not followed: the server never sends one, so a 3xx is recorded as the error it is.
public final class SimulationClient: Sendable {
    let client: HTTPClient
    public let recorder: SimulationRecorder

    /// At most `maxConnections` requests are on the wire at once; more wait for a connection.
    public init(recorder: SimulationRecorder, maxConnections: Int = 64) {
        client = HTTPClient(options: .init(maxConnectionsPerHost: maxConnections, keptConnections: maxConnections))
        self.recorder = recorder
    }

    /// Connecting (or waiting for a free connection) and then the whole exchange: a request
    /// that keeps trickling never holds a run (or its end) for longer than this.
    static let connectTimeout: Duration = .seconds(30)
    static let deadline: Duration = .seconds(60)
    /// The largest answer read (a chunk download is well under it).
    static let maximumAnswerBytes = 64 << 20

    /// Sends one request and records it. `expected` says which statuses are a success for this
    /// request (a dummy check-otp may be answered 401 on purpose); anything else is recorded as
    /// an error of kind "`endpoint` `status` (`error_code`)", and a request that got no answer as
    /// "`endpoint` no answer". Returns nil when there was no answer. A run that is stopped (its
    /// task cancelled) ends the requests in flight at once.
    @discardableResult
    public func send(
        _ endpoint: String, _ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil,
        expected: Set<Int>
    ) async -> SimulatedReply? {
        let request = HTTPClient.Request(
            method, url, headers: headers.map { (name: $0.key, value: $0.value) }, body: body.map(Array.init),
            connectTimeout: Self.connectTimeout, deadline: Self.deadline, maxAnswerBytes: Self.maximumAnswerBytes)
        let started = ContinuousClock.now
        do {
            let response = try await client.send(request)
            let elapsed = ContinuousClock.now - started
            var fields: [String: String] = [:]
            for (name, value) in response.headers { fields[name.lowercased()] = value }
            let reply = SimulatedReply(status: response.status, body: Data(response.body), headers: fields)
            if expected.contains(response.status) {
                recorder.record(endpoint, latency: elapsed, error: nil)
            } else {
                let code = reply.errorCode.map { " (\($0))" } ?? ""
                recorder.record(endpoint, latency: elapsed, error: "\(endpoint) \(response.status)\(code)")
            }
            return reply
        } catch {
            // A run that is stopped (the demo's console quit) cancels what is in flight: not an
            // error of the server's.
            if Task.isCancelled || error == .cancelled {
                recorder.note("requests cancelled when the run stopped")
            } else if error == .notHTTP {
                recorder.record(endpoint, latency: ContinuousClock.now - started, error: "\(endpoint) not HTTP")
            } else {
                recorder.record(endpoint, latency: ContinuousClock.now - started, error: "\(endpoint) no answer")
            }
            return nil
        }
    }
}

/// Counts of a run so far: requests and errors per endpoint, errors by kind, latencies.
/// Thread-safe; read with ``snapshot()`` while the run goes on (the progress line).
public final class SimulationRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [String: Int] = [:]
    private var errors: [String: Int] = [:]
    private var latencies: [String: [Double]] = [:]
    private var notes: [String: Int] = [:]
    /// Latency samples kept per endpoint (the first ones; enough for percentiles of a run).
    public static let sampleLimit = 200_000

    public init() {}

    func record(_ endpoint: String, latency: Duration, error: String?) {
        let ms = Double(latency.components.seconds) * 1_000 + Double(latency.components.attoseconds) / 1e15
        lock.withLock {
            requests[endpoint, default: 0] += 1
            if let error { errors[error, default: 0] += 1 }
            if latencies[endpoint, default: []].count < Self.sampleLimit { latencies[endpoint, default: []].append(ms) }
        }
    }

    /// Counts an error that is not a request's (an outbox that cannot be read, a code never
    /// found): an error of `kind`, as a request's would be.
    public func fail(_ kind: String) { lock.withLock { errors[kind, default: 0] += 1 } }

    /// Counts something that is not a request (a phone that gave up, a session skipped…).
    public func note(_ what: String) { lock.withLock { notes[what, default: 0] += 1 } }

    /// Requests and errors up to now, cheaply (for a progress line).
    public func totals() -> (requests: Int, errors: Int) {
        lock.withLock { (requests.values.reduce(0, +), errors.values.reduce(0, +)) }
    }

    /// What was recorded up to now, with percentiles (sorts every sample: for the end of a run).
    public func snapshot() -> SimulationSummary {
        lock.withLock {
            SimulationSummary(
                endpoints: requests.keys.sorted().map { name in
                    let sorted = (latencies[name] ?? []).sorted()
                    return SimulationSummary.Endpoint(
                        name: name, requests: requests[name] ?? 0,
                        p50: Self.percentile(sorted, 0.50), p95: Self.percentile(sorted, 0.95),
                        p99: Self.percentile(sorted, 0.99))
                },
                errors: errors, notes: notes)
        }
    }

    /// The nearest-rank percentile of sorted values (0 when there are none).
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

/// A run's figures: per endpoint, requests and latency percentiles (milliseconds, from sending
/// to the whole answer, as the phone sees it); errors by kind; notes.
public struct SimulationSummary: Sendable {
    public struct Endpoint: Sendable {
        public var name: String
        public var requests: Int
        public var p50: Double
        public var p95: Double
        public var p99: Double
    }
    public var endpoints: [Endpoint]
    /// "endpoint status (error_code)", "endpoint no answer", or an error that is not a request's
    /// ("apricot code not found in the outbox") → count.
    public var errors: [String: Int]
    /// Things that are not requests nor errors: "session skipped: 32 already in flight"…
    public var notes: [String: Int]

    public var requests: Int { endpoints.reduce(0) { $0 + $1.requests } }
    public var errorCount: Int { errors.values.reduce(0, +) }

    /// The summary as text lines: one per endpoint, then errors and notes by kind.
    public var lines: [String] {
        var out = ["requests \(requests), errors \(errorCount)"]
        let width = max(8, endpoints.map(\.name.count).max() ?? 8)
        func pad(_ s: String) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
        func ms(_ v: Double) -> String { String(format: "%.1f", v) }
        out.append("  \(pad("endpoint"))  requests     p50 ms     p95 ms     p99 ms")
        for e in endpoints {
            let counts = String(e.requests).leftPadded(8)
            out.append(
                "  \(pad(e.name))  \(counts) \(ms(e.p50).leftPadded(10)) \(ms(e.p95).leftPadded(10)) \(ms(e.p99).leftPadded(10))"
            )
        }
        if !errors.isEmpty {
            out.append("errors by kind:")
            for (kind, count) in errors.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
                out.append("  \(kind): \(count)")
            }
        }
        if !notes.isEmpty {
            out.append("notes:")
            for (kind, count) in notes.sorted(by: { $0.key < $1.key }) { out.append("  \(kind): \(count)") }
        }
        return out
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
