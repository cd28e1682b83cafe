import CivilCalendar
import DeskCore
import Foundation
import Testing

@testable import DeskStore

/// Several `SQLiteStore` instances on one file, as when a console, a monitor and the CLI run at
/// once: each sees the others' writes, and racing authorisations of one code authorise it once.
@Suite struct SQLiteStoreSharingTests {
    @Test("two stores on one file see each other's writes")
    func seeEachOther() throws {
        try withTemporaryDirectory { directory in
            // Given two stores on the same file.
            let path = Fixture.storePath(in: directory)
            let a = try SQLiteStore(path: path)
            let b = try SQLiteStore(path: path)

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
        arguments: [2, 8, 32])
    func racingAuthorizations(attempts: Int) throws {
        try withTemporaryDirectory { directory in
            // Given two stores on one file.
            let path = Fixture.storePath(in: directory)
            let stores = [try SQLiteStore(path: path), try SQLiteStore(path: path)]

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

    @Test("many threads writing different codes through two stores lose nothing")
    func racingDistinctCodes() throws {
        try withTemporaryDirectory { directory in
            let path = Fixture.storePath(in: directory)
            let stores = [try SQLiteStore(path: path), try SQLiteStore(path: path)]

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
            #expect(Set(events.compactMap(\.otpHash)) == Set((0..<40).map(Fixture.hash)))
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.id < $1.id })
        }
    }

    @Test(
        "stores opening a new file at the same moment all succeed and migrate it once",
        arguments: 0..<10)
    func racingFirstOpen(round: Int) throws {
        try withTemporaryDirectory { directory in
            let path = Fixture.storePath(in: directory)

            let opened = concurrently(4) { _ in
                Result { () throws(StoreError) in try SQLiteStore(path: path).schemaVersion() }
            }

            for result in opened {
                #expect(throws: Never.self, "round \(round)") { try result.get() }
            }
            let raw = try RawSQLite(path: path)
            #expect(try raw.integer("SELECT count(*) FROM schema_migrations") == Int64(Migrations.all.count))
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
