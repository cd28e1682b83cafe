import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskTestSupport
import Foundation
import Testing

/// The first admin, sign-in and sign-out, session lifetimes, disabled accounts and the lockout,
/// through both desks.
@Suite struct SessionContractTests {
    static let wrong =
        "wrong user name or password: check both and try again (if it keeps failing, ask an admin: the account may be locked or disabled)"

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
        "the idle limit is the one the session was signed in with: a desk on the same store with a longer limit refuses it too",
        arguments: DeskKind.allCases)
    func idleLimitTravelsWithTheSession(kind: DeskKind) async throws {
        try await ContractFixture.with(kind) { f in
            let admin = try await f.admin()
            // Another server on the same store, whose own idle limit is an hour.
            let other = LocalDesk(
                store: f.store, clock: f.clock, sessions: SessionPolicy(maximumSeconds: 12 * 3600, idleSeconds: 3600),
                hasher: TestHashing.cheap)

            f.clock.advance(seconds: 10 * 60 + 1)
            let there = await failure { () async throws(ServiceError) in try await other.staff(admin) }
            let here = await failure { () async throws(ServiceError) in try await f.desk.staff(admin) }

            let ended = ServiceError.notSignedIn("your session ended after 10 min without activity: sign in again")
            #expect(there == ended)
            #expect(here == ended)
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
            // As a wrong password: a disabled account does not show itself (the Staff screen does).
            #expect(signIn == .signInFailed(Self.wrong))
            #expect(selfDisable == .invalid("you cannot disable your own account: ask another admin"))
            #expect(nobody == .invalid("there is no account named nobody: see the staff list"))
        }
    }

    @Test(
        "failed sign-ins slow down their own source, a real name exactly as an unknown one; the limit locks, silently; a reset unlocks",
        arguments: DeskKind.allCases)
    func lockout(kind: DeskKind) async throws {
        try await ContractFixture.with(kind, failuresBeforeLock: 5) { f in
            let admin = try await f.admin()
            _ = try await f.desk.addStaff(admin, name: "ana", role: .operator, password: ContractFixture.password)
            func attempt(_ name: String, _ password: String) async -> ServiceError? {
                await failure { () async throws(ServiceError) in
                    try await f.desk.signIn(name: name, password: password)
                }
            }
            let wait2 = ServiceError.signInFailed(
                "too many failed sign-ins with this name \(kind == .local ? "on this computer" : "from this address"): wait 2 s, then try again"
            )

            // A real name and an unknown one, side by side: the same answers, word for word.
            for name in ["ana", "nobody"] {
                #expect(await attempt(name, "guess-0001") == .signInFailed(Self.wrong))
                #expect(await attempt(name, "guess-0002") == .signInFailed(Self.wrong))
                #expect(await attempt(name, "guess-0003") == .signInFailed(Self.wrong))
                // After this source's third failure it waits; the right password does not help.
                #expect(await attempt(name, ContractFixture.password) == wait2)
            }
            f.clock.advance(seconds: 2)
            #expect(await attempt("ana", "guess-0004") == .signInFailed(Self.wrong))
            f.clock.advance(seconds: 4)
            // The fifth failure reaches the limit: locked, and still the words of a wrong password.
            #expect(await attempt("ana", "guess-0005") == .signInFailed(Self.wrong))
            f.clock.advance(seconds: 8)
            #expect(await attempt("ana", ContractFixture.password) == .signInFailed(Self.wrong))
            let locked = try #require(try await f.desk.staff(admin).first { $0.name == "ana" })
            #expect(locked.locked && locked.failedSignIns == 5 && locked.failingSources == 1)

            let reset = try await f.desk.resetPassword(admin, name: "ana", password: "fresh start 77")

            #expect(reset.locked == false)
            #expect(reset.failedSignIns == 0)
            #expect(await attempt("ana", ContractFixture.password) == .signInFailed(Self.wrong))
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
