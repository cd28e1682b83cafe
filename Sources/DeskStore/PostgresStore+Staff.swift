import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Staff accounts, sessions and the audit log on PostgreSQL: each method one READ COMMITTED
// transaction on a pooled connection. Appends are ordered by a transaction-level advisory lock
// (``PGSQL/auditLock``), taken before any row is touched, so ids stay gapless and the chain
// linear across every server; sign-in attempts are counted by a conditional update of the
// account's row (see ``StaffWork/beginSignIn(name:now:policy:)``).
extension PostgresStore {
    public func staffCount() throws(StoreError) -> Int {
        try pool.withConnection { connection throws(StoreError) in try Self.staffWork(connection).staffCount() }
    }

    public func staffAccounts() throws(StoreError) -> [StaffAccount] {
        try pool.withConnection { connection throws(StoreError) in try Self.staffWork(connection).staffAccounts() }
    }

    public func staffCredentials(name: String) throws(StoreError) -> StaffCredentials? {
        try pool.withConnection { connection throws(StoreError) in
            try Self.staffWork(connection).credentials(name: name)
        }
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
        try pool.withConnection { connection throws(StoreError) in
            try Self.staffWork(connection).session(tokenHash: tokenHash)
        }
    }

    public func touchSession(tokenHash: String, now: Date) throws(StoreError) {
        // One conditional UPDATE, its own transaction: most calls change nothing and write nothing.
        try pool.withConnection { connection throws(StoreError) in
            try Self.staffWork(connection).touchSession(tokenHash: tokenHash, now: now)
        }
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
        try pool.withConnection { connection throws(StoreError) in
            try Self.staffWork(connection).auditEntries(after: afterID, limit: limit)
        }
    }

    public func auditEntries(matching query: AuditQuery) throws(StoreError) -> [AuditEntry] {
        try pool.withConnection { connection throws(StoreError) in
            try Self.staffWork(connection).auditEntries(matching: query)
        }
    }

    // MARK: Internals

    /// The shared staff code, on `connection`.
    static func staffWork(_ connection: PGConnection) -> StaffWork<PGConnection> {
        StaffWork(db: connection, sql: .postgres)
    }

    /// `body` in one transaction on a pooled connection.
    private func staffWrite<T>(
        _ operation: String, _ body: (StaffWork<PGConnection>) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try pool.withConnection { connection throws(StoreError) in
            // READ COMMITTED whatever the server's default: each statement must see what the
            // holder of the log's lock committed before it (a repeatable-read snapshot taken at
            // BEGIN would read a stale last id).
            try connection.transaction(begin: PGSQL.beginReadCommitted, operation: operation) {
                () throws(StoreError) -> T in
                try body(Self.staffWork(connection))
            }
        }
    }
}
