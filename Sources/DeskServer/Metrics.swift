import CivilCalendar
import DeskAPI
import DeskCore
import Dispatch

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Counters for `GET /metrics` (Prometheus text format 0.0.4). In memory, per process: each
/// server of a deployment is scraped on its own. Labels hold route templates and reasons,
/// never a code, key or token.
public final class Metrics: @unchecked Sendable {
    private let lock = SimpleLock()
    private var requests: [ExchangeKey: Int] = [:]
    private var durations: [String: (sum: Double, count: Int)] = [:]

    struct ExchangeKey: Hashable {
        var listener: String
        var route: String
        var method: String
        var status: Int
        var labels: String {
            #"listener="\#(listener)",route="\#(route)",method="\#(method.prefix(10))",status="\#(status)""#
        }
    }
    private var counters: [String: Int] = [:]
    private var gauges: [String: Double] = [:]
    private let started = Date()
    private var refreshers: [@Sendable (Metrics) -> Void] = []

    public init() {}

    /// Adds work that sets gauges just before each render (a value read from the store, cached
    /// by its owner).
    public func refreshBeforeRender(_ refresh: @escaping @Sendable (Metrics) -> Void) {
        lock.withLock { refreshers.append(refresh) }
    }

    func recordExchange(_ exchange: ExchangeSummary) {
        let key = ExchangeKey(
            listener: exchange.listener, route: exchange.route, method: exchange.method, status: exchange.status)
        let seconds = Double(exchange.durationNanoseconds) / 1e9
        lock.withLock {
            requests[key, default: 0] += 1
            let old = durations[exchange.route] ?? (0, 0)
            durations[exchange.route] = (old.sum + seconds, old.count + 1)
        }
    }

    /// Adds `by` to a counter `name{labels}`; labels pre-rendered (`reason="too_old"`).
    public func count(_ name: String, _ labels: String = "", by: Int = 1) {
        let key = labels.isEmpty ? name : "\(name){\(labels)}"
        lock.withLock { counters[key, default: 0] += by }
    }

    /// Sets a gauge `name{labels}` to `value`.
    public func set(_ name: String, _ labels: String = "", to value: Double) {
        let key = labels.isEmpty ? name : "\(name){\(labels)}"
        lock.withLock { gauges[key] = value }
    }

    static let help: [(String, String, String)] = [
        ("tracedesk_http_requests_total", "counter", "HTTP requests answered, by listener, route, method and status."),
        (
            "tracedesk_http_request_duration_seconds", "summary",
            "Time from the request's headers to the end of the response, by route (delays included)."
        ),
        (
            "tracedesk_http_heads_refused_total", "counter",
            "Connections closed by the head gate: timeout, evicted, malformed, kept_timeout (a kept connection without its next head in time) before their head was whole; busy (max_connections) and address_busy (max_connections_per_address), answered 503."
        ),
        ("tracedesk_otp_authorizations_total", "counter", "POST /v1/otp outcomes."),
        (
            "tracedesk_his_authorizations_total", "counter",
            "POST /v1/otp outcomes per HIS client (authorized, already_authorized, invalid, rate_limited)."
        ),
        (
            "tracedesk_his_auth_failures_total", "counter",
            "POST /v1/otp refused 401, by reason (missing, unknown, revoked, no_certificate, unknown_certificate)."
        ),
        ("tracedesk_checks_total", "counter", "Real check-otp requests by answer."),
        ("tracedesk_uploads_total", "counter", "Real uploads by result (stored, refused: 401)."),
        ("tracedesk_keys_accepted_total", "counter", "Keys stored for publishing."),
        ("tracedesk_keys_dropped_total", "counter", "Keys dropped by the per-key rules, by reason."),
        ("tracedesk_phone_requests_total", "counter", "Phone requests that passed validation, by route and traffic."),
        ("tracedesk_dummy_share", "gauge", "Share of dummy requests among validated phone requests since start."),
        ("tracedesk_analytics_total", "counter", "Analytics requests by kind and result."),
        (
            "tracedesk_publishing_enabled", "gauge",
            "1 when a signing key is loaded and chunks are published; 0 when the server runs without one."
        ),
        ("tracedesk_publishing_runs_total", "counter", "Publishing runs by result (ok, skipped, unsigned, failed)."),
        ("tracedesk_chunks_published_total", "counter", "Chunks published by this server."),
        ("tracedesk_keys_published_total", "counter", "Real keys published in chunks by this server."),
        (
            "tracedesk_keys_waiting", "gauge",
            "Unpublished keys after the last run: ready, under embargo, or too old (lost)."
        ),
        ("tracedesk_last_chunk_index", "gauge", "Highest chunk index in the store after the last run."),
        ("tracedesk_cleanup_runs_total", "counter", "Retention runs by result (ok, skipped, failed)."),
        ("tracedesk_cleanup_deleted_total", "counter", "Records deleted by retention, by kind."),
        ("tracedesk_stats_rollup_runs_total", "counter", "Statistics rollup runs by result (ok, failed)."),
        (
            "tracedesk_audit_checkpoints_total", "counter",
            "Audit checkpoint checks by result (written, unchanged, failed: the chain or the file does not agree)."
        ),
        (
            "tracedesk_audit_checkpoint_entries", "gauge",
            "Audit entries anchored by the last checkpoint this server wrote."
        ),
        ("tracedesk_stats_hours_rolled_up_total", "counter", "Closed hours of statistics rolled up by this server."),
        (
            "tracedesk_apricot_codes_total", "counter",
            "APRICOT SMS code requests by result (sent, too_soon, number_refused, invalid)."
        ),
        // Issue 18, point 10a.
        (
            "tracedesk_otp_guess_failures_total", "counter",
            "Wrong codes on check-otp and upload by route (what the guess limit counts per client address)."
        ),
        (
            "tracedesk_otp_guesses_limited_total", "counter",
            "check-otp and upload requests answered 429 by the guess limit (otp_guess_limit), by route."
        ),
        (
            "tracedesk_apricot_logins_total", "counter",
            "APRICOT sign-ins by result (new_user, returning, wrong_code, expired, too_many_attempts, full, invalid)."
        ),
        (
            "tracedesk_apricot_contact_files_total", "counter",
            "APRICOT contact-file uploads by result (stored, replaced, refused, not_signed_in, rate_limited, invalid)."
        ),
        ("tracedesk_apricot_contact_records_total", "counter", "Records in the contact files stored."),
        ("tracedesk_apricot_pseudo_ids_used", "gauge", "Pseudo-ids that exist (of 4294967296 the design allows)."),
        (
            "tracedesk_apricot_pseudo_ids_used_ratio", "gauge",
            "Share of the pseudo-id space used; registration warns past 0.5 and stops when a user no longer fits."
        ),
        ("tracedesk_sms_messages_total", "counter", "SMS messages handed to the gateway, by gateway."),
        (
            "tracedesk_staff_sign_ins_refused_total", "counter",
            "Sign-ins (and first-admin requests) refused 429 before the password hash, by budget (places, address, name)."
        ),
    ]

    public func render() -> String {
        for refresh in lock.withLock({ refreshers }) { refresh(self) }
        let (requests, durations, counters, gauges) = lock.withLock {
            (self.requests, self.durations, self.counters, self.gauges)
        }
        var out = ""
        for (name, type, text) in Self.help {
            out += "# HELP \(name) \(text)\n# TYPE \(name) \(type)\n"
            switch name {
            case "tracedesk_http_requests_total":
                for (labels, n) in requests.map({ ($0.key.labels, $0.value) }).sorted(by: { $0.0 < $1.0 }) {
                    out += "\(name){\(labels)} \(n)\n"
                }
            case "tracedesk_http_request_duration_seconds":
                for (route, d) in durations.sorted(by: { $0.key < $1.key }) {
                    let labels = #"route="\#(route)""#
                    out += "\(name)_sum{\(labels)} \(d.sum)\n\(name)_count{\(labels)} \(d.count)\n"
                }
            case "tracedesk_dummy_share":
                let dummy = counters.filter {
                    $0.key.hasPrefix("tracedesk_phone_requests_total{") && $0.key.contains(#"traffic="dummy""#)
                }
                .reduce(0) { $0 + $1.value }
                let all = counters.filter { $0.key.hasPrefix("tracedesk_phone_requests_total{") }.reduce(0) {
                    $0 + $1.value
                }
                out += "\(name) \(all == 0 ? 0 : Double(dummy) / Double(all))\n"
            default:
                for (key, n) in counters.sorted(by: { $0.key < $1.key })
                where key == name || key.hasPrefix(name + "{") {
                    out += "\(key) \(n)\n"
                }
                for (key, value) in gauges.sorted(by: { $0.key < $1.key })
                where key == name || key.hasPrefix(name + "{") {
                    out += "\(key) \(value == value.rounded() ? String(Int64(value)) : String(value))\n"
                }
            }
        }
        out +=
            "# HELP tracedesk_log_write_failures_total Log lines dropped because they could not be written (full disk, gone reader).\n# TYPE tracedesk_log_write_failures_total counter\n"
        out += "tracedesk_log_write_failures_total \(LogWriter.standardError.failures)\n"
        out +=
            "# HELP tracedesk_uptime_seconds Seconds since this server started.\n# TYPE tracedesk_uptime_seconds gauge\n"
        out += "tracedesk_uptime_seconds \(Int(Date().timeIntervalSince(started)))\n"
        return out
    }
}

/// One line per request on stderr: time, listener, method, route template, status, duration.
/// Never a query string, header or body, so no code, key or token can reach it.
///
/// Lines are buffered and written in blocks (at 64 KiB, every 250 ms, and on ``flush()``): a
/// `write(2)` per request cost a quarter of the server's throughput on small answers.
public final class AccessLog: @unchecked Sendable {
    private let lock = SimpleLock()
    private let sink: (@Sendable (String) -> Void)?
    private var buffer: [UInt8] = []
    private var timer: DispatchSourceTimer?
    private var cachedSecond: Int64 = -1
    private var cachedPrefix: [UInt8] = []

    /// Buffered lines to stderr.
    public init() {
        sink = nil
        buffer.reserveCapacity(80 * 1024)
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.flush() }
        timer.resume()
        self.timer = timer
    }

    /// Each line handed to `write` at once (tests).
    public init(write: @escaping @Sendable (String) -> Void) {
        sink = write
    }

    deinit {
        timer?.cancel()
        flush()
    }

    func record(_ exchange: ExchangeSummary) {
        let now = Date().unixMilliseconds
        var line: [UInt8] = []
        line.reserveCapacity(96)
        lock.withLock {
            if now / 1000 != cachedSecond {
                cachedSecond = now / 1000
                cachedPrefix = Array(Timestamp.iso(Date(unixMilliseconds: cachedSecond * 1000)).utf8.prefix(20))
            }
            line += cachedPrefix
        }
        let millis = now % 1000
        line.append(UInt8(48 + millis / 100))
        line.append(UInt8(48 + millis / 10 % 10))
        line.append(UInt8(48 + millis % 10))
        line.append(contentsOf: "Z \(exchange.listener) ".utf8)
        line.append(contentsOf: exchange.method.utf8.prefix(10))
        line.append(0x20)
        line.append(contentsOf: exchange.route.utf8)
        line.append(0x20)
        line.append(contentsOf: (exchange.status == 0 ? "aborted" : String(exchange.status)).utf8)
        line.append(0x20)
        line.append(contentsOf: Timestamp.milliseconds(Double(exchange.durationNanoseconds) / 1e6).utf8)
        if let sink {
            sink(String(decoding: line, as: UTF8.self))
            return
        }
        line.append(0x0A)
        let full = lock.withLock { () -> [UInt8]? in
            buffer += line
            guard buffer.count >= 64 * 1024 else { return nil }
            defer { buffer.removeAll(keepingCapacity: true) }
            return buffer
        }
        if let full { Self.writeAll(full) }
    }

    /// Writes what is buffered.
    public func flush() {
        let pending = lock.withLock { () -> [UInt8] in
            defer { buffer.removeAll(keepingCapacity: true) }
            return buffer
        }
        if !pending.isEmpty { Self.writeAll(pending) }
    }

    /// Through the one log writer: a block that cannot be written is dropped and its lines counted.
    static func writeAll(_ bytes: [UInt8]) {
        LogWriter.standardError.write(bytes, lines: bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
    }
}

enum Timestamp {
    /// `2026-11-29T15:40:00.123Z`: the staff API's time format.
    static func iso(_ date: Date) -> String { StaffWire.time(date) }

    static func milliseconds(_ ms: Double) -> String {
        let tenths = Int((ms * 100).rounded())
        return "\(tenths / 100).\(tenths % 100 < 10 ? "0" : "")\(tenths % 100)ms"
    }
}
