import DeskCore
import Foundation
import Testing

@testable import DeskStore

/// Failed sign-ins per (account, source) and the idle limit kept with a session (migration 8,
/// issue 18), against every adapter.
@Suite("Store contract: sign-in sources and session limits")
struct SignInSourceStoreTests {
    static func fail(_ store: any Store, _ name: String, from source: String, at now: Date, policy: SignInPolicy)
        throws -> SignInFinish
    {
        let attempt = try store.beginSignIn(name: name, source: source, now: now, policy: policy)
        guard case .verify(let credentials, let count) = attempt else {
            throw StaffTestError.unexpected("begin \(name) from \(source): \(attempt)")
        }
        return try store.finishSignIn(
            name: name, source: source, attempt: count, checkedAgainst: credentials.passwordHash, session: nil,
            rehash: nil, now: now, policy: policy)
    }

    @Test(
        "an attacker's failures make their own source wait, never another: the owner signs in at once from elsewhere",
        arguments: StoreKind.testable)
    func waitsPerSource(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            let policy = SignInPolicy()
            let start = Fixture.now
            // Five failures from 10.0.0.66, each after the wait the one before asked for.
            for at in [0.0, 0, 0, 2, 6] {
                _ = try Self.fail(store, "rossi", from: "10.0.0.66", at: start + at, policy: policy)
            }

            // 8 s for it from the last one.
            #expect(
                try store.beginSignIn(name: "rossi", source: "10.0.0.66", now: start + 7, policy: policy)
                    == .wait(seconds: 7))
            // Another source has not failed: its attempt is taken at once (the sixth on the account).
            let owner = try store.beginSignIn(name: "rossi", source: "10.0.0.1", now: start + 7, policy: policy)
            #expect(owner.attempt == 6)
            let finish = try store.finishSignIn(
                name: "rossi", source: "10.0.0.1", attempt: 6, checkedAgainst: Staff.hashA,
                session: NewStaffSession(tokenHash: Staff.token(1), createdAt: start + 7, expiresAt: start + 99),
                rehash: nil, now: start + 7, policy: policy)
            guard case .signedIn = finish else {
                Issue.record("not signed in: \(finish)")
                return
            }
            // The owner's success does not end the attacker's wait.
            #expect(
                try store.beginSignIn(name: "rossi", source: "10.0.0.66", now: start + 8, policy: policy)
                    == .wait(seconds: 6))
            #expect(try store.staffAccounts().first { $0.name == "rossi" }?.failingSources == 1)
        }
    }

    @Test(
        "a success ends its own source's failures; a reset ends every source's", arguments: StoreKind.testable)
    func successAndReset(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try Staff.add(store, "rossi")
            let policy = SignInPolicy()
            let start = Fixture.now
            for source in ["a", "a", "a", "b", "c"] {
                _ = try Self.fail(store, "rossi", from: source, at: start, policy: policy)
            }
            #expect(try store.staffAccounts().first?.failingSources == 3)
            #expect(
                try store.beginSignIn(name: "rossi", source: "a", now: start + 1, policy: policy) == .wait(seconds: 1))

            // Source b signs in: its row goes; a's and c's stay (they failed less than a day ago).
            let attempt = try store.beginSignIn(name: "rossi", source: "b", now: start + 1, policy: policy)
            guard case .verify(let credentials, let number) = attempt else {
                Issue.record("b was not taken: \(attempt)")
                return
            }
            _ = try store.finishSignIn(
                name: "rossi", source: "b", attempt: number, checkedAgainst: credentials.passwordHash,
                session: NewStaffSession(tokenHash: Staff.token(2), createdAt: start + 1, expiresAt: start + 99),
                rehash: nil, now: start + 1, policy: policy)
            #expect(try space.scalar("SELECT count(*) FROM staff_sign_in_sources WHERE source = 'b'") == 0)
            #expect(try store.staffAccounts().first?.failingSources == 2)

            _ = try store.setPassword(
                name: "rossi", passwordHash: Staff.hashB, by: "admin1", now: start + 2, reason: .reset)
            #expect(try store.staffAccounts().first?.failingSources == 0)
            #expect(try store.beginSignIn(name: "rossi", source: "a", now: start + 2, policy: policy).attempt == 1)
        }
    }

    @Test(
        "the lock follows the failures of every source together", arguments: StoreKind.testable)
    func lockAcrossSources(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            let policy = SignInPolicy(failuresBeforeLock: 6)
            var last: SignInFinish?
            for index in 0..<6 {
                // Two failures per source: no source ever waits.
                last = try Self.fail(store, "rossi", from: "s\(index / 2)", at: Fixture.now, policy: policy)
            }
            #expect(last == .failed(failures: 6, locked: true))
            #expect(
                try store.beginSignIn(name: "rossi", source: "fresh", now: Fixture.now + 1, policy: policy) == .locked)
            let account = try #require(try store.staffAccounts().first)
            #expect(account.locked && account.failingSources == 3)
        }
    }

    @Test(
        "a session keeps the idle limit it was signed in with; one without reads nil", arguments: StoreKind.testable)
    func sessionIdleLimit(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            let policy = SignInPolicy()
            for (number, idle) in [(1, 300), (2, nil)] as [(Int, Int?)] {
                let attempt = try store.beginSignIn(name: "rossi", now: Fixture.now, policy: policy)
                guard case .verify(let credentials, let count) = attempt else {
                    Issue.record("not taken: \(attempt)")
                    return
                }
                _ = try store.finishSignIn(
                    name: "rossi", attempt: count, checkedAgainst: credentials.passwordHash,
                    session: NewStaffSession(
                        tokenHash: Staff.token(number), createdAt: Fixture.now, expiresAt: Fixture.now + 3_600,
                        idleSeconds: idle),
                    rehash: nil, now: Fixture.now, policy: policy)
            }
            #expect(try store.session(tokenHash: Staff.token(1))?.idleSeconds == 300)
            #expect(try store.session(tokenHash: Staff.token(2))?.idleSeconds == nil)
        }
    }
}
