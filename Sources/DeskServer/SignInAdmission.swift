import DeskCore
import Foundation

/// Who may put a sign-in on the password-hashing queue, decided before the hash (issue 18): a
/// flood of wrong sign-ins from a few addresses filled the queue's 16 places, so every real
/// sign-in got 503 while the flood cost its sender nothing.
///
/// Three budgets, in memory, per server:
/// - places: at most `placesPerAddress` sign-ins from one client address (an IPv6 /64) on the
///   queue at once, so five flooding addresses hold at most 5 × that of its 16 places;
/// - per address: a token bucket of `perAddressPerMinute` sign-ins a minute, at most
///   `addressBurst` of them at once (a flood's first seconds must not fill the queue either); a success, or a refusal that checked no password (a wait), gives its token back,
///   so staff behind one NAT who sign in correctly never use it up;
/// - per account name: `perNamePerMinute` wrong passwords a minute for one name from every
///   address together (a success or a wait costs nothing, so an attacker's waits cannot use a
///   name's budget up); a name whose budget is spent is refused before the hash.
/// A refusal is 429 with `Retry-After`. 0 turns a budget off. Names are kept only as hashes
/// with a per-process seed; at most `maxKeys` addresses and names each are tracked (past that,
/// full buckets are forgotten, at most once a minute).
///
/// Threading rule: any thread.
public final class SignInAdmission: @unchecked Sendable {
    struct Bucket {
        var tokens: Double
        var at: Double
    }

    public let placesPerAddress: Int
    public let perAddressPerMinute: Int
    public let perNamePerMinute: Int
    /// The address bucket's size: how many sign-ins an address may make at once.
    public let addressBurst: Int
    public let maxKeys: Int
    private let lock = SimpleLock()
    private var places: [String: Int] = [:]
    private var addresses: [String: Bucket] = [:]
    private var names: [Int: Bucket] = [:]
    private var sweptAt = -Double.infinity

    public init(
        placesPerAddress: Int, perAddressPerMinute: Int, perNamePerMinute: Int, addressBurst: Int? = nil,
        maxKeys: Int = 100_000
    ) {
        self.placesPerAddress = placesPerAddress
        self.addressBurst = max(1, min(addressBurst ?? perAddressPerMinute, perAddressPerMinute))
        self.perAddressPerMinute = perAddressPerMinute
        self.perNamePerMinute = perNamePerMinute
        self.maxKeys = maxKeys
    }

    /// Why a sign-in was not admitted.
    public enum Refusal: Error, Hashable, Sendable {
        /// This address has as many sign-ins on the queue as it may.
        case placesFull
        /// This address's budget is spent: retry after the seconds given.
        case address(retryAfter: Int)
        /// This name's budget of wrong passwords is spent.
        case name(retryAfter: Int)

        /// The words of the 429 (the rule and what to do; never the name).
        public var detail: String {
            switch self {
            case .placesFull:
                return "too many sign-ins from this address at once: wait 1 s for one to finish, then try again"
            case .address(let seconds):
                return "too many sign-ins from this address: wait \(seconds) s, then try again"
            case .name(let seconds):
                return "too many failed sign-ins with this name: wait \(seconds) s, then try again"
            }
        }

        public var retryAfter: Int {
            switch self {
            case .placesFull: return 1
            case .address(let seconds), .name(let seconds): return seconds
            }
        }

        /// For `/metrics`.
        public var label: String {
            switch self {
            case .placesFull: return "places"
            case .address: return "address"
            case .name: return "name"
            }
        }
    }

    /// A place on the queue; give it back with ``finish(_:checked:succeeded:now:)``.
    public struct Ticket: Hashable, Sendable {
        let address: String
        let name: Int
    }

    /// How a sign-in ended, for its budgets.
    public enum Outcome: Sendable {
        case succeeded
        /// Refused after checking a password: a wrong one (or an unknown name's decoy).
        case failedAfterCheck
        /// Refused without a password check (a wait, bad input, a busy store).
        case refusedUnchecked
    }

    /// Admits a sign-in from `address` (already keyed: ``CodeRequestLimiter/key(_:)``) for
    /// `name` at `now` (seconds, monotonic), or says why not.
    public func admit(address: String, name: String, now: Double) -> Result<Ticket, Refusal> {
        let nameKey = Self.nameKey(name)
        return lock.withLock { () -> Result<Ticket, Refusal> in
            sweepIfFull(now: now)
            if placesPerAddress > 0, places[address, default: 0] >= placesPerAddress { return .failure(.placesFull) }
            if perNamePerMinute > 0 {
                let bucket = refill(names[nameKey], capacity: perNamePerMinute, now: now)
                if bucket.tokens < 1 {
                    return .failure(.name(retryAfter: Self.seconds(until: bucket, perMinute: perNamePerMinute)))
                }
            }
            if perAddressPerMinute > 0 {
                var bucket = refillAddress(addresses[address], now: now)
                if bucket.tokens < 1 {
                    return .failure(.address(retryAfter: Self.seconds(until: bucket, perMinute: perAddressPerMinute)))
                }
                bucket.tokens -= 1
                addresses[address] = bucket
            }
            places[address, default: 0] += 1
            return .success(Ticket(address: address, name: nameKey))
        }
    }

    /// The sign-in of `ticket` was answered.
    public func finish(_ ticket: Ticket, _ outcome: Outcome, now: Double) {
        lock.withLock {
            let left = (places[ticket.address] ?? 1) - 1
            places[ticket.address] = left > 0 ? left : nil
            switch outcome {
            case .succeeded, .refusedUnchecked:
                if perAddressPerMinute > 0, var bucket = addresses[ticket.address] {
                    bucket = refillAddress(bucket, now: now)
                    bucket.tokens = min(Double(addressBurst), bucket.tokens + 1)
                    addresses[ticket.address] = bucket
                }
            case .failedAfterCheck:
                if perNamePerMinute > 0 {
                    var bucket = refill(names[ticket.name], capacity: perNamePerMinute, now: now)
                    bucket.tokens = max(0, bucket.tokens - 1)
                    names[ticket.name] = bucket
                }
            }
        }
    }

    /// Sign-ins on the queue from `address` now (tests).
    public func placesTaken(address: String) -> Int { lock.withLock { places[address] ?? 0 } }

    static func nameKey(_ name: String) -> Int {
        var hasher = Hasher()
        hasher.combine(name.lowercased().trimmingCharacters(in: .whitespaces))
        return hasher.finalize()
    }

    /// `bucket` brought up to `now` at `perMinute` a minute, at most `capacity` (a new one is full).
    private func refill(_ bucket: Bucket?, capacity: Int, perMinute: Int? = nil, now: Double) -> Bucket {
        guard let bucket else { return Bucket(tokens: Double(capacity), at: now) }
        let rate = Double(perMinute ?? capacity) / 60
        return Bucket(tokens: min(Double(capacity), bucket.tokens + max(0, now - bucket.at) * rate), at: now)
    }

    private func refillAddress(_ bucket: Bucket?, now: Double) -> Bucket {
        refill(bucket, capacity: addressBurst, perMinute: perAddressPerMinute, now: now)
    }

    private static func seconds(until bucket: Bucket, perMinute: Int) -> Int {
        max(1, Int(((1 - bucket.tokens) / (Double(perMinute) / 60)).rounded(.up)))
    }

    /// Under the lock: when a table is full, forgets the buckets that have refilled (at most
    /// once a minute).
    private func sweepIfFull(now: Double) {
        guard addresses.count >= maxKeys || names.count >= maxKeys, now - sweptAt >= 60 else { return }
        sweptAt = now
        addresses = addresses.filter { refillAddress($0.value, now: now).tokens < Double(addressBurst) }
        names = names.filter {
            refill($0.value, capacity: perNamePerMinute, now: now).tokens < Double(perNamePerMinute)
        }
        if addresses.count >= maxKeys { addresses.removeAll() }
        if names.count >= maxKeys { names.removeAll() }
    }
}
