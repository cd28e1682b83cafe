@preconcurrency import CSQLite
import CivilCalendar
import DeskCore
import DeskStore
import DeskTestSupport
import Foundation
import Synchronization
import Testing

/// Fixed instants and values so expectations can be written out in full.
enum Fixture {
    /// 2026-11-29 10:00:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_946_400)
    static let onset = CivilDay(iso: "2026-11-27")!
    static let lifetime = Duration.seconds(150)
    /// SHA-256 of 9K2RAY8UUQ, the facts' example code.
    static let hash = OtpHash(hex: "b39e0733843b1b5d7c558f52f117a824dc41216e0c2bb671b3d79ba82105dd94")!

    /// A distinct, well-formed hash for each number (not the hash of any real code).
    static func hash(_ number: Int) -> OtpHash {
        let digits = String(number, radix: 16)
        return OtpHash(hex: String(repeating: "0", count: 64 - digits.count) + digits)!
    }

    static func storePath(in directory: URL) -> String {
        directory.appendingPathComponent("tracedesk.sqlite").path
    }
}

/// A second, raw connection to a database file: what another process or tool would do.
final class RawSQLite {
    private var db: OpaquePointer?

    init(path: String) throws {
        let code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard code == SQLITE_OK else {
            sqlite3_close_v2(db)
            throw RawSQLiteError(code: code, message: "open")
        }
        sqlite3_busy_timeout(db, 5_000)
    }

    deinit { sqlite3_close_v2(db) }

    func execute(_ sql: String) throws {
        let code = sqlite3_exec(db, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw RawSQLiteError(code: code, message: String(cString: sqlite3_errmsg(db))) }
    }

    /// The first column of the first row, as an integer.
    func integer(_ sql: String) throws -> Int64 {
        try first(sql) { sqlite3_column_int64($0, 0) }
    }

    /// The first column of the first row, as text.
    func text(_ sql: String) throws -> String {
        try first(sql) { String(cString: sqlite3_column_text($0, 0)) }
    }

    private func first<T>(_ sql: String, _ read: (OpaquePointer) -> T) throws -> T {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw RawSQLiteError(code: sqlite3_errcode(db), message: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        let code = sqlite3_step(statement)
        guard code == SQLITE_ROW else { throw RawSQLiteError(code: code, message: "no row for \(sql)") }
        return read(statement)
    }
}

struct RawSQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String { "SQLite \(code): \(message)" }
}

/// Runs `body` on `count` threads at once and returns what each produced, in index order.
func concurrently<T: Sendable>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
    let results = Mutex<[Int: T]>([:])
    DispatchQueue.concurrentPerform(iterations: count) { index in
        let value = body(index)
        results.withLock { $0[index] = value }
    }
    return results.withLock { all in (0..<count).map { all[$0]! } }
}

/// Runs `body` on a thread of its own while the test holds a lock that `body` must not wait
/// for, and returns what it returned. The holder lets go only after this returns, so a `body`
/// that waited for it could never end in time: it fails loudly after `cap` (a guard against a
/// hang, not a timing: give it a minute), then runs `release` so the stuck thread ends too.
func withoutWaitingFor<T: Sendable>(
    _ what: String, within cap: Duration = .seconds(60), release: () throws -> Void,
    _ body: @escaping @Sendable () -> T
) throws -> T {
    let result = Slot<T>()
    Thread { result.set(body()) }.start()
    do {
        try eventuallyBlocking(within: cap, what) { result.isSet }
    } catch {
        try release()
        try eventuallyBlocking(within: cap, "\(what), once let go") { result.isSet }
        throw error
    }
    return result.value!
}
