import DeskCore
import Foundation
import Testing

@testable import DeskStore

/// What the migrations leave in a store, read back from the engine's own catalog: SQLite's
/// pragmas, PostgreSQL's information_schema and pg_indexes. Both engines must end with the same
/// tables, columns and indexes (the migrations are written once, ``Migrations``, with pieces per
/// dialect: this is what proves the pieces agree).
///
/// Types are compared through ``SchemaCatalog/kind(_:)``: SQLite INTEGER and PostgreSQL bigint
/// are "integer", TEXT and text "text", BLOB and bytea "bytes"; anything else fails. Known
/// differences, each for a reason: PostgreSQL has the index `events_unsequenced` (its readers
/// give events their positions, migration 5; SQLite's `seq` is a virtual column of the id), and
/// SQLite's own tables (`sqlite_sequence`) are left out.
struct SchemaCatalog: Equatable, CustomStringConvertible {
    struct Column: Equatable, CustomStringConvertible {
        var name: String
        var kind: String
        var notNull: Bool
        /// The default as SQL text, PostgreSQL's `::text` casts removed.
        var defaultValue: String?
        /// The engine gives the value (AUTOINCREMENT, an identity column).
        var autoID: Bool

        var description: String {
            "\(name) \(kind)\(notNull ? " NOT NULL" : "")\(defaultValue.map { " DEFAULT \($0)" } ?? "")\(autoID ? " AUTO" : "")"
        }
    }

    struct Index: Hashable, Comparable, CustomStringConvertible {
        /// Nil for the index a UNIQUE column constraint makes (its name is the engine's own).
        var name: String?
        var unique: Bool
        var columns: [String]
        /// The WHERE of a partial index, lowercased, without parentheses.
        var predicate: String?

        static func < (a: Index, b: Index) -> Bool { a.description < b.description }
        var description: String {
            "\(unique ? "UNIQUE " : "")\(name ?? "(constraint)") (\(columns.joined(separator: ", ")))"
                + (predicate.map { " WHERE \($0)" } ?? "")
        }
    }

    struct Table: Equatable, CustomStringConvertible {
        var name: String
        var columns: [Column]
        var primaryKey: [String]
        /// Sorted; the primary key's own index is not among them.
        var indexes: [Index]

        var description: String {
            "\(name)(\(columns.map(\.description).joined(separator: ", "))) PK(\(primaryKey.joined(separator: ", "))) "
                + indexes.map(\.description).joined(separator: "; ")
        }
    }

    var tables: [Table]
    var description: String { tables.map(\.description).joined(separator: "\n") }

    /// The type mapping: one name for what both engines store the same way.
    static func kind(_ declared: String) -> String {
        switch declared.split(separator: " ").first.map({ $0.lowercased() }) ?? "" {
        case "integer", "bigint": return "integer"
        case "text": return "text"
        case "blob", "bytea": return "bytes"
        default: return "unmapped: \(declared)"
        }
    }

    static func predicate(_ text: String?) -> String? {
        guard let text else { return nil }
        // PostgreSQL writes `status = 'open'::text` and `state = ANY (ARRAY['a'::text, 'b'::text])`
        // for SQLite's `status = 'open'` and `state IN ('a', 'b')`.
        let bare = text.lowercased().replacing("::text", with: "").replacing("= any (array[", with: "in ")
            .filter { $0 != "(" && $0 != ")" && $0 != "]" }
        return bare.split(separator: " ").joined(separator: " ")
    }

    /// The engine-only indexes named in the type's documentation, removed for the comparison.
    func withoutEngineOnlyIndexes() -> SchemaCatalog {
        var copy = self
        for index in copy.tables.indices {
            copy.tables[index].indexes.removeAll { $0.name == "events_unsequenced" }
        }
        return copy
    }

    // MARK: SQLite

    static func read(sqlite connection: SQLiteConnection) throws -> SchemaCatalog {
        let op = "read the catalog"
        let tables = try connection.query(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
            operation: op
        ) { (name: $0.text(0), sql: $0.text(1)) }
        return SchemaCatalog(
            tables: try tables.map { table in
                // table_xinfo, not table_info: it lists generated columns too (events.seq).
                let rows = try connection.query("PRAGMA table_xinfo(\(table.name))", operation: op) {
                    (
                        name: $0.text(1), type: $0.text(2), notNull: $0.integer(3) != 0,
                        defaultValue: $0.optionalText(4), pk: Int($0.integer(5))
                    )
                }
                let primaryKey = rows.filter { $0.pk > 0 }.sorted { $0.pk < $1.pk }.map(\.name)
                // The rowid (INTEGER PRIMARY KEY) is never NULL, whether declared so or not.
                let rowid = primaryKey.count == 1 ? rows.first { $0.pk == 1 && kind($0.type) == "integer" } : nil
                let autoIncrement = table.sql.uppercased().contains("AUTOINCREMENT")
                let columns = rows.map { row in
                    let isRowid = row.name == rowid?.name
                    return Column(
                        name: row.name, kind: kind(row.type), notNull: row.notNull || isRowid,
                        defaultValue: row.defaultValue, autoID: isRowid && autoIncrement)
                }
                let listed = try connection.query("PRAGMA index_list(\(table.name))", operation: op) {
                    (name: $0.text(1), unique: $0.integer(2) != 0, origin: $0.text(3))
                }
                var indexes: [Index] = []
                for entry in listed where entry.origin != "pk" {
                    let indexColumns = try connection.query("PRAGMA index_info(\(entry.name))", operation: op) {
                        (seq: $0.integer(0), name: $0.text(2))
                    }.sorted { $0.seq < $1.seq }.map(\.name)
                    let sql =
                        try connection.query(
                            "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", [.text(entry.name)],
                            operation: op
                        ) { $0.optionalText(0) }.first ?? nil
                    let predicate = sql.flatMap { text in
                        text.range(of: " WHERE ").map { String(text[$0.upperBound...]) }
                    }
                    indexes.append(
                        Index(
                            name: entry.origin == "u" ? nil : entry.name, unique: entry.unique, columns: indexColumns,
                            predicate: Self.predicate(predicate)))
                }
                return Table(name: table.name, columns: columns, primaryKey: primaryKey, indexes: indexes.sorted())
            })
    }

    // MARK: PostgreSQL

    static func read(postgres connection: PGConnection) throws -> SchemaCatalog {
        let op = "read the catalog"
        let tables = try connection.query(
            """
            SELECT table_name::text FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name
            """, operation: op
        ) { $0.text(0) }
        return SchemaCatalog(
            tables: try tables.map { table in
                let columns = try connection.query(
                    """
                    SELECT column_name::text, data_type::text, is_nullable::text, column_default::text, is_identity::text
                    FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position
                    """, [.text(table)], operation: op
                ) {
                    Column(
                        name: $0.text(0), kind: kind($0.text(1)), notNull: $0.text(2) == "NO",
                        defaultValue: $0.optionalText(3)?.replacingOccurrences(of: "::text", with: ""),
                        autoID: $0.text(4) == "YES")
                }
                let constraints = try connection.query(
                    """
                    SELECT c.constraint_name::text, c.constraint_type::text, k.column_name::text
                    FROM information_schema.table_constraints c
                    JOIN information_schema.key_column_usage k
                        ON k.constraint_schema = c.constraint_schema AND k.constraint_name = c.constraint_name
                    WHERE c.table_schema = current_schema() AND c.table_name = $1
                        AND c.constraint_type IN ('PRIMARY KEY', 'UNIQUE')
                    ORDER BY c.constraint_name, k.ordinal_position
                    """, [.text(table)], operation: op
                ) { (name: $0.text(0), type: $0.text(1), column: $0.text(2)) }
                let primaryKey = constraints.filter { $0.type == "PRIMARY KEY" }.map(\.column)
                let primaryName = constraints.first { $0.type == "PRIMARY KEY" }?.name
                let uniqueNames = Set(constraints.filter { $0.type == "UNIQUE" }.map(\.name))
                let listed = try connection.query(
                    """
                    SELECT indexname::text, indexdef::text FROM pg_indexes
                    WHERE schemaname = current_schema() AND tablename = $1
                    """, [.text(table)], operation: op
                ) { (name: $0.text(0), definition: $0.text(1)) }
                let indexes = try listed.filter { $0.name != primaryName }.map { entry in
                    try #require(parse(entry.definition, name: uniqueNames.contains(entry.name) ? nil : entry.name))
                }
                return Table(name: table, columns: columns, primaryKey: primaryKey, indexes: indexes.sorted())
            })
    }

    /// An index from pg_indexes' definition: `CREATE [UNIQUE] INDEX n ON s.t USING btree (a, b) [WHERE (p)]`.
    static func parse(_ definition: String, name: String?) -> Index? {
        guard let open = definition.range(of: " USING btree (") else { return nil }
        let rest = definition[open.upperBound...]
        guard let close = rest.firstIndex(of: ")") else { return nil }
        let columns = rest[..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let predicate = rest.range(of: " WHERE ").map { String(rest[$0.upperBound...]) }
        return Index(
            name: name, unique: definition.hasPrefix("CREATE UNIQUE "), columns: columns,
            predicate: Self.predicate(predicate))
    }
}

/// Reads the catalog of a store in `space`.
func catalog(of space: StoreSpace) throws -> SchemaCatalog {
    switch space.kind {
    case .sqlite:
        return try SchemaCatalog.read(sqlite: SQLiteConnection(path: space.spec, busyTimeoutMilliseconds: 5_000))
    case .postgres:
        return try SchemaCatalog.read(postgres: PGConnection(target: PGTarget(space.spec), connectTimeoutSeconds: 5))
    }
}

/// Opens a store of `space` migrated up to `version` only, as an older TraceDesk left it.
func openStore(_ space: StoreSpace, atVersion version: Int) throws -> any Store {
    switch space.kind {
    case .sqlite:
        return try SQLiteStore(
            path: space.spec, busyTimeoutMilliseconds: 5_000, pseudoIDLimit: PseudoID.capacity,
            schemaCeiling: version)
    case .postgres:
        return try PostgresStore(
            url: space.spec, poolSize: 1, connectTimeoutSeconds: 5, waitMilliseconds: 5_000,
            pseudoIDLimit: PseudoID.capacity, schemaCeiling: version)
    }
}

@Suite("Migrations: what they leave in a store")
struct MigrationCatalogTests {
    @Test("a new SQLite store has every table, and every column's type is mapped")
    func sqliteCatalog() throws {
        try withSpace(.sqlite) { space in
            _ = try space.open()
            let found = try catalog(of: space)
            #expect(found.tables.count >= 28)
            for table in found.tables {
                for column in table.columns {
                    #expect(!column.kind.hasPrefix("unmapped"), "\(table.name).\(column.name): \(column.kind)")
                }
            }
            // Spot checks that the reading itself is right.
            let events = try #require(found.tables.first { $0.name == "events" })
            #expect(events.columns.map(\.name) == ["id", "at_ms", "kind", "otp_hash", "actor", "detail", "seq"])
            #expect(events.primaryKey == ["id"])
            #expect(events.columns.first?.autoID == true)
            #expect(events.indexes.contains { $0.name == "events_by_seq" && $0.unique && $0.columns == ["seq"] })
            let users = try #require(found.tables.first { $0.name == "apricot_users" })
            #expect(users.indexes.contains { $0.name == nil && $0.unique && $0.columns == ["phone"] })
            let keys = try #require(found.tables.first { $0.name == "exposure_keys" })
            #expect(
                keys.indexes.contains {
                    $0.name == "exposure_keys_by_data" && $0.columns == ["key_data", "id"] && $0.predicate == nil
                })
            let held = try #require(found.tables.first { $0.name == "held_keys" })
            #expect(held.columns.map(\.name) == ["id"] && held.primaryKey == ["id"])
        }
    }

    @Test(
        "both engines' migrations make the same tables, columns, primary keys and indexes",
        .enabled(if: StoreKind.postgresURL != nil, "TRACEDESK_TEST_POSTGRES is not set"))
    func enginesAgree() throws {
        let sqlite = try withSpace(.sqlite) { space in
            _ = try space.open()
            return try catalog(of: space)
        }
        let postgres = try withSpace(.postgres) { space in
            _ = try space.open()
            return try catalog(of: space)
        }
        #expect(postgres.tables.contains { $0.indexes.contains { $0.name == "events_unsequenced" } })
        let compared = postgres.withoutEngineOnlyIndexes()
        #expect(sqlite.tables.map(\.name) == compared.tables.map(\.name))
        for table in sqlite.tables {
            let other = compared.tables.first { $0.name == table.name }
            #expect(other?.columns == table.columns, "\(table.name): columns")
            #expect(other?.primaryKey == table.primaryKey, "\(table.name): primary key")
            #expect(other?.indexes == table.indexes, "\(table.name): indexes")
        }
    }

    @Test(
        "a store at each older version migrates to the latest, with the schema a new store gets",
        arguments: StoreKind.testable)
    func everyVersionMigrates(_ kind: StoreKind) throws {
        let fresh = try withSpace(kind) { space in
            _ = try space.open()
            return try catalog(of: space)
        }
        for version in 1..<Migrations.latestVersion {
            try withSpace(kind) { space in
                #expect(try openStore(space, atVersion: version).schemaVersion() == version)
                let store = try space.open()
                #expect(try store.schemaVersion() == Migrations.latestVersion, "from \(version)")
                #expect(
                    try space.scalar("SELECT count(*) FROM schema_migrations") == Int64(Migrations.latestVersion),
                    "from \(version)")
                #expect(try catalog(of: space) == fresh, "from \(version)")
            }
        }
    }
}
