import DeskCore
import DeskCrypto
import DeskTestSupport
import Foundation
import Testing

@testable import DeskStore

/// The two halves of a sign-in, against every adapter: refusals, counting every attempt
/// before the (slow) password check, waits, the lock, and what happens when the account
/// changes during the check or attempts race on several servers.
@Suite("Store contract: signing in")
struct SignInStoreTests {
    @Test(
        "unknown, disabled and locked accounts are refused and audited; the typed name of an unknown one is not kept",
        arguments: StoreKind.testable)
    func refusals(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            let policy = SignInPolicy(failuresBeforeLock: 1, maximumDelaySeconds: 0)
            try Staff.add(store, "rossi")
            try Staff.add(store, "bianchi")
            _ = try store.disableStaff(name: "bianchi", by: "admin1", now: Fixture.now)
            _ = try Staff.fail(store, "rossi", at: Fixture.now, policy: policy)
            let seen = try store.auditEntries(after: 0, limit: 100).count

            #expect(
                try store.beginSignIn(name: "hunter2-password", now: Fixture.now, policy: policy) == .unknownAccount)
            #expect(try store.beginSignIn(name: "bianchi", now: Fixture.now, policy: policy) == .disabled)
            #expect(try store.beginSignIn(name: "rossi", now: Fixture.now, policy: policy) == .locked)

            let audit = Array(try store.auditEntries(after: 0, limit: 100).dropFirst(seen))
            #expect(audit.map(\.action) == [.signInFailed, .signInRefused, .signInRefused])
            #expect(audit.map(\.actor) == ["-", "bianchi", "rossi"])
            #expect(audit.map(\.target) == [nil, nil, nil])
            #expect(
                audit.map(\.detail) == [
                    #"{"reason":"unknown account"}"#, #"{"reason":"disabled"}"#, #"{"reason":"locked"}"#,
                ])
            let everything = try store.auditEntries(after: 0, limit: 100)
            #expect(!everything.contains { "\($0)".contains("hunter2") })
            #expect(try space.scalar("SELECT count(*) FROM audit_log WHERE detail LIKE '%hunter2%'") == 0)
            // A refusal counts no failure.
            #expect(try store.staffCredentials(name: "bianchi")?.account.failedSignIns == 0)
            #expect(try store.staffCredentials(name: "rossi")?.account.failedSignIns == 1)
        }
    }

    @Test(
        "every attempt is counted before the password check, with a rising number; a success resets the count",
        arguments: StoreKind.testable)
    func attemptsAndSuccess(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            let policy = SignInPolicy()
            guard
                case .verify(let first, attempt: 1) = try store.beginSignIn(
                    name: "rossi", now: Fixture.now, policy: policy)
            else {
                Issue.record("the first attempt was not taken")
                return
            }
            #expect(first.passwordHash == Staff.hashA)
            #expect(first.account.failedSignIns == 1)
            #expect(try store.staffCredentials(name: "rossi") == first)
            #expect(try store.beginSignIn(name: "rossi", now: Fixture.now + 1, policy: policy).attempt == 2)
            #expect(try store.auditEntries(after: 0, limit: 10).map(\.action) == [.staffAdded])

            let at = Fixture.now + 2
            let token = Staff.token(7)
            let finish = try store.finishSignIn(
                name: "rossi", attempt: 2, checkedAgainst: Staff.hashA,
                session: NewStaffSession(tokenHash: token, createdAt: at, expiresAt: at + 43_200), rehash: nil, now: at,
                policy: policy)

            guard case .signedIn(let account) = finish else {
                Issue.record("not signed in: \(finish)")
                return
            }
            #expect(account.failedSignIns == 0 && account.lastSignInAt == at)
            #expect(try store.staffCredentials(name: "rossi")?.account == account)
            #expect(
                try store.session(tokenHash: token)
                    == StoredSession(
                        user: "rossi", role: .operator, accountDisabled: false, createdAt: at, lastSeenAt: at,
                        expiresAt: at + 43_200, endedAt: nil))
            let entry = try #require(try store.auditEntries(after: 0, limit: 10).last)
            #expect(entry.action == .signIn && entry.actor == "rossi" && entry.target == nil)
            #expect(entry.detail == #"{"expires_at_ms":\#((at + 43_200).unixMilliseconds),"password_rehashed":false}"#)
            try Staff.expectNoSecrets(in: try store.auditEntries(after: 0, limit: 10))
        }
    }

    @Test(
        "after the third confirmed failure an attempt waits 2, 4, 8… s since the last one; waiting writes nothing",
        arguments: StoreKind.testable)
    func waits(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            let policy = SignInPolicy(failuresBeforeLock: 8, maximumDelaySeconds: 60)
            let start = Fixture.now
            for _ in 1...3 { _ = try Staff.fail(store, "rossi", at: start, policy: policy) }
            let counted = try store.staffCredentials(name: "rossi")
            let audit = try store.auditEntries(after: 0, limit: 100)

            // 3 failures: 2 s from the last one, rounded up.
            #expect(try store.beginSignIn(name: "rossi", now: start + 0.5, policy: policy) == .wait(seconds: 2))
            #expect(try store.beginSignIn(name: "rossi", now: start + 1.999, policy: policy) == .wait(seconds: 1))
            #expect(try store.staffCredentials(name: "rossi") == counted)
            #expect(try store.auditEntries(after: 0, limit: 100) == audit)
            #expect(
                try Staff.fail(store, "rossi", at: start + 2, policy: policy) == .failed(failures: 4, locked: false))
            // 4 failures: 4 s.
            #expect(try store.beginSignIn(name: "rossi", now: start + 3, policy: policy) == .wait(seconds: 3))
            #expect(
                try Staff.fail(store, "rossi", at: start + 6, policy: policy) == .failed(failures: 5, locked: false))
            // 5 failures: 8 s; capped by the policy's maximum.
            let capped = SignInPolicy(failuresBeforeLock: 8, maximumDelaySeconds: 5)
            #expect(try store.beginSignIn(name: "rossi", now: start + 6, policy: capped) == .wait(seconds: 5))
            #expect(try store.beginSignIn(name: "rossi", now: start + 11, policy: capped).attempt == 6)
        }
    }

    @Test(
        "attempts in flight ask for no wait; confirmed failures still do while another attempt is in flight",
        arguments: StoreKind.testable)
    func waitsWithAttemptsInFlight(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            let policy = SignInPolicy(failuresBeforeLock: 8, maximumDelaySeconds: 60)
            let start = Fixture.now
            // Five attempts under way at the same instant: none waits for the others.
            let flying = try (1...5).map { _ in try store.beginSignIn(name: "rossi", now: start, policy: policy) }
            #expect(flying.map(\.attempt) == [1, 2, 3, 4, 5])
            for number in 1...5 {
                _ = try store.finishSignIn(
                    name: "rossi", attempt: number, checkedAgainst: Staff.hashA, session: nil, rehash: nil,
                    now: start, policy: policy)
            }
            // Five confirmed failures: 8 s.
            #expect(try store.beginSignIn(name: "rossi", now: start + 1, policy: policy) == .wait(seconds: 7))
            _ = try Staff.signIn(store, "rossi", token: 1, at: start + 8)

            // Two failures; an attempt is taken (in flight); the third failure.
            for _ in 1...2 { _ = try Staff.fail(store, "rossi", at: start + 10, policy: policy) }
            let inFlight = try store.beginSignIn(name: "rossi", now: start + 10, policy: policy)
            #expect(inFlight.attempt == 3)
            #expect(
                try Staff.fail(store, "rossi", at: start + 10, policy: policy) == .failed(failures: 3, locked: false))
            // 3 confirmed failures: 2 s, though 4 attempts were taken.
            #expect(try store.beginSignIn(name: "rossi", now: start + 10.5, policy: policy) == .wait(seconds: 2))
            #expect(try store.staffCredentials(name: "rossi")?.account.failedSignIns == 4)
            #expect(try store.beginSignIn(name: "rossi", now: start + 12, policy: policy).attempt == 5)

            // The attempt in flight was the right password: the episode ends, no wait after it.
            let finish = try store.finishSignIn(
                name: "rossi", attempt: 3, checkedAgainst: Staff.hashA,
                session: NewStaffSession(tokenHash: Staff.token(2), createdAt: start + 12, expiresAt: start + 99),
                rehash: nil, now: start + 12, policy: policy)
            guard case .signedIn(let account) = finish else {
                Issue.record("not signed in: \(finish)")
                return
            }
            #expect(account.failedSignIns == 0)
            #expect(try store.beginSignIn(name: "rossi", now: start + 12, policy: policy).attempt == 1)
        }
    }

    @Test(
        "twenty attempts at once through two stores are each counted: numbers 1…20, 20 failures",
        arguments: StoreKind.testable)
    func concurrentAttempts(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let stores = [try space.open(), try space.open()]
            try Staff.add(stores[0], "rossi")
            let policy = SignInPolicy(failuresBeforeLock: 100, maximumDelaySeconds: 0)

            let outcomes = onThreads(20) { index in
                Result { () throws(StoreError) in
                    try stores[index % 2].beginSignIn(name: "rossi", now: Fixture.now, policy: policy)
                }
            }

            let attempts = try outcomes.map { try $0.get().attempt }
            #expect(attempts.compactMap { $0 }.sorted() == Array(1...20), "\(attempts)")
            #expect(try stores[1].staffCredentials(name: "rossi")?.account.failedSignIns == 20)
        }
    }

    @Test(
        "twelve sign-ins at once through two stores with the right password all succeed; no failure is left",
        arguments: StoreKind.testable)
    func concurrentSuccesses(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let stores = [try space.open(), try space.open()]
            try Staff.add(stores[0], "rossi")
            let policy = SignInPolicy()

            let outcomes = onThreads(12) { index in
                Result { () throws(StoreError) -> SignInFinish in
                    let store = stores[index % 2]
                    // As LocalDesk does: busy (as many in flight as the lock allows) means "ask again soon".
                    var attempt = SignInAttempt.busy
                    do {
                        // A minute at most: on a loaded machine the others' checks run slowly.
                        try eventuallyBlocking(within: .seconds(60), "a place to check rossi's password") {
                            attempt = try store.beginSignIn(name: "rossi", now: Fixture.now, policy: policy)
                            return attempt != .busy
                        }
                    } catch let error as StoreError {
                        throw error
                    } catch {
                        throw StoreError.conflict(operation: "test", reason: "\(error)")
                    }
                    guard case .verify(let credentials, let number) = attempt else {
                        throw StoreError.conflict(operation: "test", reason: "\(attempt)")
                    }
                    // Stands for the password check: keeps attempts in flight together, so the
                    // others meet .busy. Not a wait: the outcome is the same however long it takes.
                    Thread.sleep(forTimeInterval: 0.05)
                    return try store.finishSignIn(
                        name: "rossi", attempt: number, checkedAgainst: credentials.passwordHash,
                        session: NewStaffSession(
                            tokenHash: Staff.token(index), createdAt: Fixture.now, expiresAt: Fixture.now + 3_600),
                        rehash: nil, now: Fixture.now, policy: policy)
                }
            }

            let finishes = outcomes.map { outcome -> String in
                switch outcome {
                case .success(.signedIn): return "signed in"
                case .success(let other): return "\(other)"
                case .failure(let error): return error.message
                }
            }
            #expect(finishes == Array(repeating: "signed in", count: 12))
            let account = try #require(try stores[1].staffCredentials(name: "rossi")?.account)
            #expect(account.failedSignIns == 0 && !account.locked)
        }
    }

    @Test(
        "the failure that reaches the policy's limit locks the account, once; no attempt beyond the limit is taken",
        arguments: StoreKind.testable)
    func lockOnLimit(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            let policy = SignInPolicy(failuresBeforeLock: 3, maximumDelaySeconds: 0)
            let before = try store.auditEntries(after: 0, limit: 100).count

            #expect(
                try Staff.fail(store, "rossi", at: Fixture.now, policy: policy) == .failed(failures: 1, locked: false))
            // Two guesses under way at once: the second and the third attempt. A fourth at the same
            // time would be a guess beyond the limit: it is not taken.
            let second = try store.beginSignIn(name: "rossi", now: Fixture.now + 1, policy: policy)
            let third = try store.beginSignIn(name: "rossi", now: Fixture.now + 1, policy: policy)
            #expect(second.attempt == 2 && third.attempt == 3)
            #expect(try store.beginSignIn(name: "rossi", now: Fixture.now + 1, policy: policy) == .busy)
            // The third finishes first: the second failure. The second finishes last: the third
            // failure, which locks, whichever attempt it was.
            let finishThird = try store.finishSignIn(
                name: "rossi", attempt: 3, checkedAgainst: Staff.hashA, session: nil, rehash: nil, now: Fixture.now + 2,
                policy: policy)
            let finishSecond = try store.finishSignIn(
                name: "rossi", attempt: 2, checkedAgainst: Staff.hashA, session: nil, rehash: nil, now: Fixture.now + 3,
                policy: policy)

            #expect(finishThird == .failed(failures: 2, locked: false))
            #expect(finishSecond == .failed(failures: 3, locked: true))
            let account = try #require(try store.staffCredentials(name: "rossi")?.account)
            #expect(account.locked && account.failedSignIns == 3 && account.stateName == "locked")
            let audit = Array(try store.auditEntries(after: 0, limit: 100).dropFirst(before))
            #expect(audit.map(\.action) == [.signInFailed, .signInFailed, .signInFailed, .accountLocked])
            #expect(
                audit.map(\.detail) == [
                    #"{"failures":1}"#, #"{"failures":2}"#, #"{"failures":3}"#, #"{"failures":3}"#,
                ])
            #expect(audit[3].actor == "rossi" && audit[3].target == "rossi")
            #expect(try store.beginSignIn(name: "rossi", now: Fixture.now + 60, policy: policy) == .locked)
            // Once locked, no further lock is audited.
            #expect(
                try store.auditEntries(after: 0, limit: 100).dropFirst(before).map(\.action).filter {
                    $0 == .accountLocked
                }.count == 1)
        }
    }

    @Test(
        "twenty guesses at once through two stores: only as many passwords as the limit are checked, and they lock once",
        arguments: StoreKind.testable)
    func noMoreChecksThanTheLimit(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let stores = [try space.open(), try space.open()]
            try Staff.add(stores[0], "rossi")
            let policy = SignInPolicy(failuresBeforeLock: 8)

            let begins = onThreads(20) { index in
                Result { () throws(StoreError) in
                    try stores[index % 2].beginSignIn(name: "rossi", now: Fixture.now, policy: policy)
                }
            }

            let attempts = try begins.map { try $0.get() }
            let taken = attempts.compactMap(\.attempt)
            #expect(taken.sorted() == Array(1...policy.failuresBeforeLock), "\(attempts)")
            #expect(attempts.filter { $0 == .busy }.count == 20 - policy.failuresBeforeLock)
            #expect(try stores[1].staffCredentials(name: "rossi")?.account.failedSignIns == policy.failuresBeforeLock)

            // Every taken guess was wrong.
            let finishes = onThreads(taken.count) { index in
                Result { () throws(StoreError) in
                    try stores[index % 2].finishSignIn(
                        name: "rossi", attempt: taken[index], checkedAgainst: Staff.hashA, session: nil, rehash: nil,
                        now: Fixture.now + 1, policy: policy)
                }
            }

            let failed = try finishes.map { try $0.get() }
            let counts = failed.compactMap { if case .failed(let count, _) = $0 { count } else { nil } }
            #expect(counts.sorted() == Array(1...policy.failuresBeforeLock), "\(failed)")
            #expect(failed.filter { $0 == .failed(failures: policy.failuresBeforeLock, locked: true) }.count == 1)
            let account = try #require(try stores[0].staffCredentials(name: "rossi")?.account)
            #expect(account.locked && account.failedSignIns == policy.failuresBeforeLock)
            let actions = try stores[0].auditEntries(after: 0, limit: 100).map(\.action)
            #expect(actions.filter { $0 == .signInFailed }.count == policy.failuresBeforeLock)
            #expect(actions.filter { $0 == .accountLocked }.count == 1)
            #expect(try stores[1].beginSignIn(name: "rossi", now: Fixture.now + 3_600, policy: policy) == .locked)
        }
    }

    @Test(
        "attempts whose process died count as failures once abandoned, so neither a crash nor a clock widens the limit; a success or a reset clears them",
        arguments: StoreKind.testable)
    func abandonedAttempts(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try Staff.add(store, "rossi")
            let policy = SignInPolicy(failuresBeforeLock: 3, maximumDelaySeconds: 0, abandonedAfterSeconds: 60)
            let start = Fixture.now
            func inFlight() throws -> Int64 {
                try space.scalar("SELECT sign_ins_in_flight FROM staff WHERE name = 'rossi'")
            }
            func account() throws -> StaffAccount? { try store.staffCredentials(name: "rossi")?.account }

            // Two attempts taken and never finished, then a wrong password: one confirmed failure,
            // no lock, though it was the third attempt.
            for _ in 1...2 { _ = try store.beginSignIn(name: "rossi", now: start, policy: policy) }
            #expect(
                try Staff.fail(store, "rossi", at: start + 1, policy: policy) == .failed(failures: 1, locked: false))
            #expect(try account()?.locked == false)
            #expect(try inFlight() == 2)
            // The dead ones hold places under the limit a while: a fourth attempt is not taken yet.
            #expect(try store.beginSignIn(name: "rossi", now: start + 30, policy: policy) == .busy)
            // A minute after the latest attempt they are abandoned and count as failures: with the
            // wrong password that makes three, the limit, so the account locks there and then.
            #expect(try store.beginSignIn(name: "rossi", now: start + 61, policy: policy) == .locked)
            #expect(try account()?.locked == true)
            #expect(try inFlight() == 0)
            let locks = try store.auditEntries(after: 0, limit: 100).filter { $0.action == .accountLocked }
            #expect(locks.map(\.detail) == [#"{"failures":3,"abandoned":2}"#])

            // A reset clears it all; a success clears a dead attempt at once.
            _ = try store.setPassword(
                name: "rossi", passwordHash: Staff.hashA, by: "admin1", now: start + 299, reason: .reset)
            _ = try store.beginSignIn(name: "rossi", now: start + 300, policy: policy)
            _ = try Staff.signIn(store, "rossi", token: 2, at: start + 301)
            #expect(try inFlight() == 0)
            #expect(try account()?.failedSignIns == 0)

            // Below the limit an abandoned attempt is one failure, no more: two real wrong
            // passwords after it lock, not one.
            _ = try store.beginSignIn(name: "rossi", now: start + 400, policy: policy)
            #expect(
                try Staff.fail(store, "rossi", at: start + 461, policy: policy) == .failed(failures: 2, locked: false))
            #expect(try inFlight() == 0)
            #expect(
                try Staff.fail(store, "rossi", at: start + 462, policy: policy) == .failed(failures: 3, locked: true))

            // An admin's reset clears attempts in flight too.
            _ = try store.setPassword(
                name: "rossi", passwordHash: Staff.hashB, by: "admin1", now: start + 499, reason: .reset)
            for _ in 1...3 { _ = try store.beginSignIn(name: "rossi", now: start + 500, policy: policy) }
            #expect(try store.beginSignIn(name: "rossi", now: start + 501, policy: policy) == .busy)
            let reset = try store.setPassword(
                name: "rossi", passwordHash: Staff.hashA, by: "admin1", now: start + 502, reason: .reset)
            #expect(reset?.failedSignIns == 0)
            #expect(try inFlight() == 0)
            #expect(try store.beginSignIn(name: "rossi", now: start + 503, policy: policy).attempt == 1)
        }
    }

    @Test(
        "two servers whose clocks differ by more than the abandonment time get no more checks than the limit",
        arguments: StoreKind.testable)
    func clockSkewGainsNothing(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let a = try space.open()
            let b = try space.open()
            try Staff.add(a, "rossi")
            let policy = SignInPolicy(failuresBeforeLock: 8, maximumDelaySeconds: 0, abandonedAfterSeconds: 60)
            // Server B's clock is 61 s ahead of A's. Guesses alternate, two in flight on each.
            var checks = 0
            var locked = false
            for round in 0..<40 where !locked {
                let aNow = Fixture.now + Double(round)
                let bNow = aNow + 61
                var taken: [(store: any Store, attempt: SignInAttempt, now: Date)] = []
                for (store, now) in [(a, aNow), (a, aNow), (b, bNow), (b, bNow)] {
                    let attempt = try store.beginSignIn(name: "rossi", now: now, policy: policy)
                    if attempt == .locked { locked = true }
                    if case .verify = attempt { taken.append((store, attempt, now)) }
                }
                for (store, attempt, now) in taken {
                    guard case .verify(let credentials, let number) = attempt else { continue }
                    checks += 1
                    let finish = try store.finishSignIn(
                        name: "rossi", attempt: number, checkedAgainst: credentials.passwordHash, session: nil,
                        rehash: nil, now: now, policy: policy)
                    if case .failed(_, true) = finish { locked = true }
                }
            }
            #expect(locked)
            #expect(checks <= policy.failuresBeforeLock, "\(checks) wrong passwords were checked")
        }
    }

    @Test(
        "sign-ins refused without a password check fill the audit log at most once a minute per account, once a second for unknown names",
        arguments: StoreKind.testable)
    func refusalsDoNotFloodTheLog(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            _ = try store.disableStaff(name: "rossi", by: "admin1", now: Fixture.now)
            let policy = SignInPolicy()
            func count(_ action: AuditAction) throws -> Int {
                try store.auditEntries(after: 0, limit: 10_000).filter { $0.action == action }.count
            }
            for second in 0..<50 {
                #expect(
                    try store.beginSignIn(name: "rossi", now: Fixture.now + Double(second), policy: policy)
                        == .disabled)
                for _ in 0..<4 {
                    #expect(
                        try store.beginSignIn(name: "nobody", now: Fixture.now + Double(second), policy: policy)
                            == .unknownAccount)
                }
            }
            #expect(try count(.signInRefused) == 1)
            #expect(try count(.signInFailed) == 50)
            _ = try store.beginSignIn(name: "rossi", now: Fixture.now + 61, policy: policy)
            #expect(try count(.signInRefused) == 2)
            #expect(AuditChain.check(try store.auditEntries(after: 0, limit: 10_000), after: nil) == nil)
        }
    }

    @Test(
        "a sign-in is refused, storing nothing, when the account changed during the password check",
        arguments: StoreKind.testable, AccountChange.allCases)
    func changedDuringCheck(_ kind: StoreKind, change: AccountChange) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            let policy = SignInPolicy(failuresBeforeLock: 2, maximumDelaySeconds: 0)
            let attempt = try store.beginSignIn(name: "rossi", now: Fixture.now, policy: policy)
            guard case .verify(let credentials, let number) = attempt else {
                Issue.record("not taken: \(attempt)")
                return
            }
            switch change {
            case .passwordReset:
                _ = try store.setPassword(
                    name: "rossi", passwordHash: Staff.hashB, by: "admin1", now: Fixture.now, reason: .reset)
            case .passwordRehashed:
                _ = try store.setPassword(
                    name: "rossi", passwordHash: Staff.hashB, by: "rossi", now: Fixture.now, reason: .rehash)
            case .disabled:
                _ = try store.disableStaff(name: "rossi", by: "admin1", now: Fixture.now)
            case .locked:
                // While this attempt is counted, failures cannot lock the account at this limit (it
                // holds one of the limit's places): only once it is taken for abandoned, its check
                // having outlasted `abandonedAfterSeconds`.
                // Abandoned, it counts as a failure: one more wrong password reaches the limit.
                let later = Fixture.now + Double(policy.abandonedAfterSeconds)
                _ = try Staff.fail(store, "rossi", at: later, policy: policy)
                #expect(try store.staffCredentials(name: "rossi")?.account.locked == true)
            }
            let before = try store.staffCredentials(name: "rossi")
            let audit = try store.auditEntries(after: 0, limit: 100)
            let token = Staff.token(9)

            let finish = try store.finishSignIn(
                name: "rossi", attempt: number, checkedAgainst: credentials.passwordHash,
                session: NewStaffSession(tokenHash: token, createdAt: Fixture.now, expiresAt: Fixture.now + 3_600),
                rehash: Staff.hashC, now: Fixture.now + 1, policy: policy)

            #expect(finish == .refused)
            #expect(try store.session(tokenHash: token) == nil)
            #expect(try store.staffCredentials(name: "rossi") == before)
            #expect(try store.auditEntries(after: 0, limit: 100) == audit)
        }
    }

    @Test(
        "a wrong guess at the old password after a reset is audited but does not lock the new one",
        arguments: StoreKind.testable)
    func staleFailureDoesNotLock(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            let policy = SignInPolicy(failuresBeforeLock: 1, maximumDelaySeconds: 0)
            _ = try store.beginSignIn(name: "rossi", now: Fixture.now, policy: policy)
            _ = try store.setPassword(
                name: "rossi", passwordHash: Staff.hashB, by: "admin1", now: Fixture.now, reason: .reset)

            let finish = try store.finishSignIn(
                name: "rossi", attempt: 1, checkedAgainst: Staff.hashA, session: nil, rehash: nil, now: Fixture.now + 1,
                policy: policy)

            #expect(finish == .failed(failures: 1, locked: false))
            #expect(try store.staffCredentials(name: "rossi")?.account.locked == false)
            #expect(try store.auditEntries(after: 0, limit: 100).last?.action == .signInFailed)
        }
    }

    @Test("a success with a stronger hash stores it without auditing a reset", arguments: StoreKind.testable)
    func rehashAtSignIn(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            let changed = try #require(try store.staffCredentials(name: "rossi")?.account.passwordChangedAt)
            let attempt = try store.beginSignIn(name: "rossi", now: Fixture.now + 5, policy: SignInPolicy())
            let finish = try store.finishSignIn(
                name: "rossi", attempt: try #require(attempt.attempt), checkedAgainst: Staff.hashA,
                session: NewStaffSession(
                    tokenHash: Staff.token(1), createdAt: Fixture.now + 5, expiresAt: Fixture.now + 3_605),
                rehash: Staff.hashC, now: Fixture.now + 5, policy: SignInPolicy())

            guard case .signedIn = finish else {
                Issue.record("not signed in: \(finish)")
                return
            }
            let credentials = try #require(try store.staffCredentials(name: "rossi"))
            #expect(credentials.passwordHash == Staff.hashC)
            #expect(credentials.account.passwordChangedAt == changed)
            let audit = try store.auditEntries(after: 0, limit: 10)
            #expect(audit.map(\.action) == [.staffAdded, .signIn])
            #expect(audit.last?.detail.contains(#""password_rehashed":true"#) == true)
            try Staff.expectNoSecrets(in: audit)
        }
    }

    @Test(
        "a session whose token hash is taken fails as a whole, and the error shows no token",
        arguments: StoreKind.testable)
    func takenToken(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            try Staff.add(store, "bianchi")
            let token = try Staff.signIn(store, "rossi", token: 5, at: Fixture.now)
            let attempt = try #require(
                try store.beginSignIn(name: "bianchi", now: Fixture.now, policy: SignInPolicy()).attempt)
            let audit = try store.auditEntries(after: 0, limit: 100)

            #expect {
                try store.finishSignIn(
                    name: "bianchi", attempt: attempt, checkedAgainst: Staff.hashA,
                    session: NewStaffSession(tokenHash: token, createdAt: Fixture.now, expiresAt: Fixture.now + 60),
                    rehash: nil, now: Fixture.now, policy: SignInPolicy())
            } throws: { error in
                guard let error = error as? StoreError else { return false }
                return !error.message.contains(token) && !error.message.contains(Staff.hashA)
            }
            #expect(try store.session(tokenHash: token)?.user == "rossi")
            #expect(try store.staffCredentials(name: "bianchi")?.account.failedSignIns == 1)
            #expect(try store.auditEntries(after: 0, limit: 100) == audit)
        }
    }
}

/// What can happen to an account while its password is being checked.
enum AccountChange: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case passwordReset, passwordRehashed, disabled, locked
    var testDescription: String { rawValue }
}

extension SignInAttempt {
    /// The attempt's number when it was taken, nil otherwise.
    var attempt: Int? {
        if case .verify(_, let number) = self { return number }
        return nil
    }
}
