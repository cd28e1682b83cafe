import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The hospital systems (HIS clients) that may authorise codes: the part of a ``Store`` that
/// ties every `POST /v1/otp` to a named system. Every method is one transaction; adding and
/// revoking append their audit entry in it.
///
/// Privacy rule: keys arrive only as SHA-256 hex and never reach an error or an audit entry.
public protocol HISClientStore: Sendable {
    /// Adds a client with its key's hash and audits `his_client_added` (actor `by`, target the
    /// name, detail the rate limit). Nil when the name is taken (revoked clients keep theirs).
    func addHISClient(
        name: String, keyHash: String, ratePerMinute: Int?, by actor: String, now: Date
    ) throws(StoreError) -> HISClient?

    /// Every client, revoked ones included, by name.
    func hisClients() throws(StoreError) -> [HISClient]

    /// Revokes a client and audits `his_client_revoked`. Nil when there is no such client; one
    /// already revoked is returned unchanged (and not audited again).
    func revokeHISClient(name: String, by actor: String, now: Date) throws(StoreError) -> HISClient?

    /// The client whose key hashes to `keyHash`, revoked or not, with the stored hash; nil when
    /// no client has it. Read on every authorisation, so a revocation holds at once on every
    /// server sharing the store.
    func hisClient(keyHash: String) throws(StoreError) -> StoredHISClient?

    /// The client named `name` (a TLS client certificate's subject), revoked or not.
    func hisClient(name: String) throws(StoreError) -> HISClient?
}

/// A client with the hash of its key, as the store holds them.
public struct StoredHISClient: Hashable, Sendable {
    public var client: HISClient
    public var keyHash: String

    public init(client: HISClient, keyHash: String) {
        self.client = client
        self.keyHash = keyHash
    }
}

/// The SQL of HIS clients, written once for both stores (PostgreSQL gets numbered placeholders).
enum HISClientSQL {
    static let columns = "name, created_at_ms, created_by, rate_per_minute, revoked_at_ms, revoked_by, key_hash"
    static let insert = """
        INSERT INTO his_clients (name, key_hash, rate_per_minute, created_at_ms, created_by)
        VALUES (?, ?, ?, ?, ?)
        ON CONFLICT DO NOTHING
        """
    static let selectAll = "SELECT \(columns) FROM his_clients ORDER BY name"
    static let selectByName = "SELECT \(columns) FROM his_clients WHERE name = ?"
    static let selectByKey = "SELECT \(columns) FROM his_clients WHERE key_hash = ?"
    static let revoke = """
        UPDATE his_clients SET revoked_at_ms = ?, revoked_by = ? WHERE name = ? AND revoked_at_ms IS NULL
        """
}

/// HIS clients: one implementation for both adapters, run inside the transaction the adapter
/// opened. Audit entries go through ``StaffWork``, so they join the one chain (and, on
/// PostgreSQL, take the log's lock before any row is touched).
struct HISClientWork<DB: SQLRunning> {
    let db: DB
    let staff: StaffWork<DB>

    private func text(_ sql: String) -> String { staff.sql.numbered ? PGSQL.numbered(sql) : sql }

    /// In a write transaction.
    func add(name: String, keyHash: String, ratePerMinute: Int?, by actor: String, now: Date) throws(StoreError)
        -> HISClient?
    {
        let op = "add HIS client"
        try staff.lockAudit(operation: op)
        let nowMs = now.unixMilliseconds
        let rate: SQLValue = ratePerMinute.map { .integer(Int64($0)) } ?? .null
        let added = try db.run(
            text(HISClientSQL.insert), [.text(name), .text(keyHash), rate, .integer(nowMs), .text(actor)],
            operation: op)
        guard added == 1 else { return nil }
        try staff.appendAudit(
            actor: actor, action: .hisClientAdded, target: name,
            detail: AuditEntry.Detail.HISClientAdded(ratePerMinute: ratePerMinute).json, at: nowMs)
        return try client(name: name, operation: op)
    }

    func all() throws(StoreError) -> [HISClient] {
        try db.query(HISClientSQL.selectAll, operation: "list HIS clients") { Self.stored($0).client }
    }

    /// In a write transaction.
    func revoke(name: String, by actor: String, now: Date) throws(StoreError) -> HISClient? {
        let op = "revoke HIS client"
        try staff.lockAudit(operation: op)
        guard let before = try client(name: name, operation: op) else { return nil }
        if before.isRevoked { return before }
        let nowMs = now.unixMilliseconds
        try db.run(text(HISClientSQL.revoke), [.integer(nowMs), .text(actor), .text(name)], operation: op)
        try staff.appendAudit(
            actor: actor, action: .hisClientRevoked, target: name, detail: AuditEntry.Detail.hisClientRevoked.json,
            at: nowMs)
        return try client(name: name, operation: op)
    }

    func find(keyHash: String) throws(StoreError) -> StoredHISClient? {
        try db.query(text(HISClientSQL.selectByKey), [.text(keyHash)], operation: "find HIS client") {
            Self.stored($0)
        }.first
    }

    func client(name: String, operation: String = "read HIS client") throws(StoreError) -> HISClient? {
        try db.query(text(HISClientSQL.selectByName), [.text(name)], operation: operation) { Self.stored($0).client }
            .first
    }

    /// A row of ``HISClientSQL/columns``.
    static func stored(_ row: some SQLRowReading) -> StoredHISClient {
        StoredHISClient(
            client: HISClient(
                name: row.text(0), createdAt: Date(unixMilliseconds: row.integer(1)), createdBy: row.text(2),
                ratePerMinute: row.optionalInteger(3).map { Int($0) },
                revokedAt: row.optionalInteger(4).map(Date.init(unixMilliseconds:)), revokedBy: row.optionalText(5)),
            keyHash: row.text(6))
    }
}

// Once for both engines: reads on a lent connection, writes in one transaction that sees what
// committed before each statement (the audit entries are ordered by the log's lock, as for staff
// changes: SQLite's write lock, PostgreSQL's advisory lock).
extension SQLStore {
    public func addHISClient(
        name: String, keyHash: String, ratePerMinute: Int?, by actor: String, now: Date
    ) throws(StoreError) -> HISClient? {
        try hisWrite("add HIS client") { work throws(StoreError) in
            try work.add(name: name, keyHash: keyHash, ratePerMinute: ratePerMinute, by: actor, now: now)
        }
    }

    public func hisClients() throws(StoreError) -> [HISClient] {
        try read { db throws(StoreError) in try hisWork(on: db).all() }
    }

    public func revokeHISClient(name: String, by actor: String, now: Date) throws(StoreError) -> HISClient? {
        try hisWrite("revoke HIS client") { work throws(StoreError) in try work.revoke(name: name, by: actor, now: now)
        }
    }

    public func hisClient(keyHash: String) throws(StoreError) -> StoredHISClient? {
        try read { db throws(StoreError) in try hisWork(on: db).find(keyHash: keyHash) }
    }

    public func hisClient(name: String) throws(StoreError) -> HISClient? {
        try read { db throws(StoreError) in try hisWork(on: db).client(name: name) }
    }

    private func hisWork(on db: DB) -> HISClientWork<DB> { HISClientWork(db: db, staff: staffWork(on: db)) }

    private func hisWrite<T: Sendable>(
        _ operation: String, _ body: (HISClientWork<DB>) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try write(operation) { db throws(StoreError) in try body(hisWork(on: db)) }
    }
}
