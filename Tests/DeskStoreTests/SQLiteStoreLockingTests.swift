import CivilCalendar
import DeskCore
import DeskTestSupport
import Foundation
import Testing

@testable import DeskStore

/// Another process holding the write lock, and files we may only read.
@Suite struct SQLiteStoreLockingTests {
    /// The busy timeout the store's connection runs with, as SQLite reports it.
    func busyTimeout(_ store: SQLiteStore) throws(StoreError) -> Int64 {
        try store.connection.query("PRAGMA busy_timeout", operation: "read busy timeout") { $0.integer(0) }.first ?? -1
    }

    @Test("a write lock held past the busy timeout gives .locked; reads still work meanwhile")
    func lockedWhileAnotherWrites() throws {
        try withTemporaryDirectory { directory in
            // Given an open store, and another connection holding the write lock.
            let path = Fixture.storePath(in: directory)
            let store = try SQLiteStore(path: path, busyTimeoutMilliseconds: 200)
            _ = try store.authorize(
                otpHash: Fixture.hash(1), symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            let other = try RawSQLite(path: path)
            try other.execute("BEGIN EXCLUSIVE")

            // When the store tries to write, then it waits at most its busy timeout (SQLite waits:
            // the store gives it the 200 ms) and reports the lock. The other connection lets go
            // only after the write returned, so only a bounded wait ends at all.
            #expect(try store.lock.withLock { () throws(StoreError) in try busyTimeout(store) } == 200)
            let refused = try withoutWaitingFor("the write gives up on the held lock") {
                try other.execute("COMMIT")
            } _: {
                Result { () throws(StoreError) in
                    try store.authorize(
                        otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                        lifetime: Fixture.lifetime)
                }
            }
            #expect(throws: StoreError.locked(path: path)) { try refused.get() }
            #expect(!StoreError.locked(path: path).message.contains(Fixture.hash.hex))
            // WAL: the monitor can still read.
            #expect(try store.authorization(for: Fixture.hash(1)) != nil)
            #expect(try store.events(after: 0, limit: 10).count == 1)

            // When the other connection finishes, then the same write goes through.
            try other.execute("COMMIT")
            let outcome = try store.authorize(
                otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                lifetime: Fixture.lifetime)
            #expect(outcome.record?.otpHash == Fixture.hash)
        }
    }

    @Test("a writer waits its turn when the other lock is released within the timeout")
    func waitsForShortLock() throws {
        try withTemporaryDirectory { directory in
            let path = Fixture.storePath(in: directory)
            // A busy timeout far past any wait of this test: the write can end only by getting
            // the lock once the other connection lets go, never by giving up.
            let store = try SQLiteStore(path: path, busyTimeoutMilliseconds: 600_000)
            let other = try RawSQLite(path: path)
            try other.execute("BEGIN EXCLUSIVE")
            let began = Latch()
            let outcome = Slot<Result<AuthorizeOutcome, StoreError>>()
            Thread {
                began.set()
                let result = Result { () throws(StoreError) in
                    try store.authorize(
                        otpHash: Fixture.hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: Fixture.now,
                        lifetime: Fixture.lifetime)
                }
                outcome.set(result)
            }.start()

            // Let go once the write has begun (it may reach the lock a moment after: then this run
            // only shows the write goes through; the busy timeout is pinned by the test above).
            try eventuallyBlocking("the write began") { began.isSet }
            #expect(!outcome.isSet, "no write while the other holds the lock")
            try other.execute("COMMIT")
            try eventuallyBlocking("the write went through") { outcome.isSet }
            let written = try #require(outcome.value).get()
            #expect(written.record?.otpHash == Fixture.hash)
        }
    }

    @Test("opening a file another connection holds exclusively gives .locked")
    func lockedAtOpen() throws {
        try withTemporaryDirectory { directory in
            // Given a plain (rollback-journal) empty database under an exclusive lock.
            let path = Fixture.storePath(in: directory)
            let other = try RawSQLite(path: path)
            try other.execute("BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held (x); DROP TABLE held")

            #expect(throws: StoreError.locked(path: path)) {
                try SQLiteStore(path: path, busyTimeoutMilliseconds: 100)
            }

            try other.execute("ROLLBACK")
            #expect(throws: Never.self) { try SQLiteStore(path: path, busyTimeoutMilliseconds: 100) }
        }
    }

    @Test("a store opened read-only (SQLite URI mode=ro) is refused as read-only")
    func readOnlyURI() throws {
        try withTemporaryDirectory { directory in
            let path = Fixture.storePath(in: directory)
            _ = try SQLiteStore(path: path)
            let uri = "file:\(path)?mode=ro"

            #expect(throws: StoreError.readOnly(path: uri)) { try SQLiteStore(path: uri) }
            #expect(StoreError.readOnly(path: uri).message.contains("read-only"))
        }
    }

    /// Tests run as root, where permission bits do not stop writes; the immutable attribute does
    /// (where the file system and capabilities allow setting it).
    @Test("a store file marked immutable is refused as read-only", .enabled(if: ImmutableFile.isSupported))
    func readOnlyImmutableFile() throws {
        try withTemporaryDirectory { directory in
            // Given a closed store whose file cannot be written, even by root.
            let path = Fixture.storePath(in: directory)
            do { _ = try SQLiteStore(path: path) }
            try #require(ImmutableFile.set(path, immutable: true))
            defer { _ = ImmutableFile.set(path, immutable: false) }

            #expect(throws: StoreError.readOnly(path: path)) { try SQLiteStore(path: path) }
        }
    }
}

/// Moves a non-Sendable test helper to another thread when the test knows it is safe.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// `chattr +i`: the one way to make a file unwritable for root without a read-only mount.
enum ImmutableFile {
    static func set(_ path: String, immutable: Bool) -> Bool {
        (try? ChildProcess.run("/usr/bin/chattr", [immutable ? "+i" : "-i", path])) == 0
    }

    /// Whether a probe file in the temporary directory can be made immutable and then refuses writes.
    static let isSupported: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr") else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-chattr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data("x".utf8)) else { return false }
        defer { try? FileManager.default.removeItem(at: probe) }
        guard set(probe.path, immutable: true) else { return false }
        defer { _ = set(probe.path, immutable: false) }
        return (try? FileHandle(forWritingTo: probe)) == nil
    }()
}
