@preconcurrency import CLibpq

#if canImport(Glibc)
    import Glibc
#endif

/// Where a PostgreSQL store is, parsed by libpq itself (`PQconninfoParse`) from a
/// `postgres://` URL or a `key=value` string. ``description`` never includes the password.
struct PGTarget: Sendable {
    let conninfo: String
    let host: String
    let port: String
    let database: String
    let user: String
    /// The password given in the URL, kept only to scrub it from libpq's messages.
    private let password: String?

    /// Nil when libpq cannot parse `conninfo`; `problem` then says why (libpq's words).
    init(_ conninfo: String) throws(StoreError) {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &error) else {
            // libpq's reason quotes the part it could not read, which can be the password: not shown.
            if let error { PQfreemem(error) }
            throw StoreError.cannotOpen(
                path: "postgres://…",
                reason:
                    "the URL cannot be read: write it as postgres://USER@HOST:PORT/DATABASE, with special characters in the user name or password percent-encoded (%40 for @, %25 for %)"
            )
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        self.conninfo = conninfo
        password = values["password"].flatMap { $0.isEmpty ? nil : $0 }
        let environment = { (name: String) -> String? in getenv(name).map { String(cString: $0) } }
        // libpq's own defaults, so that the description names what it will really try.
        host = values["host"] ?? values["hostaddr"] ?? environment("PGHOST") ?? "/var/run/postgresql"
        port = values["port"] ?? environment("PGPORT") ?? "5432"
        user = values["user"] ?? environment("PGUSER") ?? environment("USER") ?? ""
        database = values["dbname"] ?? environment("PGDATABASE") ?? user
    }

    /// `postgres://user@host:port/db` (a socket folder shows as `host=/path`; several hosts as
    /// `h1:p1,h2:p2`); no password.
    var description: String {
        let at = user.isEmpty ? "" : "\(user)@"
        if host.hasPrefix("/") { return "postgres://\(at)/\(database) (socket \(host), port \(port))" }
        return "postgres://\(at)\(address)/\(database)"
    }

    /// `text` without the URL's password, whatever libpq chose to quote.
    func scrub(_ text: String) -> String {
        guard let password, text.contains(password) else { return text }
        return text.replacing(password, with: "***")
    }

    /// "host:port" (each host with its port when there are several), or the socket folder and port.
    var address: String {
        if host.hasPrefix("/") { return "socket \(host) port \(port)" }
        let hosts = host.split(separator: ",", omittingEmptySubsequences: false)
        let ports = port.split(separator: ",", omittingEmptySubsequences: false)
        return hosts.enumerated().map { index, name in
            "\(name):\(ports.count == hosts.count ? ports[index] : ports.first ?? "5432")"
        }.joined(separator: ",")
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" || text.last == " " { text.removeLast() }
        return text
    }
}

/// One row of a PostgreSQL result, every column in binary format.
struct PGRow {
    fileprivate let result: OpaquePointer
    fileprivate let row: Int32

    private func bytes(_ column: Int32) -> UnsafeRawBufferPointer {
        let count = Int(PQgetlength(result, row, column))
        guard let pointer = PQgetvalue(result, row, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }

    func isNull(_ column: Int32) -> Bool { PQgetisnull(result, row, column) == 1 }

    /// int2, int4, int8 or bool, big-endian.
    func integer(_ column: Int32) -> Int64 {
        let raw = bytes(column)
        var value: Int64 = 0
        for byte in raw { value = value << 8 | Int64(byte) }
        switch raw.count {
        case 1: return value
        case 2: return Int64(Int16(truncatingIfNeeded: value))
        case 4: return Int64(Int32(truncatingIfNeeded: value))
        default: return value
        }
    }

    func optionalInteger(_ column: Int32) -> Int64? { isNull(column) ? nil : integer(column) }

    func text(_ column: Int32) -> String { String(decoding: bytes(column), as: UTF8.self) }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    func blob(_ column: Int32) -> [UInt8] { Array(bytes(column)) }
}

/// A thin owner of one `PGconn*`: bound parameters only (each statement prepared once per
/// connection with `PQprepare`, then `PQexecPrepared`; binary both ways),
/// SQLSTATE mapped to ``StoreError`` with PostgreSQL's primary message, which names relations
/// and constraints but never a bound value (the DETAIL line, which can, is never read).
///
/// Threading rule: not thread-safe; ``PGPool`` lends it to one thread at a time.
final class PGConnection {
    let target: PGTarget
    private var conn: OpaquePointer?
    /// Set when an error said the connection is unusable: the pool drops it.
    private(set) var broken = false
    /// Commands sent since the pool lent it out.
    var commandsSent = 0
    /// Whether the first of them could not have changed anything (a `BEGIN` or a `SELECT`), so
    /// that it may be sent again on another connection if this one was found dead.
    private(set) var firstCommandRepeatable = false
    /// Statements prepared on this connection, by SQL text: parsed and planned once per
    /// connection instead of once per call (most of PostgreSQL's CPU for statements this small).
    private var prepared: [String: String] = [:]

    /// Connects. `lockTimeoutMilliseconds` bounds every wait for a row or table lock on this
    /// connection (then ``StoreError/locked(path:)``): a stuck lock is a 503, not a hung request.
    init(target: PGTarget, connectTimeoutSeconds: Int, lockTimeoutMilliseconds: Int? = nil) throws(StoreError) {
        self.target = target
        // Defaults first: values given in the URL override them (libpq expands `dbname`).
        let keywords = ["application_name", "connect_timeout", "dbname"]
        let values = ["tracedesk", String(connectTimeoutSeconds), target.conninfo]
        let cKeywords = keywords.map { UnsafePointer(strdup($0)) }
        let cValues = values.map { UnsafePointer(strdup($0)) }
        defer {
            for pointer in cKeywords + cValues { free(UnsafeMutablePointer(mutating: pointer)) }
        }
        conn = (cKeywords + [nil]).withUnsafeBufferPointer { keywordBuffer in
            (cValues + [nil]).withUnsafeBufferPointer { valueBuffer in
                PQconnectdbParams(keywordBuffer.baseAddress, valueBuffer.baseAddress, 1)
            }
        }
        guard let conn, PQstatus(conn) == CONNECTION_OK else {
            let reason = target.scrub(
                Self.shortReason(
                    conn.flatMap { PQerrorMessage($0) }.map { String(cString: $0) }?.trimmingTrailingNewlines
                        ?? "out of memory"))
            PQfinish(conn)
            self.conn = nil
            if reason.contains("connection option") || reason.contains("invalid URI") {
                throw StoreError.cannotOpen(
                    path: target.description,
                    reason: "\(reason): write it as postgres://USER@HOST:PORT/DATABASE")
            }
            // Wrong credentials or database: waiting will not help.
            if reason.contains("authentication failed") || reason.contains("does not exist")
                || reason.contains("no password supplied")
            {
                throw StoreError.cannotOpen(path: target.description, reason: reason)
            }
            throw StoreError.unavailable(location: target.description, reason: reason)
        }
        clibpq_silence_notices(conn)
        if let lockTimeoutMilliseconds {
            try execute("SET lock_timeout = \(max(1, lockTimeoutMilliseconds))", operation: "configure the connection")
        }
    }

    deinit { PQfinish(conn) }

    /// The server's version number (150018 for 15.18).
    var serverVersion: Int { Int(PQserverVersion(conn)) }

    /// libpq's connection error text, reduced to its first line (the rest is hints such as
    /// "Is the server running on that host…", or the second half of a sentence).
    static func shortReason(_ message: String) -> String {
        let lines = message.split(separator: "\n").map { String($0.drop(while: { $0 == " " || $0 == "\t" })) }
            .map(\.trimmingTrailingNewlines).filter { !$0.isEmpty }
        return lines.first ?? message
    }

    /// Runs SQL text with no parameters (schema, `BEGIN`); several statements allowed.
    func execute(_ sql: String, operation: String) throws(StoreError) {
        count(sql)
        let result = PQexec(conn, sql)
        defer { PQclear(result) }
        try check(result, operation: operation)
    }

    /// Runs one statement with bound parameters; returns the number of rows changed.
    @discardableResult
    func run(_ sql: String, _ parameters: [SQLValue] = [], operation: String) throws(StoreError) -> Int {
        let result = try exec(sql, parameters, operation: operation)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Runs a query and maps each row.
    func query<T>(
        _ sql: String, _ parameters: [SQLValue] = [], operation: String, _ map: (PGRow) -> T
    ) throws(StoreError) -> [T] {
        let result = try exec(sql, parameters, operation: operation)
        defer { PQclear(result) }
        guard let result else { return [] }
        let count = PQntuples(result)
        var rows: [T] = []
        rows.reserveCapacity(Int(count))
        for row in 0..<count { rows.append(map(PGRow(result: result, row: row))) }
        return rows
    }

    /// Runs `body` in one transaction (READ COMMITTED unless `begin` says otherwise).
    func transaction<T>(
        begin: String = "BEGIN", operation: String, _ body: () throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try execute(begin, operation: operation)
        do {
            let result = try body()
            try execute("COMMIT", operation: operation)
            return result
        } catch {
            if !broken { PQclear(PQexec(conn, "ROLLBACK")) }
            throw error
        }
    }

    private func count(_ sql: String) {
        commandsSent += 1
        if commandsSent == 1 { firstCommandRepeatable = sql.hasPrefix("BEGIN") || sql.hasPrefix("SELECT") }
    }

    /// Whether the connection is idle and usable (not in a transaction, not broken).
    var reusable: Bool {
        !broken && PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) == PQTRANS_IDLE
    }

    private func exec(_ sql: String, _ parameters: [SQLValue], operation: String) throws(StoreError) -> OpaquePointer? {
        // Binary parameters: int8, text, bytea (no quoting, no parsing on either side).
        var types: [Oid] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        var buffers: [UnsafeMutableRawPointer?] = []
        types.reserveCapacity(parameters.count)
        defer { for buffer in buffers { buffer?.deallocate() } }
        for value in parameters {
            switch value {
            case .integer(let number):
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: 8, alignment: 8)
                buffer.storeBytes(of: number.bigEndian, as: Int64.self)
                buffers.append(buffer)
                types.append(20)
                lengths.append(8)
            case .text(let text):
                let utf8 = Array(text.utf8)
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(1, utf8.count), alignment: 1)
                utf8.withUnsafeBytes {
                    if let base = $0.baseAddress { buffer.copyMemory(from: base, byteCount: utf8.count) }
                }
                buffers.append(buffer)
                types.append(25)
                lengths.append(Int32(utf8.count))
            case .blob(let bytes):
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
                bytes.withUnsafeBytes {
                    if let base = $0.baseAddress { buffer.copyMemory(from: base, byteCount: bytes.count) }
                }
                buffers.append(buffer)
                types.append(17)
                lengths.append(Int32(bytes.count))
            case .null:
                buffers.append(nil)
                types.append(0)
                lengths.append(0)
            }
            formats.append(1)
        }
        let values = buffers.map { UnsafePointer($0?.assumingMemoryBound(to: CChar.self)) }
        count(sql)
        let name: String
        if let known = prepared[sql] {
            name = known
        } else {
            name = "td\(prepared.count + 1)"
            // A NULL's type (0) is inferred from where it goes: always the same column.
            let preparing = PQprepare(conn, name, sql, Int32(parameters.count), types)
            do {
                try check(preparing, operation: operation)
            } catch {
                PQclear(preparing)
                throw error
            }
            PQclear(preparing)
            prepared[sql] = name
        }
        let result = PQexecPrepared(conn, name, Int32(parameters.count), values, lengths, formats, 1)
        do {
            try check(result, operation: operation)
        } catch {
            PQclear(result)
            throw error
        }
        return result
    }

    private func check(_ result: OpaquePointer?, operation: String) throws(StoreError) {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY { return }
        let sqlState = result.flatMap { PQresultErrorField($0, clibpq_diag_sqlstate()) }.map { String(cString: $0) }
        let primary = result.flatMap { PQresultErrorField($0, clibpq_diag_message_primary()) }.map {
            String(cString: $0)
        }
        throw mapError(sqlState: sqlState, primary: primary, operation: operation)
    }

    /// SQLSTATE → store error. Without a SQLSTATE the connection failed (libpq's own message).
    func mapError(sqlState: String?, primary: String?, operation: String) -> StoreError {
        let connectionLost = PQstatus(conn) != CONNECTION_OK
        guard let sqlState, !connectionLost else {
            broken = true
            let reason = conn.flatMap { PQerrorMessage($0) }.map { String(cString: $0) } ?? ""
            return .unavailable(
                location: target.description,
                reason: target.scrub(
                    Self.shortReason(reason.isEmpty ? "the connection was lost" : reason.trimmingTrailingNewlines)))
        }
        let message = target.scrub(primary ?? "SQLSTATE \(sqlState)")
        switch sqlState {
        case "23505": return .conflict(operation: operation, reason: message)
        case "40001", "40P01", "55P03", "57014":
            return .locked(path: target.description)
        case "57P01", "57P02", "57P03", "53300":
            broken = true
            return .unavailable(location: target.description, reason: message)
        case "25006":
            // A standby (the old primary after a failover): a new connection finds the primary
            // when the URL lists both hosts with target_session_attrs=read-write.
            broken = true
            return .unavailable(
                location: target.description, reason: "\(message) (the database is a read-only standby)")
        case "3F000":
            return .cannotOpen(
                path: target.description,
                reason: "\(message): create the schema or fix search_path in the URL's options")
        case "28000", "28P01", "3D000":
            return .cannotOpen(path: target.description, reason: message)
        default:
            if sqlState.hasPrefix("08") {
                broken = true
                return .unavailable(location: target.description, reason: message)
            }
            return .failed(operation: operation, reason: message)
        }
    }
}
