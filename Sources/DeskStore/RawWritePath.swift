@preconcurrency import CSQLite
import DeskCore

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The store's limit on the write path (`tracedesk bench write-raw`, Benchmarks/write-path.sh):
/// the transactions an authorisation and a 14-key upload make, run straight through SQLite's C
/// API, with no HTTP and no Swift store layer (no `SQLValue`s, no closures, no lock of ours).
///
/// The statements are the store's own text (``statements(_:keys:)`` reads the constants the
/// SQLite engine runs), and ``SQLiteStore/tracingStatements(_:)`` lets the benchmark check that
/// the store really issues exactly these, in this order, so the two cannot drift apart. The
/// values are the store's shapes: random 64-hex-digit codes (the store's keys are hashes, so
/// inserts land at random places in the B-trees), the same detail JSON lengths. The audit
/// entry's hash is bound as a random value: hashing is the server's work, not the store's.
package enum RawWritePath {
    package enum Operation: String, Sendable, CaseIterable {
        case authorization, upload
    }

    /// What one run measured.
    package struct Result: Sendable {
        package var operations: Int
        package var seconds: Double
        package var perSecond: Double { seconds > 0 ? Double(operations) / seconds : 0 }
    }

    /// The statements of one `operation`'s transaction, in the order the SQLite engine steps them
    /// (`BEGIN IMMEDIATE` and `COMMIT` included; `keys` key rows for an upload).
    package static func statements(_ operation: Operation, keys: Int = 14) -> [String] {
        switch operation {
        case .authorization:
            return [
                begin, SQL.selectAuthorization, SQL.upsertAuthorization, SQL.insertEvent, StaffSQL.lastAudit,
                StaffSQL.insertAudit, commit,
            ]
        case .upload:
            return [begin, SQL.selectAuthorization, SQL.consumeAuthorization, SQL.insertUpload]
                + Array(repeating: SQL.insertKey, count: keys) + [SQL.insertEvent, commit]
        }
    }

    static let begin = "BEGIN IMMEDIATE"
    static let commit = "COMMIT"

    /// Runs `operation` on the store file at `path` (created by ``SQLiteStore`` first, so the
    /// schema and its indexes are the store's) from `threads` threads, until `seconds` have passed
    /// or `count` transactions are done. Each thread has its own connection (SQLite's own
    /// locking between them, with the store's busy timeout), unless `shared`: then one connection
    /// behind one mutex, as ``SQLiteStore`` runs. Uploads first authorise `count` codes (not timed).
    package static func run(
        _ operation: Operation, path: String, threads: Int, shared: Bool, seconds: Double, count: Int
    ) throws(StoreError) -> Result {
        let threads = max(1, threads)
        let connections = try (0..<(shared ? 1 : threads)).map { _ throws(StoreError) in try RawConnection(path: path) }
        let now = Date().unixMilliseconds
        if operation == .upload {
            try connections[0].seedAuthorizations(count: count, threads: threads, now: now)
        }
        let state = RunState(count: count)
        let mutex = SimpleLock()
        let start = monotonicNanoseconds()
        let deadline = start + UInt64(seconds * 1e9)
        runThreads(threads) { index in
            let connection = connections[shared ? 0 : index]
            var codes = CodeSource(seed: UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15)
            var done = 0
            while monotonicNanoseconds() < deadline, state.take() {
                do throws(StoreError) {
                    if shared {
                        try mutex.withLock { () throws(StoreError) in
                            try connection.perform(operation, codes: &codes, now: now)
                        }
                    } else {
                        try connection.perform(operation, codes: &codes, now: now)
                    }
                    done += 1
                } catch {
                    state.fail(error)
                    break
                }
            }
            state.add(done)
        }
        let elapsed = Double(monotonicNanoseconds() - start) / 1e9
        if let failure = state.failure { throw failure }
        return Result(operations: state.completed, seconds: elapsed)
    }

    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Runs `body(0)` … `body(count - 1)` on threads of their own and waits for all of them.
    static func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        final class Box: @unchecked Sendable {
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }
        var handles: [pthread_t] = []
        for index in 0..<count {
            let box = Unmanaged.passRetained(Box { body(index) }).toOpaque()
            var handle = pthread_t()
            let created = pthread_create(
                &handle, nil,
                { raw in
                    guard let raw else { return nil }
                    let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
                    box.body()
                    return nil
                }, box)
            if created == 0 { handles.append(handle) } else { Unmanaged<Box>.fromOpaque(box).release() }
        }
        for handle in handles { pthread_join(handle, nil) }
    }

    /// The shared counters of a run.
    final class RunState: @unchecked Sendable {
        private let lock = SimpleLock()
        private var left: Int
        private(set) var completed = 0
        private(set) var failure: StoreError?

        init(count: Int) { left = count }

        /// One more transaction may start (the count is not used up, nothing failed).
        func take() -> Bool {
            lock.withLock {
                guard left > 0, failure == nil else { return false }
                left -= 1
                return true
            }
        }

        func add(_ n: Int) { lock.withLock { completed += n } }
        func fail(_ error: StoreError) { lock.withLock { failure = failure ?? error } }
    }
}

/// Random 64-digit hex codes, one stream per thread: the same stream is replayed to find the
/// codes a seed authorised (thread `i` of an upload run consumes what stream `i` seeded).
struct CodeSource {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func hex() -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 64)
        for word in 0..<4 {
            var value = next()
            for i in 0..<16 {
                out[word * 16 + 15 - i] = digits[Int(value & 0xF)]
                value >>= 4
            }
        }
        return out
    }
}

/// One `sqlite3*` with the store's pragmas and the write path's statements prepared once.
final class RawConnection: @unchecked Sendable {
    private var db: OpaquePointer?
    private var prepared: [String: OpaquePointer] = [:]
    let path: String

    init(path: String) throws(StoreError) {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK else {
            sqlite3_close_v2(db)
            throw StoreError.cannotOpen(path: path, reason: "raw benchmark connection")
        }
        sqlite3_busy_timeout(db, 5_000)
        try exec("PRAGMA journal_mode = WAL")
        try exec(SQL.connectionPragmas)
        for operation in RawWritePath.Operation.allCases {
            for text in RawWritePath.statements(operation) where prepared[text] == nil {
                var statement: OpaquePointer?
                guard sqlite3_prepare_v3(db, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
                    let statement
                else { throw failure("prepare") }
                prepared[text] = statement
            }
        }
    }

    deinit {
        for statement in prepared.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    private func exec(_ sql: String) throws(StoreError) {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    private func failure(_ operation: String) -> StoreError {
        .failed(operation: "raw benchmark: \(operation)", reason: String(cString: sqlite3_errmsg(db)))
    }

    private func statement(_ text: String) -> OpaquePointer { prepared[text]! }

    /// Steps `statement` to its end (rows are read and thrown away, as a `RETURNING` is read).
    @discardableResult
    private func step(_ statement: OpaquePointer, _ what: String) throws(StoreError) -> Int64 {
        defer { sqlite3_reset(statement) }
        var first: Int64 = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return first }
            guard code == SQLITE_ROW else { throw failure(what) }
            first = sqlite3_column_int64(statement, 0)
        }
    }

    private func text(_ statement: OpaquePointer, _ index: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                _ = sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), csqlite_transient())
            }
        }
    }

    private func text(_ statement: OpaquePointer, _ index: Int32, _ string: String) {
        _ = sqlite3_bind_text(statement, index, string, -1, csqlite_transient())
    }

    private func int(_ statement: OpaquePointer, _ index: Int32, _ value: Int64) {
        _ = sqlite3_bind_int64(statement, index, value)
    }

    static let day = Date().utcDay.adding(days: -14).iso
    static let actor = "his:bench"
    /// As long as `OtpAuthorized`'s detail in the store.
    static let authorizedDetail = #"{"symptoms_started_on":"2026-11-18","expires_at_ms":1796000150000}"#
    static let uploadDetail =
        #"{"upload_id":1,"keys_accepted":14,"keys_dropped":0,"dropped":[],"province":"RM","clock_skew_s":0,"clock_skew_flagged":false,"summaries":0}"#

    /// Authorises `count` codes, `threads` streams of them, in one transaction (an hour's lifetime).
    func seedAuthorizations(count: Int, threads: Int, now: Int64) throws(StoreError) {
        var streams = (0..<threads).map { CodeSource(seed: UInt64($0 + 1) &* 0x9E37_79B9_7F4A_7C15) }
        try step(statement(RawWritePath.begin), "begin")
        let upsert = statement(SQL.upsertAuthorization)
        for n in 0..<count {
            let code = streams[n % threads].hex()
            text(upsert, 1, code)
            text(upsert, 2, Self.day)
            int(upsert, 3, now)
            int(upsert, 4, now + 3_600_000)
            text(upsert, 5, Self.actor)
            try step(upsert, "seed")
        }
        try step(statement(RawWritePath.commit), "commit")
    }

    /// One transaction of `operation` (rolled back if a statement fails).
    func perform(_ operation: RawWritePath.Operation, codes: inout CodeSource, now: Int64) throws(StoreError) {
        try step(statement(RawWritePath.begin), "begin")
        do {
            switch operation {
            case .authorization: try authorize(codes.hex(), now: now)
            case .upload: try upload(codes.hex(), now: now)
            }
            try step(statement(RawWritePath.commit), "commit")
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    private func authorize(_ code: [UInt8], now: Int64) throws(StoreError) {
        let select = statement(SQL.selectAuthorization)
        text(select, 1, code)
        try step(select, "read authorization")
        let upsert = statement(SQL.upsertAuthorization)
        text(upsert, 1, code)
        text(upsert, 2, Self.day)
        int(upsert, 3, now)
        int(upsert, 4, now + 150_000)
        text(upsert, 5, Self.actor)
        try step(upsert, "authorize")
        let event = statement(SQL.insertEvent)
        int(event, 1, now)
        text(event, 2, DeskEvent.Kind.otpAuthorized.rawValue)
        text(event, 3, code)
        text(event, 4, Self.actor)
        text(event, 5, Self.authorizedDetail)
        try step(event, "event")
        let last = statement(StaffSQL.lastAudit)
        let id = try step(last, "last audit") + 1
        let audit = statement(StaffSQL.insertAudit)
        int(audit, 1, id)
        int(audit, 2, now)
        text(audit, 3, Self.actor)
        text(audit, 4, AuditAction.otpAuthorized.rawValue)
        text(audit, 5, Array(code.prefix(6)))
        text(audit, 6, Self.authorizedDetail)
        text(audit, 7, code)
        text(audit, 8, code)
        try step(audit, "audit")
    }

    private func upload(_ code: [UInt8], now: Int64) throws(StoreError) {
        let select = statement(SQL.selectAuthorization)
        text(select, 1, code)
        try step(select, "read authorization")
        let consume = statement(SQL.consumeAuthorization)
        int(consume, 1, now)
        text(consume, 2, code)
        int(consume, 3, now)
        try step(consume, "consume")
        guard sqlite3_changes(db) == 1 else { throw failure("consume: no authorised code") }
        let insert = statement(SQL.insertUpload)
        text(insert, 1, code)
        int(insert, 2, now)
        text(insert, 3, Self.day)
        text(insert, 4, "RM")
        int(insert, 5, now / 1000)
        int(insert, 6, 0)
        int(insert, 7, 14)
        int(insert, 8, 0)
        text(insert, 9, "{}")
        int(insert, 10, 0)
        text(insert, 11, "[]")
        let uploadID = try step(insert, "upload")
        let key = statement(SQL.insertKey)
        let today = now / 1000 / 600 / 144 * 144
        var data = [UInt8](repeating: 0, count: 16)
        for k in 0..<14 {
            data[15] = UInt8(k)
            int(key, 1, uploadID)
            data.withUnsafeBytes { _ = sqlite3_bind_blob(key, 2, $0.baseAddress, 16, csqlite_transient()) }
            let start = today - Int64(13 - k) * 144
            int(key, 3, start)
            int(key, 4, 144)
            int(key, 5, 6)
            int(key, 6, 1)
            int(key, 7, Int64(k))
            int(key, 8, (start + 144) * 600)
            try step(key, "key")
        }
        let event = statement(SQL.insertEvent)
        int(event, 1, now)
        text(event, 2, DeskEvent.Kind.uploadAccepted.rawValue)
        text(event, 3, code)
        sqlite3_bind_null(event, 4)
        text(event, 5, Self.uploadDetail)
        try step(event, "event")
    }
}

/// One statement-trace of a connection: the SQL text of every statement stepped.
final class StatementTrace {
    var texts: [String] = []
}

extension SQLiteConnection {
    func startTracing(_ trace: StatementTrace) {
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, statement, unexpanded in
                guard let context, let statement else { return 0 }
                // A trigger's sub-program is reported with its text starting "--": not a statement.
                if let unexpanded, String(cString: unexpanded.assumingMemoryBound(to: CChar.self)).hasPrefix("--") {
                    return 0
                }
                let trace = Unmanaged<StatementTrace>.fromOpaque(context).takeUnretainedValue()
                if let sql = sqlite3_sql(OpaquePointer(statement)) { trace.texts.append(String(cString: sql)) }
                return 0
            }, Unmanaged.passUnretained(trace).toOpaque())
    }

    func stopTracing() { sqlite3_trace_v2(handle, 0, nil, nil) }
}

extension SQLiteStore {
    /// Runs `body` and returns the SQL text of every statement the store stepped meanwhile, in
    /// order (for the write-path benchmark's check that its statements are the store's). Call
    /// from one thread, with nothing else using the store.
    package func tracingStatements<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (T, [String]) {
        let trace = StatementTrace()
        lock.withLock { connection.startTracing(trace) }
        defer { lock.withLock { connection.stopTracing() } }
        let result = try body()
        return (result, trace.texts)
    }
}
