import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A result row, whichever database it came from.
protocol SQLRowReading {
    func integer(_ column: Int32) -> Int64
    func optionalInteger(_ column: Int32) -> Int64?
    func text(_ column: Int32) -> String
    func optionalText(_ column: Int32) -> String?
    func blob(_ column: Int32) -> [UInt8]
}

/// One connection, whichever database: bound parameters in, mapped rows out.
protocol SQLRunning {
    associatedtype Row: SQLRowReading
    @discardableResult
    func run(_ sql: String, _ parameters: [SQLValue], operation: String) throws(StoreError) -> Int
    func query<T>(
        _ sql: String, _ parameters: [SQLValue], operation: String, _ map: (Row) -> T
    ) throws(StoreError) -> [T]
}

extension SQLRunning {
    func query<T>(_ sql: String, operation: String, _ map: (Row) -> T) throws(StoreError) -> [T] {
        try query(sql, [], operation: operation, map)
    }
}

extension SQLRow: SQLRowReading {}
extension PGRow: SQLRowReading {}
extension SQLiteConnection: SQLRunning {}
extension PGConnection: SQLRunning {}

/// The statements of chunk publishing and retention, in one adapter's dialect.
struct ChunkStatements: Sendable {
    var countReady, selectHeldReady, selectUnswept, alreadyPublished, markOne, markHeld, releaseHeld: String
    var holdKeys, selectSwept, saveSwept, selectState, highestIndex, earliestArrival: String
    var insertChunk, insertPadding, saveState, embargoed, tooOld: String
    var deleteOldKeys, deleteOldUploads, deleteOldPadding, deleteOldChunks, deleteOldAuthorizations: String
    var deleteOldEvents, deleteOldAnalyticsEvents, deleteOldOperationalInfo, deleteOldDummyCounts: String
    var deleteUsedUpAllowances, dropExpiredSalts: String
    var indexRange, selectZip, selectSummaries, selectChunk: String
    let dialect: SQLDialect

    static let sqlite = ChunkStatements(.sqlite)
    static let postgres = ChunkStatements(.postgres)

    private init(_ dialect: SQLDialect) {
        self.dialect = dialect
        let text = dialect.text
        let list = dialect.listing
        countReady = text(ChunkSQL.countReady)
        selectHeldReady = text(ChunkSQL.selectHeldReady)
        selectUnswept = text(ChunkSQL.selectUnswept)
        alreadyPublished = list(ChunkSQL.alreadyPublished)
        markOne = text(ChunkSQL.markOne)
        markHeld = list(ChunkSQL.markHeld)
        releaseHeld = list(ChunkSQL.releaseHeld)
        holdKeys = list(ChunkSQL.holdKeys)
        selectSwept = ChunkSQL.selectSwept
        saveSwept = text(ChunkSQL.saveSwept)
        selectState = text(ChunkSQL.selectState)
        highestIndex = text(ChunkSQL.highestIndex)
        earliestArrival = list(ChunkSQL.earliestArrival)
        insertChunk = text(ChunkSQL.insertChunk)
        insertPadding = text(ChunkSQL.insertPadding)
        saveState = text(ChunkSQL.saveState)
        embargoed = text(ChunkSQL.embargoed)
        tooOld = text(ChunkSQL.tooOld)
        deleteOldKeys = text(ChunkSQL.deleteOldKeys)
        deleteOldUploads = text(ChunkSQL.deleteOldUploads)
        deleteOldPadding = text(ChunkSQL.deleteOldPadding)
        deleteOldChunks = text(ChunkSQL.deleteOldChunks)
        deleteOldAuthorizations = text(ChunkSQL.deleteOldAuthorizations)
        deleteOldEvents = text(ChunkSQL.deleteOldEvents)
        deleteOldAnalyticsEvents = text(ChunkSQL.deleteOldAnalyticsEvents)
        deleteOldOperationalInfo = text(ChunkSQL.deleteOldOperationalInfo)
        deleteOldDummyCounts = text(ChunkSQL.deleteOldDummyCounts)
        deleteUsedUpAllowances = text(ChunkSQL.deleteUsedUpAllowances)
        dropExpiredSalts = text(SQL.dropExpiredSalts)
        indexRange = text(ChunkSQL.indexRange)
        selectZip = text(ChunkSQL.selectZip)
        selectSummaries = text(ChunkSQL.selectSummaries)
        selectChunk = text(ChunkSQL.selectChunk)
    }
}

/// Chunk publishing, the backlog and retention: one implementation for every adapter, run
/// inside the transaction the adapter opened.
struct ChunkWork<DB: SQLRunning> {
    let db: DB
    let sql: ChunkStatements

    /// A key as publishing reads it.
    typealias KeyRow = (id: Int64, upload: Int64, expires: Int64, key: PublishableKey)

    /// The body of ``Store/publishChunk(now:policy:build:)``, inside its transaction.
    /// `committedKeys`: every key up to this id has committed (or never will), so the sweep may
    /// pass them.
    ///
    /// A chunk takes the held keys that are ready first, then sweeps on in id order until it is
    /// full; of the keys it passes, those not ready are held. Only the held keys it takes, the
    /// keys it holds and the copies of keys already published are written one by one: the keys
    /// swept into the chunk are in it by the range its row records (Migrations+KeySweep.swift).
    func publishOne(
        now: Date, policy: PublishingPolicy, committedKeys: Int64,
        build: (ChunkDraft) throws(StoreError) -> ChunkBuild,
        appendEvent: (_ at: Int64, _ detail: String) throws(StoreError) -> Void
    ) throws(StoreError) -> ChunkSummary? {
        let bounds = ChunkWork.eligibility(nowS: now.unixMilliseconds / 1000, policy: policy)
        let op = "publish chunk"
        let nowS = now.unixMilliseconds / 1000
        let perChunk = policy.realKeysPerChunk
        let (release, age) = ChunkWork.eligibleExpiry(nowS: nowS, policy: policy)
        var swept = try db.query(sql.selectSwept, operation: op) { $0.integer(0) }.first ?? 0
        let bound = max(swept, committedKeys)
        while true {
            let ready =
                try db.query(
                    sql.countReady, bounds + [.integer(swept), .integer(bound)] + bounds, operation: op
                ) { $0.integer(0) }.first ?? 0
            guard ready > 0 else { return nil }
            var rows: [KeyRow] = []
            rows.reserveCapacity(min(Int(ready), perChunk))
            _ = try db.query(sql.selectHeldReady, bounds + [.integer(Int64(perChunk))], operation: op) {
                rows.append(Self.keyRow($0))
            }
            let heldTaken = rows.map(\.id)
            // Sweep on: every key passed is taken (ready) or held (embargoed, or too old).
            let sweptFrom = swept
            var held: [Int64] = []
            while rows.count < perChunk && swept < bound {
                let limit = perChunk - rows.count
                var page: [KeyRow] = []
                _ = try db.query(
                    sql.selectUnswept, [.integer(swept), .integer(bound), .integer(Int64(limit))], operation: op
                ) { page.append(Self.keyRow($0)) }
                for row in page {
                    swept = row.id
                    if row.expires <= release && row.expires > age {
                        rows.append(row)
                    } else {
                        held.append(row.id)
                    }
                }
                // The range is exhausted: no committed key lies above the last one up to the bound.
                if page.count < limit { swept = bound }
            }
            if !held.isEmpty { try db.run(sql.holdKeys, [sql.dialect.idList(held)], operation: op) }
            guard !rows.isEmpty else {
                // Only keys not ready were passed: they are held now; nothing to publish.
                try db.run(sql.saveSwept, [.integer(swept)], operation: op)
                return nil
            }
            // A key uploaded again (a citizen who uploaded twice with two codes) is published
            // once: a copy of a key already in a chunk is marked with that chunk, and a second
            // copy within this batch goes out with the first.
            var earlierChunk: [[UInt8]: Int64] = [:]
            _ = try db.query(
                sql.alreadyPublished, [.integer(sweptFrom), .integer(sweptFrom), sql.dialect.idList(rows.map(\.id))],
                operation: op
            ) { row in
                if let chunk = row.optionalInteger(1) { earlierChunk[row.blob(0)] = chunk }
            }
            let earlier = rows.compactMap { row in earlierChunk[row.key.keyData].map { (id: row.id, chunk: $0) } }
            for copy in earlier {
                try db.run(sql.markOne, [.integer(copy.chunk), .integer(copy.id)], operation: op)
            }
            let earlierIDs = Set(earlier.map(\.id))
            var seen = Set<[UInt8]>()
            let fresh = rows.filter { !earlierIDs.contains($0.id) }
            let keys = fresh.filter { seen.insert($0.key.keyData).inserted }.map(\.key)
            if !heldTaken.isEmpty { try db.run(sql.releaseHeld, [sql.dialect.idList(heldTaken)], operation: op) }
            // Nothing new in this batch: its copies are marked; take the next batch.
            if keys.isEmpty {
                try db.run(sql.saveSwept, [.integer(swept)], operation: op)
                continue
            }
            let uploadIDs = fresh.map(\.upload).uniqued().sorted()

            let state = try db.query(sql.selectState, operation: op) {
                (index: $0.integer(0), end: $0.integer(1))
            }.first
            let (highest, lastPublishedMs) =
                try db.query(sql.highestIndex, operation: op) { ($0.integer(0), $0.integer(1)) }.first
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
                    try db.query(sql.earliestArrival, [sql.dialect.idList(rows.map(\.id))], operation: op) {
                        $0.optionalInteger(0)
                    }.first.flatMap { $0 } ?? publishedMs
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
            // The range the sweep passed for this chunk; none when it took held keys alone.
            let range: [SQLValue] = swept > sweptFrom ? [.integer(sweptFrom + 1), .integer(swept)] : [.null, .null]
            try db.run(
                sql.insertChunk,
                [
                    .integer(index), .integer(publishedMs), .integer(start), .integer(end), .integer(Int64(keys.count)),
                    .integer(Int64(built.paddingKeys.count)), .text(built.region), .text(built.keyID),
                    .text(built.keyVersion), .text(built.exportBinSHA256), .blob(built.zip),
                ] + range, operation: op)
            for key in built.paddingKeys {
                try db.run(
                    sql.insertPadding,
                    [
                        .integer(index), .blob(key.keyData), .integer(key.rollingStartNumber),
                        .integer(key.rollingPeriod),
                        .integer(Int64(key.transmissionRiskLevel)), .integer(Int64(key.reportType.rawValue)),
                        .integer(Int64(key.daysSinceOnsetOfSymptoms)),
                    ], operation: op)
            }
            // The held keys taken are marked one by one; the swept ones are in the range.
            let heldFresh = Set(heldTaken).subtracting(earlierIDs)
            if !heldFresh.isEmpty {
                let marked = try db.run(
                    sql.markHeld, [.integer(index), sql.dialect.idList(heldFresh.sorted())], operation: op)
                guard marked == heldFresh.count else {
                    throw StoreError.failed(operation: op, reason: "marked \(marked) keys, expected \(heldFresh.count)")
                }
            }
            try db.run(sql.saveSwept, [.integer(swept)], operation: op)
            try db.run(sql.saveState, [.integer(index), .integer(end)], operation: op)
            let copies = rows.count - keys.count
            try appendEvent(
                publishedMs,
                DeskEvent.Detail.ChunkPublished(
                    chunk: index, keys: keys.count, padding: built.paddingKeys.count, copiesSkipped: copies,
                    windowStart: start, windowEnd: end, uploadIDs: draft.uploadIDs
                ).json)
            return ChunkSummary(
                index: index, publishedAt: Date(unixMilliseconds: publishedMs), windowStart: start, windowEnd: end,
                keyCount: keys.count, paddingCount: built.paddingKeys.count, zipBytes: built.zip.count,
                exportBinSHA256: built.exportBinSHA256, region: built.region, keyID: built.keyID,
                keyVersion: built.keyVersion)
        }
    }

    static func keyRow(_ row: DB.Row) -> KeyRow {
        (
            row.integer(0), row.integer(1), row.integer(8),
            PublishableKey(
                keyData: row.blob(2), rollingStartNumber: row.integer(3), rollingPeriod: row.integer(4),
                transmissionRiskLevel: Int(row.integer(5)),
                reportType: ReportType(rawValue: Int(row.integer(6))) ?? .unknown,
                daysSinceOnsetOfSymptoms: Int(row.integer(7)))
        )
    }

    func backlog(now: Date, policy: PublishingPolicy) throws(StoreError) -> PublishingBacklog {
        let bounds = ChunkWork.eligibility(nowS: now.unixMilliseconds / 1000, policy: policy)
        let op = "read backlog"
        let swept: SQLValue = .integer(try db.query(sql.selectSwept, operation: op) { $0.integer(0) }.first ?? 0)
        let ready =
            try db.query(sql.countReady, bounds + [swept, .integer(Int64.max)] + bounds, operation: op) {
                $0.integer(0)
            }.first ?? 0
        let waiting = try db.query(sql.embargoed, [bounds[0], swept, bounds[0]], operation: op) {
            (count: $0.integer(0), earliest: $0.optionalInteger(1))
        }.first
        let tooOld =
            try db.query(sql.tooOld, [bounds[1], swept, bounds[1]], operation: op) { $0.integer(0) }.first ?? 0
        return PublishingBacklog(
            ready: Int(ready), embargoed: Int(waiting?.count ?? 0),
            nextReleaseAt: waiting?.earliest.map { $0 + policy.embargoSeconds }, tooOld: Int(tooOld))
    }

    func cleanup(now: Date, policy: RetentionPolicy) throws(StoreError) -> CleanupReport {
        let nowMs = now.unixMilliseconds
        let cutoff: SQLValue = .integer(nowMs - Int64(policy.days) * 86_400_000)
        let analyticsCutoff: SQLValue = .integer(nowMs - Int64(policy.analyticsDays) * 86_400_000)
        var report = CleanupReport()
        let op = "clean up"
        report.keys = try db.run(sql.deleteOldKeys, [cutoff], operation: op)
        report.uploads = try db.run(sql.deleteOldUploads, [cutoff], operation: op)
        report.other += try db.run(sql.deleteOldPadding, [cutoff], operation: op)
        report.chunks = try db.run(sql.deleteOldChunks, [cutoff], operation: op)
        report.authorizations = try db.run(sql.deleteOldAuthorizations, [cutoff], operation: op)
        report.events = try db.run(sql.deleteOldEvents, [cutoff], operation: op)
        report.events += try db.run(sql.deleteOldAnalyticsEvents, [analyticsCutoff], operation: op)
        report.operationalInfo = try db.run(sql.deleteOldOperationalInfo, [analyticsCutoff], operation: op)
        report.other += try db.run(sql.deleteOldDummyCounts, [analyticsCutoff], operation: op)
        report.other += try db.run(sql.deleteUsedUpAllowances, [.integer(nowMs)], operation: op)
        report.other += try db.run(sql.dropExpiredSalts, [.integer(nowMs)], operation: op)
        return report
    }

    /// `[release bound, age bound]`: a key is ready when it expired at least the embargo ago and
    /// not longer ago than the publishing age limit.
    static func eligibility(nowS: Int64, policy: PublishingPolicy) -> [SQLValue] {
        let (release, age) = eligibleExpiry(nowS: nowS, policy: policy)
        return [.integer(release), .integer(age)]
    }

    /// The same bounds as numbers: ready means `age < expires_at_s <= release`.
    static func eligibleExpiry(nowS: Int64, policy: PublishingPolicy) -> (release: Int64, age: Int64) {
        (nowS - policy.embargoSeconds, nowS - Int64(policy.publishableAgeDays) * 86_400)
    }

    static func summary(_ row: DB.Row) -> ChunkSummary {
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
