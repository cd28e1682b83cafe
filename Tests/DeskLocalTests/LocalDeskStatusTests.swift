import CivilCalendar
import DeskContract
import DeskCore
import DeskLocal
import DeskStore
import Foundation
import Testing

/// What `LocalDesk` says about a code over time, and what it leaves on disk.
@Suite struct LocalDeskStatusTests {
    @Test("a code goes unknown → authorised → expired as the clock moves")
    func lifecycle() async throws {
        try await DeskFixture.with { fixture in
            // Given a desk that has never seen the code.
            #expect(try await fixture.desk.status(fixture.rossi, of: "9K2RAY8UUQ") == .unknown)

            // When it is authorised, then it is authorised until 150 s later.
            let record = try #require(
                try await fixture.desk.authorize(
                    fixture.rossi, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today
                ).record)
            #expect(try await fixture.desk.status(fixture.rossi, of: "9K2RAY8UUQ") == .authorized(record))
            fixture.clock.advance(seconds: 149)
            #expect(try await fixture.desk.status(fixture.rossi, of: "9k2-ray8-uuq") == .authorized(record))

            // When the clock passes the expiry, then it reads expired with the same record.
            fixture.clock.advance(seconds: 2)
            #expect(try await fixture.desk.status(fixture.rossi, of: "9K2RAY8UUQ") == .expired(record))
            #expect(try await fixture.desk.status(fixture.rossi, of: "9K2RAY8UUQ").name == "expired")
        }
    }

    @Test("an expired code can be authorised again, and is then authorised with the new record")
    func reauthorize() async throws {
        try await DeskFixture.with { fixture in
            _ = try await fixture.desk.authorize(
                fixture.rossi, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today)
            fixture.clock.advance(seconds: 151)

            let again = try await fixture.desk.authorize(
                fixture.rossi, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today)

            guard case .authorized(let renewed) = again else {
                Issue.record("expected authorized, got \(again)")
                return
            }
            #expect(renewed.expiresAt == DeskFixture.start + 151 + 150)
            #expect(try await fixture.desk.status(fixture.rossi, of: "9K2RAY8UUQ") == .authorized(renewed))
            #expect(try fixture.events().count == 2)
        }
    }

    @Test(
        "the status of an invalid code throws invalid with the rule's message",
        arguments: [
            ("9K2RAY8UUA", OtpError.checkCharacterMismatch), ("KJ23IWY5U", .tooShort(count: 9)),
            ("9K2-BAY8-UUQ", .forbiddenCharacter("B", position: 4)), ("", .empty),
        ])
    func statusOfInvalidCode(typed: String, error: OtpError) async throws {
        try await DeskFixture.with { fixture in
            await #expect(throws: ServiceError.invalid(error.message)) {
                try await fixture.desk.status(fixture.rossi, of: typed)
            }
        }
    }

    @Test("other codes stay unknown while one is authorised")
    func otherCodesUnknown() async throws {
        try await DeskFixture.with { fixture in
            _ = try await fixture.desk.authorize(
                fixture.rossi, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today)
            #expect(try await fixture.desk.status(fixture.rossi, of: "KJ23IWY5UJ") == .unknown)
            #expect(
                try await fixture.desk.status(fixture.rossi, of: "2JK3IWY5UJ") == .unknown,
                "same check sum, different code")
        }
    }

    @Test("the status of a code on a damaged store is a fault, with the store's message")
    func statusUnavailable() async throws {
        let failure = StoreError.corrupt(path: "/srv/tracedesk.sqlite")
        let desk = LocalDesk(
            store: UnreachableStore(error: failure), clock: FixedClock(DeskFixture.start))
        await #expect(throws: ServiceError.failed(failure.message)) {
            try await desk.status(DeskFixture.strangerSession, of: "9K2RAY8UUQ")
        }
    }

    @Test("the desk reports its store's location and its clock's time")
    func locationAndNow() async throws {
        try await DeskFixture.with { fixture in
            #expect(fixture.desk.location == fixture.storePath)
            #expect(fixture.desk.now() == DeskFixture.start)
            fixture.clock.advance(seconds: 5)
            #expect(fixture.desk.now() == DeskFixture.start + 5)
        }
    }

    @Test("the store's files never contain the plain code, only its hash")
    func plainCodeNeverStored() async throws {
        try await DeskFixture.with { fixture in
            // Given a code authorised (typed two ways), looked up, re-authorised after expiry.
            _ = try await fixture.desk.authorize(
                fixture.rossi, code: "9k2-ray8-uuq", symptomsStartedOn: DeskFixture.today)
            _ = try await fixture.desk.authorize(
                fixture.rossi, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today)
            _ = try await fixture.desk.status(fixture.rossi, of: "9K2 RAY8 UUQ")
            fixture.clock.advance(seconds: 200)
            _ = try await fixture.desk.authorize(
                fixture.rossi, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today)

            // When the database file and its WAL are read as bytes.
            let files = [fixture.storePath, fixture.storePath + "-wal"]
            let bytes = try files.filter { FileManager.default.fileExists(atPath: $0) }
                .map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
            try #require(!bytes.isEmpty)

            // Then no form of the code is there, nor the bearer token (its hash), but the stored
            // form of the token is (so the search is not vacuous).
            for form in [
                "9K2RAY8UUQ", "9k2ray8uuq", "9K2-RAY8-UUQ", "9k2-ray8-uuq", "9K2 RAY8 UUQ", DeskFixture.hashHex,
            ] {
                #expect(!bytes.contains { $0.range(of: Data(form.utf8)) != nil }, "\(form) found on disk")
            }
            let stored = try #require(OtpHash(hex: DeskFixture.hashHex)).stored.hex
            #expect(bytes.contains { $0.range(of: Data(stored.utf8)) != nil }, "the stored form should be there")
        }
    }
}

@Suite("Store errors as service errors")
struct ServiceErrorMappingTests {
    @Test("a lock is temporary; anything else is a fault")
    func mapping() {
        #expect(ServiceError(StoreError.locked(path: "/x")) == .unavailable(StoreError.locked(path: "/x").message))
        #expect(ServiceError(StoreError.corrupt(path: "/x")) == .failed(StoreError.corrupt(path: "/x").message))
        #expect(ServiceError(StoreError.readOnly(path: "/x")) == .failed(StoreError.readOnly(path: "/x").message))
    }
}
