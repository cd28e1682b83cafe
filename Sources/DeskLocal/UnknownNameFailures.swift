import DeskCore

/// Failed sign-ins with names no account has, per (name, source), in this process only, so that
/// an unknown name waits exactly as a real one does after the same failures (the same
/// ``SignInPolicy``, the same words) and a name cannot be told real by its waits.
///
/// Never stored: the store keeps no typed name (people type passwords into name fields). Only a
/// hash of the pair is kept, with a per-process seed. At most `capacity` pairs: when full,
/// pairs whose wait is long over are forgotten first, then the oldest.
///
/// What it cannot hide: a real name's failures are in the store and outlive a restart and reach
/// every server on the store; an unknown name's stay in this process (docs/security.md).
/// Threading rule: any thread.
public final class UnknownNameFailures: @unchecked Sendable {
    struct Entry {
        var failures: Int
        var lastFailedAtMs: Int64
    }

    public let capacity: Int
    private let lock = SimpleLock()
    private var entries: [Int: Entry] = [:]

    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    static func key(name: String, source: String) -> Int {
        var hasher = Hasher()
        hasher.combine(name)
        hasher.combine(source)
        return hasher.finalize()
    }

    /// The policy's state for this name and source: no account, only the source's failures.
    public func state(name: String, source: String) -> SignInPolicy.State {
        let entry = lock.withLock { entries[Self.key(name: name, source: source)] }
        return SignInPolicy.State(sourceFailures: entry?.failures ?? 0, sourceLastFailedAtMs: entry?.lastFailedAtMs)
    }

    /// One more failure for this name and source at `nowMs`.
    public func failed(name: String, source: String, nowMs: Int64, policy: SignInPolicy) {
        let key = Self.key(name: name, source: source)
        lock.withLock {
            if entries[key] == nil, entries.count >= capacity { makeRoom(nowMs: nowMs, policy: policy) }
            var entry = entries[key] ?? Entry(failures: 0, lastFailedAtMs: nowMs)
            entry.failures += 1
            entry.lastFailedAtMs = nowMs
            entries[key] = entry
        }
    }

    /// Pairs tracked now (tests).
    public var count: Int { lock.withLock { entries.count } }

    /// Under the lock: forgets pairs whose longest wait has passed; if none has, the oldest.
    private func makeRoom(nowMs: Int64, policy: SignInPolicy) {
        let over = Int64(policy.maximumDelaySeconds) * 1000
        entries = entries.filter { nowMs - $0.value.lastFailedAtMs < over }
        if entries.count >= capacity,
            let oldest = entries.min(by: { $0.value.lastFailedAtMs < $1.value.lastFailedAtMs })
        {
            entries[oldest.key] = nil
        }
    }
}
