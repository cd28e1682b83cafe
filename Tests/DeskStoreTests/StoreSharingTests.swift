import CivilCalendar
import DeskCore
import Foundation
import Testing

@testable import DeskStore

/// Several stores on one database (SQLite file or PostgreSQL schema), as when a console, a
/// monitor and the CLI run at once, or several servers: each sees the others' writes, and
/// racing authorisations of one code authorise it once.
@Suite("Store contract: several stores on one database") struct StoreSharingTests {
    @Test("two stores on one file see each other's writes", arguments: StoreKind.testable)
    func seeEachOther(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            // Given two stores on the same database.
            let a = try space.open()
            let b = try space.open()

            // When A authorises one code and B another.
            let fromA = try a.authorize(
                otpHash: Fixture.hash(1), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let fromB = try b.authorize(
                otpHash: Fixture.hash(2), symptomsStartedOn: Fixture.onset, by: "bianchi", now: Fixture.now + 1,
                lifetime: Fixture.lifetime)

            // Then each reads the other's record, B's repeat of A's code is refused, and the event
            // stream is one stream.
            #expect(try b.authorization(for: Fixture.hash(1)) == fromA.record)
            #expect(try a.authorization(for: Fixture.hash(2)) == fromB.record)
            let repeatFromB = try b.authorize(
                otpHash: Fixture.hash(1), symptomsStartedOn: Fixture.onset, by: "bianchi", now: Fixture.now + 2,
                lifetime: Fixture.lifetime)
            #expect(repeatFromB == .alreadyAuthorized(try #require(fromA.record)))
            let eventsA = try a.events(after: 0, limit: 10)
            #expect(eventsA == (try b.events(after: 0, limit: 10)))
            #expect(eventsA.map(\.actor) == ["rossi", "bianchi"])
            #expect(try a.latestEventID() == (try b.latestEventID()))
        }
    }

    @Test(
        "racing authorisations of one code from two stores authorise it exactly once",
        arguments: StoreKind.testable, [2, 8, 32])
    func racingAuthorizations(_ kind: StoreKind, attempts: Int) throws {
        try withSpace(kind) { space in
            // Given two stores on one database.
            let stores = [try space.open(), try space.open()]

            // When both authorise the same code from many threads at once.
            let outcomes = concurrently(attempts) { index -> Result<AuthorizeOutcome, StoreError> in
                Result { () throws(StoreError) in
                    try stores[index % 2].authorize(
                        otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "user\(index)", now: Fixture.now,
                        lifetime: Fixture.lifetime)
                }
            }

            // Then exactly one attempt authorised it, every other got that same record back, and
            // there is one event.
            let records = try outcomes.map { try $0.get() }
            let winners = records.compactMap { if case .authorized(let r) = $0 { r } else { nil } }
            try #require(winners.count == 1, "outcomes: \(records)")
            let losers = records.compactMap { if case .alreadyAuthorized(let r) = $0 { r } else { nil } }
            #expect(losers.count == attempts - 1)
            #expect(losers.allSatisfy { $0 == winners[0] })
            #expect(try stores[0].authorization(for: Fixture.hash) == winners[0])
            #expect(try stores[1].events(after: 0, limit: 100).count == 1)
        }
    }

    @Test("many threads writing different codes through two stores lose nothing", arguments: StoreKind.testable)
    func racingDistinctCodes(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let stores = [try space.open(), try space.open()]

            let outcomes = concurrently(40) { index -> Result<AuthorizeOutcome, StoreError> in
                Result { () throws(StoreError) in
                    try stores[index % 2].authorize(
                        otpHash: Fixture.hash(index), symptomsStartedOn: Fixture.onset, by: "user\(index)",
                        now: Fixture.now, lifetime: Fixture.lifetime)
                }
            }

            for (index, outcome) in outcomes.enumerated() {
                guard case .success(.authorized(let record)) = outcome else {
                    Issue.record("attempt \(index): \(outcome)")
                    continue
                }
                #expect(record.otpHash == Fixture.hash(index))
            }
            let events = try stores[0].events(after: 0, limit: 100)
            #expect(events.count == 40)
            #expect(Set(events.compactMap(\.otpHash)) == Set((0..<40).map { Fixture.hash($0).stored }))
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.id < $1.id })
        }
    }

    @Test(
        "stores opening a new database at the same moment all succeed and migrate it once",
        arguments: StoreKind.testable, 0..<5)
    func racingFirstOpen(_ kind: StoreKind, round: Int) throws {
        try withSpace(kind) { space in
            let opened = concurrently(4) { _ in
                Result { () throws(StoreError) in try space.open().schemaVersion() }
            }

            for result in opened {
                #expect(throws: Never.self, "round \(round)") { try result.get() }
            }
            let applied = try space.scalar("SELECT count(*) FROM schema_migrations")
            #expect(applied == Int64(Migrations.all(for: .sqlite).count))
        }
    }
}

extension AuthorizeOutcome {
    /// The record either way, for comparisons.
    var record: OtpAuthorization? {
        switch self {
        case .authorized(let record), .alreadyAuthorized(let record): return record
        }
    }
}

/// What must hold when several servers share one database.
@Suite("Store contract: several servers at once")
struct ManyServersTests {
    static func record(_ hash: OtpHash) -> UploadRecord {
        let key = AcceptedKey(
            key: TemporaryExposureKey(keyData: Array(0..<16), rollingStartNumber: 2_993_040, rollingPeriod: 144),
            transmissionRiskLevel: 8, reportType: .confirmedTest, daysSinceOnsetOfSymptoms: 2)
        return UploadRecord(
            otpHash: hash, receivedAt: Fixture.now, symptomsStartedOn: Fixture.onset, province: nil, clientClock: 0,
            evaluation: UploadEvaluation(accepted: [key], dropped: [], clockSkewSeconds: 0, clockSkewFlagged: false),
            summariesJSON: "[]", summaryCount: 0)
    }

    @Test(
        "50 concurrent uploads with one code through two stores: exactly one is stored", arguments: StoreKind.testable)
    func oneCodeOneUpload(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let stores = [
                try space.open(poolSize: 25, waitMilliseconds: 30_000),
                try space.open(poolSize: 25, waitMilliseconds: 30_000),
            ]
            _ = try stores[0].authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let outcomes = concurrently(50) { index -> Result<UploadOutcome, StoreError> in
                Result { () throws(StoreError) in
                    try stores[index % 2].consumeForUpload(otpHash: Fixture.hash, now: Fixture.now + 1) { _ in
                        Self.record(Fixture.hash)
                    }
                }
            }
            let results = try outcomes.map { try $0.get() }
            let stored = results.filter { if case .stored = $0 { true } else { false } }
            let refused = results.filter { if case .refused(.consumed) = $0 { true } else { false } }
            #expect(stored.count == 1, "outcomes: \(results)")
            #expect(refused.count == 49)
            #expect(try space.scalar("SELECT count(*) FROM uploads") == 1)
            #expect(try space.scalar("SELECT count(*) FROM exposure_keys") == 1)
        }
    }

    @Test(
        "two stores publishing at once give gapless indexes and publish each key once", arguments: StoreKind.testable)
    func publishingTogether(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let stores = [try space.open(), try space.open()]
            // 60 uploads of one key each, all past their embargo.
            for code in 1...60 {
                try ChunkStoreTests.upload(
                    stores[code % 2], code: code,
                    keys: [ChunkStoreTests.key(code, start: ChunkStoreTests.yesterday)])
            }
            let policy = PublishingPolicy(maxKeysPerChunk: 7)
            let published = concurrently(2) { index -> Result<[ChunkSummary], StoreError> in
                Result { () throws(StoreError) in
                    var out: [ChunkSummary] = []
                    let builder = ChunkStoreTests.Builder()
                    while let chunk = try stores[index].publishChunk(
                        now: Fixture.now, policy: policy, build: builder.build)
                    {
                        out.append(chunk)
                    }
                    return out
                }
            }
            let all = try published.flatMap { try $0.get() }
            #expect(all.map(\.index).sorted() == Array(1...Int64(all.count)))
            #expect(all.reduce(0) { $0 + $1.keyCount } == 60)
            #expect(try space.scalar(KeySweepStoreTests.countUnpublished) == 0)
            #expect(try space.scalar("SELECT count(*) FROM held_keys") == 0)
            #expect(try stores[0].lastChunkIndex() == Int64(all.count))
            // Windows follow each other in index order.
            let ordered = all.sorted { $0.index < $1.index }
            #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0.windowEnd == $1.windowStart })
        }
    }

    @Test("one server at a time holds a job lock; another gets it once it is released", arguments: StoreKind.testable)
    func jobLocks(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            // SQLite's job locks are per process: two stores in one process stand for two servers
            // only on PostgreSQL, so SQLite uses one store here.
            let a = try space.open()
            let b = kind == .postgres ? try space.open() : a
            let lease = try #require(try a.acquireJobLock(.publishing))
            #expect(try b.acquireJobLock(.publishing) == nil)
            let cleanup = try #require(try b.acquireJobLock(.cleanup), "another job has its own lock")
            lease.release()
            lease.release()
            let again = try #require(try b.acquireJobLock(.publishing))
            #expect(try a.acquireJobLock(.publishing) == nil)
            again.release()
            cleanup.release()
        }
    }
}

@Suite("Store contract: store info")
struct StoreInfoTests {
    @Test(
        "store info names the adapter, the version, every table with its rows and size", arguments: StoreKind.testable)
    func info(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            // A password in the URL (the test server trusts, so any will do) is never shown.
            let store: any Store =
                kind == .postgres ? try PostgresStore(url: space.spec + "&password=sekrit-pw-9") : try space.open()
            _ = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let info = try store.info()
            #expect(!info.location.contains("sekrit-pw-9"))
            #expect(info.adapter.hasPrefix(kind == .sqlite ? "SQLite 3." : "PostgreSQL "))
            #expect(info.schemaVersion == Migrations.latestVersion)
            #expect(info.knownVersion == Migrations.latestVersion)
            #expect(info.location == store.location)
            #expect(!info.location.contains("password"))
            #expect(info.tables.map(\.name).sorted() == StoreTables.all.sorted())
            #expect(
                info.tables.first { $0.name == "schema_migrations" }?.rows == Int64(Migrations.all(for: .sqlite).count))
            #expect(info.tables.first { $0.name == "otp_authorizations" }?.rows == 1)
            #expect(info.tables.allSatisfy { ($0.bytes ?? 0) > 0 })
            #expect(info.totalBytes > 0)
        }
    }
}
