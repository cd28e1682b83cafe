import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Staff accounts, sessions and the audit log, once for both engines. Every write is one
// transaction that sees what committed before each of its statements: on SQLite `BEGIN
// IMMEDIATE` holds the file's write lock from its first statement, so reading the last audit
// entry and appending the next one cannot interleave with another process, and neither can
// counting a sign-in attempt; on PostgreSQL READ COMMITTED, whatever the server's default (a
// repeatable-read snapshot taken at BEGIN would read a stale last id), with appends ordered by
// a transaction-level advisory lock (``PGSQL/auditLock``) taken before any row is touched, so
// ids stay gapless and the chain linear across every server; sign-in attempts are counted by a
// conditional update of the account's row (see ``StaffWork/beginSignIn(name:now:policy:)``).
extension SQLStore {
    public func staffCount() throws(StoreError) -> Int {
        try read { db throws(StoreError) in try staffWork(on: db).staffCount() }
    }

    public func staffAccounts() throws(StoreError) -> [StaffAccount] {
        try read { db throws(StoreError) in try staffWork(on: db).staffAccounts() }
    }

    public func staffCredentials(name: String) throws(StoreError) -> StaffCredentials? {
        try read { db throws(StoreError) in try staffWork(on: db).credentials(name: name) }
    }

    public func addStaff(
        name: String, role: StaffRole, passwordHash: String, by actor: String, now: Date, onlyIfEmpty: Bool
    ) throws(StoreError) -> AddStaffOutcome {
        try staffWrite("add staff account") { work throws(StoreError) in
            try work.addStaff(
                name: name, role: role, passwordHash: passwordHash, by: actor, now: now, onlyIfEmpty: onlyIfEmpty)
        }
    }

    public func disableStaff(name: String, by actor: String, now: Date) throws(StoreError) -> StaffAccount? {
        try staffWrite("disable staff account") { work throws(StoreError) in
            try work.disableStaff(name: name, by: actor, now: now)
        }
    }

    public func setPassword(
        name: String, passwordHash: String, by actor: String, now: Date, reason: PasswordChange
    ) throws(StoreError) -> StaffAccount? {
        try staffWrite("set password") { work throws(StoreError) in
            try work.setPassword(name: name, passwordHash: passwordHash, by: actor, now: now, reason: reason)
        }
    }

    public func beginSignIn(name: String, source: String, now: Date, policy: SignInPolicy) throws(StoreError)
        -> SignInAttempt
    {
        try staffWrite("begin sign-in") { work throws(StoreError) in
            try work.beginSignIn(name: name, source: source, now: now, policy: policy)
        }
    }

    public func finishSignIn(
        name: String, source: String, attempt: Int, checkedAgainst: String, session: NewStaffSession?,
        rehash: String?, now: Date, policy: SignInPolicy
    ) throws(StoreError) -> SignInFinish {
        try staffWrite("finish sign-in") { work throws(StoreError) in
            try work.finishSignIn(
                name: name, source: source, attempt: attempt, checkedAgainst: checkedAgainst, session: session,
                rehash: rehash, now: now, policy: policy)
        }
    }

    public func session(tokenHash: String) throws(StoreError) -> StoredSession? {
        try read { db throws(StoreError) in try staffWork(on: db).session(tokenHash: tokenHash) }
    }

    public func touchSession(tokenHash: String, now: Date) throws(StoreError) {
        // One conditional UPDATE, its own transaction: most calls change nothing and write nothing.
        try read { db throws(StoreError) in try staffWork(on: db).touchSession(tokenHash: tokenHash, now: now) }
    }

    @discardableResult
    public func endSession(tokenHash: String, now: Date) throws(StoreError) -> Bool {
        try staffWrite("end session") { work throws(StoreError) in try work.endSession(tokenHash: tokenHash, now: now) }
    }

    @discardableResult
    public func appendAudit(
        actor: String, action: AuditAction, target: String?, detail: String, now: Date
    ) throws(StoreError) -> AuditEntry {
        try staffWrite("append to the audit log") { work throws(StoreError) in
            try work.appendAudit(actor: actor, action: action, target: target, detail: detail, at: now.unixMilliseconds)
        }
    }

    public func auditEntries(after afterID: Int64, limit: Int) throws(StoreError) -> [AuditEntry] {
        try read { db throws(StoreError) in try staffWork(on: db).auditEntries(after: afterID, limit: limit) }
    }

    public func auditEntries(matching query: AuditQuery) throws(StoreError) -> [AuditEntry] {
        try read { db throws(StoreError) in try staffWork(on: db).auditEntries(matching: query) }
    }

    /// `body` in one write transaction.
    private func staffWrite<T: Sendable>(
        _ operation: String, _ body: (StaffWork<DB>) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try write(operation) { db throws(StoreError) in try body(staffWork(on: db)) }
    }
}
