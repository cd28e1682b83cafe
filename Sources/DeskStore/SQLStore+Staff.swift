import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Staff accounts, sessions and the audit log in the embedded store. Every write is one
// `BEGIN IMMEDIATE` transaction: it holds the file's write lock from its first statement, so
// reading the last audit entry and appending the next one cannot interleave with another
// process, and neither can counting a sign-in attempt.
extension SQLiteStore {
    public func staffCount() throws(StoreError) -> Int {
        try lock.withLock { () throws(StoreError) -> Int in try staffWork.staffCount() }
    }

    public func staffAccounts() throws(StoreError) -> [StaffAccount] {
        try lock.withLock { () throws(StoreError) -> [StaffAccount] in try staffWork.staffAccounts() }
    }

    public func staffCredentials(name: String) throws(StoreError) -> StaffCredentials? {
        try lock.withLock { () throws(StoreError) -> StaffCredentials? in try staffWork.credentials(name: name) }
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
        try lock.withLock { () throws(StoreError) -> StoredSession? in try staffWork.session(tokenHash: tokenHash) }
    }

    public func touchSession(tokenHash: String, now: Date) throws(StoreError) {
        // One conditional UPDATE, its own transaction: most calls change nothing and write nothing.
        try lock.withLock { () throws(StoreError) in try staffWork.touchSession(tokenHash: tokenHash, now: now) }
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
        try lock.withLock { () throws(StoreError) -> [AuditEntry] in
            try staffWork.auditEntries(after: afterID, limit: limit)
        }
    }

    public func auditEntries(matching query: AuditQuery) throws(StoreError) -> [AuditEntry] {
        try lock.withLock { () throws(StoreError) -> [AuditEntry] in try staffWork.auditEntries(matching: query) }
    }

    // MARK: Internals

    /// The shared staff code on this store's connection (call with the lock held).
    var staffWork: StaffWork<SQLiteConnection> { StaffWork(db: connection, sql: .sqlite) }

    /// `body` in one write transaction, under the lock.
    private func staffWrite<T: Sendable>(
        _ operation: String, _ body: (StaffWork<SQLiteConnection>) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try lock.withLock { () throws(StoreError) -> T in
            try connection.transaction(operation: operation) { () throws(StoreError) -> T in try body(staffWork) }
        }
    }
}
