import CivilCalendar
import DeskCore
import DeskStore
import Foundation
import Testing

/// Chunk publishing and retention in the store, on a real SQLite file. The chunk bytes here are
/// stand-ins made by the test's builder; real GAEN chunks are tested in DeskServiceTests and over
/// HTTP.
@Suite("Store contract: chunk publishing and retention")
struct ChunkStoreTests {
    /// 2026-11-28, a whole day: expired at 2026-11-29 00:00 UTC, publishable from 02:00.
    static let yesterday: Int64 = 2_993_040
    /// 2026-11-29: still valid at Fixture.now (10:00), publishable from 2026-11-30 02:00.
    static let today: Int64 = 2_993_184

    static func key(_ n: Int, start: Int64, period: Int64 = 144) -> AcceptedKey {
        let bytes = (0..<16).map { UInt8(truncatingIfNeeded: n >> (8 * ($0 % 4)) &+ $0) }
        return AcceptedKey(
            key: TemporaryExposureKey(keyData: bytes, rollingStartNumber: start, rollingPeriod: period),
            transmissionRiskLevel: 8, reportType: .confirmedTest, daysSinceOnsetOfSymptoms: 1)
    }

    /// Stores one upload of `keys` under code number `code`, received at `at`.
    @discardableResult
    static func upload(_ store: any Store, code: Int, keys: [AcceptedKey], at: Date = Fixture.now) throws -> Int64 {
        let hash = Fixture.hash(code)
        _ = try store.authorize(
            otpHash: hash, symptomsStartedOn: Fixture.onset, by: "rossi", now: at, lifetime: .seconds(150))
        let outcome = try store.consumeForUpload(otpHash: hash, now: at) { _ in
            UploadRecord(
                otpHash: hash, receivedAt: at, symptomsStartedOn: Fixture.onset, province: nil, clientClock: 0,
                evaluation: UploadEvaluation(accepted: keys, dropped: [], clockSkewSeconds: 0, clockSkewFlagged: false),
                summariesJSON: "[]", summaryCount: 0)
        }
        guard case .stored(let id, _) = outcome else {
            throw StoreError.failed(operation: "test upload", reason: "refused")
        }
        return id
    }

    /// A builder that records what it was given and returns recognisable bytes.
    final class Builder: @unchecked Sendable {
        var drafts: [ChunkDraft] = []
        var failOnCall: Int?
        func build(_ draft: ChunkDraft) throws(StoreError) -> ChunkBuild {
            drafts.append(draft)
            if failOnCall == drafts.count { throw StoreError.failed(operation: "build chunk", reason: "injected") }
            return ChunkBuild(
                zip: Array("zip \(draft.index) \(draft.keys.count)".utf8),
                exportBinSHA256: String(repeating: "a", count: 64),
                paddingKeys: [], region: "222", keyID: "222", keyVersion: "v1")
        }
    }

    static func publishAll(
        _ store: any Store, _ builder: Builder, now: Date = Fixture.now, policy: PublishingPolicy = PublishingPolicy()
    ) throws -> [ChunkSummary] {
        var out: [ChunkSummary] = []
        while let chunk = try store.publishChunk(now: now, policy: policy, build: builder.build) { out.append(chunk) }
        return out
    }

    @Test(
        "only keys expired for 2 hours are published; today's key waits for a later run", arguments: StoreKind.testable)
    func embargo(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            #expect(try store.publishChunk(now: Fixture.now, policy: PublishingPolicy(), build: Builder().build) == nil)
            #expect(try store.lastChunkIndex() == 0)
            let id = try Self.upload(
                store, code: 1, keys: [Self.key(1, start: Self.yesterday), Self.key(2, start: Self.today)])
            let backlog = try store.publishingBacklog(now: Fixture.now, policy: PublishingPolicy())
            #expect(
                backlog == PublishingBacklog(ready: 1, embargoed: 1, nextReleaseAt: (Self.today + 144) * 600 + 7_200))

            let builder = Builder()
            let first = try Self.publishAll(store, builder)
            #expect(first.map(\.index) == [1])
            #expect(builder.drafts.first?.keys.map(\.rollingStartNumber) == [Self.yesterday])
            #expect(builder.drafts.first?.uploadIDs == [id])
            #expect(try store.upload(id: id)?.publishedInChunks == [1])

            // One second before the embargo ends: nothing. At its end: today's key.
            let release = Date(timeIntervalSince1970: Double((Self.today + 144) * 600 + 7_200))
            #expect(try Self.publishAll(store, builder, now: release.addingTimeInterval(-1)).isEmpty)
            let second = try Self.publishAll(store, builder, now: release)
            #expect(second.map(\.index) == [2])
            #expect(builder.drafts.last?.keys.map(\.rollingStartNumber) == [Self.today])
            #expect(second.first?.windowStart == first.first?.windowEnd)
            #expect(second.first?.windowEnd == Int64(release.timeIntervalSince1970))
            #expect(try store.upload(id: id)?.publishedInChunks == [1, 2])
            #expect(
                try store.publishingBacklog(now: release, policy: PublishingPolicy())
                    == PublishingBacklog(ready: 0, embargoed: 0, nextReleaseAt: nil))
        }
    }

    @Test(
        "more keys than a chunk holds make several chunks with contiguous, rising windows, in order of arrival",
        arguments: StoreKind.testable)
    func splitting(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            var uploads: [Int64] = []
            for n in 0..<5 {
                let keys = (0..<5).map { Self.key(n * 10 + $0, start: Self.yesterday - Int64($0) * 144) }
                uploads.append(
                    try Self.upload(
                        store, code: n + 1, keys: keys, at: Fixture.now.addingTimeInterval(Double(n - 10) * 60)))
            }
            let builder = Builder()
            let policy = PublishingPolicy(maxKeysPerChunk: 10)
            let chunks = try Self.publishAll(store, builder, policy: policy)
            #expect(chunks.map(\.index) == [1, 2, 3])
            #expect(chunks.map(\.keyCount) == [10, 10, 5])
            // The sweep takes the keys in the order they arrived: two uploads, two more, the last.
            let days = builder.drafts.map { Set($0.keys.map { (Self.yesterday - $0.rollingStartNumber) / 144 }) }
            #expect(days == [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]])
            #expect(
                builder.drafts.map(\.uploadIDs) == [[uploads[0], uploads[1]], [uploads[2], uploads[3]], [uploads[4]]])
            // The first window starts at the first upload's arrival; each starts where the last ended.
            #expect(chunks[0].windowStart == Int64(Fixture.now.timeIntervalSince1970) - 600)
            for (a, b) in zip(chunks, chunks.dropFirst()) { #expect(b.windowStart == a.windowEnd) }
            #expect(chunks.allSatisfy { $0.windowEnd > $0.windowStart })
            #expect(chunks.last?.windowEnd == Int64(Fixture.now.timeIntervalSince1970))
            // The events say which chunk carried which uploads.
            let events = try store.events(after: 0, limit: 100).filter { $0.kind == .chunkPublished }
            #expect(events.count == 3)
            #expect(events.first?.detail.contains(#""chunk":1,"keys":10,"padding":0"#) == true)
            #expect(events.first?.detail.contains(#""upload_ids":[\#(uploads[0]),\#(uploads[1])]"#) == true)
        }
    }

    @Test(
        "a failure while building a chunk stores nothing of it and leaves no gap in the indexes",
        arguments: StoreKind.testable)
    func failedBuild(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Self.upload(
                store, code: 1,
                keys: (0..<25).map { Self.key($0, start: Self.yesterday - Int64($0 % 13) * 144 - Int64($0 / 13)) })
            let builder = Builder()
            builder.failOnCall = 2
            let policy = PublishingPolicy(maxKeysPerChunk: 10)
            var published: [ChunkSummary] = []
            #expect(throws: StoreError.self) {
                while let chunk = try store.publishChunk(now: Fixture.now, policy: policy, build: builder.build) {
                    published.append(chunk)
                }
            }
            #expect(published.map(\.index) == [1])
            #expect(try store.chunks().map(\.index) == [1])
            #expect(try store.lastChunkIndex() == 1)
            #expect(try store.publishingBacklog(now: Fixture.now, policy: policy).ready == 15)
            builder.failOnCall = nil
            let rest = try Self.publishAll(store, builder, policy: policy)
            #expect(rest.map(\.index) == [2, 3])
            #expect(rest.first?.windowStart == published.first?.windowEnd)
            #expect(try store.publishingBacklog(now: Fixture.now, policy: policy).ready == 0)
        }
    }

    @Test("keys that expired longer ago than the maximum key age are never published", arguments: StoreKind.testable)
    func tooOld(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Self.upload(
                store, code: 1,
                keys: [Self.key(1, start: Self.yesterday - 15 * 144), Self.key(2, start: Self.yesterday - 13 * 144)])
            let builder = Builder()
            let chunks = try Self.publishAll(store, builder)
            #expect(chunks.map(\.keyCount) == [1])
            #expect(builder.drafts.first?.keys.map(\.rollingStartNumber) == [Self.yesterday - 13 * 144])
        }
    }

    @Test(
        "the index and the bytes are offered for the chunk lifetime; retention keeps the indexes rising",
        arguments: StoreKind.testable)
    func retention(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            try Self.upload(store, code: 1, keys: [Self.key(1, start: Self.yesterday)])
            let builder = Builder()
            _ = try Self.publishAll(store, builder)
            let since = Fixture.now.addingTimeInterval(-14 * 86_400)
            #expect(try store.chunkIndexRange(since: since) == 1...1)
            #expect(try store.chunkZip(index: 1, since: since)?.zip == Array("zip 1 1".utf8))
            #expect(try store.chunkZip(index: 2, since: since) == nil)

            // 15 days later the upload, its keys, its code and the chunk are gone.
            let later = Fixture.now.addingTimeInterval(15 * 86_400)
            #expect(try store.chunkIndexRange(since: later.addingTimeInterval(-14 * 86_400)) == nil)
            let report = try store.cleanup(now: later, policy: RetentionPolicy())
            #expect(report.uploads == 1)
            #expect(report.keys == 1)
            #expect(report.chunks == 1)
            #expect(report.authorizations == 1)
            #expect(report.events >= 3)
            #expect(try store.chunks().isEmpty)
            #expect(try store.lastChunkIndex() == 1)
            #expect(try store.authorization(for: Fixture.hash(1)) == nil)
            #expect(try store.cleanup(now: later, policy: RetentionPolicy()).total == 0)

            // A new key gets chunk 2, whose window starts where chunk 1's ended.
            let lateKeyDay = Self.yesterday + 15 * 144
            try Self.upload(store, code: 2, keys: [Self.key(3, start: lateKeyDay)], at: later)
            let next = try Self.publishAll(store, builder, now: later)
            #expect(next.map(\.index) == [2])
            #expect(next.first?.windowStart == Int64(Fixture.now.timeIntervalSince1970))
            #expect(try store.chunkIndexRange(since: later.addingTimeInterval(-14 * 86_400)) == 2...2)
        }
    }

    @Test("analytics are kept 30 days, the rest 14", arguments: StoreKind.testable)
    func analyticsRetention(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let info = OperationalInfo(
                platform: .ios, province: Province.named("RM")!, exposurePermission: true, bluetoothActive: true,
                notificationPermission: true, exposureNotification: false, lastRiskyExposureOn: Fixture.onset, build: 1)
            #expect(try store.recordOperationalInfo(info, allowance: nil, now: Fixture.now))
            #expect(
                try store.cleanup(now: Fixture.now.addingTimeInterval(20 * 86_400), policy: RetentionPolicy())
                    .operationalInfo == 0)
            let report = try store.cleanup(now: Fixture.now.addingTimeInterval(31 * 86_400), policy: RetentionPolicy())
            #expect(report.operationalInfo == 1)
            #expect(report.events == 1)
        }
    }

    @Test(
        "a key uploaded twice is published once: in one chunk, or not again in a later one",
        arguments: StoreKind.testable)
    func copies(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            let first = try Self.upload(
                store, code: 1, keys: [Self.key(1, start: Self.yesterday), Self.key(2, start: Self.yesterday - 144)])
            let second = try Self.upload(store, code: 2, keys: [Self.key(1, start: Self.yesterday)])
            let builder = Builder()
            let chunks = try Self.publishAll(store, builder)
            #expect(chunks.map(\.keyCount) == [2])
            #expect(builder.drafts.first?.keys.count == 2)
            #expect(builder.drafts.first?.uploadIDs == [first, second])
            #expect(try store.upload(id: second)?.publishedInChunks == [1])
            let event = try store.events(after: 0, limit: 100).last { $0.kind == .chunkPublished }
            #expect(event?.detail.contains(#""copies_skipped":1"#) == true)

            // Uploaded again an hour later: marked with chunk 1, no new chunk.
            let later = Fixture.now.addingTimeInterval(3_600)
            let third = try Self.upload(store, code: 3, keys: [Self.key(2, start: Self.yesterday - 144)], at: later)
            #expect(try Self.publishAll(store, builder, now: later).isEmpty)
            #expect(try store.upload(id: third)?.publishedInChunks == [1])
            #expect(try store.publishingBacklog(now: later, policy: PublishingPolicy()).ready == 0)

            // A copy and a new key together: only the new key goes out, in chunk 2.
            let fourth = try Self.upload(
                store, code: 4, keys: [Self.key(1, start: Self.yesterday), Self.key(5, start: Self.yesterday - 288)],
                at: later)
            let next = try Self.publishAll(store, builder, now: later)
            #expect(next.map(\.keyCount) == [1])
            #expect(builder.drafts.last?.keys.map(\.rollingStartNumber) == [Self.yesterday - 288])
            #expect(try store.upload(id: fourth)?.publishedInChunks == [1, 2])
        }
    }

    @Test(
        "a chunk's window never ends before one of its keys started, even when a run splits a backlog",
        arguments: StoreKind.testable)
    func windowsCoverKeys(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            // One upload three days ago, then 28 keys an hour ago: the even split of the three
            // days would end the first chunks before the recent keys started.
            try Self.upload(
                store, code: 1, keys: [Self.key(100, start: Self.yesterday - 3 * 144)],
                at: Fixture.now.addingTimeInterval(-3 * 86_400))
            for n in 0..<4 {
                let keys = (0..<7).map { Self.key(n * 10 + $0, start: Self.yesterday - Int64($0) * 144) }
                try Self.upload(store, code: n + 2, keys: keys, at: Fixture.now.addingTimeInterval(-3_600))
            }
            let builder = Builder()
            let chunks = try Self.publishAll(store, builder, policy: PublishingPolicy(maxKeysPerChunk: 10))
            #expect(chunks.map(\.keyCount) == [10, 10, 9])
            for (chunk, draft) in zip(chunks, builder.drafts) {
                let latestStart = draft.keys.map { $0.rollingStartNumber * 600 }.max() ?? 0
                #expect(chunk.windowEnd > latestStart)
                #expect(chunk.windowEnd > chunk.windowStart)
            }
            for (a, b) in zip(chunks, chunks.dropFirst()) { #expect(b.windowStart == a.windowEnd) }
            #expect(chunks.last?.windowEnd == Int64(Fixture.now.timeIntervalSince1970))
        }
    }

    @Test(
        "a key accepted just inside the 14-day limit is still published by a run an hour later",
        arguments: StoreKind.testable)
    func nearTheAgeLimit(_ kind: StoreKind) throws {
        try withStore(kind) { store in
            // Expires 13 days 23 h 50 min before the upload: accepted by the upload rules.
            let nowS = Int64(Fixture.now.timeIntervalSince1970)
            let start = (nowS - 14 * 86_400 + 600) / 600 - 144
            try Self.upload(store, code: 1, keys: [Self.key(1, start: start)])
            let later = Fixture.now.addingTimeInterval(3_600)
            #expect(try Self.publishAll(store, Builder(), now: later).map(\.keyCount) == [1])
            // Keys more than 15 days old are not published, and the backlog says they were lost.
            try Self.upload(store, code: 2, keys: [Self.key(2, start: start)], at: later)
            let muchLater = Fixture.now.addingTimeInterval(2 * 86_400)
            #expect(try Self.publishAll(store, Builder(), now: muchLater).isEmpty)
            #expect(try store.publishingBacklog(now: muchLater, policy: PublishingPolicy()).tooOld == 1)
        }
    }
}
