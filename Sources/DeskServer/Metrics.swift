import CivilCalendar
import DeskAPI
import DeskCore
import DeskLog
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
    public func count(_ name: MetricName, _ labels: String = "", by: Int = 1) {
        let key = labels.isEmpty ? name.rawValue : "\(name.rawValue){\(labels)}"
        lock.withLock { counters[key, default: 0] += by }
    }

    /// Sets a gauge `name{labels}` to `value`.
    public func set(_ name: MetricName, _ labels: String = "", to value: Double) {
        let key = labels.isEmpty ? name.rawValue : "\(name.rawValue){\(labels)}"
        lock.withLock { gauges[key] = value }
    }

    public func render() -> String {
        for refresh in lock.withLock({ refreshers }) { refresh(self) }
        let (requests, durations, counters, gauges) = lock.withLock {
            (self.requests, self.durations, self.counters, self.gauges)
        }
        var out = ""
        for metric in MetricName.allCases {
            let name = metric.rawValue
            out += "# HELP \(name) \(metric.help)\n# TYPE \(name) \(metric.type.rawValue)\n"
            switch metric {
            case .httpRequestsTotal:
                for (labels, n) in requests.map({ ($0.key.labels, $0.value) }).sorted(by: { $0.0 < $1.0 }) {
                    out += "\(name){\(labels)} \(n)\n"
                }
            case .httpRequestDurationSeconds:
                for (route, d) in durations.sorted(by: { $0.key < $1.key }) {
                    let labels = #"route="\#(route)""#
                    out += "\(name)_sum{\(labels)} \(d.sum)\n\(name)_count{\(labels)} \(d.count)\n"
                }
            case .logWriteFailuresTotal:
                out += "\(name) \(LogWriter.standardError.failures)\n"
            case .uptimeSeconds:
                out += "\(name) \(Int(Date().timeIntervalSince(started)))\n"
            case .dummyShare:
                let dummy = counters.filter {
                    $0.key.hasPrefix(MetricName.phoneRequestsTotal.rawValue + "{")
                        && $0.key.contains(#"traffic="dummy""#)
                }
                .reduce(0) { $0 + $1.value }
                let all = counters.filter { $0.key.hasPrefix(MetricName.phoneRequestsTotal.rawValue + "{") }.reduce(0) {
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
        return out
    }
}

/// One line per request on stderr: time, listener, method, route template, status, duration;
/// in the JSON format (`log_format`) one object a line with `event` "request" and those fields
/// (`route`, `status`, `duration_ms`). Never a query string, header or body, so no code, key or
/// token can reach it.
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
    private let format: LogFormat

    /// Buffered lines to stderr.
    public init(format: LogFormat = .text) {
        sink = nil
        self.format = format
        buffer.reserveCapacity(80 * 1024)
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.flush() }
        timer.resume()
        self.timer = timer
    }

    /// Each line handed to `write` at once (tests).
    public init(format: LogFormat = .text, write: @escaping @Sendable (String) -> Void) {
        sink = write
        self.format = format
    }

    deinit {
        timer?.cancel()
        flush()
    }

    func record(_ exchange: ExchangeSummary) {
        let now = Date().unixMilliseconds
        if format == .json {
            emit(Array(Self.json(exchange, at: Date(unixMilliseconds: now)).text.utf8))
            return
        }
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
        emit(line)
    }

    /// One request as a JSON object: level error for a 5xx, else info; a request the client
    /// left before it was answered has no status and `aborted` true.
    static func json(_ exchange: ExchangeSummary, at time: Date) -> JSONLogLine {
        var fields: [(String, JSONLogLine.Value)] = [
            ("listener", .string(exchange.listener)), ("method", .string(String(exchange.method.prefix(10)))),
            ("route", .string(exchange.route)),
        ]
        if exchange.status == 0 {
            fields.append(("aborted", .bool(true)))
        } else {
            fields.append(("status", .integer(exchange.status)))
        }
        fields.append(("duration_ms", .number(Double(exchange.durationNanoseconds) / 1e6)))
        return JSONLogLine(
            time: time, level: exchange.status >= 500 ? "error" : "info", event: "request", fields: fields)
    }

    /// Hands a line to the test sink, or buffers it.
    private func emit(_ bytes: [UInt8]) {
        var line = bytes
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
