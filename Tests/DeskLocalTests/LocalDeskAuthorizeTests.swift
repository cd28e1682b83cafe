import CivilCalendar
import DeskContract
import DeskCore
import DeskLocal
import DeskStore
import Foundation
import Testing

/// Authorising a code through `LocalDesk`: rules first, then one store transaction.
@Suite struct LocalDeskAuthorizeTests {
    @Test(
        "a valid code, however the operator types it, is authorised for 150 s by the desk's user",
        arguments: ["9K2RAY8UUQ", "9k2-ray8-uuq", "9K2 RAY8 UUQ", "9K2-RAY-8UUQ", " 9k2ray8uuq "])
    func authorizesValidCode(typed: String) async throws {
        try await DeskFixture.with { fixture in
            let onset = DeskFixture.today.adding(days: -2)

            let result = try await fixture.desk.authorize(fixture.rossi, code: typed, symptomsStartedOn: onset)

            let expected = OtpAuthorization(
                otpHash: try #require(OtpHash(hex: DeskFixture.hashHex)), symptomsStartedOn: onset,
                authorizedAt: DeskFixture.start, expiresAt: DeskFixture.start + 150, authorizedBy: "rossi")
            #expect(result == .authorized(expected))
            #expect(try fixture.store.authorization(for: expected.otpHash) == expected)
            #expect(try fixture.events().map(\.kind) == [.otpAuthorized])
            #expect(try fixture.events().first?.actor == "rossi")
        }
    }

    @Test(
        "a code still running is reported as already authorised, with nothing changed",
        arguments: [0.0, 60, 149])
    func alreadyAuthorized(secondsLater: Double) async throws {
        try await DeskFixture.with { fixture in
            // Given a code authorised at 10:00.
            let first = try await fixture.desk.authorize(
                fixture.rossi, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today)
            let original = try #require(first.record)

            // When another operator at another desk on the same store authorises it again.
            fixture.clock.advance(seconds: secondsLater)
            let colleague = LocalDesk(store: fixture.store, clock: fixture.clock)
            let second = try await colleague.authorize(
                fixture.bianchi, code: "9k2-ray8-uuq", symptomsStartedOn: DeskFixture.today.adding(days: -1))

            // Then the first authorisation stands, reported without its operator's name.
            var seenByColleague = original
            seenByColleague.authorizedBy = "another operator"
            #expect(second == .alreadyAuthorized(seenByColleague))
            #expect(try fixture.events().count == 1)
            #expect(try fixture.store.authorization(for: original.otpHash) == original)
        }
    }

    @Test(
        "an invalid code is refused with the rule's error and nothing is stored",
        arguments: [
            ("9K2RAY8UUA", OtpError.checkCharacterMismatch),
            ("K2J3IWY5UJ", .checkCharacterMismatch),
            ("9K2-BAY8-UUQ", .forbiddenCharacter("B", position: 4)),
            ("0K2RAY8UUQ", .forbiddenCharacter("0", position: 1)),
            ("KJ23IWY5U", .tooShort(count: 9)),
            ("KJ23IWY5UJJ", .tooLong(count: 11)),
            ("", .empty),
            (" - ", .empty),
        ])
    func invalidCode(typed: String, error: OtpError) async throws {
        try await DeskFixture.with { fixture in
            let before = try fixture.store.latestEventID()
            let result = try await fixture.desk.authorize(
                fixture.rossi, code: typed, symptomsStartedOn: DeskFixture.today)

            #expect(result == .invalid(.code(error)))
            #expect(result.record == nil)
            #expect(try fixture.events().isEmpty)
            #expect(try fixture.store.latestEventID() == before)
        }
    }

    @Test("a symptom day after today (UTC) is refused and nothing is stored")
    func futureOnset() async throws {
        // Given 23:30 UTC on 29 November: already the 30th in Italy, not yet in UTC.
        try await DeskFixture.with(start: DeskFixture.start + 13.5 * 3_600) { fixture in
            let tomorrow = DeskFixture.today.adding(days: 1)

            let result = try await fixture.desk.authorize(
                fixture.rossi, code: "9K2RAY8UUQ", symptomsStartedOn: tomorrow)

            #expect(result == .invalid(.symptomOnset(.inFuture(tomorrow, today: DeskFixture.today))))
            guard case .invalid(let refusal) = result else { return }
            #expect(refusal.message.contains("future"))
            #expect(try fixture.events().isEmpty)
        }
    }

    @Test(
        "symptom days up to 180 back are accepted; 181 is too old",
        arguments: [(0, true), (14, true), (15, true), (180, true), (181, false), (365, false)])
    func onsetWindow(daysAgo: Int, accepted: Bool) async throws {
        try await DeskFixture.with { fixture in
            let day = DeskFixture.today.adding(days: -daysAgo)

            let result = try await fixture.desk.authorize(fixture.rossi, code: "KJ23IWY5UJ", symptomsStartedOn: day)

            if accepted {
                #expect(result.record?.symptomsStartedOn == day, "result: \(result)")
            } else {
                #expect(result == .invalid(.symptomOnset(.tooOld(day, daysAgo: daysAgo))))
                #expect(try fixture.events().isEmpty)
            }
        }
    }

    @Test("when both the code and the day are wrong, the code is reported first")
    func codeCheckedFirst() async throws {
        try await DeskFixture.with { fixture in
            let result = try await fixture.desk.authorize(
                fixture.rossi, code: "9K2RAY8UUA", symptomsStartedOn: DeskFixture.today.adding(days: 1))
            #expect(result == .invalid(.code(.checkCharacterMismatch)))
        }
    }

    @Test("a custom code lifetime is honoured", arguments: [Duration.seconds(30), .seconds(600), .milliseconds(2_500)])
    func customLifetime(lifetime: Duration) async throws {
        try await DeskFixture.with(otpLifetime: lifetime) { fixture in
            let result = try await fixture.desk.authorize(
                fixture.rossi, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today)

            let seconds = Double(lifetime.components.seconds) + Double(lifetime.components.attoseconds) / 1e18
            #expect(result.record?.expiresAt == DeskFixture.start + seconds)
        }
    }

    @Test("an unreachable store makes the use case unavailable, with the store's message")
    func storeUnavailable() async throws {
        let failure = StoreError.locked(path: "/srv/tracedesk.sqlite")
        let desk = LocalDesk(
            store: UnreachableStore(error: failure), clock: FixedClock(DeskFixture.start))

        await #expect(throws: ServiceError.unavailable(failure.message)) {
            try await desk.authorize(
                DeskFixture.strangerSession, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today)
        }
        // The session is checked before the code: with the store gone, even a bad code gets the
        // store's message, never a verdict from an unchecked caller.
        await #expect(throws: ServiceError.unavailable(failure.message)) {
            try await desk.authorize(
                DeskFixture.strangerSession, code: "9K2RAY8UUA", symptomsStartedOn: DeskFixture.today)
        }
    }
}
