@preconcurrency import CLibpq
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// The adapters the store contract suite runs against.
///
/// SQLite always (a file in a fresh folder). PostgreSQL when `TRACEDESK_TEST_POSTGRES` names a
/// server (scripts/test starts a throwaway cluster and sets it); each test then gets a schema of
/// its own. Without it the PostgreSQL cases are left out, and the test
/// "PostgreSQL is available" shows as skipped; under CI (`CI` set) that test fails instead.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }

    static let postgresURL: String? = {
        let value = ProcessInfo.processInfo.environment["TRACEDESK_TEST_POSTGRES"] ?? ""
        return value.isEmpty ? nil : value
    }()

    static var testable: [StoreKind] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }
}

@Suite("Store contract: the adapters under test")
struct StoreKindTests {
    @Test(
        "PostgreSQL is available (TRACEDESK_TEST_POSTGRES); without it the PostgreSQL cases are not run",
        .enabled(
            if: StoreKind.postgresURL != nil || ProcessInfo.processInfo.environment["CI"] != nil,
            "TRACEDESK_TEST_POSTGRES is not set: the PostgreSQL half of the store contract suite is skipped (scripts/test sets it)"
        ))
    func postgresAvailable() throws {
        let url = try #require(
            StoreKind.postgresURL, "CI must run the PostgreSQL tests: TRACEDESK_TEST_POSTGRES is unset")
        let admin = try RawPostgres(url)
        #expect(try admin.integer("SELECT 1") == 1)
    }
}

/// A database for one test: an SQLite file in a fresh folder, or a fresh PostgreSQL schema.
/// `open()` gives another store on the same data (another process or server would do that).
final class StoreSpace: @unchecked Sendable {
    let kind: StoreKind
    /// The SQLite path, or the PostgreSQL URL (with the schema in its search_path).
    let spec: String
    let schema: String?

    init(kind: StoreKind, spec: String, schema: String?) {
        self.kind = kind
        self.spec = spec
        self.schema = schema
    }

    func open(poolSize: Int = 4, waitMilliseconds: Int = 5_000) throws(StoreError) -> any Store {
        switch kind {
        case .sqlite: return try SQLiteStore(path: spec, busyTimeoutMilliseconds: Int32(waitMilliseconds))
        case .postgres: return try PostgresStore(url: spec, poolSize: poolSize, waitMilliseconds: waitMilliseconds)
        }
    }

    /// Runs SQL outside the store (to look, or to tamper), returning the first column of the first row.
    func scalar(_ sql: String) throws -> Int64 {
        switch kind {
        case .sqlite: return try RawSQLite(path: spec).integer(sql)
        case .postgres: return try RawPostgres(spec).integer(sql)
        }
    }

    func execute(_ sql: String) throws {
        switch kind {
        case .sqlite: try RawSQLite(path: spec).execute(sql)
        case .postgres: try RawPostgres(spec).execute(sql)
        }
    }
}

/// Runs `body` with a fresh space of `kind`, removed afterwards.
@discardableResult
func withSpace<T>(_ kind: StoreKind, _ body: (StoreSpace) throws -> T) throws -> T {
    switch kind {
    case .sqlite:
        return try withTemporaryDirectory { directory in
            try body(StoreSpace(kind: .sqlite, spec: Fixture.storePath(in: directory), schema: nil))
        }
    case .postgres:
        let base = try #require(StoreKind.postgresURL)
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let admin = try RawPostgres(base)
        try admin.execute("CREATE SCHEMA \(schema)")
        defer { try? admin.execute("DROP SCHEMA \(schema) CASCADE") }
        let separator = base.contains("?") ? "&" : "?"
        return try body(
            StoreSpace(kind: .postgres, spec: base + separator + "options=-csearch_path%3D\(schema)", schema: schema))
    }
}

/// Runs `body` with a fresh store of `kind`.
@discardableResult
func withStore<T>(_ kind: StoreKind, _ body: (any Store) throws -> T) throws -> T {
    try withSpace(kind) { space in try body(try space.open()) }
}

/// A plain libpq connection, outside the store: what psql or another tool would do.
final class RawPostgres {
    private let conn: OpaquePointer?

    init(_ url: String) throws {
        conn = PQconnectdb(url)
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(conn))
            PQfinish(conn)
            throw RawSQLiteError(code: -1, message: message)
        }
        PQclear(PQexec(conn, "SET client_min_messages = warning"))
    }

    deinit { PQfinish(conn) }

    func execute(_ sql: String) throws {
        let result = PQexec(conn, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw RawSQLiteError(code: -1, message: String(cString: PQresultErrorMessage(result)))
        }
    }

    /// The first column of the first row, as an integer (text format).
    func integer(_ sql: String) throws -> Int64 {
        try text(sql).flatMap { Int64($0) } ?? -1
    }

    func text(_ sql: String) throws -> String? {
        let result = PQexec(conn, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK else {
            throw RawSQLiteError(code: -1, message: String(cString: PQresultErrorMessage(result)))
        }
        guard PQntuples(result) > 0, PQgetisnull(result, 0, 0) == 0 else { return nil }
        return String(cString: PQgetvalue(result, 0, 0))
    }
}
