import DeskCore
import DeskCrypto
import Foundation

/// Token buckets on `POST /apricot/v1/otp`, per server and in memory: one for the whole
/// server (`perMinute` codes a minute, as a burst or spread) and one per client address
/// (`perAddressPerHour` an hour). Each code costs an SMS, so a flood of numbers from one place,
/// or from many, must not turn into a flood of SMS; the store's per-phone limit (30 s, 5 an
/// hour) cannot see either. 0 turns a bucket off.
///
/// An IPv6 client is counted by its /64 (one host holds a whole /64). At most `maxAddresses`
/// addresses are tracked: past that, those whose bucket has refilled are forgotten (at most
/// once a minute, so a full table costs one sweep a minute, not one per request), and a new
/// address that still finds no room is held to the global bucket only.
public final class CodeRequestLimiter: @unchecked Sendable {
    struct Bucket {
        var tokens: Double
        var at: Double
    }

    public let perMinute: Int
    public let perAddressPerHour: Int
    public let maxAddresses: Int
    private let lock = SimpleLock()
    private var global: Bucket?
    private var addresses: [String: Bucket] = [:]
    private var sweptAt = -Double.infinity
    static let sweepEvery: Double = 60

    public init(perMinute: Int, perAddressPerHour: Int, maxAddresses: Int = 100_000) {
        self.perMinute = perMinute
        self.perAddressPerHour = perAddressPerHour
        self.maxAddresses = maxAddresses
    }

    /// How many addresses are tracked now.
    public var trackedAddresses: Int { lock.withLock { addresses.count } }

    /// What `admit` decided.
    public enum Decision: Equatable, Sendable {
        case admitted
        /// The server's bucket is empty: retry after the seconds given.
        case serverBusy(retryAfter: Int)
        /// This address's bucket is empty.
        case addressBusy(retryAfter: Int)
    }

    /// Takes a token from the server's bucket and from `address`'s, or from neither when one
    /// is empty. `now` in seconds on a monotonic scale.
    public func admit(address: String?, now: Double) -> Decision {
        let key = address.map(Self.key)
        return lock.withLock { () -> Decision in
            let globalRate = Double(perMinute) / 60
            let addressRate = Double(perAddressPerHour) / 3_600
            var server = perMinute > 0 ? refill(global, capacity: Double(perMinute), rate: globalRate, now: now) : nil
            var own: Bucket?
            if perAddressPerHour > 0, let key {
                own = refill(addresses[key], capacity: Double(perAddressPerHour), rate: addressRate, now: now)
            }
            if let bucket = own, bucket.tokens < 1 {
                return .addressBusy(retryAfter: Self.seconds(until: bucket, rate: addressRate))
            }
            if let bucket = server, bucket.tokens < 1 {
                return .serverBusy(retryAfter: Self.seconds(until: bucket, rate: globalRate))
            }
            if server != nil {
                server!.tokens -= 1
                global = server
            }
            if var bucket = own, let key {
                bucket.tokens -= 1
                store(bucket, for: key, now: now, rate: addressRate)
            }
            return .admitted
        }
    }

    /// A bucket brought up to `now` (a new one is full).
    private func refill(_ bucket: Bucket?, capacity: Double, rate: Double, now: Double) -> Bucket {
        guard let bucket else { return Bucket(tokens: capacity, at: now) }
        return Bucket(tokens: min(capacity, bucket.tokens + max(0, now - bucket.at) * rate), at: now)
    }

    private static func seconds(until bucket: Bucket, rate: Double) -> Int {
        max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
    }

    /// Keeps `bucket` unless the table is full and cannot be swept now.
    private func store(_ bucket: Bucket, for key: String, now: Double, rate: Double) {
        if addresses[key] == nil, addresses.count >= maxAddresses {
            guard now - sweptAt >= Self.sweepEvery else { return }
            sweptAt = now
            let capacity = Double(perAddressPerHour)
            addresses = addresses.filter { $0.value.tokens + max(0, now - $0.value.at) * rate < capacity }
            guard addresses.count < maxAddresses else { return }
        }
        addresses[key] = bucket
    }

    /// The key of an address: IPv4 as it is, IPv6 by its /64.
    public static func key(_ address: String) -> String {
        guard address.contains(":") else { return address }
        var raw = in6_addr()
        guard inet_pton(AF_INET6, address, &raw) == 1 else { return address }
        return withUnsafeBytes(of: &raw) { Hex.encode($0.prefix(8)) } + "::/64"
    }
}
