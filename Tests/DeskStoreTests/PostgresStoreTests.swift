import CivilCalendar
import DeskCore
import DeskTestSupport
import Foundation
import Testing

@testable import DeskStore

/// The PostgreSQL adapter's checks that need no server (they run in every `swift test`).
@Suite("PostgreSQL store, no server needed")
struct PostgresStoreOfflineTests {
    @Test("the migrations have the same versions and names in both dialects, each in its own SQL")
    func sameMigrations() {
        let sqlite = Migrations.all(for: .sqlite)
        let postgres = Migrations.all(for: .postgres)
        #expect(postgres.map(\.version) == sqlite.map(\.version))
        #expect(postgres.map(\.name) == sqlite.map(\.name))
        #expect(sqlite.map(\.version) == Array(1...Migrations.latestVersion))
        // No word of one engine's types reaches the other's SQL.
        for migration in postgres {
            for word in ["INTEGER", "BLOB", "AUTOINCREMENT", "json_extract", "RAISE(ABORT"] {
                #expect(!migration.sql.contains(word), "\(migration.name): \(word)")
            }
        }
        for migration in sqlite {
            for word in ["BIGINT", "BYTEA", "IDENTITY", "jsonb", "sha256(", "SEQUENCE"] {
                #expect(!migration.sql.contains(word), "\(migration.name): \(word)")
            }
        }
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

    @Test("a password in a URL libpq cannot read never reaches the message")
    func unreadableURLHidesPassword() {
        #expect {
            try PostgresStore(url: "postgres://td:pa%ZZss-secret-1@127.0.0.1:1/x")
        } throws: { error in
            guard let message = (error as? StoreError)?.message else { return false }
            return !message.contains("secret-1") && message.contains("percent-encoded")
        }
    }
}

/// What only the PostgreSQL adapter has: a server to reach, schemas, connections that break.
@Suite("PostgreSQL store", .enabled(if: StoreKind.postgresURL != nil, "TRACEDESK_TEST_POSTGRES is not set"))
struct PostgresStoreTests {
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
            #expect(
                throws: StoreError.schemaTooNew(
                    path: try PGTarget(space.spec).description, found: 99, known: Migrations.latestVersion)
            ) {
                try space.open()
            }
        }
    }

    @Test("a writer holding the keys' table makes publishing give up after its lock timeout, not stall uploads")
    func sweepLockTimeout() throws {
        try withSpace(.postgres) { space in
            let store = try space.open()
            try ChunkStoreTests.upload(store, code: 1, keys: [ChunkStoreTests.key(1, start: ChunkStoreTests.yesterday)])
            // Another session deletes keys in a transaction it keeps open (a long cleanup).
            let writer = try PGConnection(target: try PGTarget(space.spec), connectTimeoutSeconds: 5)
            try writer.execute("BEGIN; DELETE FROM exposure_keys WHERE id < 0", operation: "test writer")
            let builder = ChunkStoreTests.Builder()
            #expect(throws: StoreError.self) {
                try store.publishChunk(now: Fixture.now, policy: PublishingPolicy(), build: builder.build)
            }
            // Uploads go on meanwhile (nothing waits in the lock's queue any more).
            try ChunkStoreTests.upload(store, code: 2, keys: [ChunkStoreTests.key(2, start: ChunkStoreTests.yesterday)])
            try writer.execute("COMMIT", operation: "test writer")
            let chunk = try store.publishChunk(now: Fixture.now, policy: PublishingPolicy(), build: builder.build)
            #expect(chunk?.keyCount == 2)
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

    @Test("connections killed by the server are replaced: the next call works, however many sat idle; nothing is lost")
    func reconnects() throws {
        try withSpace(.postgres) { space in
            let name = space.schema!
            let store = try PostgresStore(url: space.spec + "&application_name=\(name)", poolSize: 4)
            _ = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            // Four connections in the pool, all idle: four uploads wait together on a row lock
            // held from outside, so each holds a connection of its own, then all finish.
            _ = try store.authorize(
                otpHash: Fixture.hash(9), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let holder = Unchecked(try RawPostgres(space.spec))
            try holder.value.execute("BEGIN; SELECT 1 FROM otp_authorizations FOR UPDATE")
            // Threads of their own: concurrentPerform runs only as many at once as there are cores.
            let group = DispatchGroup()
            for _ in 0..<4 {
                group.enter()
                Thread {
                    _ = try? store.consumeForUpload(otpHash: Fixture.hash(9), now: Fixture.now + 1) { _ in
                        ManyServersTests.record(Fixture.hash(9))
                    }
                    group.leave()
                }.start()
            }
            try eventuallyBlocking(within: .seconds(60), "four uploads waiting on the row lock") {
                try space.scalar(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)' AND wait_event_type = 'Lock'"
                ) == 4
            }
            try holder.value.execute("ROLLBACK")
            group.wait()
            let open = try space.scalar("SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)'")
            try #require(open == 4, "the pool opened \(open) connections")
            // As a restart of the database does: every session of this store ends.
            let killed = try space.scalar(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '\(name)'")
            #expect(killed == open)
            try eventuallyBlocking(within: .seconds(60), "the store's sessions ended") {
                try space.scalar("SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)'") == 0
            }
            // The very next call works (not one failure per dead pooled connection).
            #expect(try store.authorization(for: Fixture.hash)?.authorizedBy == "rossi")
            _ = try store.authorize(
                otpHash: Fixture.hash(2), symptomsStartedOn: Fixture.onset, by: "bianchi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let authorised = try store.events(after: 0, limit: 100).filter { $0.kind == .otpAuthorized }
            #expect(authorised.map(\.actor) == ["rossi", "rossi", "bianchi"])
            #expect(try space.scalar("SELECT count(*) FROM uploads") == 1, "one of the four uploads, kept")
        }
    }

    @Test("an upload that commits while a chunk is being built is not marked with it, and waits for the next chunk")
    func uploadDuringPublishing() throws {
        try withSpace(.postgres) { space in
            let publisher = try space.open()
            let phone = try space.open()
            try ChunkStoreTests.upload(
                publisher, code: 1, keys: [ChunkStoreTests.key(1, start: ChunkStoreTests.yesterday)])
            let builder = ChunkStoreTests.Builder()
            var uploaded = false
            let chunk = try publisher.publishChunk(now: Fixture.now, policy: PublishingPolicy()) {
                draft throws(StoreError) in
                // Between the selection and the marking, another server stores an upload whose key
                // falls in the batch's range (an older key, as phones send 14 days of them).
                if !uploaded {
                    uploaded = true
                    do {
                        try ChunkStoreTests.upload(
                            phone, code: 2, keys: [ChunkStoreTests.key(2, start: ChunkStoreTests.yesterday - 144)])
                    } catch {
                        throw StoreError.failed(operation: "test upload", reason: "\(error)")
                    }
                }
                return try builder.build(draft)
            }
            #expect(chunk?.keyCount == 1)
            #expect(try space.scalar(KeySweepStoreTests.countInChunk(1)) == 1)
            #expect(try space.scalar(KeySweepStoreTests.countUnpublished) == 1)
            let next = try publisher.publishChunk(now: Fixture.now, policy: PublishingPolicy(), build: builder.build)
            #expect(next?.index == 2)
            #expect(next?.keyCount == 1)
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
            // The holder lets go only after the upload returned: only a bounded wait ends.
            let refused = try withoutWaitingFor("the upload gives up on the locked row") {
                try holder.execute("ROLLBACK")
            } _: {
                Result { () throws(StoreError) in
                    try store.consumeForUpload(otpHash: Fixture.hash, now: Fixture.now + 1) { _ in
                        ManyServersTests.record(Fixture.hash)
                    }
                }
            }
            #expect(throws: StoreError.locked(path: try PGTarget(space.spec).description)) { try refused.get() }
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
            try eventuallyBlocking(within: .seconds(60), "the crashed server's session ended") {
                try space.scalar("SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)'") == 0
            }
            let taken = try #require(try other.acquireJobLock(.publishing))
            taken.release()
            lease.release()
        }
    }
}

/// Hands a value to other threads in a test where the test itself orders the accesses.
struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
