import CivilCalendar
import DeskCore
import DeskTestSupport
import Foundation
import Testing

@testable import DeskStore

/// One `SQLiteStore` on its own file: opening, authorising, the event stream.
@Suite struct SQLiteStoreTests {
    @Test("opening a new path creates a WAL-mode TraceDesk file at the latest schema")
    func openCreates() throws {
        try withTemporaryDirectory { directory in
            let path = Fixture.storePath(in: directory)
            #expect(!FileManager.default.fileExists(atPath: path))

            let store = try SQLiteStore(path: path)

            #expect(FileManager.default.fileExists(atPath: path))
            #expect(try store.schemaVersion() == Migrations.latestVersion)
            #expect(Migrations.latestVersion >= 1)
            let raw = try RawSQLite(path: path)
            #expect(try raw.integer("PRAGMA application_id") == Int64(Migrations.applicationID))
            #expect(try raw.text("PRAGMA journal_mode") == "wal")
            #expect(
                try raw.integer("SELECT count(*) FROM schema_migrations") == Int64(Migrations.all(for: .sqlite).count))
            #expect(try store.latestEventID() == 0)
            #expect(try store.events(after: 0, limit: 10).isEmpty)
        }
    }

    @Test("reopening an up-to-date store changes nothing and keeps the data")
    func reopen() throws {
        try withTemporaryDirectory { directory in
            // Given a store with one authorisation, closed again.
            let path = Fixture.storePath(in: directory)
            let first = try SQLiteStore(path: path)
            let outcome = try first.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let eventsBefore = try first.events(after: 0, limit: 100)
            let migratedAt = try RawSQLite(path: path).integer("SELECT max(applied_at_ms) FROM schema_migrations")

            // When it is opened again (twice).
            let second = try SQLiteStore(path: path)
            let third = try SQLiteStore(path: path)

            // Then no migration ran again and everything is still there.
            #expect(try third.schemaVersion() == Migrations.latestVersion)
            let raw = try RawSQLite(path: path)
            #expect(
                try raw.integer("SELECT count(*) FROM schema_migrations") == Int64(Migrations.all(for: .sqlite).count))
            #expect(try raw.integer("SELECT max(applied_at_ms) FROM schema_migrations") == migratedAt)
            guard case .authorized(let record) = outcome else {
                Issue.record("expected authorized, got \(outcome)")
                return
            }
            #expect(try second.authorization(for: Fixture.hash) == record)
            #expect(try second.events(after: 0, limit: 100) == eventsBefore)
        }
    }

    @Test(
        "authorising records the code until now + lifetime and appends one event",
        arguments: StoreKind.testable, [Duration.seconds(150), .seconds(1), .milliseconds(1_500), .seconds(3_600)])
    func authorize(_ kind: StoreKind, lifetime: Duration) throws {
        try withStore(kind) { store in

            let outcome = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: lifetime)

            let expected = OtpAuthorization(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, authorizedAt: Fixture.now,
                expiresAt: Fixture.now + TimeInterval(lifetime.components.seconds) + Double(
                    lifetime.components.attoseconds) / 1e18,
                authorizedBy: "rossi")
            #expect(outcome == .authorized(expected))
            #expect(try store.authorization(for: Fixture.hash) == expected)
            let events = try store.events(after: 0, limit: 10)
            try #require(events.count == 1)
            #expect(events[0].kind == .otpAuthorized)
            #expect(events[0].otpHash == Fixture.hash.stored)
            #expect(events[0].actor == "rossi")
            #expect(events[0].at == Fixture.now)
            #expect(events[0].detail.contains(#""symptoms_started_on":"2026-11-27""#), "detail: \(events[0].detail)")
            #expect(events[0].detail.contains(#""expires_at_ms":\#(expected.expiresAt.unixMilliseconds)"#))
        }
    }

    @Test(
        "what authorize returns is what the store then reads back, even for an instant with sub-millisecond digits",
        arguments: StoreKind.testable)
    func authorizeReadsBackTheSameRecord(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let now = Date(timeIntervalSince1970: 1_795_946_400.123_456_7)

            let outcome = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: now,
                lifetime: Fixture.lifetime)

            guard case .authorized(let record) = outcome else {
                Issue.record("expected authorized, got \(outcome)")
                return
            }
            #expect(try store.authorization(for: Fixture.hash) == record)
            #expect(record.expiresAt.unixMilliseconds - record.authorizedAt.unixMilliseconds == 150_000)
        }
    }

    @Test(
        "authorising again before expiry returns the original and changes nothing",
        arguments: StoreKind.testable, [0.0, 1, 149.999])
    func alreadyAuthorized(_ kind: StoreKind, secondsLater: Double) throws {
        try withStore(kind) { store in
            // Given a code authorised by rossi at 10:00.
            let first = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            guard case .authorized(let original) = first else {
                Issue.record("expected authorized, got \(first)")
                return
            }

            // When bianchi authorises it again, with another day, before it expires.
            let second = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset.adding(days: -1), by: "bianchi",
                now: Fixture.now + secondsLater, lifetime: Fixture.lifetime)

            // Then the original comes back, is still stored, and no event was added.
            #expect(second == .alreadyAuthorized(original))
            #expect(try store.authorization(for: Fixture.hash) == original)
            #expect(try store.events(after: 0, limit: 10).count == 1)
        }
    }

    @Test(
        "authorising again at or after expiry starts a new authorisation", arguments: StoreKind.testable,
        [150.0, 151, 86_400])
    func reauthorizeAfterExpiry(_ kind: StoreKind, secondsLater: Double) throws {
        try withStore(kind) { store in
            _ = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let later = Fixture.now + secondsLater

            let outcome = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset.adding(days: -1), by: "bianchi", now: later,
                lifetime: Fixture.lifetime)

            let renewed = OtpAuthorization(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset.adding(days: -1), authorizedAt: later,
                expiresAt: later + 150, authorizedBy: "bianchi")
            #expect(outcome == .authorized(renewed))
            #expect(try store.authorization(for: Fixture.hash) == renewed)
            let events = try store.events(after: 0, limit: 10)
            #expect(events.map(\.actor) == ["rossi", "bianchi"])
        }
    }

    @Test("an unknown hash has no authorisation", arguments: StoreKind.testable)
    func unknownHash(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            _ = try store.authorize(
                otpHash: Fixture.hash(1), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            #expect(try store.authorization(for: Fixture.hash(2)) == nil)
        }
    }

    @Test(
        "events have strictly increasing ids and page by (after, limit)",
        arguments: StoreKind.testable, [1, 2, 3, 7, 100])
    func eventPaging(_ kind: StoreKind, pageSize: Int) throws {
        try withStore(kind) { store in
            // Given seven authorisations, one second apart.
            for number in 1...7 {
                _ = try store.authorize(
                    otpHash: Fixture.hash(number), symptomsStartedOn: Fixture.onset, by: "user\(number)",
                    now: Fixture.now + Double(number), lifetime: Fixture.lifetime)
            }
            let all = try store.events(after: 0, limit: 1_000)
            #expect(all.count == 7)
            #expect(zip(all, all.dropFirst()).allSatisfy { $0.id < $1.id }, "ids: \(all.map(\.id))")
            #expect(all.map(\.otpHash) == (1...7).map { Fixture.hash($0).stored })
            #expect(try store.latestEventID() == all.last?.id)

            // When they are read page by page, then the pages are full until the last and join up.
            var pages: [[DeskEvent]] = []
            var cursor: Int64 = 0
            while true {
                let page = try store.events(after: cursor, limit: pageSize)
                if page.isEmpty { break }
                #expect(page.count <= pageSize)
                pages.append(page)
                cursor = try #require(page.last).id
            }
            #expect(pages.flatMap { $0 } == all)
            #expect(pages.dropLast().allSatisfy { $0.count == pageSize })
            #expect(pages.count == (7 + pageSize - 1) / pageSize)
        }
    }

    @Test("reading after the last event, or with no room, returns nothing", arguments: StoreKind.testable, [0, -1])
    func emptyPages(_ kind: StoreKind, limit: Int) throws {
        try withStore(kind) { store in
            _ = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            #expect(try store.events(after: 0, limit: limit).isEmpty)
            #expect(try store.events(after: store.latestEventID(), limit: 10).isEmpty)
        }
    }
}
