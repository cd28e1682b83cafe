@preconcurrency import CSQLite
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Store identity, sizes and job locks for the embedded store.
extension SQLiteStore {
    public var location: String { path }

    public func info() throws(StoreError) -> StoreInfo {
        try lock.withLock { () throws(StoreError) -> StoreInfo in
            try connection.transaction(immediate: false, operation: "read store info") {
                () throws(StoreError) -> StoreInfo in
                // Bytes per table with its indexes, where SQLite has the dbstat table (Debian's does).
                let sizes = try? connection.query(
                    """
                    SELECT m.tbl_name, sum(d.pgsize) FROM dbstat d JOIN sqlite_master m ON m.name = d.name
                    GROUP BY m.tbl_name
                    """, operation: "read store info"
                ) { ($0.text(0), $0.integer(1)) }
                let bytes = sizes.map { Dictionary($0, uniquingKeysWith: +) }
                var tables: [StoreInfo.Table] = []
                for name in StoreTables.all {
                    let rows =
                        try connection.query("SELECT count(*) FROM \(name)", operation: "read store info") {
                            $0.integer(0)
                        }.first ?? 0
                    tables.append(StoreInfo.Table(name: name, rows: rows, bytes: bytes.map { $0[name] ?? 0 }))
                }
                let version = try currentVersion()
                var total: Int64 = 0
                for suffix in ["", "-wal"] {
                    if let size = try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int {
                        total += Int64(size)
                    }
                }
                return StoreInfo(
                    adapter: "SQLite \(String(cString: sqlite3_libversion()))", location: path,
                    schemaVersion: version, knownVersion: Migrations.latestVersion, totalBytes: total, tables: tables)
            }
        }
    }

    public func acquireJobLock(_ job: StoreJob) throws(StoreError) -> JobLease? {
        let taken = jobs.withLock { jobsRunning.insert(job).inserted }
        guard taken else { return nil }
        return JobLease { [self] in _ = jobs.withLock { jobsRunning.remove(job) } }
    }
}
