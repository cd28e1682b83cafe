import DeskCore
import Foundation
import Testing

@testable import DeskStore

/// Publishing by sweep (migration 13): a chunk records the range of key ids it swept instead of
/// marking each key; keys not ready when swept are held until a later chunk takes them.
@Suite("Store contract: the publishing sweep (migration 13)")
struct KeySweepStoreTests {
    typealias C = ChunkStoreTests

    /// Keys not published yet, by the store's own rule (the sweep's watermark, the held keys).
    static let countUnpublished =
        "SELECT count(*) FROM exposure_keys k WHERE NOT \(ChunkSQL.isPublished("k", sweptTo: ChunkSQL.sweptTo))"

    /// Keys published in chunk `index`, by the store's own rule (a key's mark, or its sweep's range).
    static func countInChunk(_ index: Int64) -> String {
        """
        SELECT count(*) FROM exposure_keys k
        WHERE \(ChunkSQL.isPublished("k", sweptTo: ChunkSQL.sweptTo)) AND \(ChunkSQL.chunkOf("k")) = \(index)
        """
    }

    /// Back to version 12: the keys published by a sweep's range are marked with their chunk, as
    /// version 12 marked every published key, and the partial indexes come back.
    static let undoMigration13 = """
        UPDATE exposure_keys SET chunk_index = (SELECT c.chunk_index FROM chunks c
            WHERE c.first_key_id <= exposure_keys.id AND c.last_key_id >= exposure_keys.id)
        WHERE chunk_index IS NULL AND id <= (SELECT swept_to_id FROM key_sweep WHERE id = 1)
            AND id NOT IN (SELECT id FROM held_keys);
        DROP TABLE held_keys; DROP TABLE key_sweep;
        DROP INDEX chunks_by_last_key;
        ALTER TABLE chunks DROP COLUMN first_key_id; ALTER TABLE chunks DROP COLUMN last_key_id;
        DROP INDEX exposure_keys_by_data;
        CREATE INDEX exposure_keys_unpublished ON exposure_keys (expires_at_s) WHERE chunk_index IS NULL;
        CREATE INDEX exposure_keys_published_by_data ON exposure_keys (key_data) WHERE chunk_index IS NOT NULL;
        DELETE FROM schema_migrations WHERE version = 13
        """

    static func release(ofDayStarting start: Int64) -> Date {
        Date(timeIntervalSince1970: Double((start + 144) * 600 + 7_200))
    }

    @Test(
        "a chunk writes nothing per swept key: its range says which keys it holds; a key not ready is held",
        arguments: StoreKind.testable)
    func sweep(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            let first = try C.upload(
                store, code: 1, keys: [C.key(1, start: C.yesterday), C.key(2, start: C.today)])
            let second = try C.upload(store, code: 2, keys: [C.key(3, start: C.yesterday - 144)])
            let builder = C.Builder()
            let chunks = try C.publishAll(store, builder)
            #expect(chunks.map(\.keyCount) == [2])
            // The two ready keys are in chunk 1 by its range; today's key is held, not marked.
            #expect(try space.scalar("SELECT count(*) FROM exposure_keys WHERE chunk_index IS NOT NULL") == 0)
            #expect(try space.scalar("SELECT first_key_id FROM chunks WHERE chunk_index = 1") == 1)
            #expect(try space.scalar("SELECT last_key_id FROM chunks WHERE chunk_index = 1") == 3)
            #expect(try space.scalar("SELECT swept_to_id FROM key_sweep") == 3)
            #expect(try space.scalar("SELECT count(*) FROM held_keys") == 1)
            #expect(try space.scalar(Self.countInChunk(1)) == 2)
            #expect(try space.scalar(Self.countUnpublished) == 1)
            #expect(try store.upload(id: first)?.publishedInChunks == [1])
            #expect(try store.upload(id: second)?.publishedInChunks == [1])

            // A later run takes the held key first, then the keys that arrived since.
            let later = Self.release(ofDayStarting: C.today)
            let third = try C.upload(store, code: 3, keys: [C.key(4, start: C.yesterday)], at: later)
            let next = try C.publishAll(store, builder, now: later)
            #expect(next.map(\.keyCount) == [2])
            #expect(builder.drafts.last?.uploadIDs == [first, third])
            #expect(try space.scalar("SELECT count(*) FROM held_keys") == 0)
            #expect(try space.scalar("SELECT count(*) FROM exposure_keys WHERE chunk_index = 2") == 1)
            #expect(try space.scalar(Self.countInChunk(2)) == 2)
            #expect(try space.scalar(Self.countUnpublished) == 0)
            #expect(try store.upload(id: first)?.publishedInChunks == [1, 2])
            #expect(try store.upload(id: third)?.publishedInChunks == [2])
            #expect(
                try store.publishingBacklog(now: later, policy: PublishingPolicy())
                    == PublishingBacklog(ready: 0, embargoed: 0, nextReleaseAt: nil))
        }
    }

    @Test(
        "a key data uploaded hundreds of times is published once, and its copies all name that chunk",
        arguments: StoreKind.testable)
    func manyCopies(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            for code in 1...300 {
                try C.upload(
                    store, code: code,
                    keys: [C.key(1, start: C.yesterday), C.key(1_000 + code, start: C.yesterday - 144)])
            }
            let chunks = try C.publishAll(store, C.Builder(), policy: PublishingPolicy(maxKeysPerChunk: 50))
            #expect(chunks.reduce(0) { $0 + $1.keyCount } == 301)
            #expect(try space.scalar(Self.countUnpublished) == 0)
            // The first copy went out in chunk 1; every later copy is marked with it.
            let copy = C.key(1, start: C.yesterday).key.keyData.map { String(format: "%02x", $0) }.joined()
            let data = kind == .postgres ? "'\\x\(copy)'" : "x'\(copy)'"
            #expect(
                try space.scalar(
                    "SELECT count(*) FROM exposure_keys k WHERE k.key_data = \(data) AND \(ChunkSQL.chunkOf("k")) = 1")
                    == 300)
        }
    }

    @Test(
        "retention deletes a held key with its upload; a run that passes only keys not ready makes no chunk",
        arguments: StoreKind.testable)
    func heldOnly(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            try C.upload(store, code: 1, keys: [C.key(1, start: C.today)])
            let builder = C.Builder()
            #expect(try C.publishAll(store, builder).isEmpty)
            #expect(try store.lastChunkIndex() == 0)
            #expect(
                try store.publishingBacklog(now: Fixture.now, policy: PublishingPolicy())
                    == PublishingBacklog(ready: 0, embargoed: 1, nextReleaseAt: (C.today + 144) * 600 + 7_200))
            // Fifteen days on, the upload is past retention: its key goes, held or not.
            let cleaned = try store.cleanup(
                now: Fixture.now.addingTimeInterval(15 * 86_400), policy: RetentionPolicy())
            #expect(cleaned.keys == 1)
            #expect(try space.scalar("SELECT count(*) FROM held_keys") == 0)
        }
    }

    @Test(
        "keys stored before migration 13 are held by it and published once; the sweep starts above them",
        arguments: StoreKind.testable)
    func migrates(_ kind: StoreKind) throws {
        try withSpace(kind) { space in
            let store = try space.open()
            let first = try C.upload(
                store, code: 1, keys: [C.key(1, start: C.yesterday), C.key(2, start: C.today)])
            let builder = C.Builder()
            #expect(try C.publishAll(store, builder).map(\.keyCount) == [1])
            let second = try C.upload(store, code: 2, keys: [C.key(3, start: C.yesterday - 144)])
            // As version 12 left it: key 1 marked with chunk 1, keys 2 and 3 unmarked.
            try space.execute(Self.undoMigration13)
            #expect(try space.scalar("SELECT count(*) FROM exposure_keys WHERE chunk_index = 1") == 1)

            let reopened = try space.open()
            #expect(try reopened.schemaVersion() == Migrations.latestVersion)
            #expect(try space.scalar("SELECT count(*) FROM held_keys") == 2)
            #expect(try space.scalar("SELECT swept_to_id FROM key_sweep") == 3)
            #expect(try space.scalar(Self.countUnpublished) == 2)
            #expect(
                try reopened.publishingBacklog(now: Fixture.now, policy: PublishingPolicy())
                    == PublishingBacklog(ready: 1, embargoed: 1, nextReleaseAt: (C.today + 144) * 600 + 7_200))

            #expect(try C.publishAll(reopened, builder).map(\.index) == [2])
            #expect(try reopened.upload(id: second)?.publishedInChunks == [2])
            let later = Self.release(ofDayStarting: C.today)
            let third = try C.upload(reopened, code: 3, keys: [C.key(4, start: C.yesterday)], at: later)
            #expect(try C.publishAll(reopened, builder, now: later).map(\.keyCount) == [2])
            #expect(try space.scalar(Self.countUnpublished) == 0)
            #expect(try reopened.upload(id: first)?.publishedInChunks == [1, 3])
            #expect(try reopened.upload(id: third)?.publishedInChunks == [3])
            for index: Int64 in 1...3 { #expect(try space.scalar(Self.countInChunk(index)) == (index == 3 ? 2 : 1)) }
        }
    }
}
