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
            try publishing(db) { committedKeys throws(StoreError) -> ChunkSummary? in
                try ChunkWork(db: db, sql: dialect.chunks).publishOne(
                    now: now, policy: policy, committedKeys: committedKeys, build: build
                ) {
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

/// The SQL of chunk publishing and retention. The publisher sweeps the keys in id order
/// (migration 13, Migrations+KeySweep.swift): a key is unpublished while the sweep has not passed
/// it (its id above `key_sweep.swept_to_id`, no `chunk_index`) or while it is held (`held_keys`).
/// Lists of ids are bound as one text value: `IN_LIST` stands for the dialect's way of reading it
/// (``SQLDialect/inList``).
enum ChunkSQL {
    static let keyColumns = """
        k.id, k.upload_id, k.key_data, k.rolling_start_number, k.rolling_period, k.transmission_risk_level,
        k.report_type, k.days_since_onset, k.expires_at_s
        """
    static let selectSwept = "SELECT swept_to_id FROM key_sweep WHERE id = 1"
    static let saveSwept = "UPDATE key_sweep SET swept_to_id = ? WHERE id = 1"
    /// Inside the publishing transaction (SQLite's, exclusive) or after the lock that waits for
    /// the uploads in flight (PostgreSQL's): every key up to this id has committed.
    static let highestKey = "SELECT coalesce(max(id), 0) FROM exposure_keys"
    /// Ready keys (`[release bound, age bound]`): those held, and those above the sweep up to a
    /// bound; the primary key bounds the second count to the keys not swept yet.
    static let countReady = """
        SELECT (SELECT count(*) FROM held_keys h JOIN exposure_keys k ON k.id = h.id
                WHERE k.expires_at_s <= ? AND k.expires_at_s > ?)
            + (SELECT count(*) FROM exposure_keys WHERE id > ? AND id <= ? AND chunk_index IS NULL
                AND expires_at_s <= ? AND expires_at_s > ?)
        """
    /// Held keys that are ready, closest to their age limit first.
    static let selectHeldReady = """
        SELECT \(keyColumns) FROM held_keys h JOIN exposure_keys k ON k.id = h.id
        WHERE k.expires_at_s <= ? AND k.expires_at_s > ? ORDER BY k.expires_at_s, k.id LIMIT ?
        """
    /// The next keys the sweep passes, ready or not.
    static let selectUnswept = """
        SELECT \(keyColumns) FROM exposure_keys k WHERE k.id > ? AND k.id <= ? AND k.chunk_index IS NULL
        ORDER BY k.id LIMIT ?
        """
    static let embargoed = """
        SELECT count(*), min(expires_at_s) FROM (
            SELECT k.expires_at_s FROM held_keys h JOIN exposure_keys k ON k.id = h.id WHERE k.expires_at_s > ?
            UNION ALL
            SELECT expires_at_s FROM exposure_keys WHERE id > ? AND chunk_index IS NULL AND expires_at_s > ?) w
        """
    static let tooOld = """
        SELECT (SELECT count(*) FROM held_keys h JOIN exposure_keys k ON k.id = h.id WHERE k.expires_at_s <= ?)
            + (SELECT count(*) FROM exposure_keys WHERE id > ? AND chunk_index IS NULL AND expires_at_s <= ?)
        """
    /// The sweep's watermark as a subquery, for reads outside publishing.
    static let sweptTo = "(SELECT swept_to_id FROM key_sweep WHERE id = 1)"
    /// Whether key `p` is published (`sweptTo`: the sweep's watermark, a `?` unless given):
    /// marked, or passed by the sweep and not held.
    static func isPublished(_ p: String, sweptTo: String = "?") -> String {
        """
        (\(p).chunk_index IS NOT NULL
            OR (\(p).id <= \(sweptTo) AND NOT EXISTS (SELECT 1 FROM held_keys h WHERE h.id = \(p).id)))
        """
    }
    /// The chunk a published key `p` is in: its mark, or the chunk whose range holds its id (NULL
    /// once retention deleted that chunk).
    static func chunkOf(_ p: String) -> String {
        """
        coalesce(\(p).chunk_index, (SELECT c.chunk_index FROM chunks c
            WHERE c.last_key_id >= \(p).id AND c.first_key_id <= \(p).id))
        """
    }
    /// For each key data among the listed keys, the chunk of its first published copy (NULL:
    /// none). Parameters: the sweep's watermark, twice, then the list. Every key the store marks
    /// or sweeps is at or below the watermark, so the lookup walks `exposure_keys_by_data` in id
    /// order up to it and stops at the first published copy: a key data uploaded thousands of
    /// times costs one lookup per chunk, not one per copy.
    static let alreadyPublished = """
        SELECT d.key_data, (SELECT \(chunkOf("p")) FROM exposure_keys p
            WHERE p.key_data = d.key_data AND p.id <= ? AND \(isPublished("p")) ORDER BY p.id LIMIT 1)
        FROM (SELECT DISTINCT k.key_data FROM exposure_keys k WHERE k.id IN_LIST) d
        """
    static let markOne = "UPDATE exposure_keys SET chunk_index = ? WHERE id = ?"
    static let markHeld = "UPDATE exposure_keys SET chunk_index = ? WHERE id IN_LIST AND chunk_index IS NULL"
    static let releaseHeld = "DELETE FROM held_keys WHERE id IN_LIST"
    static let holdKeys = "INSERT INTO held_keys (id) SELECT id FROM exposure_keys WHERE id IN_LIST"
    static let earliestArrival = """
        SELECT min(u.received_at_ms) FROM exposure_keys k JOIN uploads u ON u.id = k.upload_id WHERE k.id IN_LIST
        """
    static let selectState = "SELECT last_chunk_index, last_window_end_s FROM publishing_state WHERE id = 1"
    static let highestIndex = "SELECT coalesce(max(chunk_index), 0), coalesce(max(published_at_ms), 0) FROM chunks"
    static let saveState = """
        INSERT INTO publishing_state (id, last_chunk_index, last_window_end_s) VALUES (1, ?, ?)
        ON CONFLICT (id) DO UPDATE SET last_chunk_index = excluded.last_chunk_index,
            last_window_end_s = excluded.last_window_end_s
        """
    static let insertChunk = """
        INSERT INTO chunks (chunk_index, published_at_ms, window_start_s, window_end_s, key_count, padding_count,
            region, key_id, key_version, export_bin_sha256, zip, first_key_id, last_key_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
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
