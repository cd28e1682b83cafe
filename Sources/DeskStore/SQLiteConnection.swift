@preconcurrency import CSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// A value bound to or read from an SQL statement.
enum SQLValue: Hashable, Sendable {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null
}

/// One row of a result, read by column index.
struct SQLRow {
    fileprivate let statement: OpaquePointer

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(statement, column) else { return "" }
        return String(cString: pointer)
    }

    func optionalInteger(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : integer(column)
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : text(column)
    }
}

/// A thin owner of one `sqlite3*`: prepared-statement cache, bound parameters only, errors
/// mapped to ``StoreError`` without the bound values.
///
/// Threading rule: not thread-safe; ``SQLiteStore`` serialises every use behind its lock.
final class SQLiteConnection {
    let path: String
    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// The `sqlite3*` (the write-path benchmark's statement trace).
    var handle: OpaquePointer? { db }

    init(path: String, busyTimeoutMilliseconds: Int32) throws(StoreError) {
        self.path = path
        try Self.createPrivately(path)
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        if code != SQLITE_OK {
            let error = mapError(code, operation: "open")
            sqlite3_close_v2(db)
            db = nil
            throw error
        }
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(db, 1)
        if sqlite3_db_readonly(db, "main") == 1 {
            throw StoreError.readOnly(path: path)
        }
    }

    /// Creates a missing store file empty and 0600 before SQLite opens it, whatever the umask:
    /// the store holds phone numbers, the contact graph and live authorisations. SQLite gives
    /// the `-wal` and `-shm` files it makes later the main file's mode (its unix VFS copies it,
    /// whichever process makes them), so one private file keeps all three private. An existing
    /// file keeps its mode (`serve` warns when others can read it).
    static func createPrivately(_ path: String) throws(StoreError) {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            _ = fchmod(fd, 0o600)
            close(fd)
            return
        }
        if errno == EEXIST { return }
        throw StoreError.cannotOpen(path: path, reason: "cannot create the file (\(String(cString: strerror(errno))))")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    /// Runs SQL text with no parameters (schema, pragmas); several statements allowed.
    func execute(_ sql: String, operation: String) throws(StoreError) {
        let code = sqlite3_exec(db, sql, nil, nil, nil)
        if code != SQLITE_OK { throw mapError(code, operation: operation) }
    }

    /// Runs one statement with bound parameters; returns the number of rows changed.
    @discardableResult
    func run(_ sql: String, _ parameters: [SQLValue] = [], operation: String) throws(StoreError) -> Int {
        let statement = try prepare(sql, operation: operation)
        defer { sqlite3_reset(statement) }
        try bind(parameters, to: statement, operation: operation)
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw mapError(code, operation: operation) }
        return Int(sqlite3_changes(db))
    }

    /// Runs a query and maps each row.
    func query<T>(
        _ sql: String, _ parameters: [SQLValue] = [], operation: String, _ map: (SQLRow) -> T
    ) throws(StoreError) -> [T] {
        let statement = try prepare(sql, operation: operation)
        defer { sqlite3_reset(statement) }
        try bind(parameters, to: statement, operation: operation)
        var rows: [T] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw mapError(code, operation: operation) }
            rows.append(map(SQLRow(statement: statement)))
        }
        return rows
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(db) }

    /// No transaction is open (none began, or SQLite ended one after a failure such as a full disk).
    var inAutocommit: Bool { sqlite3_get_autocommit(db) != 0 }

    /// Rolls back the open transaction, if any.
    func rollbackIfOpen() {
        if !inAutocommit { _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil) }
    }

    /// Runs `body` in one transaction; `BEGIN IMMEDIATE` takes the write lock up front so two
    /// processes never deadlock upgrading a read lock.
    func transaction<T>(
        immediate: Bool = true, operation: String, _ body: () throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN", operation: operation)
        do {
            let result = try body()
            try execute("COMMIT", operation: operation)
            return result
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    private func prepare(_ sql: String, operation: String) throws(StoreError) -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw mapError(code, operation: operation) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ parameters: [SQLValue], to statement: OpaquePointer, operation: String) throws(StoreError) {
        sqlite3_clear_bindings(statement)
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .text(let text): code = sqlite3_bind_text(statement, index, text, -1, csqlite_transient())
            case .blob(let bytes):
                code = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), csqlite_transient())
                }
            case .null: code = sqlite3_bind_null(statement, index)
            }
            if code != SQLITE_OK { throw mapError(code, operation: operation) }
        }
    }

    /// Maps an SQLite result code to a store error. Uses SQLite's own message for the rest,
    /// which names tables and constraints but never bound values.
    func mapError(_ code: Int32, operation: String) -> StoreError {
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return .locked(path: path)
        case SQLITE_READONLY: return .readOnly(path: path)
        case SQLITE_NOTADB, SQLITE_CORRUPT: return .corrupt(path: path)
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
            return .cannotOpen(path: path, reason: String(cString: sqlite3_errstr(code)))
        default:
            let message =
                db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            return .failed(operation: operation, reason: message)
        }
    }
}
