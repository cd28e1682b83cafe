import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// SCAFFOLDING while the adapters are written: delete this file when SQLiteStore and
// PostgresStore implement StaffStore. Nothing here may ship.
extension StaffStore {
    private func pending(_ what: String) -> StoreError { .failed(operation: what, reason: "not written yet") }
    public func staffCount() throws(StoreError) -> Int { throw pending("staffCount") }
    public func staffAccounts() throws(StoreError) -> [StaffAccount] { throw pending("staffAccounts") }
    public func staffCredentials(name: String) throws(StoreError) -> StaffCredentials? { throw pending("creds") }
    public func addStaff(
        name: String, role: StaffRole, passwordHash: String, by actor: String, now: Date, onlyIfEmpty: Bool
    ) throws(StoreError) -> AddStaffOutcome { throw pending("addStaff") }
    public func disableStaff(name: String, by actor: String, now: Date) throws(StoreError) -> StaffAccount? {
        throw pending("disableStaff")
    }
    public func setPassword(
        name: String, passwordHash: String, by actor: String, now: Date, reason: PasswordChange
    ) throws(StoreError) -> StaffAccount? { throw pending("setPassword") }
    public func beginSignIn(name: String, now: Date, policy: SignInPolicy) throws(StoreError) -> SignInAttempt {
        throw pending("beginSignIn")
    }
    public func finishSignIn(
        name: String, attempt: Int, session: NewStaffSession?, rehash: String?, now: Date, policy: SignInPolicy
    ) throws(StoreError) -> SignInFinish { throw pending("finishSignIn") }
    public func session(tokenHash: String) throws(StoreError) -> StoredSession? { throw pending("session") }
    public func touchSession(tokenHash: String, now: Date) throws(StoreError) { throw pending("touch") }
    public func endSession(tokenHash: String, now: Date) throws(StoreError) -> Bool { throw pending("end") }
    public func appendAudit(
        actor: String, action: AuditAction, target: String?, detail: String, now: Date
    ) throws(StoreError) -> AuditEntry { throw pending("appendAudit") }
    public func auditEntries(after afterID: Int64, limit: Int) throws(StoreError) -> [AuditEntry] {
        throw pending("auditEntries")
    }
    public func auditEntries(matching query: AuditQuery) throws(StoreError) -> [AuditEntry] {
        throw pending("auditEntries")
    }
}
