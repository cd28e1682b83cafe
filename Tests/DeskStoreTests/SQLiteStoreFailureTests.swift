import CivilCalendar
import DeskCore
import DeskTestSupport
import Foundation
import Testing

@testable import DeskStore

/// Files that are not (or no longer) usable stores, and what the operator is told about them.
@Suite struct SQLiteStoreFailureTests {
    /// Opens a store, returning the error it fails with (nil when it opens).
    static func openError(_ path: String, busyTimeoutMilliseconds: Int32 = 5_000) -> StoreError? {
        do {
            _ = try SQLiteStore(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "a file that is not an SQLite database is reported as corrupt",
        arguments: [
            ("random bytes", (0..<8_192).map { _ in UInt8.random(in: 0...255) }),
            ("text", Array("tracedesk settings\nstore = here\n".utf8)),
            ("a damaged header", Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0xFF, count: 4_080)),
        ])
    func corrupt(name: String, bytes: [UInt8]) throws {
        try withTemporaryDirectory { directory in
            let path = Fixture.storePath(in: directory)
            try Data(bytes).write(to: URL(fileURLWithPath: path))

            #expect(Self.openError(path) == .corrupt(path: path), "\(name)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes), "the file was left as it was")
        }
    }

    @Test("an empty file is claimed as a new store")
    func emptyFile() throws {
        try withTemporaryDirectory { directory in
            let path = Fixture.storePath(in: directory)
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            let store = try SQLiteStore(path: path)
            #expect(try store.schemaVersion() == Migrations.latestVersion)
        }
    }

    @Test(
        "someone else's SQLite database is refused and left untouched",
        arguments: [
            "CREATE TABLE contacts (name TEXT)",
            "PRAGMA application_id = 42",
            "PRAGMA application_id = 42; CREATE TABLE schema_migrations (version INTEGER)",
            "CREATE VIEW v AS SELECT 1; CREATE TABLE t (x)",
        ])
    func foreignDatabase(setup: String) throws {
        try withTemporaryDirectory { directory in
            let path = Fixture.storePath(in: directory)
            try RawSQLite(path: path).execute(setup)

            #expect(Self.openError(path) == .notTraceDesk(path: path))

            let raw = try RawSQLite(path: path)
            #expect(try raw.integer("PRAGMA application_id") != Int64(Migrations.applicationID))
            #expect(try raw.text("PRAGMA journal_mode") == "delete", "not switched to WAL")
        }
    }

    @Test(
        "a database made by the sqlite3 tool with its own table is not a TraceDesk store",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func foreignDatabaseFromCLI() throws {
        try withTemporaryDirectory { directory in
            let path = Fixture.storePath(in: directory)
            let status = try ChildProcess.run(
                "/usr/bin/sqlite3", [path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello');"])
            try #require(status == 0)

            #expect(Self.openError(path) == .notTraceDesk(path: path))
        }
    }

    @Test("a path that cannot be opened is reported with the reason", arguments: ["missing/folder/store.sqlite", ""])
    func cannotOpen(relative: String) throws {
        try withTemporaryDirectory { directory in
            // An empty relative part means the directory itself.
            let path = relative.isEmpty ? directory.path : directory.appendingPathComponent(relative).path
            let error = Self.openError(path)
            guard case .cannotOpen(let reported, let reason) = error else {
                Issue.record("expected cannotOpen, got \(String(describing: error))")
                return
            }
            #expect(reported == path)
            #expect(!reason.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing").path))
        }
    }

    @Test("a store migrated by a newer TraceDesk is refused, naming both versions")
    func schemaTooNew() throws {
        try withTemporaryDirectory { directory in
            // Given a store a future version moved to schema 99.
            let path = Fixture.storePath(in: directory)
            _ = try SQLiteStore(path: path)
            try RawSQLite(path: path).execute(
                "INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (99, '0099_future', 0)")

            // When this version opens it, then it refuses and says so.
            let error = Self.openError(path)
            #expect(error == .schemaTooNew(path: path, found: 99, known: Migrations.latestVersion))
            #expect(error?.message.contains("99") == true)
            #expect(error?.message.contains("newer tracedesk") == true)
        }
    }

    @Test("a write that fails half way is rolled back as a whole")
    func failedWriteIsAtomic() throws {
        try withTemporaryDirectory { directory in
            // Given a store whose events table has gone (so the event insert fails).
            let path = Fixture.storePath(in: directory)
            let store = try SQLiteStore(path: path)
            try RawSQLite(path: path).execute("DROP TABLE events")

            // When a code is authorised, then it fails as a whole: no authorisation is left.
            #expect {
                try store.authorize(
                    otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                    lifetime: Fixture.lifetime)
            } throws: { error in
                guard let error = error as? StoreError, case .failed(let operation, let reason) = error else {
                    return false
                }
                return operation == "append event" && reason.contains("events")
                    && !error.message.contains(Fixture.hash.hex) && !error.message.contains("rossi")
            }
            #expect(try store.authorization(for: Fixture.hash) == nil)
        }
    }

    @Test("a constraint failure names the rule, never the values bound", arguments: StoreKind.testable)
    func constraintFailure(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            // A five-digit year does not fit the YYYY-MM-DD column's CHECK.
            let farFuture = try #require(CivilDay(year: 12_026, month: 1, day: 1))

            #expect {
                try store.authorize(
                    otpHash: Fixture.hash, symptomsStartedOn: farFuture, by: "rossi", now: Fixture.now,
                    lifetime: Fixture.lifetime)
            } throws: { error in
                guard let error = error as? StoreError, case .failed = error else { return false }
                return error.message.lowercased().contains("check") && !error.message.contains(Fixture.hash.hex)
                    && !error.message.contains(farFuture.iso)
            }
        }
    }

    @Test(
        "every message names the file and says what to do next",
        arguments: [
            (StoreError.cannotOpen(path: "/srv/td.sqlite", reason: "unable to open database file"), "cannot open"),
            (.readOnly(path: "/srv/td.sqlite"), "writable file"),
            (.locked(path: "/srv/td.sqlite"), "wait for it to finish"),
            (.corrupt(path: "/srv/td.sqlite"), "restore it from a backup"),
            (.notTraceDesk(path: "/srv/td.sqlite"), "not a TraceDesk store"),
            (.schemaTooNew(path: "/srv/td.sqlite", found: 2, known: 1), "use a newer tracedesk"),
        ])
    func messages(error: StoreError, advice: String) {
        #expect(error.message.contains("/srv/td.sqlite"), "message: \(error.message)")
        #expect(error.message.contains(advice), "message: \(error.message)")
    }
}
