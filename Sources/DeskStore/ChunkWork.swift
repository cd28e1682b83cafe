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
    var countReady, selectReady, alreadyPublished, markOne, selectState, highestIndex, earliestArrival: String
    var insertChunk, insertPadding, markPublished, saveState, embargoed, tooOld: String
    var deleteOldKeys, deleteOldUploads, deleteOldPadding, deleteOldChunks, deleteOldAuthorizations: String
    var deleteOldEvents, deleteOldAnalyticsEvents, deleteOldOperationalInfo, deleteOldDummyCounts: String
    var deleteUsedUpAllowances, dropExpiredSalts: String
    var indexRange, selectZip, selectSummaries, selectChunk: String
    /// How the batch's keys are marked: by the range of the batch (SQLite: its write
    /// transaction is exclusive, so the range holds exactly the keys selected), or by the list
    /// of their ids (PostgreSQL: at READ COMMITTED an upload that commits meanwhile would fall
    /// into the range too).
    var marksByID: Bool

    static let sqlite = ChunkStatements(.sqlite)
    static let postgres = ChunkStatements(.postgres)

    private init(_ dialect: SQLDialect) {
        let text = dialect.text
        countReady = text(ChunkSQL.countReady)
        selectReady = text(ChunkSQL.selectReady)
        // PostgreSQL cannot name a select-list alias in WHERE.
        alreadyPublished = dialect == .sqlite ? ChunkSQL.alreadyPublished : PGSQL.alreadyPublished
        markOne = text(ChunkSQL.markOne)
        selectState = text(ChunkSQL.selectState)
        highestIndex = text(ChunkSQL.highestIndex)
        earliestArrival = text(ChunkSQL.earliestArrival)
        insertChunk = text(ChunkSQL.insertChunk)
        insertPadding = text(ChunkSQL.insertPadding)
        markPublished = dialect == .sqlite ? ChunkSQL.markPublished : PGSQL.markPublished
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
        marksByID = dialect == .postgres
    }
}

/// Chunk publishing, the backlog and retention: one implementation for every adapter, run
/// inside the transaction the adapter opened.
struct ChunkWork<DB: SQLRunning> {
    let db: DB
    let sql: ChunkStatements

    /// The body of ``Store/publishChunk(now:policy:build:)``, inside its transaction.
    func publishOne(
        now: Date, policy: PublishingPolicy, build: (ChunkDraft) throws(StoreError) -> ChunkBuild,
        appendEvent: (_ at: Int64, _ detail: String) throws(StoreError) -> Void
    ) throws(StoreError) -> ChunkSummary? {
        let bounds = ChunkWork.eligibility(nowS: now.unixMilliseconds / 1000, policy: policy)
        let op = "publish chunk"
        let nowS = now.unixMilliseconds / 1000
        let perChunk = policy.realKeysPerChunk
        while true {
            let ready = try db.query(sql.countReady, bounds, operation: op) { $0.integer(0) }.first ?? 0
            guard ready > 0 else { return nil }
            var rows: [(id: Int64, upload: Int64, expires: Int64, key: PublishableKey)] = []
            rows.reserveCapacity(min(Int(ready), perChunk))
            _ = try db.query(sql.selectReady, bounds + [.integer(Int64(perChunk))], operation: op) { row in
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
            let earlier = try db.query(
                sql.alreadyPublished, bounds + upTo, operation: op
            ) { (id: $0.integer(0), chunk: $0.integer(1)) }
            for copy in earlier {
                try db.run(sql.markOne, [.integer(copy.chunk), .integer(copy.id)], operation: op)
            }
            let earlierIDs = Set(earlier.map(\.id))
            var seen = Set<[UInt8]>()
            let fresh = rows.filter { !earlierIDs.contains($0.id) }
            let keys = fresh.filter { seen.insert($0.key.keyData).inserted }.map(\.key)
            // Nothing new in this batch: its copies are marked; take the next batch.
            if keys.isEmpty { continue }
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
                    try db.query(sql.earliestArrival, bounds + upTo, operation: op) {
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
            try db.run(
                sql.insertChunk,
                [
                    .integer(index), .integer(publishedMs), .integer(start), .integer(end), .integer(Int64(keys.count)),
                    .integer(Int64(built.paddingKeys.count)), .text(built.region), .text(built.keyID),
                    .text(built.keyVersion), .text(built.exportBinSHA256), .blob(built.zip),
                ], operation: op)
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
            let marked = try db.run(
                sql.markPublished,
                sql.marksByID
                    ? [.integer(index), .text("{" + fresh.map { String($0.id) }.joined(separator: ",") + "}")]
                    : [.integer(index)] + bounds + upTo, operation: op)
            guard marked == fresh.count else {
                throw StoreError.failed(operation: op, reason: "marked \(marked) keys, expected \(fresh.count)")
            }
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

    func backlog(now: Date, policy: PublishingPolicy) throws(StoreError) -> PublishingBacklog {
        let bounds = ChunkWork.eligibility(nowS: now.unixMilliseconds / 1000, policy: policy)
        let ready = try db.query(sql.countReady, bounds, operation: "read backlog") { $0.integer(0) }.first ?? 0
        let waiting = try db.query(sql.embargoed, [bounds[0]], operation: "read backlog") {
            (count: $0.integer(0), earliest: $0.optionalInteger(1))
        }.first
        let tooOld = try db.query(sql.tooOld, [bounds[1]], operation: "read backlog") { $0.integer(0) }.first ?? 0
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
        [.integer(nowS - policy.embargoSeconds), .integer(nowS - Int64(policy.publishableAgeDays) * 86_400)]
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
