import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Chunk publishing, chunk reads and retention for the embedded store.
extension SQLiteStore {
    public func publishChunk(
        now: Date, policy: PublishingPolicy, build: (ChunkDraft) throws(StoreError) -> ChunkBuild
    ) throws(StoreError) -> ChunkSummary? {
        let nowS = now.unixMilliseconds / 1000
        let bounds: [SQLValue] = Self.eligibility(nowS: nowS, policy: policy)
        return try lock.withLock { () throws(StoreError) -> ChunkSummary? in
            // A published chunk may already be on phones and CDNs: its commit must survive a
            // power loss, so that its index is never given again to other bytes.
            try connection.execute("PRAGMA synchronous = FULL", operation: "publish chunk")
            defer { _ = try? connection.execute("PRAGMA synchronous = NORMAL", operation: "publish chunk") }
            return try connection.transaction(operation: "publish chunk") { () throws(StoreError) -> ChunkSummary? in
                try publishOneChunk(now: now, policy: policy, bounds: bounds, build: build)
            }
        }
    }

    /// The body of ``publishChunk``, inside its transaction.
    private func publishOneChunk(
        now: Date, policy: PublishingPolicy, bounds: [SQLValue], build: (ChunkDraft) throws(StoreError) -> ChunkBuild
    ) throws(StoreError) -> ChunkSummary? {
        let op = "publish chunk"
        let nowS = now.unixMilliseconds / 1000
        let perChunk = policy.realKeysPerChunk
        while true {
            let ready = try connection.query(ChunkSQL.countReady, bounds, operation: op) { $0.integer(0) }.first ?? 0
            guard ready > 0 else { return nil }
            var rows: [(id: Int64, upload: Int64, expires: Int64, key: PublishableKey)] = []
            rows.reserveCapacity(min(Int(ready), perChunk))
            _ = try connection.query(ChunkSQL.selectReady, bounds + [.integer(Int64(perChunk))], operation: op) { row in
                rows.append(
                    (
                        row.integer(0), row.integer(1), row.integer(8),
                        PublishableKey(
                            keyData: row.blob(2), rollingStartNumber: row.integer(3), rollingPeriod: row.integer(4),
                            transmissionRiskLevel: Int(row.integer(5)),
                            reportType: ReportType(rawValue: Int(row.integer(6))) ?? .unknown,
                            daysSinceOnsetOfSymptoms: Int(row.integer(7)))
                    ))
            }
            guard let last = rows.last else { return nil }
            // The batch: ready keys up to the last one taken, in (expiry, id) order.
            let upTo: [SQLValue] = [.integer(last.expires), .integer(last.expires), .integer(last.id)]
            // A key uploaded again (a citizen who uploaded twice with two codes) is published
            // once: a copy of a key already in a chunk is marked with that chunk, and a second
            // copy within this batch goes out with the first.
            let earlier = try connection.query(
                ChunkSQL.alreadyPublished, bounds + upTo, operation: op
            ) { (id: $0.integer(0), chunk: $0.integer(1)) }
            for copy in earlier {
                try connection.run(ChunkSQL.markOne, [.integer(copy.chunk), .integer(copy.id)], operation: op)
            }
            let earlierIDs = Set(earlier.map(\.id))
            var seen = Set<[UInt8]>()
            let fresh = rows.filter { !earlierIDs.contains($0.id) }
            let keys = fresh.filter { seen.insert($0.key.keyData).inserted }.map(\.key)
            // Nothing new in this batch: its copies are marked; take the next batch.
            if keys.isEmpty { continue }
            let uploadIDs = fresh.map(\.upload).uniqued().sorted()

            let state = try connection.query(ChunkSQL.selectState, operation: op) {
                (index: $0.integer(0), end: $0.integer(1))
            }.first
            let (highest, lastPublishedMs) =
                try connection.query(ChunkSQL.highestIndex, operation: op) { ($0.integer(0), $0.integer(1)) }.first
                ?? (0, 0)
            let index = max(state?.index ?? 0, highest) + 1
            // Another process may have published after this run read its clock: keep the
            // publication times in index order.
            let publishedMs = max(now.unixMilliseconds, lastPublishedMs)
            let start: Int64
            if let state {
                start = state.end
            } else {
                // The first chunk covers server arrival from its earliest upload.
                let earliest =
                    try connection.query(ChunkSQL.earliestArrival, bounds + upTo, operation: op) {
                        $0.integer(0)
                    }.first ?? publishedMs
                start = min(earliest / 1000, nowS - 1)
            }
            // Windows are contiguous and strictly increasing; the chunks of one run share the
            // time since the last one evenly, but a window never ends before a key it carries
            // started (a chunk's keys all started before its end).
            let chunksLeft = (ready - Int64(earlier.count) + Int64(perChunk) - 1) / Int64(perChunk)
            let span = max(nowS - start, max(1, chunksLeft))
            let latestKeyStart = keys.map { $0.rollingStartNumber * 600 }.max() ?? start
            let end = max(start + span / max(1, chunksLeft), latestKeyStart + 1)
            let draft = ChunkDraft(
                index: index, windowStart: start, windowEnd: end, keys: keys, uploadIDs: uploadIDs)
            let built = try build(draft)
            try connection.run(
                ChunkSQL.insertChunk,
                [
                    .integer(index), .integer(publishedMs), .integer(start), .integer(end), .integer(Int64(keys.count)),
                    .integer(Int64(built.paddingKeys.count)), .text(built.region), .text(built.keyID),
                    .text(built.keyVersion), .text(built.exportBinSHA256), .blob(built.zip),
                ], operation: op)
            for key in built.paddingKeys {
                try connection.run(
                    ChunkSQL.insertPadding,
                    [
                        .integer(index), .blob(key.keyData), .integer(key.rollingStartNumber),
                        .integer(key.rollingPeriod),
                        .integer(Int64(key.transmissionRiskLevel)), .integer(Int64(key.reportType.rawValue)),
                        .integer(Int64(key.daysSinceOnsetOfSymptoms)),
                    ], operation: op)
            }
            let marked = try connection.run(
                ChunkSQL.markPublished, [.integer(index)] + bounds + upTo, operation: op)
            guard marked == fresh.count else {
                throw StoreError.failed(operation: op, reason: "marked \(marked) keys, expected \(fresh.count)")
            }
            try connection.run(ChunkSQL.saveState, [.integer(index), .integer(end)], operation: op)
            let uploads = draft.uploadIDs.map(String.init).joined(separator: ",")
            let copies = rows.count - keys.count
            try appendEvent(
                kind: .chunkPublished, at: publishedMs, otpHash: nil, actor: nil,
                detail:
                    #"{"chunk":\#(index),"keys":\#(keys.count),"padding":\#(built.paddingKeys.count),"copies_skipped":\#(copies),"window_start_s":\#(start),"window_end_s":\#(end),"upload_ids":[\#(uploads)]}"#
            )
            return ChunkSummary(
                index: index, publishedAt: Date(unixMilliseconds: publishedMs), windowStart: start, windowEnd: end,
                keyCount: keys.count, paddingCount: built.paddingKeys.count, zipBytes: built.zip.count,
                exportBinSHA256: built.exportBinSHA256, region: built.region, keyID: built.keyID,
                keyVersion: built.keyVersion)
        }
    }

    public func publishingBacklog(now: Date, policy: PublishingPolicy) throws(StoreError) -> PublishingBacklog {
        let nowS = now.unixMilliseconds / 1000
        let bounds = Self.eligibility(nowS: nowS, policy: policy)
        return try lock.withLock { () throws(StoreError) -> PublishingBacklog in
            try connection.transaction(immediate: false, operation: "read backlog") {
                () throws(StoreError) -> PublishingBacklog in
                let ready =
                    try connection.query(ChunkSQL.countReady, bounds, operation: "read backlog") {
                        $0.integer(0)
                    }.first ?? 0
                let waiting = try connection.query(
                    ChunkSQL.embargoed, [bounds[0]], operation: "read backlog"
                ) { (count: $0.integer(0), earliest: $0.optionalInteger(1)) }.first
                let tooOld =
                    try connection.query(ChunkSQL.tooOld, [bounds[1]], operation: "read backlog") {
                        $0.integer(0)
                    }.first ?? 0
                return PublishingBacklog(
                    ready: Int(ready), embargoed: Int(waiting?.count ?? 0),
                    nextReleaseAt: waiting?.earliest.map { $0 + policy.embargoSeconds }, tooOld: Int(tooOld))
            }
        }
    }

    public func chunkIndexRange(since: Date) throws(StoreError) -> ClosedRange<Int64>? {
        try lock.withLock { () throws(StoreError) -> ClosedRange<Int64>? in
            let rows = try connection.query(
                ChunkSQL.indexRange, [.integer(since.unixMilliseconds)], operation: "read chunk index"
            ) { row -> ClosedRange<Int64>? in
                guard let low = row.optionalInteger(0), let high = row.optionalInteger(1), low <= high else {
                    return nil
                }
                return low...high
            }
            return rows.first ?? nil
        }
    }

    public func chunkZip(index: Int64, since: Date) throws(StoreError) -> (zip: [UInt8], publishedAt: Date)? {
        try lock.withLock { () throws(StoreError) -> (zip: [UInt8], publishedAt: Date)? in
            try connection.query(
                ChunkSQL.selectZip, [.integer(index), .integer(since.unixMilliseconds)], operation: "read chunk"
            ) { ($0.blob(0), Date(unixMilliseconds: $0.integer(1))) }.first
        }
    }

    public func chunks() throws(StoreError) -> [ChunkSummary] {
        try lock.withLock { () throws(StoreError) -> [ChunkSummary] in
            try connection.query(ChunkSQL.selectSummaries, operation: "list chunks", Self.summary)
        }
    }

    public func chunk(index: Int64) throws(StoreError) -> (summary: ChunkSummary, zip: [UInt8])? {
        try lock.withLock { () throws(StoreError) -> (summary: ChunkSummary, zip: [UInt8])? in
            try connection.query(ChunkSQL.selectChunk, [.integer(index)], operation: "read chunk") { row in
                (Self.summary(row), row.blob(11))
            }.first
        }
    }

    public func lastChunkIndex() throws(StoreError) -> Int64 {
        try lock.withLock { () throws(StoreError) -> Int64 in
            try connection.query(ChunkSQL.selectState, operation: "read chunk index") { $0.integer(0) }.first ?? 0
        }
    }

    public func cleanup(now: Date, policy: RetentionPolicy) throws(StoreError) -> CleanupReport {
        let nowMs = now.unixMilliseconds
        let cutoff: SQLValue = .integer(nowMs - Int64(policy.days) * 86_400_000)
        let analyticsCutoff: SQLValue = .integer(nowMs - Int64(policy.analyticsDays) * 86_400_000)
        return try lock.withLock { () throws(StoreError) -> CleanupReport in
            try connection.transaction(operation: "clean up") { () throws(StoreError) -> CleanupReport in
                var report = CleanupReport()
                let op = "clean up"
                report.keys = try connection.run(ChunkSQL.deleteOldKeys, [cutoff], operation: op)
                report.uploads = try connection.run(ChunkSQL.deleteOldUploads, [cutoff], operation: op)
                report.other += try connection.run(ChunkSQL.deleteOldPadding, [cutoff], operation: op)
                report.chunks = try connection.run(ChunkSQL.deleteOldChunks, [cutoff], operation: op)
                report.authorizations = try connection.run(ChunkSQL.deleteOldAuthorizations, [cutoff], operation: op)
                report.events = try connection.run(ChunkSQL.deleteOldEvents, [cutoff], operation: op)
                report.events += try connection.run(ChunkSQL.deleteOldAnalyticsEvents, [analyticsCutoff], operation: op)
                report.operationalInfo = try connection.run(
                    ChunkSQL.deleteOldOperationalInfo, [analyticsCutoff], operation: op)
                report.other += try connection.run(ChunkSQL.deleteOldDummyCounts, [analyticsCutoff], operation: op)
                report.other += try connection.run(ChunkSQL.deleteUsedUpAllowances, [.integer(nowMs)], operation: op)
                report.other += try connection.run(SQL.dropExpiredSalts, [.integer(nowMs)], operation: op)
                return report
            }
        }
    }

    /// `[release bound, age bound]`: a key is ready when it expired at least the embargo ago and
    /// not longer ago than the publishing age limit.
    static func eligibility(nowS: Int64, policy: PublishingPolicy) -> [SQLValue] {
        [.integer(nowS - policy.embargoSeconds), .integer(nowS - Int64(policy.publishableAgeDays) * 86_400)]
    }

    static func summary(_ row: SQLRow) -> ChunkSummary {
        ChunkSummary(
            index: row.integer(0), publishedAt: Date(unixMilliseconds: row.integer(1)), windowStart: row.integer(2),
            windowEnd: row.integer(3), keyCount: Int(row.integer(4)), paddingCount: Int(row.integer(5)),
            zipBytes: Int(row.integer(6)), exportBinSHA256: row.text(7), region: row.text(8), keyID: row.text(9),
            keyVersion: row.text(10))
    }
}

extension Array where Element: Hashable {
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
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
