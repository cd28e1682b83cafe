import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskExport
import DeskLocal
import DeskStore
import Foundation
import Testing

/// The publishing job over a real store: real GAEN chunks, signed and zipped.
@Suite("Chunk publisher")
struct ChunkPublisherTests {
    static let todayInterval: Int64 = 2_993_184

    /// Uploads `count` daily keys (yesterday and before) under a fresh code, through PhoneDesk.
    static func upload(_ fixture: DeskFixture, code: String, count: Int, byte: UInt8) throws {
        let otp = try Otp(validating: code)
        let phone = PhoneDesk(store: fixture.store, clock: fixture.clock)
        _ = try phone.authorize(otp: otp, symptomsStartedOn: DeskFixture.today.adding(days: -10), actor: "test")
        let keys = (1...count).map { day in
            TemporaryExposureKey(
                keyData: [UInt8](repeating: byte &+ UInt8(day), count: 16),
                rollingStartNumber: todayInterval - Int64(day) * 144, rollingPeriod: 144)
        }
        let outcome = try phone.upload(
            otp.hash, clientClock: Int64(DeskFixture.start.timeIntervalSince1970), keys: keys, province: nil,
            summariesJSON: "[]", summaryCount: 0)
        guard case .stored = outcome else { throw ServiceError.failed("upload refused") }
    }

    @Test("small chunks are padded with random keys that copy real keys' labels, up to the minimum plus jitter")
    func padding() async throws {
        try await DeskFixture.with { fixture in
            try Self.upload(fixture, code: "9K2RAY8UUQ", count: 5, byte: 10)
            let key = ECPrivateKey.generate()
            let policy = PublishingPolicy(minimumKeys: 50, paddingJitter: 10)
            let publisher = ChunkPublisher(
                store: fixture.store, clock: fixture.clock, signing: ChunkSigning(key: key), policy: policy)
            let run = try publisher.run()
            let chunk = try #require(run.published.first)
            #expect(chunk.keyCount == 5)
            #expect((45...55).contains(chunk.paddingCount))
            let stored = try #require(try fixture.store.chunk(index: 1))
            let inspection = try ChunkInspection(zip: stored.zip)
            #expect(inspection.signatureVerifies(with: key.publicKey))
            let keys = inspection.file.keys
            #expect(keys.count == 5 + chunk.paddingCount)
            #expect(Set(keys.map(\.keyData)).count == keys.count)
            // Fakes carry the same labels as real keys: nothing tells them apart but the bytes.
            let labels = Set(keys.map { [$0.rollingStartIntervalNumber, $0.daysSinceOnsetOfSymptoms ?? 99] })
            #expect(labels.count == 5)
            #expect(keys.allSatisfy { $0.transmissionRiskLevel == 8 && $0.reportType == 1 && $0.rollingPeriod == nil })
            #expect(keys.map(\.keyData) == keys.map(\.keyData).sorted { $0.lexicographicallyPrecedes($1) })
            // The chunk's bytes never change: a second read gives the same zip.
            #expect(try fixture.store.chunk(index: 1)?.zip == stored.zip)
        }
    }

    @Test("a run publishes every ready key in chunks of at most chunk_max_keys, jitter included")
    func manyChunks() async throws {
        try await DeskFixture.with { fixture in
            let codes = ["9K2RAY8UUQ", "KJ23IWY5UJ", "59FU36KR46"]
            for (n, code) in codes.enumerated() { try Self.upload(fixture, code: code, count: 10, byte: UInt8(n * 20)) }
            let policy = PublishingPolicy(maxKeysPerChunk: 12, minimumKeys: 0)
            let publisher = ChunkPublisher(
                store: fixture.store, clock: fixture.clock, signing: ChunkSigning(key: ECPrivateKey.generate()),
                policy: policy)
            let run = try publisher.run()
            #expect(run.published.map(\.keyCount) == [12, 12, 6])
            #expect(run.backlog.ready == 0)
            #expect(run.summary.hasPrefix("chunk 1 published (12 keys, window "))
            let padded = PublishingPolicy(maxKeysPerChunk: 100, minimumKeys: 1_000, paddingJitter: 30)
            #expect(padded.realKeysPerChunk == 70)
        }
    }

    @Test("a run asked to stop publishes no further chunk; the next run goes on from there")
    func stopping() async throws {
        try await DeskFixture.with { fixture in
            try Self.upload(fixture, code: "9K2RAY8UUQ", count: 10, byte: 0)
            let publisher = ChunkPublisher(
                store: fixture.store, clock: fixture.clock, signing: ChunkSigning(key: ECPrivateKey.generate()),
                policy: PublishingPolicy(maxKeysPerChunk: 3))
            #expect(try publisher.run(shouldStop: { true }).published.isEmpty)
            var asked = 0
            let stopped = try publisher.run(shouldStop: {
                asked += 1
                return asked > 2
            })
            #expect(stopped.published.map(\.index) == [1, 2])
            #expect(stopped.backlog.ready == 4)
            #expect(try publisher.run().published.map(\.index) == [3, 4])
        }
    }

    @Test("the summary line says when nothing is published and why")
    func summaries() {
        let backlog = PublishingBacklog(ready: 3, embargoed: 2, nextReleaseAt: 1_796_004_000)
        #expect(
            PublishRun(published: [], backlog: backlog, unsigned: true).summary
                == "NOT PUBLISHING: no signing key is configured (set signing_key_path); 3 keys ready, 2 under embargo (next release 2026-11-30T02:00:00Z)"
        )
        #expect(
            PublishRun(
                published: [], backlog: PublishingBacklog(ready: 0, embargoed: 0, nextReleaseAt: nil), unsigned: false
            ).summary == "no keys ready: nothing published; 0 keys ready, 0 under embargo")
    }
}
