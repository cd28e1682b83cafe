import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Chunk publishing, chunk reads, retention and store info on PostgreSQL.
extension PostgresStore {
    public func publishChunk(
        now: Date, policy: PublishingPolicy, build: (ChunkDraft) throws(StoreError) -> ChunkBuild
    ) throws(StoreError) -> ChunkSummary? {
        try pool.withConnection { connection throws(StoreError) in
            try connection.transaction(operation: "publish chunk") { () throws(StoreError) -> ChunkSummary? in
                // One publisher at a time across every server: the next one waits here, then
                // reads the index this one saved. The commit is synchronous whatever the
                // server's default: a published chunk may already be on phones.
                try connection.execute(
                    "SET LOCAL synchronous_commit = on; SELECT pg_advisory_xact_lock(\(PGSQL.lockClass), \(PGSQL.publishLock))",
                    operation: "publish chunk")
                return try ChunkWork(db: connection, sql: .postgres).publishOne(now: now, policy: policy, build: build)
                {
                    at, detail throws(StoreError) in
                    try appendEvent(connection, kind: .chunkPublished, at: at, otpHash: nil, actor: nil, detail: detail)
                }
            }
        }
    }

    public func publishingBacklog(now: Date, policy: PublishingPolicy) throws(StoreError) -> PublishingBacklog {
        try pool.withConnection { connection throws(StoreError) in
            try connection.transaction(begin: Self.snapshot, operation: "read backlog") {
                () throws(StoreError) -> PublishingBacklog in
                try ChunkWork(db: connection, sql: .postgres).backlog(now: now, policy: policy)
            }
        }
    }

    public func chunkIndexRange(since: Date) throws(StoreError) -> ClosedRange<Int64>? {
        try pool.withConnection { connection throws(StoreError) in
            let rows = try connection.query(
                PGSQL.indexRange, [.integer(since.unixMilliseconds)], operation: "read chunk index",
                StoreReads<PGConnection>.indexRange)
            return rows.first ?? nil
        }
    }

    public func chunkZip(index: Int64, since: Date) throws(StoreError) -> (zip: [UInt8], publishedAt: Date)? {
        try pool.withConnection { connection throws(StoreError) in
            try connection.query(
                PGSQL.selectZip, [.integer(index), .integer(since.unixMilliseconds)], operation: "read chunk"
            ) { ($0.blob(0), Date(unixMilliseconds: $0.integer(1))) }.first
        }
    }

    public func chunks() throws(StoreError) -> [ChunkSummary] {
        try pool.withConnection { connection throws(StoreError) in
            try connection.query(
                PGSQL.selectSummaries, [], operation: "list chunks", ChunkWork<PGConnection>.summary)
        }
    }

    public func chunk(index: Int64) throws(StoreError) -> (summary: ChunkSummary, zip: [UInt8])? {
        try pool.withConnection { connection throws(StoreError) in
            try connection.query(PGSQL.selectChunk, [.integer(index)], operation: "read chunk") { row in
                (ChunkWork<PGConnection>.summary(row), row.blob(11))
            }.first
        }
    }

    public func lastChunkIndex() throws(StoreError) -> Int64 {
        try pool.withConnection { connection throws(StoreError) in
            try connection.query(PGSQL.selectState, operation: "read chunk index") { $0.integer(0) }.first ?? 0
        }
    }

    public func cleanup(now: Date, policy: RetentionPolicy) throws(StoreError) -> CleanupReport {
        try pool.withConnection { connection throws(StoreError) in
            try connection.transaction(operation: "clean up") { () throws(StoreError) -> CleanupReport in
                var report = try ChunkWork(db: connection, sql: .postgres).cleanup(now: now, policy: policy)
                try apricotWork(connection).cleanup(now: now, policy: policy, into: &report)
                // Under the rollups' lock: a rollup that read the state before this trims it
                // would otherwise write back the old start of the rolled range.
                try connection.execute(
                    "SELECT pg_advisory_xact_lock(\(PGSQL.lockClass), \(PGSQL.statsLock))", operation: "clean up")
                report.other += try Self.statsWork(connection).cleanup(now: now)
                return report
            }
        }
    }

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
