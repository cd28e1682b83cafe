import DeskCore
import Foundation
import Synchronization
import Testing

@testable import DeskStore

/// Staff accounts and sessions, against every adapter: what each method stores, what it audits
/// in the same transaction, and what holds when several servers race. Sign-ins are in
/// ``SignInStoreTests``, the audit log in ``AuditLogStoreTests``.
@Suite("Store contract: staff accounts and sessions")
struct StaffStoreTests {
    // MARK: Accounts

    @Test(
        "accounts are added and listed by name; a taken name is refused and not audited", arguments: StoreKind.testable)
    func addAndList(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            #expect(try store.staffCount() == 0)
            let rossi = try store.addStaff(
                name: "rossi", role: .operator, passwordHash: Staff.hashA, by: "admin1", now: Fixture.now,
                onlyIfEmpty: false)
            let bianchi = try store.addStaff(
                name: "bianchi", role: .admin, passwordHash: Staff.hashB, by: "admin1", now: Fixture.now + 60,
                onlyIfEmpty: false)

            let expectedRossi = StaffAccount(
                name: "rossi", role: .operator, createdAt: Fixture.now, createdBy: "admin1",
                passwordChangedAt: Fixture.now)
            let expectedBianchi = StaffAccount(
                name: "bianchi", role: .admin, createdAt: Fixture.now + 60, createdBy: "admin1",
                passwordChangedAt: Fixture.now + 60)
            #expect(rossi == .added(expectedRossi))
            #expect(bianchi == .added(expectedBianchi))
            #expect(try store.staffCount() == 2)
            #expect(try store.staffAccounts() == [expectedBianchi, expectedRossi])
            #expect(
                try store.staffCredentials(name: "rossi")
                    == StaffCredentials(account: expectedRossi, passwordHash: Staff.hashA))
            #expect(try store.staffCredentials(name: "verdi") == nil)

            let again = try store.addStaff(
                name: "rossi", role: .admin, passwordHash: Staff.hashB, by: "admin1", now: Fixture.now + 120,
                onlyIfEmpty: false)
            #expect(again == .nameTaken)
            #expect(try store.staffCredentials(name: "rossi")?.passwordHash == Staff.hashA)

            let audit = try store.auditEntries(after: 0, limit: 10)
            #expect(audit.map(\.action) == [.staffAdded, .staffAdded])
            #expect(audit.map(\.actor) == ["admin1", "admin1"])
            #expect(audit.map(\.target) == ["rossi", "bianchi"])
            #expect(audit.map(\.detail) == [#"{"role":"operator"}"#, #"{"role":"admin"}"#])
            #expect(audit.map(\.at) == [Fixture.now, Fixture.now + 60])
            try Staff.expectNoSecrets(in: audit)
        }
    }

    @Test(
        "the first admin is created once, however many consoles on two stores try at the same moment",
        arguments: StoreKind.testable, 0..<3)
    func firstAdminRace(_ kind: StoreKind, round: Int) throws {
        try withSpace(kind) { space in
            let stores = [try space.open(), try space.open()]

            let outcomes = onThreads(8) { index in
                Result { () throws(StoreError) in
                    try stores[index % 2].addStaff(
                        name: "admin\(index)", role: .admin, passwordHash: Staff.hashA, by: "setup", now: Fixture.now,
                        onlyIfEmpty: true)
                }
            }

            let results = try outcomes.map { try $0.get() }
            let added = results.filter { if case .added = $0 { true } else { false } }
            #expect(added.count == 1, "round \(round): \(results)")
            #expect(results.filter { $0 == .notEmpty }.count == 7)
            #expect(try stores[0].staffCount() == 1)
            #expect(try stores[1].auditEntries(after: 0, limit: 10).map(\.action) == [.staffAdded])
            // Once an account exists, a first admin is refused even under a new name.
            let late = try stores[1].addStaff(
                name: "late", role: .admin, passwordHash: Staff.hashA, by: "setup", now: Fixture.now, onlyIfEmpty: true)
            #expect(late == .notEmpty)
        }
    }

    @Test(
        "disabling ends the account's sessions only, is audited once, and refuses its sign-ins",
        arguments: StoreKind.testable)
    func disable(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            try Staff.add(store, "bianchi")
            let first = try Staff.signIn(store, "rossi", token: 1, at: Fixture.now)
            let second = try Staff.signIn(store, "rossi", token: 2, at: Fixture.now + 10)
            let other = try Staff.signIn(store, "bianchi", token: 3, at: Fixture.now + 10)
            let before = try store.auditEntries(after: 0, limit: 100).count
            let at = Fixture.now + 600

            let disabled = try #require(try store.disableStaff(name: "rossi", by: "admin1", now: at))

            #expect(disabled.disabled && disabled.stateName == "disabled")
            #expect(try store.session(tokenHash: first)?.endedAt == at)
            #expect(try store.session(tokenHash: second)?.endedAt == at)
            #expect(try store.session(tokenHash: first)?.accountDisabled == true)
            #expect(try store.session(tokenHash: other)?.endedAt == nil)
            let audit = try store.auditEntries(after: 0, limit: 100)
            #expect(audit.count == before + 1)
            let entry = try #require(audit.last)
            #expect(entry.action == .staffDisabled && entry.actor == "admin1" && entry.target == "rossi")
            #expect(entry.detail == #"{"sessions_ended":2}"#)

            // Again: returned as it is, not audited again.
            #expect(try store.disableStaff(name: "rossi", by: "admin1", now: at + 60) == disabled)
            #expect(try store.disableStaff(name: "verdi", by: "admin1", now: at + 60) == nil)
            #expect(try store.auditEntries(after: 0, limit: 100).count == before + 1)

            #expect(try store.beginSignIn(name: "rossi", now: at + 120, policy: SignInPolicy()) == .disabled)
            let refused = try #require(try store.auditEntries(after: 0, limit: 100).last)
            #expect(refused.action == .signInRefused && refused.actor == "rossi")
            #expect(refused.detail == #"{"reason":"disabled"}"#)
        }
    }

    @Test(
        "a reset clears the failures and the lock and ends the sessions, but does not re-enable",
        arguments: StoreKind.testable)
    func reset(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let policy = SignInPolicy(failuresBeforeLock: 2, maximumDelaySeconds: 0)
            try Staff.add(store, "rossi")
            try Staff.add(store, "bianchi")
            let session = try Staff.signIn(store, "rossi", token: 1, at: Fixture.now)
            for second in 1...2 {
                _ = try Staff.fail(store, "rossi", at: Fixture.now + Double(second), policy: policy)
            }
            #expect(try store.staffCredentials(name: "rossi")?.account.locked == true)
            let at = Fixture.now + 300

            let reset = try #require(
                try store.setPassword(name: "rossi", passwordHash: Staff.hashB, by: "admin1", now: at, reason: .reset))

            #expect(!reset.locked && !reset.disabled && reset.failedSignIns == 0)
            #expect(reset.passwordChangedAt == at)
            #expect(
                try store.staffCredentials(name: "rossi") == StaffCredentials(account: reset, passwordHash: Staff.hashB)
            )
            #expect(try store.session(tokenHash: session)?.endedAt == at)
            let entry = try #require(try store.auditEntries(after: 0, limit: 100).last)
            #expect(entry.action == .passwordReset && entry.actor == "admin1" && entry.target == "rossi")
            #expect(entry.detail == #"{"sessions_ended":1,"was_locked":true}"#)
            // The account signs in again, with the new password's hash.
            guard
                case .verify(let credentials, attempt: 1) = try store.beginSignIn(
                    name: "rossi", now: at + 1, policy: policy)
            else {
                Issue.record("the reset account cannot sign in")
                return
            }
            #expect(credentials.passwordHash == Staff.hashB)

            _ = try store.disableStaff(name: "bianchi", by: "admin1", now: at)
            let stillDisabled = try #require(
                try store.setPassword(name: "bianchi", passwordHash: Staff.hashB, by: "admin1", now: at, reason: .reset)
            )
            #expect(stillDisabled.disabled)
            #expect(
                try store.setPassword(name: "verdi", passwordHash: Staff.hashB, by: "admin1", now: at, reason: .reset)
                    == nil)
            try Staff.expectNoSecrets(in: try store.auditEntries(after: 0, limit: 100))
        }
    }

    @Test("a rehash changes the hash only and is not audited", arguments: StoreKind.testable)
    func rehash(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            _ = try store.beginSignIn(name: "rossi", now: Fixture.now, policy: SignInPolicy())
            let before = try #require(try store.staffCredentials(name: "rossi"))
            let audit = try store.auditEntries(after: 0, limit: 100)

            let after = try store.setPassword(
                name: "rossi", passwordHash: Staff.hashB, by: "rossi", now: Fixture.now + 5, reason: .rehash)

            #expect(after == before.account)
            #expect(
                try store.staffCredentials(name: "rossi")
                    == StaffCredentials(account: before.account, passwordHash: Staff.hashB))
            #expect(try store.auditEntries(after: 0, limit: 100) == audit)
            #expect(
                try store.setPassword(
                    name: "verdi", passwordHash: Staff.hashB, by: "x", now: Fixture.now, reason: .rehash)
                    == nil)
        }
    }

    // MARK: Sessions

    @Test("activity is written only when the last record is more than 30 s old", arguments: StoreKind.testable)
    func touch(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            let start = Fixture.now
            let token = try Staff.signIn(store, "rossi", token: 1, at: start)
            func lastSeen() throws -> Date? { try store.session(tokenHash: token)?.lastSeenAt }

            try store.touchSession(tokenHash: token, now: start + 10)
            #expect(try lastSeen() == start)
            try store.touchSession(tokenHash: token, now: start + 30)
            #expect(try lastSeen() == start)
            let justOver = Date(unixMilliseconds: start.unixMilliseconds + 30_001)
            try store.touchSession(tokenHash: token, now: justOver)
            #expect(try lastSeen() == justOver)
            try store.touchSession(tokenHash: token, now: justOver + 29)
            #expect(try lastSeen() == justOver)
            try store.touchSession(tokenHash: token, now: start + 100)
            #expect(try lastSeen() == start + 100)
            // An ended session is not revived; an unknown one is no error.
            try store.endSession(tokenHash: token, now: start + 110)
            try store.touchSession(tokenHash: token, now: start + 200)
            #expect(try lastSeen() == start + 100)
            try store.touchSession(tokenHash: Staff.token(99), now: start + 200)
            #expect(try store.session(tokenHash: Staff.token(99)) == nil)
        }
    }

    @Test(
        "ending a session audits sign_out once; ending it again, or an unknown one, is false",
        arguments: StoreKind.testable)
    func endSession(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            let token = try Staff.signIn(store, "rossi", token: 1, at: Fixture.now)
            let before = try store.auditEntries(after: 0, limit: 100).count

            #expect(try store.endSession(tokenHash: token, now: Fixture.now + 60))
            #expect(!(try store.endSession(tokenHash: token, now: Fixture.now + 70)))
            #expect(!(try store.endSession(tokenHash: Staff.token(2), now: Fixture.now + 70)))

            #expect(try store.session(tokenHash: token)?.endedAt == Fixture.now + 60)
            let audit = Array(try store.auditEntries(after: 0, limit: 100).dropFirst(before))
            #expect(audit.map(\.action) == [.signOut])
            #expect(audit.map(\.actor) == ["rossi"])
            #expect(audit.map(\.at) == [Fixture.now + 60])
        }
    }
}

/// Staff fixtures shared by the staff and audit tests.
enum Staff {
    /// KDF strings as the store sees them (it never parses them).
    static let hashA = "$scrypt$ln=15,r=8,p=1$c2FsdEFzYWx0QQ$aGFzaEFoYXNoQWhhc2hB"
    static let hashB = "$scrypt$ln=15,r=8,p=1$c2FsdEJzYWx0Qg$aGFzaEJoYXNoQmhhc2hC"
    static let hashC = "$scrypt$ln=17,r=8,p=1$c2FsdENzYWx0Qw$aGFzaENoYXNoQ2hhc2hD"

    /// A distinct token hash (64 hex digits) per number.
    static func token(_ number: Int) -> String { Fixture.hash(number).hex }

    static func add(_ store: any Store, _ name: String, role: StaffRole = .operator) throws {
        let outcome = try store.addStaff(
            name: name, role: role, passwordHash: hashA, by: "admin1", now: Fixture.now - 3_600, onlyIfEmpty: false)
        guard case .added = outcome else { throw StaffTestError.unexpected("add \(name): \(outcome)") }
    }

    /// A whole successful sign-in at `now`; returns the session's token hash.
    static func signIn(_ store: any Store, _ name: String, token number: Int, at now: Date) throws -> String {
        let policy = SignInPolicy()
        let attempt = try store.beginSignIn(name: name, now: now, policy: policy)
        guard case .verify(let credentials, let count) = attempt else {
            throw StaffTestError.unexpected("begin \(name): \(attempt)")
        }
        let finish = try store.finishSignIn(
            name: name, attempt: count, checkedAgainst: credentials.passwordHash,
            session: NewStaffSession(tokenHash: token(number), createdAt: now, expiresAt: now + 43_200), rehash: nil,
            now: now, policy: policy)
        guard case .signedIn = finish else { throw StaffTestError.unexpected("finish \(name): \(finish)") }
        return token(number)
    }

    /// A whole sign-in with a wrong password at `now`.
    static func fail(_ store: any Store, _ name: String, at now: Date, policy: SignInPolicy) throws -> SignInFinish {
        let attempt = try store.beginSignIn(name: name, now: now, policy: policy)
        guard case .verify(let credentials, let count) = attempt else {
            throw StaffTestError.unexpected("begin \(name): \(attempt)")
        }
        return try store.finishSignIn(
            name: name, attempt: count, checkedAgainst: credentials.passwordHash, session: nil, rehash: nil, now: now,
            policy: policy)
    }

    /// No password hash or token hash of the fixtures in any field of any entry.
    static func expectNoSecrets(in entries: [AuditEntry], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let secrets = [hashA, hashB, hashC, "scrypt"] + (0..<100).map(token)
        for entry in entries {
            let fields = [entry.actor, entry.action.rawValue, entry.target ?? "", entry.detail]
            for secret in secrets where fields.contains(where: { $0.contains(secret) }) {
                Issue.record("audit entry \(entry.id) carries a secret", sourceLocation: sourceLocation)
            }
        }
    }
}

enum StaffTestError: Error, CustomStringConvertible {
    case unexpected(String)
    var description: String {
        switch self {
        case .unexpected(let what): return "unexpected outcome: \(what)"
        }
    }
}

/// Runs `body` on `count` new threads released together, and returns what each produced, in
/// index order. Real threads, so that every call is in flight at once (a thread pool might run
/// them a few at a time).
func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let results = ThreadResults<T>()
    let ready = DispatchGroup()
    let done = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        ready.enter()
        done.enter()
        let thread = Thread {
            ready.leave()
            start.wait()
            let value = body(index)
            results.values.withLock { $0[index] = value }
            done.leave()
        }
        thread.start()
    }
    ready.wait()
    for _ in 0..<count { start.signal() }
    done.wait()
    return results.values.withLock { all in (0..<count).map { all[$0]! } }
}

/// What the threads of ``onThreads(_:_:)`` produced, by index.
final class ThreadResults<T: Sendable>: Sendable {
    let values = Mutex<[Int: T]>([:])
}
