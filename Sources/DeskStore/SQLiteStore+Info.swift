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

    /// The store's files (the file, its `-wal` and `-shm`, its folder) that users other than
    /// the owner may read or enter, with their modes: `serve` warns about each, since whoever
    /// reads the store reads phone numbers, the contact graph and outcome notes.
    public func filesOthersCanRead() -> [(path: String, mode: Int)] {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var found: [(path: String, mode: Int)] = []
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            guard stat(file, &info) == 0 else { continue }
            let mode = Int(info.st_mode) & 0o777
            if mode & 0o044 != 0 { found.append((file, mode)) }
        }
        var info = stat()
        if !folder.isEmpty, stat(folder, &info) == 0, Int(info.st_mode) & 0o055 != 0 {
            // A folder others may enter lets them read any file there that is readable.
            if !found.isEmpty { found.append((folder, Int(info.st_mode) & 0o777)) }
        }
        return found
    }

    public func acquireJobLock(_ job: StoreJob) throws(StoreError) -> JobLease? {
        let taken = jobs.withLock { jobsRunning.insert(job).inserted }
        guard taken else { return nil }
        return JobLease { [self] in _ = jobs.withLock { jobsRunning.remove(job) } }
    }
}
