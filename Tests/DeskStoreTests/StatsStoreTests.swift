import CivilCalendar
import DeskCore
import DeskTestSupport
import Foundation
import Testing

@testable import DeskStore

/// A small day written through the store's own methods, at chosen instants (T = Fixture.now =
/// 2026-11-29 10:00:00 UTC), and the figures it must give, worked out by hand.
enum StatsScenario {
    static let t = Fixture.now
    /// T + minutes (and seconds).
    static func at(_ minutes: Int, _ seconds: Double = 0) -> Date { t + Double(minutes) * 60 + seconds }
    /// When the figures are read: 12:30, so 10:00 and 11:00 are closed hours (12:00 is not).
    static let readAt = at(150)

    static func upload(
        _ store: any Store, code: Int, at: Date, accepted: Int, keyBase: Int, dropped: [KeyDropReason] = []
    ) throws -> UploadOutcome {
        let hash = Fixture.hash(code)
        let keys = (0..<accepted).map { ChunkStoreTests.key(keyBase + $0, start: ChunkStoreTests.yesterday) }
        let drops = dropped.enumerated().map {
            UploadEvaluation.DroppedKey(index: accepted + $0.offset, reason: $0.element)
        }
        return try store.consumeForUpload(otpHash: hash, now: at) { _ in
            UploadRecord(
                otpHash: hash, receivedAt: at, symptomsStartedOn: Fixture.onset, province: Province.named("RM"),
                clientClock: 0,
                evaluation: UploadEvaluation(
                    accepted: keys, dropped: drops, clockSkewSeconds: 0, clockSkewFlagged: false),
                summariesJSON: "[]", summaryCount: 0)
        }
    }

    static func authorize(
        _ store: any Store, _ code: Int, by name: String, at: Date, lifetime: Duration = .seconds(3600)
    )
        throws
    {
        guard
            case .authorized = try store.authorize(
                otpHash: Fixture.hash(code), symptomsStartedOn: Fixture.onset, by: name, now: at, lifetime: lifetime)
        else { throw StoreError.failed(operation: "test authorize", reason: "not authorised") }
    }

    static func info(_ province: String, bluetooth: Bool, notifications: Bool, exposure: Bool) -> OperationalInfo {
        OperationalInfo(
            platform: .android, province: Province.named(province)!, exposurePermission: true,
            bluetoothActive: bluetooth, notificationPermission: notifications, exposureNotification: exposure,
            lastRiskyExposureOn: Fixture.onset, build: 1)
    }

    /// Pads chunks with two keys, so the padding sum shows.
    final class PaddingBuilder: @unchecked Sendable {
        func build(_ draft: ChunkDraft) throws(StoreError) -> ChunkBuild {
            let padding = (0..<2).map { n in
                PublishableKey(
                    keyData: Array(repeating: UInt8(200 + n), count: 16), rollingStartNumber: ChunkStoreTests.yesterday,
                    rollingPeriod: 144, transmissionRiskLevel: 1, reportType: .confirmedTest,
                    daysSinceOnsetOfSymptoms: 0)
            }
            return ChunkBuild(
                zip: Array("zip \(draft.index)".utf8), exportBinSHA256: String(repeating: "b", count: 64),
                paddingKeys: padding, region: "222", keyID: "222", keyVersion: "v1")
        }
    }

    /// Writes the day. Times are T + minutes.
    static func write(_ store: any Store, _ space: StoreSpace) throws {
        // Authorisations (lifetime 1 h unless said).
        try authorize(store, 1, by: "rossi", at: at(0))  // exactly the range's first instant
        try authorize(store, 2, by: "rossi", at: at(10))
        try authorize(store, 3, by: "bianchi", at: at(20))
        try authorize(store, 4, by: "bianchi", at: at(60))  // exactly 11:00, the second hour's start
        try authorize(store, 5, by: "verdi", at: t - 0.001)  // one ms before the range
        try authorize(store, 6, by: "rossi", at: at(30), lifetime: .seconds(60))
        // Checks: codes 1 (twice), 2, 4 and 6 answered "authorised"; 6 again after it expired.
        for (code, minute, second) in [(1, 1, 0.0), (1, 2, 0), (2, 11, 0), (6, 30, 30), (6, 45, 0), (4, 61, 0)] {
            _ = try store.recordCheck(otpHash: Fixture.hash(code), now: at(minute, second))
        }
        _ = try store.recordCheck(otpHash: Fixture.hash(99), now: at(12))  // unknown: no event
        // Code 6 authorised again at 11:30 by verdi: its row moves to 11:30, unchecked.
        try authorize(store, 6, by: "verdi", at: at(90))
        // Uploads: code 1 at 10:05:30 (2 keys, 1 dropped too_old: 330 s after authorisation),
        // code 3 at 10:20:45 (16 keys: 45 s), code 4 at 11:02 (0 keys, 2 dropped: 120 s).
        _ = try upload(store, code: 1, at: at(5, 30), accepted: 2, keyBase: 100, dropped: [.tooOld])
        _ = try upload(store, code: 3, at: at(20, 45), accepted: 16, keyBase: 200)
        _ = try upload(store, code: 4, at: at(62), accepted: 0, keyBase: 300, dropped: [.future, .tooOld])
        // Refused: code 2 expired (11:15), code 1 consumed (12:10).
        _ = try upload(store, code: 2, at: at(75), accepted: 1, keyBase: 400)
        _ = try upload(store, code: 1, at: at(130), accepted: 1, keyBase: 500)
        // Analytics: RM at 10:00 and 10:40, MI at 12:01; a code no longer in Province.all ("XX")
        // at 12:05, as old data would have it (written directly: no event).
        _ = try store.recordOperationalInfo(
            info("RM", bluetooth: true, notifications: true, exposure: false), allowance: nil, now: at(0))
        _ = try store.recordOperationalInfo(
            info("RM", bluetooth: false, notifications: true, exposure: true), allowance: nil, now: at(40))
        _ = try store.recordOperationalInfo(
            info("MI", bluetooth: true, notifications: false, exposure: false), allowance: nil, now: at(121))
        try space.execute(
            """
            INSERT INTO operational_info (received_at_ms, platform, province, build, exposure_permission,
                bluetooth_active, notification_permission, exposure_notification, last_risky_exposure_on)
            VALUES (\(at(125).unixMilliseconds), 'ios', 'XX', 1, 1, 1, 1, 1, NULL)
            """)
        // Dummy traffic: 10:03 and 10:04 (one 5-minute slot), 11:58, 12:20.
        for minute in [3, 4, 118, 140] { try store.countDummy(route: "/v1/ingestion/upload", now: at(minute)) }
        // APRICOT: users 1 (10:15) and 2 (11:05) new, user 1 back at 12:15; 10 pseudo-ids each.
        let counter = Apricot.Counter()
        let user1 = try Apricot.register(store, 1, count: 10, at: at(15), suffixes: counter.take)
        try Apricot.register(store, 2, count: 10, at: at(65), suffixes: counter.take)
        try Apricot.register(store, 1, count: 10, at: at(135), suffixes: counter.take)
        // Contact files: user 1 at 10:50, the same day again at 12:20 (counts again).
        for minute in [50, 140] {
            _ = try store.storeContactFile(
                userID: user1.userID, day: t.utcDay, records: [Apricot.record(PseudoID(suffix: 11), 1_795_860_000)],
                receivedAt: at(minute), clientClock: 0, skewSeconds: 0)
        }
        // Lookups: neri at 10:55 and 11:10, gialli at 11:10; another audited action is not one.
        try store.appendAudit(actor: "neri", action: .traceLookup, target: "x", detail: "{}", now: at(55))
        try store.appendAudit(actor: "neri", action: .traceLookup, target: "x", detail: "{}", now: at(70))
        try store.appendAudit(actor: "gialli", action: .traceLookup, target: "x", detail: "{}", now: at(70))
        try store.appendAudit(actor: "neri", action: .traceExport, target: "x", detail: "{}", now: at(71))
        // One chunk at 12:25: the 18 keys of codes 1 and 3 (the refused uploads stored none),
        // and 2 padding keys.
        let builder = PaddingBuilder()
        var chunks = 0
        while try store.publishChunk(now: at(145), policy: PublishingPolicy(), build: builder.build) != nil {
            chunks += 1
        }
        #expect(chunks == 1)
    }

    /// [10:00, 12:30) in hours: buckets 10:00, 11:00, 12:00.
    static var hours: StatsQuery {
        try! StatsQuery.make(from: t, to: readAt, bucket: .hour).get()
    }

    /// The figures of ``hours``, by hand.
    static func expectHours(_ r: StatsReport) {
        // Authorised: 10:00 codes 1, 2, 3 (6 moved to 11:30; 5 is before the range);
        // 11:00 codes 4, 6.
        #expect(r.authorized.values == [3, 2, 0])
        // Checked: 1, 2 in the first hour; 4 in the second (6's check was before its new authorisation).
        #expect(r.checked.values == [2, 1, 0])
        // Uploaded: 1, 3; then 4.
        #expect(r.uploaded.values == [2, 1, 0])
        // Seconds to upload 330, 45, 120: sorted 45, 120, 330, the middle one.
        #expect(r.medianSecondsToUpload == 120)
        // bianchi 3 and 4 (checked 4, uploaded both), rossi 1 and 2 (checked both, uploaded 1),
        // verdi 6; bianchi before rossi by name.
        #expect(
            r.operators == [
                OperatorStats(name: "bianchi", authorized: 2, checked: 1, uploaded: 2),
                OperatorStats(name: "rossi", authorized: 2, checked: 2, uploaded: 1),
                OperatorStats(name: "verdi", authorized: 1, checked: 0, uploaded: 0),
            ])
        #expect(r.uploads.values == [2, 1, 0])
        #expect(r.keysAccepted.values == [18, 0, 0])  // 2 + 16
        #expect(r.keysDropped.values == [1, 2, 0])
        // too_old 1 + 1, future 1.
        #expect(
            r.keysDroppedByReason == [
                ReasonCount(reason: "too_old", count: 2), ReasonCount(reason: "future", count: 1),
            ])
        var histogram = [Int64](repeating: 0, count: 16)
        histogram[0] = 1  // code 4
        histogram[2] = 1  // code 1
        histogram[15] = 1  // code 3's 16 keys: "15 or more"
        #expect(r.keysPerUpload == histogram)
        #expect(
            r.uploadsRefused == [ReasonCount(reason: "consumed", count: 1), ReasonCount(reason: "expired", count: 1)])
        #expect(r.chunks.values == [0, 0, 1])
        #expect(r.keysPublished.values == [0, 0, 18])
        #expect(r.paddingPublished == 2)
        // Real: 10:00 checks at :01 :02 :11 :30:30 :45 (5), uploads :05:30 :20:45 (2), analytics
        // :00 :40 (2) = 9; 11:00 check :01, upload :02, refusal :15 = 3; 12:00 refusal :10,
        // analytics :01 = 2.
        #expect(r.realRequests.values == [9, 3, 2])
        #expect(r.dummyRequests.values == [2, 1, 1])
        // RM 10:00 and 10:40; MI 12:01 and XX 12:05.
        #expect(r.analyticsReports.values == [2, 0, 2])
        #expect(
            r.provinces == [
                ProvinceStats(
                    code: "RM", reports: 2, bluetoothActive: 1, notificationsAllowed: 2, exposureNotifications: 1),
                ProvinceStats(
                    code: "MI", reports: 1, bluetoothActive: 1, notificationsAllowed: 0, exposureNotifications: 0),
                ProvinceStats(
                    code: "XX", reports: 1, bluetoothActive: 1, notificationsAllowed: 1, exposureNotifications: 1),
            ])
        #expect(r.provinces.last?.province == nil, "XX is kept, with no province behind it")
        #expect(r.registrations.values == [1, 1, 0])
        #expect(r.returningSignIns == 1)
        #expect(r.contactFiles.values == [1, 0, 1])
        #expect(r.lookups.values == [1, 2, 0])
        #expect(r.tracers == [TracerStats(name: "neri", lookups: 2), TracerStats(name: "gialli", lookups: 1)])
        #expect(r.pseudoIDs.used == 20)
        #expect(r.checkedShare == 3.0 / 5.0)
        #expect(r.dummyShare == 4.0 / 18.0)
    }
}

@Suite("Store contract: the supervisor's statistics")
struct StatsStoreTests {
    typealias S = StatsScenario

    @Test(
        "every figure, by hand; rolled-up hours and the live part give what counting everything live gives",
        arguments: StoreKind.testable)
    func everyFigure(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try S.write(store, space)
            // Read at 10:01: nothing of the range is rolled up (the rollup stops at 09:00), all live.
            let live = try store.statistics(S.hours, now: S.at(1))
            S.expectHours(live)
            #expect(try space.scalar("SELECT to_ms FROM stats_rollup") == S.at(-60).unixMilliseconds)
            // Read at 12:30: 09:00–12:00 are rolled up now, 12:00–12:30 is counted live.
            let rolled = try store.statistics(S.hours, now: S.readAt)
            #expect(try space.scalar("SELECT to_ms FROM stats_rollup") == S.at(120).unixMilliseconds)
            S.expectHours(rolled)
            #expect(Self.figures(rolled) == Self.figures(live))
            // Across the watermark: 11:00–12:30 is one rolled hour and the live part.
            let tail = try store.statistics(
                try StatsQuery.make(from: S.at(60), to: S.readAt, bucket: .hour).get(), now: S.readAt)
            #expect(tail.authorized.values == [2, 0])
            #expect(tail.realRequests.values == [3, 2])
            #expect(tail.medianSecondsToUpload == 120)  // code 4 only
        }
    }

    @Test(
        "a rollup is idempotent, leaves a 2-minute grace, and goes back at most the longest query",
        arguments: StoreKind.testable)
    func rollupIdempotent(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try S.write(store, space)
            // 12:01: 11:00–12:00 ended a minute ago, within the grace: rolled up to 11:00.
            // 31 days back from 12:00 is 744 hours, less the one in its grace: 743.
            #expect(try store.rollUpStatistics(now: S.at(121)) == 31 * 24 - 1)
            #expect(try store.rollUpStatistics(now: S.at(121)) == 0)
            #expect(try store.rollUpStatistics(now: S.readAt) == 1)
            let first = try store.statistics(S.hours, now: S.readAt)
            #expect(try store.rollUpStatistics(now: S.readAt) == 0)
            let second = try store.statistics(S.hours, now: S.readAt)
            #expect(Self.figures(first) == Self.figures(second))
            S.expectHours(second)
        }
    }

    @Test("two stores on one database roll up at once: each hour once", arguments: StoreKind.testable)
    func concurrentRollups(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let writer = try space.open()
            try S.write(writer, space)
            let stores = [try space.open(), try space.open()]
            let counts = concurrently(2) { index in (try? stores[index].rollUpStatistics(now: S.readAt)) ?? -1 }
            #expect(counts.sorted().first ?? -1 >= 0, "neither failed")
            #expect(counts.reduce(0, +) == 31 * 24, "12:00 back 31 days, each hour once")
            S.expectHours(try stores[0].statistics(S.hours, now: S.readAt))
            S.expectHours(try stores[1].statistics(S.hours, now: S.readAt))
        }
    }

    @Test("day buckets and 5-minute buckets; a row at a bucket's start is in it", arguments: StoreKind.testable)
    func otherBuckets(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try S.write(store, space)
            let days = StatsQuery.last(.fortnight, now: S.readAt)
            let byDay = try store.statistics(days, now: S.readAt)
            #expect(byDay.query.bucketCount == 14)
            // Everything is on the last day, code 5 (09:59:59.999) too.
            var authorized = [Int64](repeating: 0, count: 14)
            authorized[13] = 6
            #expect(byDay.authorized.values == authorized)
            #expect(byDay.realRequests.total == 14 && byDay.realRequests.values[13] == 14)
            #expect(byDay.operators.first == OperatorStats(name: "bianchi", authorized: 2, checked: 1, uploaded: 2))
            #expect(byDay.operators.map(\.name) == ["bianchi", "rossi", "verdi"])
            #expect(byDay.operators.last?.authorized == 2, "verdi: codes 5 and 6")
            let fiveMinutes = try StatsQuery.make(from: S.t, to: S.at(60), bucket: .fiveMinutes).get()
            let r = try store.statistics(fiveMinutes, now: S.readAt)
            #expect(r.query.bucketCount == 12)
            #expect(r.authorized.values == [1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0])  // 10:00, 10:10, 10:20
            // 10:00–10:05: checks :01 :02, analytics :00; then upload :05:30; check :11; upload
            // :20:45; check :30:30; analytics :40; check :45.
            #expect(r.realRequests.values == [3, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0])
            #expect(r.dummyRequests.values == [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
            #expect(r.registrations.values == [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0])
            #expect(r.contactFiles.values[10] == 1 && r.lookups.values[11] == 1)
            // Uploaded in the hour: codes 1 (330 s) and 3 (45 s): an even count, the lower one.
            #expect(r.medianSecondsToUpload == 45)
        }
    }

    @Test("authorising a code again resets its check", arguments: StoreKind.testable)
    func reauthorisationResetsCheck(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try S.authorize(store, 1, by: "rossi", at: S.at(0), lifetime: .seconds(60))
            _ = try store.recordCheck(otpHash: Fixture.hash(1), now: S.at(0, 30))
            let query = try StatsQuery.make(from: S.t, to: S.at(5), bucket: .fiveMinutes).get()
            #expect(try store.statistics(query, now: S.at(5)).checked.total == 1)
            try S.authorize(store, 1, by: "rossi", at: S.at(2))
            let again = try store.statistics(query, now: S.at(5))
            #expect(again.authorized.total == 1 && again.checked.total == 0)
            _ = try store.recordCheck(otpHash: Fixture.hash(1), now: S.at(3))
            _ = try store.recordCheck(otpHash: Fixture.hash(1), now: S.at(4))
            #expect(try store.statistics(query, now: S.at(5)).checked.total == 1)
            #expect(try space.scalar("SELECT checked_at_ms FROM otp_authorizations") == S.at(3).unixMilliseconds)
        }
    }

    @Test("migration 7 marks a code checked from its events since its authorisation", arguments: StoreKind.testable)
    func backfill(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try S.authorize(store, 1, by: "rossi", at: S.at(0))
            try S.authorize(store, 2, by: "rossi", at: S.at(0))
            try S.authorize(store, 3, by: "rossi", at: S.at(10))
            _ = try store.recordCheck(otpHash: Fixture.hash(1), now: S.at(1))
            _ = try store.recordCheck(otpHash: Fixture.hash(1), now: S.at(2))
            // Code 2 only answered "expired"; code 3's "authorised" came before its authorisation.
            for (code, minute, status) in [(2, 3, "expired"), (3, 5, "authorized")] {
                try space.execute(
                    """
                    INSERT INTO events (at_ms, kind, otp_hash, actor, detail)
                    VALUES (\(S.at(minute).unixMilliseconds), 'otp_checked', '\(Fixture.hash(code).stored.hex)', NULL,
                        '{"status":"\(status)"}')
                    """)
            }
            // Back to version 6, then open again: migration 7 runs on these rows (and every later
            // one, undone here too: the runner applies what is above the highest version; migration
            // 10 keys every code once more: `.stored` of what it finds).
            try space.execute(
                """
                DROP TABLE case_history; DROP TABLE follow_up_checks; DROP TABLE follow_up_attempts;
                DROP TABLE follow_up_cases; DROP TABLE follow_ups; DROP TABLE cases
                """)
            if kind == .postgres {
                // Migration 12's trigger functions outlive the tables (SQLite's triggers die with them).
                try space.execute(
                    """
                    DROP FUNCTION follow_up_cases_facts_added(); DROP FUNCTION follow_up_cases_facts_removed();
                    DROP FUNCTION follow_up_cases_facts_changed(); DROP FUNCTION follow_ups_facts_reached();
                    DROP FUNCTION cases_facts_opened()
                    """)
            }
            try space.execute(KeySweepStoreTests.undoMigration13)
            try space.execute(StoreSecretsTests.undoMigration10)
            try space.execute(
                """
                DROP TABLE staff_sign_in_sources; ALTER TABLE staff_sessions DROP COLUMN idle_seconds;
                DROP INDEX otp_authorizations_by_time; ALTER TABLE otp_authorizations DROP COLUMN checked_at_ms;
                DROP TABLE stats_hourly; DROP TABLE stats_rollup; DROP TABLE his_clients;
                DELETE FROM schema_migrations WHERE version >= 7
                """)
            let reopened = try space.open()
            #expect(try reopened.schemaVersion() == Migrations.latestVersion)
            #expect(try space.scalar("SELECT count(*) FROM otp_authorizations WHERE checked_at_ms IS NOT NULL") == 1)
            #expect(
                try space.scalar(
                    "SELECT checked_at_ms FROM otp_authorizations WHERE otp_hash = '\(Fixture.hash(1).stored.stored.hex)'"
                )
                    == S.at(1).unixMilliseconds)
        }
    }

    @Test("no data, and nothing in the range: every figure zero, shares nil", arguments: StoreKind.testable)
    func empty(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            let query = StatsQuery.last(.day, now: S.readAt)
            let report = try store.statistics(query, now: S.readAt)
            #expect(report.isEmpty)
            var zero = StatsReport(query: query, generatedAt: S.readAt)
            zero.pseudoIDs = report.pseudoIDs
            #expect(report == zero && report.pseudoIDs.used == 0)
            #expect(report.checkedShare == nil && report.uploadedShare == nil && report.dummyShare == nil)
            #expect(report.keysPerChunk == nil && report.keysPerUploadMean == nil)
            try S.write(store, space)
            let before = try StatsQuery.make(from: S.t - 86_400 * 3, to: S.t - 86_400, bucket: .hour).get()
            let nothing = try store.statistics(before, now: S.readAt)
            #expect(nothing.isEmpty && nothing.medianSecondsToUpload == nil && nothing.operators.isEmpty)
            #expect(nothing.pseudoIDs.used == 20, "the capacity is now's")
        }
    }

    @Test("retention removes rolled-up hours older than the longest query", arguments: StoreKind.testable)
    func retention(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try S.write(store, space)
            try store.rollUpStatistics(now: S.readAt)
            #expect(try space.scalar("SELECT count(*) FROM stats_hourly WHERE hour_ms = \(S.t.unixMilliseconds)") > 0)
            // 31 days after 11:01: the hours before 11:00 go, 11:00 stays.
            let later = S.at(61) + Double(StatsQuery.maximumDays) * 86_400
            let report = try store.cleanup(now: later, policy: RetentionPolicy())
            #expect(report.other > 0)
            #expect(
                try space.scalar("SELECT count(*) FROM stats_hourly WHERE hour_ms < \(S.at(60).unixMilliseconds)") == 0)
            #expect(
                try space.scalar("SELECT count(*) FROM stats_hourly WHERE hour_ms = \(S.at(60).unixMilliseconds)") > 0)
            #expect(try space.scalar("SELECT from_ms FROM stats_rollup") == S.at(60).unixMilliseconds)
            #expect(try space.scalar("SELECT to_ms FROM stats_rollup") == S.at(120).unixMilliseconds)
        }
    }

    @Test("dummy traffic in 5-minute slots: the monitor's traffic share is what it was", arguments: StoreKind.testable)
    func trafficShareUnchanged(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            for minute in [3, 7, 58, 61] { try store.countDummy(route: "/v1/ingestion/upload", now: S.at(minute)) }
            _ = try store.recordCheck(otpHash: Fixture.hash(1), now: S.at(1))  // unknown: not a request
            try S.authorize(store, 1, by: "rossi", at: S.at(2))
            _ = try store.recordCheck(otpHash: Fixture.hash(1), now: S.at(8))
            // Since 10:30 means since 10:00, as with hourly counts: all 4 dummy, 1 real.
            let share = try store.traffic(since: S.at(30))
            #expect(share.since == S.t && share.dummyRequests == 4 && share.realRequests == 1)
            #expect(try store.dummyCounts(since: S.at(30)) == ["/v1/ingestion/upload": 4])
            #expect(try store.traffic(since: S.at(60)).dummyRequests == 1)
        }
    }

    @Test(
        "a range ending inside a rolled-up hour counts only up to its end, as counting live does",
        arguments: StoreKind.testable)
    func endInsideRolledHour(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try S.write(store, space)
            // [10:00, 11:10) in hours: 11:00 is rolled up at 12:30, but only its first 10 minutes count.
            let query = try StatsQuery.make(from: S.t, to: S.at(70), bucket: .hour).get()
            let live = try store.statistics(query, now: S.at(1))  // nothing of the range rolled up
            let rolled = try store.statistics(query, now: S.readAt)
            #expect(try space.scalar("SELECT to_ms FROM stats_rollup") == S.at(120).unixMilliseconds)
            #expect(Self.figures(rolled) == Self.figures(live))
            // 11:00–11:10: the check at :01 and the upload at :02 (not the refusal at :15);
            // the lookups at 11:10 are the range's end: not in it.
            #expect(rolled.realRequests.values == [9, 2])
            #expect(rolled.lookups.values == [1, 0] && rolled.uploadsRefused.isEmpty)
        }
    }

    @Test("PostgreSQL: the database's clock decides which hours are closed, not the caller's")
    func rollupUsesDatabaseClock() throws {
        guard StoreKind.testable.contains(.postgres) else { return }
        try withSpace(.postgres) { space in
            let store = try space.open()
            let before = Date().unixMilliseconds
            // A caller whose clock runs 10 days ahead.
            let hours = try store.rollUpStatistics(now: Date() + 10 * 86_400)
            let after = Date().unixMilliseconds
            let end = try space.scalar("SELECT to_ms FROM stats_rollup")
            let grace = StatsWork<PGConnection>.graceMs
            // The database runs on this machine: its clock is between before and after.
            #expect(end >= StatsBucket.hour.floor(before - grace) && end <= StatsBucket.hour.floor(after - grace))
            #expect(hours == 31 * 24 || hours == 31 * 24 - 1, "31 days back from the database's hour")
            let query = StatsQuery.last(.hour, now: Date())
            _ = try store.statistics(query, now: Date() + 10 * 86_400)
            #expect(
                try space.scalar("SELECT to_ms FROM stats_rollup") <= StatsBucket.hour.floor(Date().unixMilliseconds))
        }
    }

    @Test("PostgreSQL: after the database drops its connections, the next statistics call works (the pool retries)")
    func statisticsAfterRestart() throws {
        guard StoreKind.testable.contains(.postgres) else { return }
        try withSpace(.postgres) { space in
            let name = space.schema!
            let writer = try space.open()
            try S.write(writer, space)
            let store = try PostgresStore(url: space.spec + "&application_name=\(name)", poolSize: 1)
            S.expectHours(try store.statistics(S.hours, now: S.readAt))
            // As a restart of the database does: the pooled connection is gone.
            let killed = try space.scalar(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '\(name)'")
            #expect(killed == 1)
            try eventuallyBlocking(within: .seconds(60), "the pooled session ended") {
                try space.scalar("SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)'") == 0
            }
            // The rollup's first read finds the connection dead: the call is retried on a new one,
            // not answered with an error.
            S.expectHours(try store.statistics(S.hours, now: S.readAt))
        }
    }

    @Test("a rollup that cannot write does not fail the read: the figures are counted live")
    func rollupFailureStillReads() throws {
        try withSpace(.sqlite) { space in
            let writer = try space.open()
            try S.write(writer, space)
            let store = try SQLiteStore(path: space.spec, busyTimeoutMilliseconds: 100)
            // Another process holds the write lock: the rollup gives up after 100 ms.
            let other = try RawSQLite(path: space.spec)
            try other.execute("BEGIN EXCLUSIVE")
            #expect(throws: StoreError.self) { try store.rollUpStatistics(now: S.readAt) }
            let report = try store.statistics(S.hours, now: S.readAt)
            S.expectHours(report)
            try other.execute("ROLLBACK")
            #expect(try space.scalar("SELECT count(*) FROM stats_rollup") == 0, "nothing was rolled up")
        }
    }

    @Test("PostgreSQL: cleanup waits for a rollup, and does not lose its trim to the rollup's write")
    func cleanupTakesRollupLock() throws {
        guard StoreKind.testable.contains(.postgres) else { return }
        try withSpace(.postgres) { space in
            let store = try space.open()
            try S.write(store, space)
            try store.rollUpStatistics(now: S.readAt)
            let from = try space.scalar("SELECT from_ms FROM stats_rollup")
            // A rollup on another server: holds the lock, read the state before the cleanup.
            let rollup = try RawPostgres(space.spec)
            try rollup.execute(
                "BEGIN; SELECT pg_advisory_xact_lock(hashtext('tracedesk:' || current_schema()), 4)")
            let later = S.at(61) + Double(StatsQuery.maximumDays) * 86_400
            let done = DispatchSemaphore(value: 0)
            let box = UncheckedBox(store)
            DispatchQueue.global().async {
                _ = try? box.value.cleanup(now: later, policy: RetentionPolicy())
                done.signal()
            }
            // Wait until the cleanup waits for the lock (or, were it not to take it, has finished).
            let watcher = try RawPostgres(space.spec)
            var finished = false
            try eventuallyBlocking(within: .seconds(60), "the cleanup waiting for the rollup's lock (or finished)") {
                if done.wait(timeout: .now()) == .success {
                    finished = true
                    return true
                }
                // This schema's statistics lock (class, 4), waited for by another backend: not
                // another test's lock in another schema.
                return try watcher.integer(
                    """
                    SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                        AND classid = CAST(hashtext('tracedesk:' || current_schema()) AS oid) AND objid = 4
                        AND objsubid = 2 AND pid <> pg_backend_pid()
                    """) > 0
            }
            #expect(!finished, "the cleanup waits for the rollup's lock")
            // The rollup writes back the state it read, and commits.
            try rollup.execute("UPDATE stats_rollup SET from_ms = \(from); COMMIT")
            if !finished { done.wait() }
            #expect(try space.scalar("SELECT from_ms FROM stats_rollup") == S.at(60).unixMilliseconds)
        }
    }

    /// The report without the time it was read.
    static func figures(_ report: StatsReport) -> StatsReport {
        var copy = report
        copy.generatedAt = Date(timeIntervalSince1970: 0)
        return copy
    }
}
