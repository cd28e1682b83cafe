import DeskContract
import DeskCore
import DeskStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The published chunks as phones download them: the index over the last days, and each
/// chunk's stored zip. Chunks never change once published, so their bytes are kept in memory
/// after the first read (bounded; the oldest indexes go first) and never rebuilt.
///
/// Threading rule: safe from any thread.
public final class ChunkFiles: @unchecked Sendable {
    let store: any Store
    let clock: any Clock
    /// Chunks older than this are no longer offered (retention deletes them later).
    let lifetime: TimeInterval
    let maximumCachedBytes: Int
    private let lock = SimpleLock()
    private var cached: [Int64: (zip: [UInt8], publishedAt: Date)] = [:]
    private var cachedBytes = 0

    public init(store: any Store, clock: any Clock, lifetimeDays: Int = 14, maximumCachedBytes: Int = 64 << 20) {
        self.store = store
        self.clock = clock
        self.lifetime = TimeInterval(lifetimeDays) * 86_400
        self.maximumCachedBytes = maximumCachedBytes
    }

    /// Oldest and newest index on offer; nil when no chunk is.
    public func index() throws(ServiceError) -> ClosedRange<Int64>? {
        do {
            return try store.chunkIndexRange(since: clock.now().addingTimeInterval(-lifetime))
        } catch {
            throw ServiceError(error)
        }
    }

    /// The zip of chunk `index`, if it is on offer.
    public func zip(_ index: Int64) throws(ServiceError) -> [UInt8]? {
        let since = clock.now().addingTimeInterval(-lifetime)
        let hit = lock.withLock { () -> [UInt8]? in
            guard let entry = cached[index] else { return nil }
            if entry.publishedAt >= since { return entry.zip }
            cached[index] = nil
            cachedBytes -= entry.zip.count
            return nil
        }
        if let hit { return hit }
        let found: (zip: [UInt8], publishedAt: Date)?
        do {
            found = try store.chunkZip(index: index, since: since)
        } catch {
            throw ServiceError(error)
        }
        guard let found else { return nil }
        lock.withLock {
            guard cached[index] == nil, found.zip.count <= maximumCachedBytes else { return }
            cached[index] = found
            cachedBytes += found.zip.count
            while cachedBytes > maximumCachedBytes, let oldest = cached.keys.min() {
                cachedBytes -= cached.removeValue(forKey: oldest)?.zip.count ?? 0
            }
        }
        return found.zip
    }
}
