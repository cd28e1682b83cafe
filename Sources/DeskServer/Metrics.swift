import CivilCalendar
import DeskCore

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
    private var requests: [String: Int] = [:]
    private var durations: [String: (sum: Double, count: Int)] = [:]
    private var counters: [String: Int] = [:]
    private let started = Date()

    public init() {}

    func recordExchange(_ exchange: ExchangeSummary) {
        let key =
            #"listener="\#(exchange.listener)",route="\#(exchange.route)",method="\#(exchange.method.prefix(10))",status="\#(exchange.status)""#
        let seconds = Double(exchange.durationNanoseconds) / 1e9
        lock.withLock {
            requests[key, default: 0] += 1
            let route = #"route="\#(exchange.route)""#
            let old = durations[route] ?? (0, 0)
            durations[route] = (old.sum + seconds, old.count + 1)
        }
    }

    /// Adds `by` to a counter `name{labels}`; labels pre-rendered (`reason="too_old"`).
    public func count(_ name: String, _ labels: String = "", by: Int = 1) {
        let key = labels.isEmpty ? name : "\(name){\(labels)}"
        lock.withLock { counters[key, default: 0] += by }
    }

    public func value(_ name: String, _ labels: String = "") -> Int {
        let key = labels.isEmpty ? name : "\(name){\(labels)}"
        return lock.withLock { counters[key] ?? 0 }
    }

    static let help: [(String, String, String)] = [
        ("tracedesk_http_requests_total", "counter", "HTTP requests answered, by listener, route, method and status."),
        (
            "tracedesk_http_request_duration_seconds", "summary",
            "Time from the request's headers to the end of the response, by route (delays included)."
        ),
        ("tracedesk_otp_authorizations_total", "counter", "POST /v1/otp outcomes."),
        ("tracedesk_checks_total", "counter", "Real check-otp requests by answer."),
        ("tracedesk_uploads_total", "counter", "Real uploads by result (stored, refused: 401)."),
        ("tracedesk_keys_accepted_total", "counter", "Keys stored for publishing."),
        ("tracedesk_keys_dropped_total", "counter", "Keys dropped by the per-key rules, by reason."),
        ("tracedesk_phone_requests_total", "counter", "Phone requests that passed validation, by route and traffic."),
        ("tracedesk_dummy_share", "gauge", "Share of dummy requests among validated phone requests since start."),
        ("tracedesk_analytics_total", "counter", "Analytics requests by kind and result."),
    ]

    public func render() -> String {
        let (requests, durations, counters) = lock.withLock { (self.requests, self.durations, self.counters) }
        var out = ""
        for (name, type, text) in Self.help {
            out += "# HELP \(name) \(text)\n# TYPE \(name) \(type)\n"
            switch name {
            case "tracedesk_http_requests_total":
                for (labels, n) in requests.sorted(by: { $0.key < $1.key }) { out += "\(name){\(labels)} \(n)\n" }
            case "tracedesk_http_request_duration_seconds":
                for (labels, d) in durations.sorted(by: { $0.key < $1.key }) {
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
            }
        }
        out +=
            "# HELP tracedesk_uptime_seconds Seconds since this server started.\n# TYPE tracedesk_uptime_seconds gauge\n"
        out += "tracedesk_uptime_seconds \(Int(Date().timeIntervalSince(started)))\n"
        return out
    }
}

/// One line per request on stderr: time, listener, method, route template, status, duration.
/// Never a query string, header or body, so no code, key or token can reach it.
public final class AccessLog: @unchecked Sendable {
    private let lock = SimpleLock()
    private let write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void = AccessLog.stderr) {
        self.write = write
    }

    public static let stderr: @Sendable (String) -> Void = { line in
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    func record(_ exchange: ExchangeSummary) {
        let ms = Double(exchange.durationNanoseconds) / 1e6
        let status = exchange.status == 0 ? "aborted" : String(exchange.status)
        let line =
            "\(Timestamp.iso(Date())) \(exchange.listener) \(exchange.method.prefix(10)) \(exchange.route) \(status) \(Timestamp.milliseconds(ms))"
        lock.withLock { write(line) }
    }
}

enum Timestamp {
    /// `2026-11-29T15:40:00.123Z`.
    static func iso(_ date: Date) -> String {
        let ms = date.unixMilliseconds
        let day = CivilDay(unixSeconds: ms / 1000 >= 0 ? ms / 1000 : 0)
        let secondOfDay = (ms / 1000) % 86_400
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = ms % 1000
        let m = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(day.iso)T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)).\(m)Z"
    }

    static func milliseconds(_ ms: Double) -> String {
        let tenths = Int((ms * 100).rounded())
        return "\(tenths / 100).\(tenths % 100 < 10 ? "0" : "")\(tenths % 100)ms"
    }
}
