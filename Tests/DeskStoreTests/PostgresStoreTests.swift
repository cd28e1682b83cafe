import CivilCalendar
import DeskCore
import Foundation
import Testing

@testable import DeskStore

/// What only the PostgreSQL adapter has: a server to reach, schemas, connections that break.
@Suite("PostgreSQL store", .enabled(if: StoreKind.postgresURL != nil, "TRACEDESK_TEST_POSTGRES is not set"))
struct PostgresStoreTests {
    @Test("the migrations have the same versions and names in both dialects")
    func sameMigrations() {
        #expect(PostgresMigrations.all.map(\.version) == Migrations.all.map(\.version))
        #expect(PostgresMigrations.all.map(\.name) == Migrations.all.map(\.name))
    }

    @Test("an unreachable server is reported with its host and port, and the advice; never the password")
    func unreachable() throws {
        let url = "postgres://tracedesk:s3cret-pw@127.0.0.1:1/tracedesk"
        #expect {
            try PostgresStore(url: url, connectTimeoutSeconds: 2)
        } throws: { error in
            guard let error = error as? StoreError, case .unavailable = error else { return false }
            let message = error.message
            return message.contains("127.0.0.1:1") && message.contains("check that PostgreSQL is running")
                && !message.contains("s3cret-pw")
        }
    }

    @Test("a URL libpq cannot read is refused with the expected form")
    func badURL() {
        #expect {
            try PostgresStore(url: "postgres://host:notaport:x/db")
        } throws: { error in
            (error as? StoreError)?.message.contains("postgres://USER@HOST:PORT/DATABASE") == true
        }
    }

    @Test("passwords are redacted from URLs and key=value strings")
    func redaction() {
        #expect(PostgresStore.redacted("postgres://td:pw@db:5432/x") == "postgres://td:***@db:5432/x")
        #expect(
            PostgresStore.redacted("postgresql://td@db/x?password=pw&sslmode=require")
                == "postgresql://td@db/x?password=***&sslmode=require")
        #expect(PostgresStore.redacted("postgres://db/x") == "postgres://db/x")
        #expect(PostgresStore.redacted("/srv/td.sqlite") == "/srv/td.sqlite")
    }

    @Test("a schema with tables of its own is not taken over")
    func foreignSchema() throws {
        try withSpace(.postgres) { space in
            try space.execute("SET search_path = \(space.schema!); CREATE TABLE invoices (id int)")
            #expect {
                try space.open()
            } throws: { error in
                (error as? StoreError)?.message.contains("not a TraceDesk store") == true
            }
        }
    }

    @Test("a search_path naming no schema is refused with the fix")
    func missingSchema() throws {
        let base = try #require(StoreKind.postgresURL)
        let separator = base.contains("?") ? "&" : "?"
        #expect {
            try PostgresStore(url: base + separator + "options=-csearch_path%3Dno_such_schema_here")
        } throws: { error in
            (error as? StoreError)?.message.contains("search_path") == true
        }
    }

    @Test("a schema migrated by a newer TraceDesk is refused, naming both versions")
    func schemaTooNew() throws {
        try withSpace(.postgres) { space in
            _ = try space.open()
            try space.execute(
                "INSERT INTO \(space.schema!).schema_migrations (version, name, applied_at_ms) VALUES (99, 'future', 0)"
            )
            #expect(throws: StoreError.schemaTooNew(path: try PGTarget(space.spec).description, found: 99, known: 3)) {
                try space.open()
            }
        }
    }

    @Test("a unique violation is a conflict; the message names the constraint, not the value")
    func conflict() throws {
        try withSpace(.postgres) { space in
            _ = try space.open()
            let connection = try PGConnection(target: try PGTarget(space.spec), connectTimeoutSeconds: 5)
            let insert = PGSQL.numbered("INSERT INTO attestation_salts (salt, expires_at_ms) VALUES (?, ?)")
            try connection.run(insert, [.text("salt-value-1"), .integer(1)], operation: "test insert")
            #expect {
                try connection.run(insert, [.text("salt-value-1"), .integer(2)], operation: "test insert")
            } throws: { error in
                guard let error = error as? StoreError, case .conflict = error else { return false }
                return error.message.contains("attestation_salts_pkey") && !error.message.contains("salt-value-1")
            }
        }
    }

    @Test("connections killed by the server are replaced: the next call works, nothing is lost")
    func reconnects() throws {
        try withSpace(.postgres) { space in
            let name = space.schema!
            let store = try PostgresStore(url: space.spec + "&application_name=\(name)", poolSize: 3)
            _ = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            // As a restart of the database does: every session of this store ends.
            let killed = try space.scalar(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '\(name)'")
            #expect(killed >= 1)
            Thread.sleep(forTimeInterval: 0.2)
            #expect(try store.authorization(for: Fixture.hash)?.authorizedBy == "rossi")
            _ = try store.authorize(
                otpHash: Fixture.hash(2), symptomsStartedOn: Fixture.onset, by: "bianchi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            #expect(try store.events(after: 0, limit: 10).map(\.actor) == ["rossi", "bianchi"])
        }
    }

    @Test("a row locked past the wait gives .locked (a 503), not a hung request; the code is unharmed")
    func rowLockTimeout() throws {
        try withSpace(.postgres) { space in
            let store = try PostgresStore(url: space.spec, waitMilliseconds: 300)
            _ = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let holder = try RawPostgres(space.spec)
            try holder.execute("BEGIN; SELECT 1 FROM otp_authorizations FOR UPDATE")
            let started = Date()
            #expect(throws: StoreError.locked(path: try PGTarget(space.spec).description)) {
                try store.consumeForUpload(otpHash: Fixture.hash, now: Fixture.now + 1) { _ in
                    ManyServersTests.record(Fixture.hash)
                }
            }
            #expect(Date().timeIntervalSince(started) < 5)
            try holder.execute("ROLLBACK")
            let outcome = try store.consumeForUpload(otpHash: Fixture.hash, now: Fixture.now + 1) { _ in
                ManyServersTests.record(Fixture.hash)
            }
            guard case .stored = outcome else {
                Issue.record("after the lock went, the upload was refused: \(outcome)")
                return
            }
        }
    }

    @Test("a job lock dies with the session that held it (a server that crashed)")
    func lockDiesWithSession() throws {
        try withSpace(.postgres) { space in
            let name = space.schema!
            let crashing = try PostgresStore(url: space.spec + "&application_name=\(name)")
            let other = try space.open()
            let lease = try #require(try crashing.acquireJobLock(.publishing))
            #expect(try other.acquireJobLock(.publishing) == nil)
            _ = try space.scalar(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '\(name)'")
            Thread.sleep(forTimeInterval: 0.2)
            let taken = try #require(try other.acquireJobLock(.publishing))
            taken.release()
            lease.release()
        }
    }
}
