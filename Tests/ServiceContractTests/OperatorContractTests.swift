import CivilCalendar
import DeskContract
import DeskCore
import Foundation
import Testing

/// Authorising codes and following them, through both desks.
@Suite struct OperatorContractTests {
    @Test("an operator authorises a code; again while it runs is already authorised", arguments: DeskKind.allCases)
    func authorize(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let ana = try await f.person("ana", .operator, by: admin)
            let code = Codes.fresh()
            let onset = ContractFixture.today.adding(days: -2)

            let first = try await f.desk.authorize(
                ana, code: OtpRules.group(code).lowercased(), symptomsStartedOn: onset)
            f.clock.advance(seconds: 60)
            let second = try await f.desk.authorize(ana, code: code, symptomsStartedOn: ContractFixture.today)

            let expected = OtpAuthorization(
                otpHash: Codes.hash(code), symptomsStartedOn: onset, authorizedAt: ContractFixture.start,
                expiresAt: ContractFixture.start + 150, authorizedBy: "ana")
            #expect(first == .authorized(expected))
            #expect(second == .alreadyAuthorized(expected))
            #expect(try f.store.authorization(for: Codes.hash(code)) == expected)
        }
    }

    @Test(
        "a bad code or symptom day is refused with the rule's error, nothing stored",
        arguments: DeskKind.allCases)
    func refusals(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let ana = try await f.person("ana", .operator, by: admin)
            let today = ContractFixture.today
            let cases: [(String, CivilDay, AuthorizeResult)] = [
                ("9K2-BAY8-UUQ", today, .invalid(.code(.forbiddenCharacter("B", position: 4)))),
                ("9K2RAY8UUA", today, .invalid(.code(.checkCharacterMismatch))),
                ("KJ23IWY5U", today, .invalid(.code(.tooShort(count: 9)))),
                ("KJ23IWY5UJJ", today, .invalid(.code(.tooLong(count: 11)))),
                (" - ", today, .invalid(.code(.empty))),
                (
                    "9K2RAY8UUQ", today.adding(days: 1),
                    .invalid(.symptomOnset(.inFuture(today.adding(days: 1), today: today)))
                ),
                (
                    "9K2RAY8UUQ", today.adding(days: -181),
                    .invalid(.symptomOnset(.tooOld(today.adding(days: -181), daysAgo: 181)))
                ),
            ]
            for (code, day, expected) in cases {
                let result = try await f.desk.authorize(ana, code: code, symptomsStartedOn: day)
                #expect(result == expected, "\(kind) \(code) \(day)")
            }
            #expect(try f.store.authorization(for: Codes.hash("9K2RAY8UUQ")) == nil)
        }
    }

    @Test(
        "an operator follows only their own codes; a supervisor follows every code",
        arguments: DeskKind.allCases)
    func statusOfAnotherOperatorsCode(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let ana = try await f.person("ana", .operator, by: admin)
            let ben = try await f.person("ben", .operator, by: admin)
            let sue = try await f.person("sue", .supervisor, by: admin)
            let code = Codes.fresh()
            let result = try await f.desk.authorize(ana, code: code, symptomsStartedOn: ContractFixture.today)
            guard case .authorized(let record) = result else {
                Issue.record("expected an authorisation, got \(result)")
                return
            }

            let benSees = await failure { () async throws(ServiceError) in try await f.desk.status(ben, of: code) }
            #expect(
                benSees
                    == .forbidden(
                        "this code was authorised by another operator: only they and supervisors can follow it"))
            #expect(try await f.desk.status(sue, of: code) == .authorized(record))
            #expect(try await f.desk.status(ana, of: OtpRules.group(code)) == .authorized(record))
            // A code nobody authorised is unknown to any operator.
            #expect(try await f.desk.status(ben, of: Codes.fresh()) == .unknown)

            f.clock.advance(seconds: 150)
            #expect(try await f.desk.status(sue, of: code) == .expired(record))
            #expect(try await f.desk.status(ana, of: code) == .expired(record))
        }
    }

    @Test("the status of a code that is not valid is refused with the rule's message", arguments: DeskKind.allCases)
    func statusOfInvalidCode(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let ana = try await f.person("ana", .operator, by: admin)

            let error = await failure { () async throws(ServiceError) in try await f.desk.status(ana, of: "9K2RAY8UUA")
            }

            #expect(error == .invalid(OtpError.checkCharacterMismatch.message))
        }
    }
}
