import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import DeskRemote
import DeskStore
import Foundation
import JSONText
import Testing

/// The supervisor's statistics through both desks, over a small case written through the real
/// use cases (operators authorise, a tracer looks up) and the store's phone and APRICOT
/// contracts (checks, uploads, a refusal, dummy traffic, analytics, registrations, a contact
/// file), with every figure computed by hand from the definitions (docs/supervisor-guide.md).
@Suite struct StatsContractTests {
    /// 10:00 UTC, the fixture's start.
    static let ten = ContractFixture.start

    /// One upload of `code` at the clock's time: `accepted` keys kept, `tooOld` dropped.
    static func upload(_ f: ContractFixture, _ code: String, accepted: Int, tooOld: Int, seed: UInt8) throws
        -> UploadOutcome
    {
        let keys = (0..<accepted).map { i in
            AcceptedKey(
                key: TemporaryExposureKey(
                    keyData: (0..<16).map { UInt8($0) &+ seed &* 16 &+ UInt8(i) }, rollingStartNumber: 2_993_040,
                    rollingPeriod: 144),
                transmissionRiskLevel: 8, reportType: .confirmedTest, daysSinceOnsetOfSymptoms: 2)
        }
        let evaluation = UploadEvaluation(
            accepted: keys, dropped: (0..<tooOld).map { .init(index: accepted + $0, reason: .tooOld) },
            clockSkewSeconds: 0, clockSkewFlagged: false)
        return try f.store.consumeForUpload(otpHash: Codes.hash(code), now: f.clock.now()) { record in
            UploadRecord(
                otpHash: record.otpHash, receivedAt: f.clock.now(), symptomsStartedOn: record.symptomsStartedOn,
                province: Province.named("RM"), clientClock: 0, evaluation: evaluation, summariesJSON: "[]",
                summaryCount: 0)
        }
    }

    /// The case, at 10:00–11:20 on 2026-11-29 (clock left at 11:30:20):
    /// - 10:00 ana authorises A and B, bruno C; 10:00:30 an app checks A and B (3 dummy requests
    ///   too); 10:01:12 A is uploaded (1 key, 2 dropped as too old: 72 s after authorisation);
    ///   10:02:00 B (3 keys: 120 s); 10:05 an upload with C is refused (expired: 150 s lifetime).
    /// - 11:10 ana authorises D, 10 s later an app checks it (2 dummy requests), an analytics report from
    ///   Milan (Bluetooth on, notifications off, an exposure notification).
    /// - 11:20 four phones register over APRICOT (3 pseudo-ids each), the patient uploads one
    ///   contact file, and tina looks the patient up.
    static func seed(_ f: ContractFixture) async throws -> StaffSession {
        let admin = try await f.admin()
        let ana = try await f.person("ana", .operator, by: admin)
        let bruno = try await f.person("bruno", .operator, by: admin)
        let tina = try await f.person("tina", .tracer, by: admin)
        let sara = try await f.person("sara", .supervisor, by: admin)
        let (a, b, c, d) = (Codes.fresh(), Codes.fresh(), Codes.fresh(), Codes.fresh())
        let today = ContractFixture.today
        _ = try await f.desk.authorize(ana, code: a, symptomsStartedOn: today)
        _ = try await f.desk.authorize(ana, code: b, symptomsStartedOn: today)
        _ = try await f.desk.authorize(bruno, code: c, symptomsStartedOn: today)
        f.clock.set(ten.addingTimeInterval(30))
        _ = try f.store.recordCheck(otpHash: Codes.hash(a), now: f.clock.now())
        _ = try f.store.recordCheck(otpHash: Codes.hash(b), now: f.clock.now())
        for _ in 0..<3 { try f.store.countDummy(route: "/v1/ingestion/check-otp", now: f.clock.now()) }
        f.clock.set(ten.addingTimeInterval(72))
        guard case .stored = try upload(f, a, accepted: 1, tooOld: 2, seed: 1) else { throw CancellationError() }
        f.clock.set(ten.addingTimeInterval(120))
        guard case .stored = try upload(f, b, accepted: 3, tooOld: 0, seed: 2) else { throw CancellationError() }
        f.clock.set(ten.addingTimeInterval(300))
        if case .stored = try upload(f, c, accepted: 1, tooOld: 0, seed: 3) { throw CancellationError() }

        f.clock.set(ten.addingTimeInterval(70 * 60))
        _ = try await f.desk.authorize(ana, code: d, symptomsStartedOn: today)
        f.clock.set(ten.addingTimeInterval(70 * 60 + 10))
        _ = try f.store.recordCheck(otpHash: Codes.hash(d), now: f.clock.now())
        for _ in 0..<2 { try f.store.countDummy(route: "/v1/ingestion/upload", now: f.clock.now()) }
        let info = OperationalInfo(
            platform: .android, province: Province.named("MI")!, exposurePermission: true, bluetoothActive: true,
            notificationPermission: false, exposureNotification: true, lastRiskyExposureOn: today, build: 1)
        #expect(try f.store.recordOperationalInfo(info, allowance: nil, now: f.clock.now()))

        f.clock.set(ten.addingTimeInterval(80 * 60))
        _ = try TraceCase.seed(f.store, now: f.clock.now())
        _ = try await f.desk.traceLookup(tina, phone: "333 100 0001", purpose: TraceCase.purpose)
        // Off a bucket boundary, so the current 5-minute bucket has begun and counts.
        f.clock.set(ten.addingTimeInterval(90 * 60 + 20))
        return sara
    }

    @Test("every figure of the last 24 hours, as computed by hand", arguments: DeskKind.allCases)
    func lastDay(kind: DeskKind) async throws {
        try await ContractFixture.with(kind, idleMinutes: 240) { f in
            let sara = try await Self.seed(f)
            let query = StatsQuery.last(.day, now: f.clock.now())
            let report = try await f.desk.statistics(sara, query: query)

            // 24 hourly buckets, from 12:00 yesterday: 10:00 is bucket 22, 11:00 bucket 23.
            #expect(report.query == query && query.bucketCount == 24, "\(kind)")
            #expect(query.from == Self.ten.addingTimeInterval(-22 * 3_600), "\(kind)")
            #expect(report.generatedAt == f.clock.now(), "\(kind)")
            func series(_ at22: Int64, _ at23: Int64) -> StatsSeries {
                var values = Array(repeating: Int64(0), count: 24)
                values[22] = at22
                values[23] = at23
                return StatsSeries(values: values)
            }
            #expect(report.authorized == series(3, 1), "\(kind)")
            #expect(report.checked == series(2, 1), "\(kind)")
            #expect(report.uploaded == series(2, 0), "\(kind)")
            #expect(report.medianSecondsToUpload == 72, "\(kind): the lower median of 72 s and 120 s")
            #expect(
                report.operators == [
                    OperatorStats(name: "ana", authorized: 3, checked: 3, uploaded: 2),
                    OperatorStats(name: "bruno", authorized: 1, checked: 0, uploaded: 0),
                ], "\(kind)")
            #expect(report.uploads == series(2, 0), "\(kind)")
            #expect(report.keysAccepted == series(4, 0), "\(kind)")
            #expect(report.keysDropped == series(2, 0), "\(kind)")
            #expect(report.keysDroppedByReason == [ReasonCount(reason: "too_old", count: 2)], "\(kind)")
            var histogram = Array(repeating: Int64(0), count: 16)
            histogram[1] = 1
            histogram[3] = 1
            #expect(report.keysPerUpload == histogram, "\(kind)")
            #expect(report.uploadsRefused == [ReasonCount(reason: "expired", count: 1)], "\(kind)")
            #expect(report.chunks == series(0, 0) && report.keysPublished == series(0, 0), "\(kind)")
            #expect(report.paddingPublished == 0, "\(kind)")
            // Checks, uploads accepted and refused at 10:00; a check and an analytics report at 11:00.
            #expect(report.realRequests == series(5, 2), "\(kind)")
            #expect(report.dummyRequests == series(3, 2), "\(kind)")
            #expect(report.analyticsReports == series(0, 1), "\(kind)")
            #expect(
                report.provinces == [
                    ProvinceStats(
                        code: "MI", reports: 1, bluetoothActive: 1, notificationsAllowed: 0, exposureNotifications: 1)
                ], "\(kind)")
            #expect(report.registrations == series(0, 4), "\(kind)")
            #expect(report.returningSignIns == 0, "\(kind)")
            #expect(report.contactFiles == series(0, 1), "\(kind)")
            #expect(report.lookups == series(0, 1), "\(kind)")
            #expect(report.tracers == [TracerStats(name: "tina", lookups: 1)], "\(kind)")
            #expect(report.pseudoIDs.used == 12, "\(kind)")
            // The derived figures.
            #expect(report.checkedShare == 0.75 && report.uploadedShare == 0.5, "\(kind)")
            #expect(report.dummyShare == 5.0 / 12.0 && report.keysPerChunk == nil, "\(kind)")
            #expect(report.keysPerUploadMean == 2, "\(kind)")
        }
    }

    @Test("the last hour in 5-minute buckets holds only what happened in it", arguments: DeskKind.allCases)
    func lastHour(kind: DeskKind) async throws {
        try await ContractFixture.with(kind, idleMinutes: 240) { f in
            let sara = try await Self.seed(f)
            // 11:30:20: twelve buckets from 10:35; 11:10 is bucket 7, 11:20 bucket 9.
            let query = StatsQuery.last(.hour, now: f.clock.now())
            let report = try await f.desk.statistics(sara, query: query)
            #expect(query.bucket == .fiveMinutes && query.bucketCount == 12, "\(kind)")
            #expect(query.from == Self.ten.addingTimeInterval(35 * 60), "\(kind)")
            #expect(report.authorized.total == 1 && report.authorized.values[7] == 1, "\(kind)")
            #expect(report.checked.total == 1 && report.uploaded.total == 0, "\(kind)")
            #expect(report.medianSecondsToUpload == nil && report.uploadedShare == 0, "\(kind)")
            #expect(report.operators == [OperatorStats(name: "ana", authorized: 1, checked: 1, uploaded: 0)], "\(kind)")
            #expect(report.uploads.total == 0 && report.uploadsRefused.isEmpty, "\(kind)")
            #expect(report.keysPerUploadMean == nil, "\(kind): no upload, nothing to divide")
            #expect(report.realRequests.values[7] == 2 && report.realRequests.total == 2, "\(kind)")
            #expect(report.dummyRequests.values[7] == 2 && report.dummyRequests.total == 2, "\(kind)")
            #expect(report.registrations.values[9] == 4 && report.lookups.values[9] == 1, "\(kind)")
        }
    }

    @Test(
        "today since local midnight is a plain from/to/hour query both desks answer: no new parameter",
        arguments: DeskKind.allCases)
    func today(kind: DeskKind) async throws {
        try await ContractFixture.with(kind, idleMinutes: 240) { f in
            let sara = try await Self.seed(f)
            // 11:30:20 UTC is 12:30:20 in Rome: today there began at 23:00 UTC, so 10:00 is
            // hour 11 and 11:00 hour 12 of 13.
            let rome = TimeZone(identifier: "Europe/Rome")!
            let query = StatsQuery.last(.today, now: f.clock.now(), timeZone: rome)
            #expect(query.bucket == .hour && query.bucketCount == 13, "\(kind)")
            #expect(query.from == Self.ten.addingTimeInterval(-11 * 3_600), "\(kind)")
            #expect(StatsQuery(from: query.from, to: query.to, bucket: query.bucket) == query, "\(kind)")
            let report = try await f.desk.statistics(sara, query: query)
            #expect(report.query == query, "\(kind)")
            var values = Array(repeating: Int64(0), count: 13)
            values[11] = 3
            values[12] = 1
            #expect(report.authorized == StatsSeries(values: values), "\(kind)")
            #expect(report.registrations.total == 4 && report.lookups.total == 1, "\(kind)")
        }
    }

    @Test("a range with no data is all zero, its shares nil; pseudo-ids are counted now", arguments: DeskKind.allCases)
    func empty(kind: DeskKind) async throws {
        try await ContractFixture.with(kind, idleMinutes: 240) { f in
            let sara = try await Self.seed(f)
            // The day before yesterday, in hours.
            let query = try StatsQuery.make(
                from: Self.ten.addingTimeInterval(-2 * 86_400), to: Self.ten.addingTimeInterval(-86_400), bucket: .hour
            ).get()
            let report = try await f.desk.statistics(sara, query: query)
            #expect(report.isEmpty, "\(kind)")
            #expect(report.authorized == StatsSeries(count: 24) && report.operators.isEmpty, "\(kind)")
            #expect(report.checkedShare == nil && report.dummyShare == nil && report.keysPerChunk == nil, "\(kind)")
            #expect(report.medianSecondsToUpload == nil, "\(kind)")
            #expect(report.pseudoIDs.used == 12, "\(kind)")
        }
    }

    @Test(
        "a query the desk cannot count is refused in the same words by both desks; other roles are refused",
        arguments: DeskKind.allCases)
    func refusals(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let sessions = try await f.everyRole()
            let sara = try #require(sessions[.supervisor])
            let now = f.clock.now()
            let tooFine = await failure { () async throws(ServiceError) in
                try await f.desk.statistics(sara, query: .last(.fortnight, bucket: .fiveMinutes, now: now))
            }
            guard case .invalid(let message) = tooFine else {
                Issue.record("\(kind): 14 days in 5-minute buckets must be invalid, got \(String(describing: tooFine))")
                return
            }
            #expect(message == "5-minute buckets cover at most 24 hours: choose hour or day buckets", "\(kind)")
            for role in StaffRole.allCases where role != .supervisor {
                let refused = await failure { () async throws(ServiceError) in
                    try await f.desk.statistics(sessions[role]!, query: .last(.day, now: now))
                }
                #expect(refused?.isForbidden == true, "\(kind): \(role)")
                #expect(
                    refused?.message
                        == "your role (\(role.rawValue)) cannot read the statistics: that needs the supervisor role",
                    "\(kind): \(role)")
            }
            // A non-supervisor with a bad query: the role is what both desks refuse first.
            for role in StaffRole.allCases where role != .supervisor {
                let refused = await failure { () async throws(ServiceError) in
                    try await f.desk.statistics(
                        sessions[role]!, query: .last(.fortnight, bucket: .fiveMinutes, now: now))
                }
                #expect(refused?.isForbidden == true, "\(kind): \(role) with a bad query")
                #expect(
                    refused?.message
                        == "your role (\(role.rawValue)) cannot read the statistics: that needs the supervisor role",
                    "\(kind): \(role) with a bad query")
            }
            // Not audited: figures only.
            let before = try f.auditTrail().count
            _ = try await f.desk.statistics(sara, query: .last(.week, now: now))
            #expect(try f.auditTrail().count == before, "\(kind)")
        }
    }
    @Test("a server answering for another range is another version; counts beyond 2^53 are not TraceDesk's; no crash")
    func oddAnswers() async throws {
        let now = Date()
        let query = StatsQuery.last(.day, now: now)
        let sara = StaffSession(
            token: "tds_" + String(repeating: "A", count: 43), user: "sara", role: .supervisor, signedInAt: now,
            expiresAt: now + 3600, idleSeconds: 600)
        func ask(_ report: StatsReport) async throws -> (ServiceError?, String?, String) {
            let server = try CannedServer(
                status: "200 OK", headers: ["Content-Type: application/json"],
                body: StaffWire.statsReport(report).serialized)
            defer { server.stop() }
            let desk = RemoteDesk(url: server.url, options: RemoteDeskFailureTests.fast)
            let error = await failure { () async throws(ServiceError) in try await desk.statistics(sara, query: query) }
            return (error, desk.connectionProblem, server.url.absoluteString)
        }
        let (other, problem, location) = try await ask(
            StatsReport(query: .last(.day, now: now - 7_200), generatedAt: now))
        #expect(
            other
                == .failed(
                    "the TraceDesk server at \(location) answered the statistics for another range than asked: it may run another version than this console"
                ))
        #expect(problem != "not a TraceDesk server")
        var huge = StatsReport(query: query, generatedAt: now)
        huge.realRequests = StatsSeries(values: Array(repeating: .max, count: query.bucketCount))
        let (refused, _, _) = try await ask(huge)
        guard case .failed(let text) = refused else {
            Issue.record("expected .failed, got \(String(describing: refused))")
            return
        }
        #expect(text.contains("is not a TraceDesk server") && text.contains("real_requests"))
    }
}
