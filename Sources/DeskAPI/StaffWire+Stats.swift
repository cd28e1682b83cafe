import DeskCore
import JSONText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The supervisor's statistics as JSON (`GET /staff/v1/stats`, docs/staff-api.yaml). Every
/// figure of ``StatsReport`` travels; series are arrays with one value per bucket (oldest
/// first). The derived shares are not sent: a reader computes them from the counts, so they
/// cannot disagree with them. Nothing here names a code, a phone or a key: figures, staff
/// account names (operators, tracers) and province codes only.
extension StaffWire {
    // MARK: Writing

    /// The answer of `GET /staff/v1/stats` (also what `tracedesk stats --json` prints).
    public static func statsReport(_ report: StatsReport) -> JSONValue {
        func series(_ s: StatsSeries) -> JSONValue { .array(s.values.map { number($0) }) }
        func reasons(_ list: [ReasonCount]) -> JSONValue {
            .array(list.map { object([("reason", .string($0.reason)), ("count", number($0.count))]) })
        }
        return object([
            ("from", .string(time(report.query.from))), ("to", .string(time(report.query.to))),
            ("bucket", .string(report.query.bucket.rawValue)), ("generated_at", .string(time(report.generatedAt))),
            ("authorized", series(report.authorized)), ("checked", series(report.checked)),
            ("uploaded", series(report.uploaded)),
            ("median_seconds_to_upload", report.medianSecondsToUpload.map { number($0) } ?? .null),
            (
                "operators",
                .array(
                    report.operators.map {
                        object([
                            ("name", .string($0.name)), ("authorized", number($0.authorized)),
                            ("checked", number($0.checked)), ("uploaded", number($0.uploaded)),
                        ])
                    })
            ),
            ("uploads", series(report.uploads)), ("uploads_refused", reasons(report.uploadsRefused)),
            ("keys_accepted", series(report.keysAccepted)), ("keys_dropped", series(report.keysDropped)),
            ("keys_dropped_by_reason", reasons(report.keysDroppedByReason)),
            ("keys_per_upload", .array(report.keysPerUpload.map { number($0) })),
            ("chunks", series(report.chunks)), ("keys_published", series(report.keysPublished)),
            ("padding_published", number(report.paddingPublished)),
            ("real_requests", series(report.realRequests)), ("dummy_requests", series(report.dummyRequests)),
            ("analytics_reports", series(report.analyticsReports)),
            (
                "provinces",
                .array(
                    report.provinces.map {
                        object([
                            ("code", .string($0.code)), ("reports", number($0.reports)),
                            ("bluetooth_active", number($0.bluetoothActive)),
                            ("notifications_allowed", number($0.notificationsAllowed)),
                            ("exposure_notifications", number($0.exposureNotifications)),
                        ])
                    })
            ),
            ("registrations", series(report.registrations)), ("returning_sign_ins", number(report.returningSignIns)),
            ("contact_files", series(report.contactFiles)), ("lookups", series(report.lookups)),
            (
                "tracers",
                .array(report.tracers.map { object([("name", .string($0.name)), ("lookups", number($0.lookups))]) })
            ),
            (
                "pseudo_ids",
                object([("used", number(report.pseudoIDs.used)), ("capacity", number(report.pseudoIDs.capacity))])
            ),
        ])
    }

    /// The query of `GET /staff/v1/stats`: `from` and `to` as UTC times, the bucket's name.
    public static func statsQueryItems(_ query: StatsQuery) -> [(name: String, value: String)] {
        [("from", time(query.from)), ("to", time(query.to)), ("bucket", query.bucket.rawValue)]
    }

    // MARK: Reading

    /// The largest count a statistics answer may hold (2^53: exact in a JSON number read as a
    /// double, and far more than any store holds). Larger is refused as not from a TraceDesk
    /// server: sums and shares of the figures read can then never overflow.
    public static let maximumStatsCount: Int64 = 1 << 53

    /// Reads what ``statsReport(_:)`` writes; every series must have as many values as the
    /// query has buckets, and every count is within `0...maximumStatsCount`.
    public static func readStatsReport(_ bytes: [UInt8]) throws(FieldProblem) -> StatsReport {
        let reader = try document(bytes)
        let from = try requiredTime(reader, "from")
        let to = try requiredTime(reader, "to")
        guard let bucket = StatsBucket(rawValue: try reader.string("bucket")!) else {
            throw FieldProblem("bucket is not one of 5m, hour, day")
        }
        guard let query = StatsQuery(from: from, to: to, bucket: bucket) else {
            throw FieldProblem("from, to and bucket are not a range this version can ask for")
        }
        let buckets = query.bucketCount
        func counts(_ key: String, _ expected: Int) throws(FieldProblem) -> [Int64] {
            let items = try reader.array(key)!
            guard items.count == expected else {
                throw FieldProblem("\(key) has \(items.count) values where \(expected) were expected")
            }
            var values: [Int64] = []
            values.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                values.append(try Fields.integer(item, name: "\(key)[\(i)]", in: 0...maximumStatsCount))
            }
            return values
        }
        func series(_ key: String) throws(FieldProblem) -> StatsSeries { StatsSeries(values: try counts(key, buckets)) }
        func count(_ item: ObjectReader, _ key: String) throws(FieldProblem) -> Int64 {
            try item.integer(key, in: 0...maximumStatsCount)!
        }
        func entries(_ key: String) throws(FieldProblem) -> [ObjectReader] {
            var readers: [ObjectReader] = []
            for (i, item) in try reader.array(key)!.enumerated() {
                readers.append(try ObjectReader(item, path: "\(key)[\(i)]"))
            }
            return readers
        }
        func reasons(_ key: String) throws(FieldProblem) -> [ReasonCount] {
            var list: [ReasonCount] = []
            for item in try entries(key) {
                list.append(ReasonCount(reason: try item.string("reason")!, count: try count(item, "count")))
            }
            return list
        }
        var report = StatsReport(query: query, generatedAt: try requiredTime(reader, "generated_at"))
        report.authorized = try series("authorized")
        report.checked = try series("checked")
        report.uploaded = try series("uploaded")
        if let median = try reader.optional("median_seconds_to_upload", allowNull: true) {
            report.medianSecondsToUpload = try Fields.integer(
                median, name: "median_seconds_to_upload", in: 0...maximumStatsCount)
        }
        report.operators = []
        for item in try entries("operators") {
            report.operators.append(
                OperatorStats(
                    name: try item.string("name")!, authorized: try count(item, "authorized"),
                    checked: try count(item, "checked"), uploaded: try count(item, "uploaded")))
        }
        report.uploads = try series("uploads")
        report.uploadsRefused = try reasons("uploads_refused")
        report.keysAccepted = try series("keys_accepted")
        report.keysDropped = try series("keys_dropped")
        report.keysDroppedByReason = try reasons("keys_dropped_by_reason")
        report.keysPerUpload = try counts("keys_per_upload", StatsReport.keysPerUploadCap + 1)
        report.chunks = try series("chunks")
        report.keysPublished = try series("keys_published")
        report.paddingPublished = try reader.integer("padding_published", in: 0...maximumStatsCount)!
        report.realRequests = try series("real_requests")
        report.dummyRequests = try series("dummy_requests")
        report.analyticsReports = try series("analytics_reports")
        for item in try entries("provinces") {
            report.provinces.append(
                ProvinceStats(
                    code: try item.string("code")!, reports: try count(item, "reports"),
                    bluetoothActive: try count(item, "bluetooth_active"),
                    notificationsAllowed: try count(item, "notifications_allowed"),
                    exposureNotifications: try count(item, "exposure_notifications")))
        }
        report.registrations = try series("registrations")
        report.returningSignIns = try reader.integer("returning_sign_ins", in: 0...maximumStatsCount)!
        report.contactFiles = try series("contact_files")
        report.lookups = try series("lookups")
        for item in try entries("tracers") {
            report.tracers.append(TracerStats(name: try item.string("name")!, lookups: try count(item, "lookups")))
        }
        let pseudo = try nested(reader, "pseudo_ids")
        var capacity = PseudoIDCapacity(used: try count(pseudo, "used"))
        capacity.capacity = try pseudo.integer("capacity", in: 1...maximumStatsCount)!
        report.pseudoIDs = capacity
        return report
    }
}

extension StaffRequests {
    /// `?from=&to=&bucket=` of `GET /staff/v1/stats`, each given once: a range the desk can
    /// count (``StatsQuery/make(from:to:bucket:)``; `from` is moved down to its bucket's start).
    /// A range that is empty, too long, or too long for 5-minute buckets is refused with
    /// ``StatsInputError``'s message.
    public static func statsQuery(_ request: HTTPRequest) -> Result<StatsQuery, APIError> {
        rangeQuery(request, defaultBucket: nil)
    }

    /// `?from=&to=&bucket=`, the bucket required when there is no `defaultBucket`.
    static func rangeQuery(_ request: HTTPRequest, defaultBucket: StatsBucket?) -> Result<StatsQuery, APIError> {
        let allowed = ["from", "to", "bucket"]
        if let extra = request.query.first(where: { !allowed.contains($0.name) }) {
            return .failure(
                .invalidRequest(
                    "\(Fields.safeName(extra.name)) is not a parameter of this request (allowed: from, to, bucket)"))
        }
        func time(_ name: String) -> Date? {
            let values = request.queryValues(name)
            guard values.count == 1 else { return nil }
            return StaffWire.parseTime(values[0])
        }
        guard let from = time("from"), let to = time("to") else {
            return .failure(
                .invalidRequest("from and to must each be given once, UTC times written 2026-11-29T10:00:00.000Z"))
        }
        let buckets = request.queryValues("bucket")
        let bucket: StatsBucket
        if let defaultBucket, buckets.isEmpty {
            bucket = defaultBucket
        } else if buckets.count == 1, let given = StatsBucket(rawValue: buckets[0]) {
            bucket = given
        } else {
            return .failure(
                .invalidRequest(
                    defaultBucket == nil
                        ? "bucket must be given once: 5m, hour or day"
                        : "bucket may be given once: 5m, hour or day (hour when left out)"))
        }
        switch StatsQuery.make(from: from, to: to, bucket: bucket) {
        case .success(let query): return .success(query)
        case .failure(let problem): return .failure(.invalidRequest(problem.message))
        }
    }
}
