import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The supervisor's statistics: what happened over a time range, in buckets (docs/supervisor-guide.md
// says what every figure counts). Buckets are aligned in UTC; a range is "the last N buckets,
// the current one included", so its last bucket is still filling.

/// How wide one bucket of a statistics series is.
public enum StatsBucket: String, Hashable, Sendable, CaseIterable {
    /// For ranges of a day or less (the 1 h view): an hour in 12 steps.
    case fiveMinutes = "5m"
    case hour = "hour"
    case day = "day"

    public var milliseconds: Int64 {
        switch self {
        case .fiveMinutes: return 300_000
        case .hour: return 3_600_000
        case .day: return 86_400_000
        }
    }

    /// "5 min", "hour", "day": for labels.
    public var label: String {
        switch self {
        case .fiveMinutes: return "5 min"
        case .hour: return "hour"
        case .day: return "day"
        }
    }

    /// The start of the bucket holding `ms` (UTC).
    public func floor(_ ms: Int64) -> Int64 {
        let size = milliseconds
        return ms >= 0 ? ms / size * size : ((ms + 1) / size - 1) * size
    }

    /// `--bucket 5m|hour|day` (also "1h", "1d", "hourly", "daily").
    public static func parse(_ text: String) -> StatsBucket? {
        switch String(text.lowercased().filter { $0 != " " }) {
        case "5m", "5min", "5-minute", "five-minute": return .fiveMinutes
        case "hour", "1h", "hourly", "h": return .hour
        case "day", "1d", "daily", "d": return .day
        default: return nil
        }
    }
}

/// The ranges the dashboard offers (keys 0–4) and `tracedesk stats --range` takes.
public enum StatsRange: String, Hashable, Sendable, CaseIterable {
    /// Since the last local midnight (of the zone the query is made in), in hours: a calendar
    /// day so far, not a fixed span (``StatsQuery/today(bucket:now:timeZone:)``).
    case today = "today"
    case hour = "1h"
    case day = "24h"
    case week = "7d"
    case fortnight = "14d"

    /// The bucket a range is shown in unless another is asked for.
    public var defaultBucket: StatsBucket {
        switch self {
        case .hour: return .fiveMinutes
        case .today, .day: return .hour
        case .week, .fortnight: return .day
        }
    }

    /// The span of the range; for ``today`` the longest a day can be (25 hours, the day the
    /// clocks go back).
    public var milliseconds: Int64 {
        switch self {
        case .today: return 25 * 3_600_000
        case .hour: return 3_600_000
        case .day: return 86_400_000
        case .week: return 7 * 86_400_000
        case .fortnight: return 14 * 86_400_000
        }
    }

    /// "last hour", "last 24 hours", …: for titles.
    public var label: String {
        switch self {
        case .today: return "today"
        case .hour: return "last hour"
        case .day: return "last 24 hours"
        case .week: return "last 7 days"
        case .fortnight: return "last 14 days"
        }
    }

    /// `today`, `1h`, `24h`, `7d`, `14d` (also `1d`, `2w`, …), or a message that says what to
    /// type.
    public static func parse(_ text: String) -> Result<StatsRange, StatsInputError> {
        switch String(text.lowercased().filter { $0 != " " }) {
        case "today", "0d": return .success(.today)
        case "1h", "60m", "hour": return .success(.hour)
        case "24h", "1d", "day": return .success(.day)
        case "7d", "1w", "168h", "week": return .success(.week)
        case "14d", "2w", "336h", "fortnight": return .success(.fortnight)
        default:
            return .failure(.init(tr("messages.stats.range")))
        }
    }
}

/// A statistics input that cannot be used: the message says what is wrong and what to do.
public struct StatsInputError: Error, Hashable, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// What to count: `[from, to)` in buckets of `bucket`. `from` is a bucket boundary (UTC); `to`
/// is usually "now", so the last bucket may be partial.
public struct StatsQuery: Hashable, Sendable {
    public let from: Date
    public let to: Date
    public let bucket: StatsBucket

    /// The longest span a query may cover (what the rollups keep).
    public static let maximumDays = 31
    /// Five-minute buckets only up to this span.
    public static let maximumFiveMinuteHours = 24

    /// A checked query. `from` is moved down to its bucket's start.
    public static func make(from: Date, to: Date, bucket: StatsBucket) -> Result<StatsQuery, StatsInputError> {
        let start = bucket.floor(from.unixMilliseconds)
        let end = to.unixMilliseconds
        guard end > from.unixMilliseconds else {
            return .failure(.init(tr("messages.stats.empty")))
        }
        let span = end - start
        if span > Int64(maximumDays) * 86_400_000 {
            return .failure(.init(tr("messages.stats.tooLong", ["days": String(maximumDays)])))
        }
        if bucket == .fiveMinutes, span > Int64(maximumFiveMinuteHours) * 3_600_000 {
            return .failure(
                .init(tr("messages.stats.fiveMinutes", ["hours": String(maximumFiveMinuteHours)])))
        }
        return .success(
            StatsQuery(
                uncheckedFrom: Date(unixMilliseconds: start), to: Date(unixMilliseconds: end), bucket: bucket))
    }

    /// The last buckets of `range` up to `now`, the current one included: as many buckets as the
    /// range holds (24 hours in hours: 24), at least two (24 hours in days: yesterday and today).
    /// The range ends just after `now` (`to` = now + 1 ms), so `now` itself is counted and the
    /// current bucket is there even when `now` falls exactly on its start.
    /// ``StatsRange/today`` is counted from midnight in `timeZone`
    /// (``today(bucket:now:timeZone:)``).
    public static func last(
        _ range: StatsRange, bucket: StatsBucket? = nil, now: Date, timeZone: TimeZone = .current
    ) -> StatsQuery {
        if range == .today { return today(bucket: bucket, now: now, timeZone: timeZone) }
        let bucket = bucket ?? range.defaultBucket
        let size = bucket.milliseconds
        let end = now.unixMilliseconds + 1
        let count = max(2, (range.milliseconds + size - 1) / size)
        let start = bucket.floor(end - 1) - (count - 1) * size
        return StatsQuery(uncheckedFrom: Date(unixMilliseconds: start), to: Date(unixMilliseconds: end), bucket: bucket)
    }

    /// Today so far: from the last midnight in `timeZone` to just after `now`, in hours (or the
    /// bucket asked for). Buckets are aligned in UTC, so in a zone whose offset is not whole
    /// hours (India, +5:30) the first hour starts before midnight, at the hour that holds it;
    /// 5-minute buckets are made hourly on a day longer than 24 hours so far (clocks went back).
    /// A plain `from`/`to`/`bucket` query: servers answer it as any other.
    public static func today(bucket: StatsBucket? = nil, now: Date, timeZone: TimeZone) -> StatsQuery {
        var bucket = bucket ?? StatsRange.today.defaultBucket
        if bucket == .day { bucket = .hour }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let midnight = calendar.startOfDay(for: now)
        let end = now.unixMilliseconds + 1
        if bucket == .fiveMinutes, end - midnight.unixMilliseconds > Int64(maximumFiveMinuteHours) * 3_600_000 {
            bucket = .hour
        }
        let start = bucket.floor(midnight.unixMilliseconds)
        return StatsQuery(uncheckedFrom: Date(unixMilliseconds: start), to: Date(unixMilliseconds: end), bucket: bucket)
    }

    private init(uncheckedFrom from: Date, to: Date, bucket: StatsBucket) {
        self.from = from
        self.to = to
        self.bucket = bucket
    }

    /// For decoding a query that was checked on the other side of the wire; nil when it could
    /// not have been made by ``make(from:to:bucket:)``.
    public init?(from: Date, to: Date, bucket: StatsBucket) {
        guard case .success(let query) = Self.make(from: from, to: to, bucket: bucket), query.from == from else {
            return nil
        }
        self = query
    }

    public var fromMs: Int64 { from.unixMilliseconds }
    public var toMs: Int64 { to.unixMilliseconds }

    /// How many buckets the range has (the last may be partial).
    public var bucketCount: Int {
        let size = bucket.milliseconds
        return Int((toMs - fromMs + size - 1) / size)
    }

    /// The start of each bucket, oldest first.
    public var bucketStarts: [Date] {
        (0..<bucketCount).map { Date(unixMilliseconds: fromMs + Int64($0) * bucket.milliseconds) }
    }

    /// The bucket holding `ms`, or nil outside the range.
    public func bucketIndex(_ ms: Int64) -> Int? {
        guard ms >= fromMs, ms < toMs else { return nil }
        return Int((ms - fromMs) / bucket.milliseconds)
    }
}

/// Counts per bucket of a ``StatsQuery`` (as many values as the query has buckets).
public struct StatsSeries: Hashable, Sendable {
    public var values: [Int64]

    public init(values: [Int64]) { self.values = values }
    public init(count: Int) { values = Array(repeating: 0, count: count) }

    /// The sum, saturating at `Int64.max` (figures read from a server are not trusted to fit).
    public var total: Int64 { Self.sum(values) }

    /// A sum that saturates at the bounds of `Int64` instead of trapping.
    public static func sum<S: Sequence<Int64>>(_ values: S) -> Int64 {
        values.reduce(Int64(0)) { total, value in
            let (sum, overflow) = total.addingReportingOverflow(value)
            return overflow ? (value > 0 ? .max : .min) : sum
        }
    }
    public var maximum: Int64 { values.max() ?? 0 }
}

/// One operator's codes authorised in the range, and what became of them.
public struct OperatorStats: Hashable, Sendable {
    public var name: String
    public var authorized: Int64
    /// Of those, codes an app checked while they were valid.
    public var checked: Int64
    /// Of those, codes an upload used (always within the code's lifetime).
    public var uploaded: Int64

    public init(name: String, authorized: Int64, checked: Int64, uploaded: Int64) {
        self.name = name
        self.authorized = authorized
        self.checked = checked
        self.uploaded = uploaded
    }
}

/// A count under a reason's name (keys dropped, uploads refused).
public struct ReasonCount: Hashable, Sendable {
    public var reason: String
    public var count: Int64

    public init(reason: String, count: Int64) {
        self.reason = reason
        self.count = count
    }
}

/// Operational info (analytics) from one province in the range.
public struct ProvinceStats: Hashable, Sendable {
    /// Two letters, as the app sent it (a code no longer in ``Province/all`` stays as it is).
    public var code: String
    public var reports: Int64
    public var bluetoothActive: Int64
    public var notificationsAllowed: Int64
    public var exposureNotifications: Int64

    public init(
        code: String, reports: Int64, bluetoothActive: Int64, notificationsAllowed: Int64, exposureNotifications: Int64
    ) {
        self.code = code
        self.reports = reports
        self.bluetoothActive = bluetoothActive
        self.notificationsAllowed = notificationsAllowed
        self.exposureNotifications = exposureNotifications
    }

    /// The province, when the code is one of ``Province/all``.
    public var province: Province? { Province.named(code) }
}

/// One tracer's lookups in the range.
public struct TracerStats: Hashable, Sendable {
    public var name: String
    public var lookups: Int64

    public init(name: String, lookups: Int64) {
        self.name = name
        self.lookups = lookups
    }
}

/// Every figure of the dashboard for one ``StatsQuery``. Series have one value per bucket.
///
/// Authorisation figures (the funnel, per operator) count codes by the time they were
/// authorised; every other figure counts things by the time they happened.
public struct StatsReport: Hashable, Sendable {
    public var query: StatsQuery
    /// When the figures were read (the desk's clock).
    public var generatedAt: Date

    // MARK: Authorisations and the funnel (by authorisation time)

    /// Codes authorised.
    public var authorized: StatsSeries
    /// Of those, codes an app checked while they were valid (`check-otp` answered "authorised").
    public var checked: StatsSeries
    /// Of those, codes an upload used.
    public var uploaded: StatsSeries
    /// Median seconds from authorisation to upload over the codes uploaded; nil when none was.
    public var medianSecondsToUpload: Int64?
    /// Per operator, most authorisations first (then by name).
    public var operators: [OperatorStats]

    // MARK: Uploads and keys (by time received)

    /// Uploads accepted.
    public var uploads: StatsSeries
    /// Uploads refused for a code known here, by reason (`expired`, `consumed`, …), most first.
    public var uploadsRefused: [ReasonCount]
    public var keysAccepted: StatsSeries
    public var keysDropped: StatsSeries
    /// Keys dropped, by reason (the upload's `dropped_reasons`), most first.
    public var keysDroppedByReason: [ReasonCount]
    /// Uploads by the number of keys they brought: index k counts uploads with k keys accepted;
    /// the last index counts that many or more (``keysPerUploadCap``).
    public var keysPerUpload: [Int64]

    // MARK: Publishing (by publication time)

    public var chunks: StatsSeries
    /// Real keys in the chunks published (padding not included).
    public var keysPublished: StatsSeries
    /// Padding keys in the chunks published.
    public var paddingPublished: Int64

    // MARK: Phone traffic

    /// Phone requests that did something (checks, uploads accepted or refused, analytics).
    public var realRequests: StatsSeries
    /// Dummy requests (the apps' cover traffic), counted per 5 minutes.
    public var dummyRequests: StatsSeries

    // MARK: Analytics (operational info, by time received)

    public var analyticsReports: StatsSeries
    /// Per province, most reports first (then by code).
    public var provinces: [ProvinceStats]

    // MARK: APRICOT

    /// New APRICOT users.
    public var registrations: StatsSeries
    /// Sign-ins of apps already registered (a reinstall, a new phone).
    public var returningSignIns: Int64
    /// Contact files received (a re-upload of a day counts again).
    public var contactFiles: StatsSeries
    /// Contact lookups by tracers (audited `trace_lookup`s, unknown numbers included).
    public var lookups: StatsSeries
    /// Per tracer, most lookups first (then by name).
    public var tracers: [TracerStats]
    /// Pseudo-ids in use now (not bound to the range).
    public var pseudoIDs: PseudoIDCapacity

    /// Uploads with this many keys or more share the histogram's last place.
    public static let keysPerUploadCap = 15

    /// A report with every figure zero, for `query`.
    public init(query: StatsQuery, generatedAt: Date) {
        let n = query.bucketCount
        self.query = query
        self.generatedAt = generatedAt
        authorized = StatsSeries(count: n)
        checked = StatsSeries(count: n)
        uploaded = StatsSeries(count: n)
        medianSecondsToUpload = nil
        operators = []
        uploads = StatsSeries(count: n)
        uploadsRefused = []
        keysAccepted = StatsSeries(count: n)
        keysDropped = StatsSeries(count: n)
        keysDroppedByReason = []
        keysPerUpload = Array(repeating: 0, count: Self.keysPerUploadCap + 1)
        chunks = StatsSeries(count: n)
        keysPublished = StatsSeries(count: n)
        paddingPublished = 0
        realRequests = StatsSeries(count: n)
        dummyRequests = StatsSeries(count: n)
        analyticsReports = StatsSeries(count: n)
        provinces = []
        registrations = StatsSeries(count: n)
        returningSignIns = 0
        contactFiles = StatsSeries(count: n)
        lookups = StatsSeries(count: n)
        tracers = []
        pseudoIDs = PseudoIDCapacity(used: 0)
    }

    // MARK: Derived figures (never a division by zero: nil when there is nothing to divide)

    /// Checked ÷ authorised.
    public var checkedShare: Double? { Self.share(checked.total, of: authorized.total) }
    /// Uploaded ÷ authorised.
    public var uploadedShare: Double? { Self.share(uploaded.total, of: authorized.total) }
    /// Dummy ÷ (dummy + real).
    public var dummyShare: Double? {
        let (dummy, whole) = (Double(dummyRequests.total), Double(dummyRequests.total) + Double(realRequests.total))
        return whole > 0 ? dummy / whole : nil
    }
    /// Real keys per published chunk.
    public var keysPerChunk: Double? { Self.share(keysPublished.total, of: chunks.total) }
    /// Keys accepted per accepted upload.
    public var keysPerUploadMean: Double? { Self.share(keysAccepted.total, of: uploads.total) }

    /// Whether nothing at all happened in the range (the pseudo-id count aside).
    public var isEmpty: Bool {
        authorized.total == 0 && uploads.total == 0 && uploadsRefused.isEmpty && chunks.total == 0
            && realRequests.total == 0 && dummyRequests.total == 0 && analyticsReports.total == 0
            && registrations.total == 0 && returningSignIns == 0 && contactFiles.total == 0 && lookups.total == 0
    }

    /// `part ÷ whole`, nil when `whole` is 0.
    public static func share(_ part: Int64, of whole: Int64) -> Double? {
        whole > 0 ? Double(part) / Double(whole) : nil
    }

    /// The median of values given as (value, how many times), nil when there are none: the lower
    /// middle value for an even count, so it is always a value that occurred.
    public static func median(_ counts: [(value: Int64, count: Int64)]) -> Int64? {
        let sorted = counts.filter { $0.count > 0 }.sorted { $0.value < $1.value }
        let n = StatsSeries.sum(sorted.map(\.count))
        guard n > 0 else { return nil }
        let target = (n - 1) / 2
        var seen: Int64 = 0
        for entry in sorted {
            seen = StatsSeries.sum([seen, entry.count])
            if seen > target { return entry.value }
        }
        return sorted.last?.value
    }
}
