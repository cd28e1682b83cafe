import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Chunk publishing, chunk reads and retention, once for both engines. One publisher at a time
// and a commit that survives a power loss are the engine's part
// (``SQLEngine/publishing(_:_:)``): a published chunk may already be on phones and CDNs, so its
// index is never given again to other bytes.
extension SQLStore {
    public func publishChunk(
        now: Date, policy: PublishingPolicy, build: (ChunkDraft) throws(StoreError) -> ChunkBuild
    ) throws(StoreError) -> ChunkSummary? {
        try withConnection { db throws(StoreError) in
            try publishing(db) { () throws(StoreError) -> ChunkSummary? in
                try ChunkWork(db: db, sql: dialect.chunks).publishOne(now: now, policy: policy, build: build) {
                    at, detail throws(StoreError) in
                    try phoneWork(on: db).appendEvent(
                        kind: .chunkPublished, at: at, otpHash: nil, actor: nil, detail: detail)
                }
            }
        }
    }

    public func publishingBacklog(now: Date, policy: PublishingPolicy) throws(StoreError) -> PublishingBacklog {
        try snapshot("read backlog") { db throws(StoreError) in
            try ChunkWork(db: db, sql: dialect.chunks).backlog(now: now, policy: policy)
        }
    }

    public func chunkIndexRange(since: Date) throws(StoreError) -> ClosedRange<Int64>? {
        try read { db throws(StoreError) in
            let rows = try db.query(
                dialect.chunks.indexRange, [.integer(since.unixMilliseconds)], operation: "read chunk index",
                StoreReads<DB>.indexRange)
            return rows.first ?? nil
        }
    }

    public func chunkZip(index: Int64, since: Date) throws(StoreError) -> (zip: [UInt8], publishedAt: Date)? {
        try read { db throws(StoreError) in
            try db.query(
                dialect.chunks.selectZip, [.integer(index), .integer(since.unixMilliseconds)],
                operation: "read chunk"
            ) { ($0.blob(0), Date(unixMilliseconds: $0.integer(1))) }.first
        }
    }

    public func chunks() throws(StoreError) -> [ChunkSummary] {
        try read { db throws(StoreError) in
            try db.query(dialect.chunks.selectSummaries, operation: "list chunks", ChunkWork<DB>.summary)
        }
    }

    public func chunk(index: Int64) throws(StoreError) -> (summary: ChunkSummary, zip: [UInt8])? {
        try read { db throws(StoreError) in
            try db.query(dialect.chunks.selectChunk, [.integer(index)], operation: "read chunk") { row in
                (ChunkWork<DB>.summary(row), row.blob(11))
            }.first
        }
    }

    public func lastChunkIndex() throws(StoreError) -> Int64 {
        try read { db throws(StoreError) in
            try db.query(dialect.chunks.selectState, operation: "read chunk index") { $0.integer(0) }.first ?? 0
        }
    }

    public func cleanup(now: Date, policy: RetentionPolicy) throws(StoreError) -> CleanupReport {
        try inTransaction(.write, "clean up") { db throws(StoreError) in
            var report = try ChunkWork(db: db, sql: dialect.chunks).cleanup(now: now, policy: policy)
            try apricotWork(on: db).cleanup(now: now, policy: policy, into: &report)
            report.closedCases = try followUpWork(on: db).deleteClosedCases(
                closedBefore: now.addingTimeInterval(-Double(policy.closedCaseDays) * 86_400))
            // Under the rollups' lock: a rollup that read the state before this trims it
            // would otherwise write back the old start of the rolled range.
            try lockRollups(db, operation: "clean up")
            report.other += try statsWork(on: db).cleanup(now: now)
            return report
        }
    }
}

/// The SQL of chunk publishing and retention.
enum ChunkSQL {
    static let readyCondition = "chunk_index IS NULL AND expires_at_s <= ? AND expires_at_s > ?"
    /// Ready keys up to a batch's last one in (expiry, id) order; the plain bound on
    /// `expires_at_s` lets SQLite end the index range there.
    static let batchCondition = "\(readyCondition) AND expires_at_s <= ? AND (expires_at_s, id) <= (?, ?)"
    static let countReady = "SELECT count(*) FROM exposure_keys WHERE \(readyCondition)"
    /// Keys closest to their age limit first; the index on `expires_at_s` gives this order.
    static let selectReady = """
        SELECT id, upload_id, key_data, rolling_start_number, rolling_period, transmission_risk_level, report_type,
            days_since_onset, expires_at_s
        FROM exposure_keys WHERE \(readyCondition) ORDER BY expires_at_s, id LIMIT ?
        """
    static let embargoed =
        "SELECT count(*), min(expires_at_s) FROM exposure_keys WHERE chunk_index IS NULL AND expires_at_s > ?"
    static let tooOld = "SELECT count(*) FROM exposure_keys WHERE chunk_index IS NULL AND expires_at_s <= ?"
    static let alreadyPublished = """
        SELECT k.id, (SELECT min(p.chunk_index) FROM exposure_keys p
            WHERE p.key_data = k.key_data AND p.chunk_index IS NOT NULL) AS earlier
        FROM exposure_keys k
        WHERE k.chunk_index IS NULL AND k.expires_at_s <= ? AND k.expires_at_s > ? AND k.expires_at_s <= ?
            AND (k.expires_at_s, k.id) <= (?, ?) AND earlier IS NOT NULL
        """
    static let markOne = "UPDATE exposure_keys SET chunk_index = ? WHERE id = ?"
    static let earliestArrival = """
        SELECT min(u.received_at_ms) FROM exposure_keys k JOIN uploads u ON u.id = k.upload_id
        WHERE k.chunk_index IS NULL AND k.expires_at_s <= ? AND k.expires_at_s > ? AND k.expires_at_s <= ?
            AND (k.expires_at_s, k.id) <= (?, ?)
        """
    static let markPublished = "UPDATE exposure_keys SET chunk_index = ? WHERE \(batchCondition)"
    static let selectState = "SELECT last_chunk_index, last_window_end_s FROM publishing_state WHERE id = 1"
    static let highestIndex = "SELECT coalesce(max(chunk_index), 0), coalesce(max(published_at_ms), 0) FROM chunks"
    static let saveState = """
        INSERT INTO publishing_state (id, last_chunk_index, last_window_end_s) VALUES (1, ?, ?)
        ON CONFLICT (id) DO UPDATE SET last_chunk_index = excluded.last_chunk_index,
            last_window_end_s = excluded.last_window_end_s
        """
    static let insertChunk = """
        INSERT INTO chunks (chunk_index, published_at_ms, window_start_s, window_end_s, key_count, padding_count,
            region, key_id, key_version, export_bin_sha256, zip)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let insertPadding = """
        INSERT INTO padding_keys (chunk_index, key_data, rolling_start_number, rolling_period,
            transmission_risk_level, report_type, days_since_onset)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """
    static let indexRange = "SELECT min(chunk_index), max(chunk_index) FROM chunks WHERE published_at_ms >= ?"
    static let selectZip = "SELECT zip, published_at_ms FROM chunks WHERE chunk_index = ? AND published_at_ms >= ?"
    static let summaryColumns = """
        chunk_index, published_at_ms, window_start_s, window_end_s, key_count, padding_count, length(zip),
        export_bin_sha256, region, key_id, key_version
        """
    static let selectSummaries = "SELECT \(summaryColumns) FROM chunks ORDER BY chunk_index"
    static let selectChunk = "SELECT \(summaryColumns), zip FROM chunks WHERE chunk_index = ?"

    static let deleteOldKeys =
        "DELETE FROM exposure_keys WHERE upload_id IN (SELECT id FROM uploads WHERE received_at_ms < ?)"
    static let deleteOldUploads = "DELETE FROM uploads WHERE received_at_ms < ?"
    static let deleteOldPadding =
        "DELETE FROM padding_keys WHERE chunk_index IN (SELECT chunk_index FROM chunks WHERE published_at_ms < ?)"
    static let deleteOldChunks = "DELETE FROM chunks WHERE published_at_ms < ?"
    static let deleteOldAuthorizations = "DELETE FROM otp_authorizations WHERE expires_at_ms < ?"
    static let deleteOldEvents = "DELETE FROM events WHERE at_ms < ? AND kind <> 'analytics_received'"
    static let deleteOldAnalyticsEvents = "DELETE FROM events WHERE at_ms < ? AND kind = 'analytics_received'"
    static let deleteOldOperationalInfo = "DELETE FROM operational_info WHERE received_at_ms < ?"
    static let deleteOldDummyCounts = "DELETE FROM dummy_traffic WHERE hour_ms < ?"
    static let deleteUsedUpAllowances = "DELETE FROM analytics_allowances WHERE expires_at_ms <= ?"
}
