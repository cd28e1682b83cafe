import DeskAPI
import DeskCore
import Foundation
import JSONText
import Testing

/// The statistics' JSON: a full report reads back equal (every figure, series as arrays), an
/// empty one too; an answer with a series of the wrong length or another shape is refused; the
/// query string is read strictly and a range the desk cannot count gets StatsInputError's words.
@Suite struct StatsWireTests {
    static func bytes(_ value: JSONValue) -> [UInt8] { Array(value.serialized.utf8) }

    static func request(_ query: [(String, String)]) -> HTTPRequest {
        HTTPRequest(method: "GET", path: "/staff/v1/stats", query: query.map { (name: $0.0, value: $0.1) })
    }

    /// 2026-11-29T10:00:00.000Z, an hour boundary.
    static let start = Date(unixMilliseconds: 1_795_946_400_000)

    static func report() -> StatsReport {
        let query = try! StatsQuery.make(
            from: start, to: start.addingTimeInterval(3 * 3_600 + 125.5), bucket: .hour
        ).get()
        var report = StatsReport(query: query, generatedAt: start.addingTimeInterval(3 * 3_600 + 126))
        #expect(query.bucketCount == 4)
        report.authorized = StatsSeries(values: [3, 0, 1, 2])
        report.checked = StatsSeries(values: [2, 0, 1, 0])
        report.uploaded = StatsSeries(values: [1, 0, 1, 0])
        report.medianSecondsToUpload = 4_320
        report.operators = [
            OperatorStats(name: "ana", authorized: 4, checked: 2, uploaded: 2),
            OperatorStats(name: "bo", authorized: 2, checked: 1, uploaded: 0),
        ]
        report.uploads = StatsSeries(values: [1, 0, 1, 0])
        report.uploadsRefused = [ReasonCount(reason: "expired", count: 2), ReasonCount(reason: "consumed", count: 1)]
        report.keysAccepted = StatsSeries(values: [14, 0, 20, 0])
        report.keysDropped = StatsSeries(values: [1, 0, 0, 0])
        report.keysDroppedByReason = [ReasonCount(reason: "too_old", count: 1)]
        report.keysPerUpload[14] = 1
        report.keysPerUpload[15] = 1
        report.chunks = StatsSeries(values: [0, 1, 0, 0])
        report.keysPublished = StatsSeries(values: [0, 34, 0, 0])
        report.paddingPublished = 966
        report.realRequests = StatsSeries(values: [9, 0, 4, 1])
        report.dummyRequests = StatsSeries(values: [20, 22, 19, 3])
        report.analyticsReports = StatsSeries(values: [1, 1, 0, 0])
        report.provinces = [
            ProvinceStats(
                code: "MI", reports: 2, bluetoothActive: 2, notificationsAllowed: 1, exposureNotifications: 1),
            ProvinceStats(
                code: "ZZ", reports: 1, bluetoothActive: 0, notificationsAllowed: 0, exposureNotifications: 0),
        ]
        report.registrations = StatsSeries(values: [0, 0, 5, 0])
        report.returningSignIns = 2
        report.contactFiles = StatsSeries(values: [0, 3, 0, 0])
        report.lookups = StatsSeries(values: [0, 0, 0, 1])
        report.tracers = [TracerStats(name: "tina", lookups: 1)]
        report.pseudoIDs = PseudoIDCapacity(used: 5_000)
        return report
    }

    @Test("a report reads back equal: every figure, series as arrays, the median, the pseudo-ids")
    func roundTrip() throws {
        let report = Self.report()
        #expect(try StaffWire.readStatsReport(Self.bytes(StaffWire.statsReport(report))) == report)
        let empty = StatsReport(query: report.query, generatedAt: report.generatedAt)
        let read = try StaffWire.readStatsReport(Self.bytes(StaffWire.statsReport(empty)))
        #expect(read == empty)
        #expect(read.medianSecondsToUpload == nil && read.isEmpty && read.checkedShare == nil)
    }

    @Test("the shares are not sent: the reader derives them from the counts")
    func sharesNotSent() throws {
        let text = StaffWire.statsReport(Self.report()).serialized
        #expect(!text.contains("share") && !text.contains("per_chunk"))
        #expect(text.contains(#""authorized":[3,0,1,2]"#))
        #expect(text.contains(#""bucket":"hour""#))
        #expect(text.contains(#""from":"2026-11-29T10:00:00.000Z""#))
        let read = try StaffWire.readStatsReport(Array(text.utf8))
        #expect(read.uploadedShare == 2.0 / 6.0)
    }

    @Test("an answer that is not this shape is refused, naming the member")
    func badAnswers() throws {
        func refusal(_ edit: (inout [JSONValue.Member]) -> Void) -> String? {
            guard case .object(var members) = StaffWire.statsReport(Self.report()) else { return nil }
            edit(&members)
            do {
                _ = try StaffWire.readStatsReport(Self.bytes(.object(members)))
                return nil
            } catch {
                return error.text
            }
        }
        func replace(_ key: String, _ value: JSONValue) -> (inout [JSONValue.Member]) -> Void {
            { members in
                if let i = members.firstIndex(where: { $0.key == key }) { members[i].value = value }
            }
        }
        #expect(refusal(replace("authorized", .array([.number("1")])))?.contains("authorized has 1 values") == true)
        #expect(refusal(replace("keys_per_upload", .array([])))?.contains("keys_per_upload") == true)
        #expect(refusal(replace("bucket", .string("week")))?.contains("bucket") == true)
        #expect(refusal(replace("uploads", .array(Array(repeating: .number("-1"), count: 4)))) != nil)
        #expect(refusal({ $0.removeAll { $0.key == "tracers" } })?.contains("tracers") == true)
        // A from that is not a bucket start is not a query this version asks for.
        #expect(refusal(replace("from", .string("2026-11-29T10:30:00.000Z"))) != nil)
        #expect(throws: FieldProblem.self) { try StaffWire.readStatsReport(Array("[]".utf8)) }
    }

    @Test("counts beyond 2^53 are refused (a hostile server cannot overflow a sum); 2^53 itself reads")
    func hugeCounts() throws {
        func read(_ key: String, _ value: JSONValue) -> Result<StatsReport, FieldProblem> {
            guard case .object(var members) = StaffWire.statsReport(Self.report()) else {
                return .failure(FieldProblem("not an object"))
            }
            if let i = members.firstIndex(where: { $0.key == key }) { members[i].value = value }
            return Result { () throws(FieldProblem) in try StaffWire.readStatsReport(Self.bytes(.object(members))) }
        }
        let buckets = Self.report().query.bucketCount
        let max = String(Int64.max)
        for key in ["authorized", "real_requests", "dummy_requests", "keys_accepted"] {
            guard case .failure(let problem) = read(key, .array(Array(repeating: .number(max), count: buckets))) else {
                Issue.record("\(key): Int64.max must be refused")
                continue
            }
            #expect(problem.text.contains(key), "\(key): \(problem.text)")
        }
        #expect(throws: FieldProblem.self) { try read("padding_published", .number(max)).get() }
        #expect(throws: FieldProblem.self) { try read("returning_sign_ins", .number(String(1 << 53 + 1))).get() }
        #expect(throws: FieldProblem.self) { try read("median_seconds_to_upload", .number(max)).get() }
        #expect(
            throws: FieldProblem.self,
            performing: {
                try read(
                    "operators",
                    .array([
                        .object([
                            .init(key: "name", value: .string("ana")), .init(key: "authorized", value: .number(max)),
                            .init(key: "checked", value: .number("0")), .init(key: "uploaded", value: .number("0")),
                        ])
                    ])
                ).get()
            })
        // The largest count allowed reads, and every total and share of it is finite.
        let limit = String(StaffWire.maximumStatsCount)
        var report = try read("real_requests", .array(Array(repeating: .number(limit), count: buckets))).get()
        report.dummyRequests = report.realRequests
        #expect(report.realRequests.total == StaffWire.maximumStatsCount * Int64(buckets))
        #expect(report.dummyShare == 0.5)
        // Beyond what the reader lets in, totals saturate instead of trapping.
        #expect(StatsSeries(values: [.max, .max, 1]).total == .max)
        #expect(StatsSeries(values: [.min, -1]).total == .min)
        var huge = report
        huge.realRequests = StatsSeries(values: Array(repeating: .max, count: buckets))
        huge.dummyRequests = huge.realRequests
        #expect(huge.dummyShare == 0.5)
        #expect(StatsReport.median([(value: 5, count: .max), (value: 9, count: .max)]) == 5)
    }

    @Test("the query the client writes is the query the server reads")
    func queryRoundTrip() throws {
        for query in [
            Self.report().query, StatsQuery.last(.hour, now: Self.start.addingTimeInterval(61)),
            StatsQuery.last(.fortnight, now: Self.start), StatsQuery.last(.day, bucket: .fiveMinutes, now: Self.start),
        ] {
            let read = try StaffRequests.statsQuery(Self.request(StaffWire.statsQueryItems(query))).get()
            #expect(read == query)
        }
    }

    @Test("a bad query is a 400 that says what is wrong")
    func badQueries() {
        func detail(_ query: [(String, String)]) -> String? {
            if case .failure(let error) = StaffRequests.statsQuery(Self.request(query)) {
                #expect(error.status == 400)
                return error.detail
            }
            return nil
        }
        let from = "2026-11-29T10:00:00.000Z"
        #expect(detail([("from", from), ("to", from), ("bucket", "hour")])?.contains("the range is empty") == true)
        #expect(
            detail([("from", from), ("to", "2026-11-29T09:00:00.000Z"), ("bucket", "hour")])?.contains(
                "the range is empty") == true)
        #expect(
            detail([("from", "2026-10-01T00:00:00.000Z"), ("to", from), ("bucket", "day")])?.contains(
                "longer than 31 days") == true)
        #expect(
            detail([("from", "2026-11-27T10:00:00.000Z"), ("to", from), ("bucket", "5m")])?.contains(
                "5-minute buckets cover at most 24 hours") == true)
        #expect(
            detail([("from", from), ("to", "2026-11-29T11:00:00.000Z"), ("bucket", "week")])
                == "bucket must be given once: 5m, hour or day")
        #expect(detail([("from", from), ("bucket", "hour")])?.contains("from and to must each be given once") == true)
        #expect(
            detail([("from", "2026-11-29"), ("to", "2026-11-30T00:00:00.000Z"), ("bucket", "hour")])?.contains(
                "UTC times") == true)
        #expect(
            detail([("from", from), ("to", "2026-11-29T11:00:00.000Z"), ("bucket", "hour"), ("x", "1")])?.contains(
                "x is not a parameter") == true)
        #expect(
            detail([("from", from), ("from", from), ("to", "2026-11-29T11:00:00.000Z"), ("bucket", "hour")]) != nil)
    }
}
