import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// Sign-in, sessions, roles and the audit trail through `LocalDesk` over a real SQLite store.
/// (The same use cases run against LocalDesk and RemoteDesk in the service contract suite; these
/// are the rules that need the store's clock moved or its internals read.)
@Suite struct LocalDeskStaffTests {
    let password = DeskFixture.password

    @Test("the first admin can be made once; after that, sign in")
    func firstAdminOnce() async throws {
        try await DeskFixture.with { fixture in
            let needsFirstAdmin = try await fixture.desk.needsFirstAdmin()
            #expect(needsFirstAdmin == false)
            await #expect(
                throws: ServiceError.conflict(
                    "staff accounts exist already: sign in, or ask an admin for an account")
            ) {
                try await fixture.desk.createFirstAdmin(name: "eve", password: "another long password")
            }
            let names = try fixture.store.staffAccounts().map(\.name)
            #expect(names == ["admin", "bianchi", "rossi", "sara"])
        }
    }

    @Test(
        "wrong passwords slow their source down, then lock the account at the limit (silently) until an admin resets it"
    )
    func lockout() async throws {
        try await DeskFixture.with { fixture in
            let policy = fixture.desk.signIns
            var messages: [String] = []
            for failure in 1...policy.failuresBeforeLock {
                // Wait out the delay the previous failure asked for.
                fixture.clock.advance(seconds: Double(policy.delaySeconds(afterFailures: failure - 1)))
                do {
                    _ = try await fixture.desk.signIn(name: "rossi", password: "not the password")
                    Issue.record("a wrong password signed in")
                } catch let error as ServiceError {
                    guard case .signInFailed(let message) = error else {
                        Issue.record("unexpected \(error)")
                        return
                    }
                    messages.append(message)
                } catch {
                    Issue.record("unexpected \(error)")
                }
                if failure == 3 {
                    // Too soon after the third failure: refused without checking the password.
                    await #expect(
                        throws: ServiceError.signInFailed(
                            "too many failed sign-ins with this name on this computer: wait 2 s, then try again")
                    ) {
                        try await fixture.desk.signIn(name: "rossi", password: DeskFixture.password)
                    }
                }
            }
            // Every failure, the locking one too, has the words of a wrong password: no count, no
            // "tries left" that would tell a real name from an unknown one.
            #expect(
                messages
                    == Array(
                        repeating:
                            "wrong user name or password: check both and try again (if it keeps failing, ask an admin: the account may be locked or disabled)",
                        count: policy.failuresBeforeLock))
            #expect(try fixture.store.staffCredentials(name: "rossi")?.account.locked == true)

            // Locked: even the right password is refused, an hour later, in the same words.
            fixture.clock.advance(seconds: 3600)
            await #expect(
                throws: ServiceError.signInFailed(
                    "wrong user name or password: check both and try again (if it keeps failing, ask an admin: the account may be locked or disabled)"
                )
            ) {
                try await fixture.desk.signIn(name: "rossi", password: DeskFixture.password)
            }

            // The admin resets it: the new password works at once.
            let admin = try await fixture.desk.signIn(name: "admin", password: password)
            let account = try await fixture.desk.resetPassword(admin, name: "rossi", password: "a brand new password")
            #expect(!account.locked && account.failedSignIns == 0)
            let session = try await fixture.desk.signIn(name: "rossi", password: "a brand new password")
            #expect(session.user == "rossi" && session.role == .operator)

            let actions = try fixture.store.auditEntries(matching: AuditQuery(limit: 1_000)).reversed().map {
                $0.action
            }
            #expect(actions.filter { $0 == .signInFailed }.count == policy.failuresBeforeLock)
            #expect(actions.filter { $0 == .accountLocked }.count == 1)
            #expect(actions.filter { $0 == .signInRefused }.count == 1)
            #expect(actions.suffix(2) == [.passwordReset, .signIn])
        }
    }

    @Test("twelve sign-ins at once with the right password all succeed, and leave no failure behind")
    func concurrentSignIns() async throws {
        try await DeskFixture.with { fixture in
            let desk = fixture.desk
            let outcomes = await onOwnThreads(12) { _ -> Result<String, ServiceError> in
                do throws(ServiceError) {
                    return .success(
                        try await desk.signIn(name: "rossi", password: DeskFixture.password).user)
                } catch {
                    return .failure(error)
                }
            }
            let failures = outcomes.compactMap { outcome -> ServiceError? in
                if case .failure(let error) = outcome { return error }
                return nil
            }
            #expect(failures.isEmpty, "\(failures)")
            #expect(outcomes.count == 12)
            let account = try #require(try fixture.store.staffCredentials(name: "rossi")?.account)
            #expect(account.failedSignIns == 0 && !account.locked)
            let actions = try fixture.store.auditEntries(matching: AuditQuery(actor: "rossi", limit: 100)).map(\.action)
            #expect(actions.filter { $0 == .signIn }.count == 13)
            #expect(!actions.contains(.signInFailed) && !actions.contains(.accountLocked))
        }
    }

    @Test(
        "while as many sign-ins as the lock allows are being checked, a sign-in waits for a place, a few seconds at most"
    )
    func busySignIn() async throws {
        // The desk's waits on a clock of the test's own: it moves only when the desk sleeps.
        let waits = VirtualWaitClock()
        try await DeskFixture.with(waits: waits.clock) { fixture in
            let policy = fixture.desk.signIns
            // Other processes are checking as many passwords for rossi as the lock allows.
            var taken: [(StaffCredentials, Int)] = []
            for _ in 1...policy.failuresBeforeLock {
                let attempt = try fixture.store.beginSignIn(name: "rossi", now: fixture.clock.now(), policy: policy)
                guard case .verify(let credentials, let number) = attempt else {
                    Issue.record("not taken: \(attempt)")
                    return
                }
                taken.append((credentials, number))
            }
            await #expect(
                throws: ServiceError.signInFailed("sign-ins with this name are being checked: try again in a moment")
            ) { try await fixture.desk.signIn(name: "rossi", password: DeskFixture.password) }
            // It waited, asking again between pauses, and gave up once the next pause would take
            // it past its 5 s.
            #expect(waits.sleeps.count > 1)
            #expect(waits.slept <= .seconds(5) && waits.slept + waits.sleeps.last! >= .seconds(5), "\(waits.sleeps)")

            // One of them turns out right while a sign-in waits (during its first pause): that
            // one gets its place.
            let store = fixture.store
            let now = fixture.clock.now()
            let (credentials, number) = taken[0]
            let finished = Slot<Result<SignInFinish, StoreError>>()
            let before = waits.sleeps.count
            waits.whileAsleep { sleep in
                guard sleep == before + 1 else { return }
                finished.set(
                    Result { () throws(StoreError) -> SignInFinish in
                        try store.finishSignIn(
                            name: "rossi", attempt: number, checkedAgainst: credentials.passwordHash,
                            session: NewStaffSession(
                                tokenHash: String(repeating: "ab", count: 32), createdAt: now, expiresAt: now + 3_600),
                            rehash: nil, now: now, policy: policy)
                    })
            }
            let session = try await fixture.desk.signIn(name: "rossi", password: DeskFixture.password)
            #expect(session.user == "rossi")
            #expect(waits.sleeps.count == before + 1, "asked again after the one pause, and got the place")
            guard case .success(.signedIn) = finished.value else {
                Issue.record("the other sign-in did not finish: \(String(describing: finished.value))")
                return
            }
        }
    }

    @Test("a session ends 12 h after sign-in, after 10 min idle, at sign-out, and at a password reset")
    func sessionEnds() async throws {
        try await DeskFixture.with { fixture in
            let today = DeskFixture.today
            // Busy all day: a request every 9 minutes keeps it alive until 12 h.
            var session = try await fixture.desk.signIn(name: "rossi", password: password)
            for _ in 0..<79 {
                fixture.clock.advance(seconds: 540)
                _ = try await fixture.desk.status(session, of: "9K2RAY8UUQ")
            }
            fixture.clock.advance(seconds: 540)
            await #expect(throws: ServiceError.notSignedIn("your session ended 12 h after sign-in: sign in again")) {
                try await fixture.desk.status(session, of: "9K2RAY8UUQ")
            }

            session = try await fixture.desk.signIn(name: "rossi", password: password)
            fixture.clock.advance(seconds: 601)
            await #expect(
                throws: ServiceError.notSignedIn("your session ended after 10 min without activity: sign in again")
            ) { try await fixture.desk.authorize(session, code: "9K2RAY8UUQ", symptomsStartedOn: today) }

            session = try await fixture.desk.signIn(name: "rossi", password: password)
            try await fixture.desk.signOut(session)
            try await fixture.desk.signOut(session)
            await #expect(throws: ServiceError.self) { try await fixture.desk.status(session, of: "9K2RAY8UUQ") }

            session = try await fixture.desk.signIn(name: "rossi", password: password)
            let admin = try await fixture.desk.signIn(name: "admin", password: password)
            _ = try await fixture.desk.resetPassword(admin, name: "rossi", password: "the reset password")
            await #expect(
                throws: ServiceError.notSignedIn(
                    "this session has ended (signed out, or the password was reset): sign in again")
            ) { try await fixture.desk.status(session, of: "9K2RAY8UUQ") }
        }
    }

    @Test(
        "a disabled account's sessions end and it cannot sign in; an admin cannot disable themself, so one admin always remains"
    )
    func disable() async throws {
        try await DeskFixture.with { fixture in
            let account = try await fixture.desk.disableStaff(fixture.admin, name: "bianchi")
            #expect(account.disabled)
            await #expect(throws: ServiceError.self) {
                try await fixture.desk.status(fixture.bianchi, of: "9K2RAY8UUQ")
            }
            await #expect(
                throws: ServiceError.signInFailed(
                    "wrong user name or password: check both and try again (if it keeps failing, ask an admin: the account may be locked or disabled)"
                )
            ) { try await fixture.desk.signIn(name: "bianchi", password: password) }
            await #expect(
                throws: ServiceError.invalid("you cannot disable your own account: ask another admin")
            ) { try await fixture.desk.disableStaff(fixture.admin, name: "admin") }

            // A second admin can disable the first; then it is the only one, and cannot disable itself.
            _ = try await fixture.desk.addStaff(fixture.admin, name: "root2", role: .admin, password: password)
            let second = try await fixture.desk.signIn(name: "root2", password: password)
            _ = try await fixture.desk.disableStaff(second, name: "admin")
            await #expect(throws: ServiceError.invalid("you cannot disable your own account: ask another admin")) {
                try await fixture.desk.disableStaff(second, name: "root2")
            }
        }
    }

    @Test("an operator follows only their own codes; a supervisor follows every code")
    func statusByRole() async throws {
        try await DeskFixture.with { fixture in
            let result = try await fixture.desk.authorize(
                fixture.rossi, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today)
            let record = try #require(result.record)
            #expect(try await fixture.desk.status(fixture.rossi, of: "9K2RAY8UUQ") == .authorized(record))
            #expect(try await fixture.desk.status(fixture.supervisor, of: "9K2RAY8UUQ") == .authorized(record))
            await #expect(
                throws: ServiceError.forbidden(
                    "this code was authorised by another operator: only they and supervisors can follow it")
            ) { try await fixture.desk.status(fixture.bianchi, of: "9K2RAY8UUQ") }
            // Authorising it again tells bianchi it is running, but not whose it is.
            var redacted = record
            redacted.authorizedBy = "another operator"
            let again = try await fixture.desk.authorize(
                fixture.bianchi, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today)
            #expect(again == .alreadyAuthorized(redacted))
            let mine = try await fixture.desk.authorize(
                fixture.rossi, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today)
            #expect(mine == .alreadyAuthorized(record))
            await #expect(
                throws: ServiceError.forbidden(
                    "your role (supervisor) cannot authorise codes: that needs the operator role")
            ) {
                try await fixture.desk.authorize(
                    fixture.supervisor, code: "KJ23IWY5UJ", symptomsStartedOn: DeskFixture.today)
            }
        }
    }

    @Test("a password hashed with weaker parameters is rehashed at the next sign-in, without an audit entry")
    func rehash() async throws {
        try await DeskFixture.with { fixture in
            let before = try #require(try fixture.store.staffCredentials(name: "rossi")).passwordHash
            #expect(before.hasPrefix("$scrypt$ln=10,"))
            let stronger = LocalDesk(
                store: fixture.store, clock: fixture.clock, hasher: PasswordHasher(logN: 11, r: 8, p: 1))
            let auditBefore = try fixture.store.auditEntries(after: 0, limit: 1_000).count
            _ = try await stronger.signIn(name: "rossi", password: password)
            let after = try #require(try fixture.store.staffCredentials(name: "rossi")).passwordHash
            #expect(after.hasPrefix("$scrypt$ln=11,"))
            #expect(PasswordHasher.verify(password, against: after))
            let added = try fixture.store.auditEntries(after: 0, limit: 1_000).dropFirst(auditBefore).map(\.action)
            #expect(added == [.signIn])
        }
    }

    @Test("every change is in the audit log, the chain verifies, and no password or token is in it")
    func auditTrail() async throws {
        try await DeskFixture.with { fixture in
            _ = try await fixture.desk.authorize(
                fixture.rossi, code: "9K2RAY8UUQ", symptomsStartedOn: DeskFixture.today)
            _ = try? await fixture.desk.signIn(name: "nobody", password: "whatever it is")
            try await fixture.desk.signOut(fixture.rossi)
            let entries = try await fixture.desk.audit(fixture.admin, query: AuditQuery(limit: 1_000))
            let summary = entries.reversed().map { "\($0.actor) \($0.action) \($0.target ?? "-")" }
            #expect(
                summary == [
                    "setup staff_added admin", "admin sign_in -", "admin staff_added rossi",
                    "admin staff_added bianchi", "admin staff_added sara", "rossi sign_in -",
                    "bianchi sign_in -", "sara sign_in -", "rossi otp_authorized b39e07",
                    "- sign_in_failed -", "rossi sign_out -",
                ])
            let verification = try await fixture.desk.verifyAudit(fixture.admin)
            #expect(verification.firstBroken == nil)
            #expect(verification.entries == Int64(entries.count))
            #expect(verification.headHash == entries.first?.hash)
            let text = entries.map { "\($0.actor) \($0.target ?? "") \($0.detail)" }.joined(separator: "\n")
            for secret in [password, fixture.rossi.token, "9K2RAY8UUQ", "nobody"] {
                #expect(!text.contains(secret))
            }
            let byRossi = try await fixture.desk.audit(fixture.admin, query: AuditQuery(actor: "ROSSI"))
            #expect(byRossi.map(\.action) == [.signOut, .otpAuthorized, .signIn])
        }
    }

    @Test("names and passwords are checked before anything is stored")
    func inputRules() async throws {
        try await DeskFixture.with { fixture in
            await #expect(
                throws: ServiceError.invalid("a user name has only letters a-z, digits and . - _ (no spaces)")
            ) {
                try await fixture.desk.addStaff(fixture.admin, name: "anna maria", role: .tracer, password: password)
            }
            await #expect(throws: ServiceError.invalid("a password has at least 10 characters")) {
                try await fixture.desk.addStaff(fixture.admin, name: "anna", role: .tracer, password: "short")
            }
            await #expect(
                throws: ServiceError.conflict(
                    "the name rossi is taken (disabled accounts keep their names): choose another")
            ) {
                try await fixture.desk.addStaff(fixture.admin, name: "Rossi", role: .tracer, password: password)
            }
            let count = try fixture.store.staffCount()
            #expect(count == 4)
        }
    }
}
