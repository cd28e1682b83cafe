import CivilCalendar
import DeskCore
import DeskCrypto
import DeskService
import Foundation
import Testing

/// The first admin, sign-in and sign-out, session lifetimes, disabled accounts and the lockout,
/// through both desks.
@Suite struct SessionContractTests {
    static let wrong = "wrong user name or password: check both and try again"

    @Test("the first admin can be made once; it is signed in at once", arguments: DeskKind.allCases)
    func firstAdminOnce(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            #expect(try await f.desk.needsFirstAdmin())

            let admin = try await f.desk.createFirstAdmin(name: " Root ", password: ContractFixture.adminPassword)

            #expect(admin.user == "root")
            #expect(admin.role == .admin)
            #expect(admin.signedInAt == ContractFixture.start)
            #expect(admin.expiresAt == ContractFixture.start + 12 * 3600)
            #expect(admin.idleSeconds == 600)
            #expect(SessionToken.looksValid(admin.token))
            #expect(try await f.desk.needsFirstAdmin() == false)
            let again = await failure { () async throws(ServiceError) in
                try await f.desk.createFirstAdmin(name: "mallory", password: "another-pass-123")
            }
            #expect(again == .conflict("staff accounts exist already: sign in, or ask an admin for an account"))
            #expect(try f.store.staffAccounts().map(\.name) == ["root"])
        }
    }

    @Test("a first admin with a bad name or password is refused with the rule's message", arguments: DeskKind.allCases)
    func firstAdminRules(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let shortPassword = await failure { () async throws(ServiceError) in
                try await f.desk.createFirstAdmin(name: "root", password: "short")
            }
            let badName = await failure { () async throws(ServiceError) in
                try await f.desk.createFirstAdmin(name: "9root", password: ContractFixture.adminPassword)
            }

            #expect(shortPassword == .invalid("a password has at least 10 characters"))
            let stillEmpty = try await f.desk.needsFirstAdmin()
            #expect(badName == .invalid("a user name starts with a letter (a-z)"))
            #expect(stillEmpty)
        }
    }

    @Test(
        "sign in, work, sign out: the session no longer works; signing out twice is no error",
        arguments: DeskKind.allCases)
    func signInAndOut(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            _ = try await f.desk.addStaff(admin, name: "ana", role: .operator, password: ContractFixture.password)

            let ana = try await f.desk.signIn(name: "ANA", password: ContractFixture.password)
            #expect(ana.user == "ana")
            #expect(ana.role == .operator)
            #expect(try await f.desk.status(ana, of: Codes.fresh()) == .unknown)

            try await f.desk.signOut(ana)
            let after = await failure { () async throws(ServiceError) in
                try await f.desk.status(ana, of: Codes.fresh())
            }
            #expect(
                after == .notSignedIn("this session has ended (signed out, or the password was reset): sign in again"))
            try await f.desk.signOut(ana)
            // The admin's own session is untouched.
            #expect(try await f.desk.staff(admin).count == 2)
        }
    }

    @Test("wrong password, unknown name, empty password: refused without saying which", arguments: DeskKind.allCases)
    func signInFailures(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            _ = try await f.desk.addStaff(admin, name: "ana", role: .operator, password: ContractFixture.password)

            let wrong = await failure { () async throws(ServiceError) in
                try await f.desk.signIn(name: "ana", password: "not the password")
            }
            let unknown = await failure { () async throws(ServiceError) in
                try await f.desk.signIn(name: "nobody", password: ContractFixture.password)
            }
            let empty = await failure { () async throws(ServiceError) in
                try await f.desk.signIn(name: "ana", password: "")
            }
            let badName = await failure { () async throws(ServiceError) in
                try await f.desk.signIn(name: "a b", password: ContractFixture.password)
            }

            #expect(wrong == .signInFailed(Self.wrong))
            #expect(unknown == .signInFailed(Self.wrong))
            #expect(empty == .signInFailed("type your password"))
            #expect(badName == .signInFailed(Self.wrong))
        }
    }

    @Test("a token that was never issued, or has no token's shape, is not signed in", arguments: DeskKind.allCases)
    func forgedTokens(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            var forged = admin
            forged.token = SessionToken.make()
            var junk = admin
            junk.token = "not-a-token"
            var empty = admin
            empty.token = ""

            let forgedError = await failure { () async throws(ServiceError) in try await f.desk.staff(forged) }
            let junkError = await failure { () async throws(ServiceError) in try await f.desk.staff(junk) }
            let emptyError = await failure { () async throws(ServiceError) in try await f.desk.staff(empty) }

            #expect(forgedError == .notSignedIn("this session is not known here: sign in again"))
            #expect(junkError == .notSignedIn("not signed in: sign in first"))
            #expect(emptyError == .notSignedIn("not signed in: sign in first"))
        }
    }

    @Test("a session ends at its maximum age, activity or not", arguments: DeskKind.allCases)
    func expiredSession(kind: DeskKind) async throws {
        try await ContractFixture.with(kind, sessionHours: 1, idleMinutes: 60) { f in
            let admin = try await f.admin()
            #expect(admin.expiresAt == ContractFixture.start + 3600)

            f.clock.advance(seconds: 59 * 60)
            #expect(try await f.desk.staff(admin).count == 1)
            f.clock.advance(seconds: 60)
            let expired = await failure { () async throws(ServiceError) in try await f.desk.staff(admin) }

            #expect(expired == .notSignedIn("your session ended 1 h after sign-in: sign in again"))
        }
    }

    @Test(
        "a session with no request for longer than the idle limit ends; activity keeps it", arguments: DeskKind.allCases
    )
    func idleSession(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()

            f.clock.advance(seconds: 9 * 60)
            #expect(try await f.desk.staff(admin).count == 1)
            f.clock.advance(seconds: 9 * 60)
            #expect(try await f.desk.staff(admin).count == 1)
            f.clock.advance(seconds: 10 * 60 + 1)
            let idle = await failure { () async throws(ServiceError) in try await f.desk.staff(admin) }

            #expect(idle == .notSignedIn("your session ended after 10 min without activity: sign in again"))
        }
    }

    @Test(
        "a disabled account's sessions end and it cannot sign in; an admin cannot disable themselves",
        arguments: DeskKind.allCases)
    func disabledAccount(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let ana = try await f.person("ana", .operator, by: admin)

            let disabled = try await f.desk.disableStaff(admin, name: "ana")
            let anaAfter = await failure { () async throws(ServiceError) in
                try await f.desk.status(ana, of: Codes.fresh())
            }
            let signIn = await failure { () async throws(ServiceError) in
                try await f.desk.signIn(name: "ana", password: ContractFixture.password)
            }
            let selfDisable = await failure { () async throws(ServiceError) in
                try await f.desk.disableStaff(admin, name: "root")
            }
            let nobody = await failure { () async throws(ServiceError) in
                try await f.desk.disableStaff(admin, name: "nobody")
            }

            #expect(disabled.name == "ana")
            #expect(disabled.disabled)
            #expect(disabled.stateName == "disabled")
            #expect(anaAfter?.isNotSignedIn == true)
            #expect(signIn == .signInFailed("the account ana is disabled: ask an admin for a new account"))
            #expect(selfDisable == .invalid("you cannot disable your own account: ask another admin"))
            #expect(nobody == .invalid("there is no account named nobody: see the staff list"))
        }
    }

    @Test("failed sign-ins slow down, then lock the account; a reset unlocks it", arguments: DeskKind.allCases)
    func lockout(kind: DeskKind) async throws {
        try await ContractFixture.with(kind, failuresBeforeLock: 5) { f in
            let admin = try await f.admin()
            _ = try await f.desk.addStaff(admin, name: "ana", role: .operator, password: ContractFixture.password)
            func attempt(_ password: String) async -> ServiceError? {
                await failure { () async throws(ServiceError) in
                    try await f.desk.signIn(name: "ana", password: password)
                }
            }

            #expect(await attempt("guess-0001") == .signInFailed(Self.wrong))
            #expect(
                await attempt("guess-0002") == .signInFailed("\(Self.wrong) (3 tries left before the account locks)"))
            #expect(
                await attempt("guess-0003") == .signInFailed("\(Self.wrong) (2 tries left before the account locks)"))
            // After the third failure the next try must wait; the right password does not help.
            let early = await attempt(ContractFixture.password)
            guard case .signInFailed(let text) = early else {
                Issue.record("expected a wait, got \(String(describing: early))")
                return
            }
            #expect(text.hasPrefix("too many failed sign-ins for ana: wait "))
            f.clock.advance(seconds: 2)
            #expect(await attempt("guess-0004") == .signInFailed("\(Self.wrong) (1 try left before the account locks)"))
            f.clock.advance(seconds: 4)
            #expect(
                await attempt("guess-0005")
                    == .signInFailed(
                        "wrong password: the account ana is now locked after 5 failed sign-ins; ask an admin to reset its password"
                    ))
            f.clock.advance(seconds: 60)
            #expect(
                await attempt(ContractFixture.password)
                    == .signInFailed(
                        "the account ana is locked after 5 failed sign-ins: ask an admin to reset its password (tracedesk staff reset-password ana)"
                    ))
            #expect(try f.store.staffAccounts().first { $0.name == "ana" }?.locked == true)

            let reset = try await f.desk.resetPassword(admin, name: "ana", password: "fresh start 77")

            #expect(reset.locked == false)
            #expect(reset.failedSignIns == 0)
            #expect(await attempt(ContractFixture.password) == .signInFailed(Self.wrong))
            let ana = try await f.desk.signIn(name: "ana", password: "fresh start 77")
            #expect(ana.user == "ana")
        }
    }

    @Test("a reset ends the account's sessions", arguments: DeskKind.allCases)
    func resetEndsSessions(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            let ana = try await f.person("ana", .operator, by: admin)

            _ = try await f.desk.resetPassword(admin, name: "ana", password: "fresh start 77")
            let after = await failure { () async throws(ServiceError) in try await f.desk.status(ana, of: Codes.fresh())
            }

            #expect(
                after == .notSignedIn("this session has ended (signed out, or the password was reset): sign in again"))
        }
    }

    @Test("accounts: names are unique, the list shows every account without secrets", arguments: DeskKind.allCases)
    func accounts(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()

            let added = try await f.desk.addStaff(
                admin, name: "Bea", role: .supervisor, password: ContractFixture.password)
            let taken = await failure { () async throws(ServiceError) in
                try await f.desk.addStaff(admin, name: "bea", role: .tracer, password: ContractFixture.password)
            }
            let weak = await failure { () async throws(ServiceError) in
                try await f.desk.addStaff(admin, name: "cid", role: .tracer, password: "cid-cid-cid")
            }
            let list = try await f.desk.staff(admin)

            #expect(added.name == "bea")
            #expect(added.role == .supervisor)
            #expect(added.createdBy == "root")
            #expect(added.createdAt == ContractFixture.start)
            #expect(added.lastSignInAt == nil)
            #expect(taken == .conflict("the name bea is taken (disabled accounts keep their names): choose another"))
            #expect(weak == .invalid("the password must not contain the user name"))
            #expect(list == (try f.store.staffAccounts()))
            #expect(list.map(\.name) == ["bea", "root"])
        }
    }
}
