import DeskCore

/// The guess limit of `check-otp` and `upload` (``OtpGuessLimit``), per server and in memory:
/// failures are counted per client address (an IPv6 /64, as ``CodeRequestLimiter/key(_:)``),
/// never for dummy requests, and an address whose bucket is full is answered 429 until room
/// drains back. Servers do not share counts: behind a load balancer of N servers an address may
/// fail N times the limit, which still keeps a flood from costing anything.
///
/// At most `maxAddresses` are tracked; past that, drained ones are forgotten (one sweep a
/// minute at most) and a new address that finds no room is not counted (a flood from very many
/// addresses is the code request limiter's and the network's to stop).
///
/// Threading rule: safe from any thread (one lock).
public final class OtpGuessLimiter: @unchecked Sendable {
    public let policy: OtpGuessPolicy
    public let maxAddresses: Int
    private let lock = SimpleLock()
    private var tallies: [String: OtpGuessTally] = [:]
    private var sweptAt = -Double.infinity
    /// Where the buckets' time comes from (``Clock/intervalSeconds()``, monotonic for the system
    /// clock), as the server's other rate buckets: a test's clock drains them when it moves.
    private let clock: any Clock

    public init(policy: OtpGuessPolicy, maxAddresses: Int = 100_000, clock: any Clock = SystemClock()) {
        self.policy = policy
        self.maxAddresses = maxAddresses
        self.clock = clock
    }

    /// Whether a request from `address` is answered (a nil address, a test's, always is).
    /// `now`: seconds on the clock's interval scale (its own when nil).
    public func decision(address: String?, now: Double? = nil) -> OtpGuessLimit.Decision {
        guard let address, !policy.isOff else { return .allowed }
        let now = now ?? clock.intervalSeconds()
        let key = CodeRequestLimiter.key(address)
        return lock.withLock { OtpGuessLimit.decision(tallies[key], now: now, policy: policy) }
    }

    /// Counts a wrong code from `address`. Returns true when this failure filled the bucket
    /// (the moment to warn).
    @discardableResult
    public func recordFailure(address: String?, now: Double? = nil) -> Bool {
        guard let address, !policy.isOff else { return false }
        let now = now ?? clock.intervalSeconds()
        let key = CodeRequestLimiter.key(address)
        return lock.withLock { () -> Bool in
            if tallies[key] == nil, tallies.count >= maxAddresses {
                guard now - sweptAt >= 60 else { return false }
                sweptAt = now
                tallies = tallies.filter { OtpGuessLimit.drained($0.value, now: now, policy: policy) != nil }
                guard tallies.count < maxAddresses else { return false }
            }
            let before = OtpGuessLimit.decision(tallies[key], now: now, policy: policy)
            tallies[key] = OtpGuessLimit.afterFailure(tallies[key], now: now, policy: policy)
            return before == .allowed
                && OtpGuessLimit.decision(tallies[key], now: now, policy: policy) != .allowed
        }
    }

    /// How many addresses are tracked now.
    public var trackedAddresses: Int { lock.withLock { tallies.count } }
}
