import DeskCore
import DeskCrypto
import Foundation
import Testing

@testable import DeskStore

/// The audit log against every adapter: gapless ids, one hash chain even when servers append
/// at once, a table the database itself keeps append-only, tampering found at the entry it
/// touched, and the browse filters.
@Suite("Store contract: the audit log")
struct AuditLogStoreTests {
    @Test(
        "entries get ids 1, 2, 3… and chain from 64 zeros; what is returned is what reads back",
        arguments: StoreKind.testable)
    func chain(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            // An instant with a fraction of a millisecond: stored, and hashed, as whole milliseconds.
            let at = Date(timeIntervalSince1970: 1_795_946_400.123_456)
            var appended: [AuditEntry] = []
            for index in 0..<5 {
                appended.append(
                    try store.appendAudit(
                        actor: "rossi", action: index.isMultiple(of: 2) ? .signIn : .signOut,
                        target: index == 3 ? "bianchi" : nil, detail: #"{"n":\#(index),"città":"Roma"}"#,
                        now: at + Double(index)))
            }

            let read = try store.auditEntries(after: 0, limit: 100)
            #expect(read == appended)
            #expect(read.map(\.id) == [1, 2, 3, 4, 5])
            #expect(read[0].previousHash == AuditChain.genesis)
            #expect(read[0].at == Date(unixMilliseconds: 1_795_946_400_123))
            #expect(zip(read, read.dropFirst()).allSatisfy { $1.previousHash == $0.hash })
            #expect(AuditChain.check(read, after: nil) == nil)
            #expect(try store.auditEntries(after: 2, limit: 2).map(\.id) == [3, 4])
            #expect(
                AuditChain.check(try store.auditEntries(after: 2, limit: 10), after: (id: 2, hash: read[1].hash))
                    == nil)
            #expect(try store.auditEntries(after: 5, limit: 10).isEmpty)
        }
    }

    @Test("entries appended at once through two stores form one gapless, valid chain", arguments: StoreKind.testable)
    func concurrentAppends(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let stores = [try space.open(), try space.open()]

            let outcomes = onThreads(40) { index in
                Result { () throws(StoreError) in
                    try stores[index % 2].appendAudit(
                        actor: "user\(index)", action: .signIn, target: nil, detail: "{}", now: Fixture.now)
                }
            }

            let returned = try outcomes.map { try $0.get() }
            let read = try stores[0].auditEntries(after: 0, limit: 100)
            #expect(read.map(\.id) == Array(1...40))
            #expect(AuditChain.check(read, after: nil) == nil)
            #expect(Set(read) == Set(returned))
            #expect(Set(read.map(\.actor)) == Set((0..<40).map { "user\($0)" }))
        }
    }

    @Test(
        "the database refuses to change, delete or empty audit entries, whoever connects",
        arguments: StoreKind.testable)
    func appendOnly(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            for index in 1...3 {
                try store.appendAudit(
                    actor: "rossi", action: .signIn, target: nil, detail: "{}", now: Fixture.now + Double(index))
            }
            let before = try store.auditEntries(after: 0, limit: 10)
            var tampering = [
                "UPDATE audit_log SET detail = '{\"role\":\"admin\"}' WHERE id = 2",
                "UPDATE audit_log SET hash = previous_hash",
                "DELETE FROM audit_log WHERE id = 3",
                "DELETE FROM audit_log",
            ]
            if kind == .postgres { tampering.append("TRUNCATE audit_log") }

            for sql in tampering {
                #expect("\(sql)") {
                    try executeInside(space, sql)
                } throws: { error in
                    (error as? StoreError)?.message.contains("the audit log is append-only") == true
                }
            }
            #expect(try store.auditEntries(after: 0, limit: 10) == before)
        }
    }

    @Test("an entry edited behind the triggers' back breaks the chain at that entry", arguments: StoreKind.testable)
    func editedEntry(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try Self.appendFive(store)
            try space.execute(Self.dropTrigger(space, update: true))

            try space.execute(#"UPDATE \#(Self.log(space)) SET detail = '{"role":"admin"}' WHERE id = 3"#)

            let broken = AuditChain.check(try store.auditEntries(after: 0, limit: 100), after: nil)
            #expect(broken?.id == 3)
            #expect(broken?.reason.contains("edited") == true)
        }
    }

    @Test(
        "a middle entry deleted behind the triggers' back breaks the chain at the next id",
        arguments: StoreKind.testable)
    func deletedEntry(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try Self.appendFive(store)
            try space.execute(Self.dropTrigger(space, update: false))

            try space.execute("DELETE FROM \(Self.log(space)) WHERE id = 3")

            let broken = AuditChain.check(try store.auditEntries(after: 0, limit: 100), after: nil)
            #expect(broken?.id == 4)
            #expect(broken?.reason.contains("missing") == true)
        }
    }

    @Test(
        "the browse filters by person, action and time, newest first, a page at a time", arguments: StoreKind.testable)
    func browse(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let t0 = Fixture.now
            let seed: [(String, AuditAction, Double)] = [
                ("rossi", .signIn, 0), ("bianchi", .signIn, 60), ("rossi", .otpAuthorized, 120),
                ("admin1", .staffAdded, 180), ("rossi", .signOut, 240), ("rossi", .signIn, 300),
            ]
            for (actor, action, offset) in seed {
                try store.appendAudit(actor: actor, action: action, target: nil, detail: "{}", now: t0 + offset)
            }
            func ids(_ query: AuditQuery) throws -> [Int64] { try store.auditEntries(matching: query).map(\.id) }

            #expect(try ids(AuditQuery()) == [6, 5, 4, 3, 2, 1])
            #expect(try ids(AuditQuery(actor: "rossi")) == [6, 5, 3, 1])
            #expect(try ids(AuditQuery(action: .signIn)) == [6, 2, 1])
            #expect(try ids(AuditQuery(actor: "rossi", action: .signIn)) == [6, 1])
            #expect(try ids(AuditQuery(from: t0 + 120)) == [6, 5, 4, 3])
            #expect(try ids(AuditQuery(until: t0 + 120)) == [2, 1])
            #expect(try ids(AuditQuery(from: t0 + 60, until: t0 + 240)) == [4, 3, 2])
            #expect(try ids(AuditQuery(limit: 2)) == [6, 5])
            #expect(try ids(AuditQuery(beforeID: 5, limit: 2)) == [4, 3])
            #expect(try ids(AuditQuery(actor: "rossi", beforeID: 5)) == [3, 1])
            #expect(try ids(AuditQuery(actor: "verdi")) == [])
            #expect(try ids(AuditQuery(limit: 0)) == [])
            #expect(
                try store.auditEntries(matching: AuditQuery(limit: 1)) == [
                    try store.auditEntries(after: 5, limit: 1)[0]
                ])
        }
    }

    @Test(
        "the browse filters by the subject (the entry's target) exactly, with the other filters and pages",
        arguments: StoreKind.testable)
    func browseBySubject(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let t0 = Fixture.now
            let seed: [(String, AuditAction, String?)] = [
                ("admin1", .staffAdded, "bianchi"), ("bianchi", .signIn, nil), ("admin1", .passwordReset, "bianchi"),
                ("tina", .traceLookup, "user 7"), ("tina", .phoneCopied, "user 12"),
                ("admin1", .staffAdded, "bianchini"),
                ("tina", .contactOutcome, "user 12"),
            ]
            for (offset, (actor, action, target)) in seed.enumerated() {
                try store.appendAudit(
                    actor: actor, action: action, target: target, detail: "{}", now: t0 + Double(offset))
            }
            func ids(_ query: AuditQuery) throws -> [Int64] { try store.auditEntries(matching: query).map(\.id) }

            #expect(try ids(AuditQuery(subject: "bianchi")) == [3, 1])
            #expect(try ids(AuditQuery(subject: "user 12")) == [7, 5])
            #expect(try ids(AuditQuery(subject: "user 12", action: .phoneCopied)) == [5])
            #expect(try ids(AuditQuery(actor: "admin1", subject: "bianchi")) == [3, 1])
            #expect(try ids(AuditQuery(actor: "tina", subject: "bianchi")) == [])
            #expect(try ids(AuditQuery(subject: "bianchi", beforeID: 3)) == [1])
            #expect(try ids(AuditQuery(subject: "user 12", limit: 1)) == [7])
            #expect(try ids(AuditQuery(subject: "nobody")) == [])
        }
    }

    @Test(
        "an authorisation appends one otp_authorized entry with the hash's first 12 digits; a repeat appends none",
        arguments: StoreKind.testable)
    func authorizationAudited(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let outcome = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let repeated = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "bianchi", now: Fixture.now + 10,
                lifetime: Fixture.lifetime)

            guard case .authorized(let record) = outcome, case .alreadyAuthorized = repeated else {
                Issue.record("outcomes: \(outcome), \(repeated)")
                return
            }
            let audit = try store.auditEntries(after: 0, limit: 10)
            #expect(audit.count == 1)
            let entry = try #require(audit.first)
            #expect(entry.action == .otpAuthorized && entry.actor == "rossi" && entry.at == Fixture.now)
            #expect(entry.target == "b39e07")
            #expect(
                entry.detail
                    == #"{"symptoms_started_on":"2026-11-27","expires_at_ms":\#(record.expiresAt.unixMilliseconds)}"#)
            #expect(!"\(entry)".contains(Fixture.hash.hex))
            #expect(AuditChain.check(audit, after: nil) == nil)

            // Once the code expired, authorising it again is a new authorisation, audited again.
            _ = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "bianchi", now: Fixture.now + 600,
                lifetime: Fixture.lifetime)
            let again = try store.auditEntries(after: 0, limit: 10)
            #expect(again.map(\.actor) == ["rossi", "bianchi"])
            #expect(AuditChain.check(again, after: nil) == nil)
        }
    }

    @Test("store info lists the staff tables with their rows", arguments: StoreKind.testable)
    func info(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Staff.add(store, "rossi")
            _ = try Staff.signIn(store, "rossi", token: 1, at: Fixture.now)

            let info = try store.info()

            #expect(info.schemaVersion == Migrations.latestVersion)
            let rows = Dictionary(uniqueKeysWithValues: info.tables.map { ($0.name, $0.rows) })
            #expect(rows["staff"] == 1)
            #expect(rows["staff_sessions"] == 1)
            #expect(rows["audit_log"] == 2)
        }
    }

    // MARK: Helpers

    static func appendFive(_ store: any Store) throws {
        for index in 1...5 {
            try store.appendAudit(
                actor: "rossi", action: .signIn, target: nil, detail: #"{"n":\#(index)}"#,
                now: Fixture.now + Double(index))
        }
        #expect(AuditChain.check(try store.auditEntries(after: 0, limit: 100), after: nil) == nil)
    }

    /// The log's table, as raw SQL from outside the store names it.
    static func log(_ space: StoreSpace) -> String {
        space.schema.map { "\($0).audit_log" } ?? "audit_log"
    }

    /// Drops the trigger that refuses updates (or deletes): what someone with the owner's rights
    /// would do first.
    static func dropTrigger(_ space: StoreSpace, update: Bool) -> String {
        switch space.kind {
        case .sqlite: return update ? "DROP TRIGGER audit_log_no_update" : "DROP TRIGGER audit_log_no_delete"
        case .postgres: return "DROP TRIGGER audit_log_no_change ON \(log(space))"
        }
    }
}

/// Runs `sql` on a connection of the store's own kind, outside any store: errors are mapped as
/// the store maps them.
func executeInside(_ space: StoreSpace, _ sql: String) throws(StoreError) {
    switch space.kind {
    case .sqlite:
        try SQLiteConnection(path: space.spec, busyTimeoutMilliseconds: 5_000).execute(sql, operation: "tamper")
    case .postgres:
        try PGConnection(target: try PGTarget(space.spec), connectTimeoutSeconds: 5).execute(sql, operation: "tamper")
    }
}
