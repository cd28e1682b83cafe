import CivilCalendar
import DeskCore
import DeskStore
import Foundation
import Testing

/// The store methods behind the phone API, on a real SQLite file.
@Suite("Store contract: uploads, dummies, analytics")
struct PhoneStoreTests {
    static let key = TemporaryExposureKey(keyData: Array(0..<16), rollingStartNumber: 2_993_040, rollingPeriod: 144)

    func record(_ hash: OtpHash, keys: [AcceptedKey]) -> UploadRecord {
        UploadRecord(
            otpHash: hash, receivedAt: Fixture.now, symptomsStartedOn: Fixture.onset, province: Province.named("RM"),
            clientClock: 1_795_946_000,
            evaluation: UploadEvaluation(
                accepted: keys, dropped: [.init(index: 1, reason: .tooOld)], clockSkewSeconds: 400,
                clockSkewFlagged: false
            ), summariesJSON: "[]", summaryCount: 0)
    }

    func accepted(_ key: TemporaryExposureKey) -> AcceptedKey {
        AcceptedKey(key: key, transmissionRiskLevel: 8, reportType: .confirmedTest, daysSinceOnsetOfSymptoms: 2)
    }

    @Test(
        "an upload consumes the code and stores keys, counts and an event; a second one is refused",
        arguments: StoreKind.testable)
    func upload(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            _ = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            guard
                case .stored(let id, _) = try store.consumeForUpload(
                    otpHash: Fixture.hash, now: Fixture.now,
                    evaluate: { _ in record(Fixture.hash, keys: [accepted(Self.key)]) })
            else {
                Issue.record("the upload was refused")
                return
            }
            let stored = try #require(try store.upload(id: id))
            #expect(stored.keys.map(\.key) == [Self.key])
            #expect(stored.keysDropped == 1)
            #expect(stored.droppedReasons == #"{"too_old":1}"#)
            #expect(stored.clockSkewSeconds == 400)
            #expect(stored.province == "RM")
            let again = try store.consumeForUpload(
                otpHash: Fixture.hash, now: Fixture.now, evaluate: { _ in record(Fixture.hash, keys: []) })
            guard case .refused(.consumed) = again else {
                Issue.record("a used code was accepted: \(again)")
                return
            }
            let events = try store.events(after: 0, limit: 10)
            #expect(events.map(\.kind) == [.otpAuthorized, .uploadAccepted, .uploadRefused])
            // The same detail, byte for byte, whichever adapter wrote it.
            #expect(
                events[1].detail
                    == #"{"upload_id":\#(id),"keys_accepted":1,"keys_dropped":1,"dropped":{"too_old":1},"province":"RM","clock_skew_s":400,"clock_skew_flagged":false,"summaries":0}"#
            )
            #expect(events[1].otpHash == Fixture.hash.stored)
            #expect(events[1].at == Fixture.now)
            #expect(events[2].detail == #"{"reason":"consumed"}"#)
        }
    }

    @Test(
        "a failure while storing the keys rolls the whole upload back: the code stays usable",
        arguments: StoreKind.testable)
    func rollback(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            _ = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            // A 15-byte key breaks the table's CHECK: the insert fails mid-transaction.
            let broken = TemporaryExposureKey(keyData: Array(0..<15), rollingStartNumber: 1, rollingPeriod: 144)
            #expect(throws: StoreError.self) {
                try store.consumeForUpload(
                    otpHash: Fixture.hash, now: Fixture.now,
                    evaluate: { _ in record(Fixture.hash, keys: [accepted(Self.key), accepted(broken)]) })
            }
            #expect(try store.authorization(for: Fixture.hash)?.state == .authorized)
            #expect(try store.events(after: 0, limit: 10).map(\.kind) == [.otpAuthorized])
            #expect(try store.upload(id: 1) == nil)
        }
    }

    @Test("dummy requests are counted per hour and route, and never become events", arguments: StoreKind.testable)
    func dummies(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            for _ in 0..<3 { try store.countDummy(route: "/v1/ingestion/upload", now: Fixture.now) }
            try store.countDummy(route: "/v1/ingestion/upload", now: Fixture.now.addingTimeInterval(-7200))
            try store.countDummy(route: "/v1/ingestion/check-otp", now: Fixture.now)
            let lastHour = try store.dummyCounts(since: Fixture.now.addingTimeInterval(-60))
            #expect(lastHour == ["/v1/ingestion/upload": 3, "/v1/ingestion/check-otp": 1])
            #expect(
                try store.dummyCounts(since: Fixture.now.addingTimeInterval(-3 * 3600))["/v1/ingestion/upload"] == 4)
            #expect(try store.latestEventID() == 0)
        }
    }

    @Test("analytics allowances: per month and kind, used once, gone after they expire", arguments: StoreKind.testable)
    func allowances(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let hash = String(repeating: "a", count: 64)
            let month = Fixture.now.utcDay
            #expect(try !store.analyticsTokenAuthorized(tokenHash: hash, month: month))
            try store.grantAnalyticsAllowances(
                [true, false].map { AnalyticsAllowance(tokenHash: hash, month: month, withExposure: $0) },
                expiresAt: Date().addingTimeInterval(3600))
            #expect(try store.analyticsTokenAuthorized(tokenHash: hash, month: month))
            #expect(try !store.analyticsTokenAuthorized(tokenHash: hash, month: month.adding(months: 1)))
            let info = OperationalInfo(
                platform: .ios, province: Province.named("MI")!, exposurePermission: true, bluetoothActive: true,
                notificationPermission: false, exposureNotification: true, lastRiskyExposureOn: month, build: 4001)
            let allowance = AnalyticsAllowance(tokenHash: hash, month: month, withExposure: true)
            #expect(try store.recordOperationalInfo(info, allowance: allowance, now: Date()))
            #expect(try !store.recordOperationalInfo(info, allowance: allowance, now: Date()))
            // Expired allowances count for nothing.
            let old = String(repeating: "b", count: 64)
            try store.grantAnalyticsAllowances(
                [AnalyticsAllowance(tokenHash: old, month: month, withExposure: false)],
                expiresAt: Date().addingTimeInterval(-1))
            #expect(try !store.analyticsTokenAuthorized(tokenHash: old, month: month))
            #expect(try store.events(after: 0, limit: 10).map(\.kind) == [.analyticsReceived])
        }
    }

    @Test(
        "an attestation salt is single-use until it expires; the record is stored with it",
        arguments: StoreKind.testable)
    func salts(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let salt = "c2FsdHNhbHRzYWx0c2FsdHNh"
            let info = OperationalInfo(
                platform: .android, province: Province.named("RM")!, exposurePermission: true, bluetoothActive: true,
                notificationPermission: true, exposureNotification: false, lastRiskyExposureOn: Fixture.now.utcDay,
                build: nil)
            func record(at offset: TimeInterval, expiresIn: TimeInterval) throws -> Bool {
                try store.recordOperationalInfo(
                    info, salt: salt, now: Fixture.now.addingTimeInterval(offset),
                    saltExpiresAt: Fixture.now.addingTimeInterval(offset + expiresIn))
            }
            let first = try record(at: 0, expiresIn: 600)
            let again = try record(at: 599, expiresIn: 600)
            let afterExpiry = try record(at: 601, expiresIn: 600)
            #expect(first)
            #expect(!again)
            #expect(afterExpiry)
        }
    }
}
