import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Store info on PostgreSQL.
extension PostgresStore {
    public func info() throws(StoreError) -> StoreInfo {
        try pool.withConnection { connection throws(StoreError) in
            try connection.transaction(begin: Self.snapshot, operation: "read store info") {
                () throws(StoreError) -> StoreInfo in
                var tables: [StoreInfo.Table] = []
                for name in StoreTables.all {
                    let row = try connection.query(
                        "SELECT count(*), pg_total_relation_size(to_regclass($1)) FROM \(name)", [.text(name)],
                        operation: "read store info"
                    ) { (rows: $0.integer(0), bytes: $0.integer(1)) }.first
                    tables.append(StoreInfo.Table(name: name, rows: row?.rows ?? 0, bytes: row?.bytes))
                }
                let version = try Self.currentVersion(connection)
                let server = connection.serverVersion
                let total = tables.reduce(Int64(0)) { $0 + ($1.bytes ?? 0) }
                return StoreInfo(
                    adapter: "PostgreSQL \(server / 10_000).\(server % 10_000)", location: location,
                    schemaVersion: version, knownVersion: Migrations.latestVersion, totalBytes: total, tables: tables)
            }
        }
    }

    /// Reads that must see one consistent state.
    static let snapshot = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
}
