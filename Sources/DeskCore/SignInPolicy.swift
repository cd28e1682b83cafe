/// How failed sign-ins slow down and finally lock an account, so that an attacker cannot use
/// them against the account's owner.
///
/// Failures are counted per (account, source), a source being the client's network address
/// (an IPv6 /64) or "local" for the console and CLI on the store itself. The waits follow the
/// failing source's own failures only: an attacker who guesses from one address slows down
/// that address, and the owner, signing in from anywhere else, signs in at once. The hard lock
/// follows the account's failures from every source together (consecutive, since the last
/// success or reset): NIST SP 800-63B §5.2.2 allows at most 100 before the account is locked,
/// and with the waits a single source needs hours to get there, so a lock means many sources.
///
/// The lock still counts every attempt from the moment it is taken: no more passwords than
/// `failuresBeforeLock` are checked before the lock, however many are tried at once.
public struct SignInPolicy: Hashable, Sendable {
    /// The failure that locks the account (consecutive, from every source, since the last success).
    public var failuresBeforeLock: Int
    /// The longest wait a source is asked for between two attempts.
    public var maximumDelaySeconds: Int
    /// An attempt still unfinished this long after the latest attempt was taken is taken to
    /// be abandoned (its process died during the password check, or the servers' clocks
    /// differ): it stops holding other attempts back and counts as a failure from then on, so
    /// neither a crash nor a clock can buy more checks than the limit. Far longer than any check.
    public var abandonedAfterSeconds: Int
    /// The wait after a source's third failure, doubled for each one after it (2 s by default;
    /// a server may lengthen it, never shorten it: `sign_in_first_wait_seconds`).
    public var firstDelaySeconds: Int

    public init(
        failuresBeforeLock: Int = 100, maximumDelaySeconds: Int = 300, abandonedAfterSeconds: Int = 60,
        firstDelaySeconds: Int = 2
    ) {
        self.failuresBeforeLock = failuresBeforeLock
        self.maximumDelaySeconds = maximumDelaySeconds
        self.abandonedAfterSeconds = abandonedAfterSeconds
        self.firstDelaySeconds = firstDelaySeconds
    }

    /// Seconds a source waits after its `failures` consecutive confirmed failures, since the
    /// last of them, before its next attempt is taken: none for the first two (typos happen),
    /// then the first delay (2 s by default), doubled for each further failure (2, 4, 8…), up to
    /// the maximum.
    public func delaySeconds(afterFailures failures: Int) -> Int {
        guard failures >= 3 else { return 0 }
        let exponent = min(failures - 3, 20)
        return min(maximumDelaySeconds, max(1, firstDelaySeconds) << exponent)
    }

    /// What is known when a sign-in begins: the account's row and the source's failures.
    public struct State: Hashable, Sendable {
        public var disabled: Bool
        public var locked: Bool
        /// Attempts taken on the account since its last success or reset, from every source,
        /// those in flight included.
        public var attempts: Int
        /// Attempts whose password is being checked now (counted in `attempts` too).
        public var inFlight: Int
        /// When the latest attempt was taken (milliseconds since 1970).
        public var lastAttemptAtMs: Int64?
        /// This source's confirmed failures on the account since its own last success.
        public var sourceFailures: Int
        /// When this source's last failure was confirmed.
        public var sourceLastFailedAtMs: Int64?

        public init(
            disabled: Bool = false, locked: Bool = false, attempts: Int = 0, inFlight: Int = 0,
            lastAttemptAtMs: Int64? = nil, sourceFailures: Int = 0, sourceLastFailedAtMs: Int64? = nil
        ) {
            self.disabled = disabled
            self.locked = locked
            self.attempts = attempts
            self.inFlight = inFlight
            self.lastAttemptAtMs = lastAttemptAtMs
            self.sourceFailures = sourceFailures
            self.sourceLastFailedAtMs = sourceLastFailedAtMs
        }
    }

    /// What to do with a sign-in that begins.
    public enum Decision: Hashable, Sendable {
        /// Refused without a password check: the account is disabled.
        case disabled
        /// Refused without a password check: the account is locked.
        case locked
        /// The attempts in flight were abandoned and, counted as failures, reach the lock: lock now.
        case lockAbandoned(failures: Int)
        /// This source failed too recently: it may try again in this many seconds.
        case wait(seconds: Int)
        /// As many attempts as the lock allows are being checked: ask again when one finishes.
        case busy
        /// Take the attempt (count it, then check the password). `dropInFlight`: the attempts
        /// in flight were abandoned and stop counting as in flight.
        case check(dropInFlight: Bool)
    }

    /// The decision for a sign-in beginning at `nowMs`, from `state` alone.
    public func decide(_ state: State, nowMs: Int64) -> Decision {
        if state.disabled { return .disabled }
        if state.locked { return .locked }
        let abandonedMs = Int64(abandonedAfterSeconds) * 1000
        let abandoned = state.inFlight > 0 && (state.lastAttemptAtMs.map { nowMs - $0 >= abandonedMs } ?? true)
        let inFlight = abandoned ? 0 : state.inFlight
        // Abandoned attempts stay counted, now as failures (fail closed).
        let confirmed = state.attempts - inFlight
        if abandoned && confirmed >= failuresBeforeLock { return .lockAbandoned(failures: confirmed) }
        let delayMs = Int64(delaySeconds(afterFailures: state.sourceFailures)) * 1000
        if delayMs > 0, let last = state.sourceLastFailedAtMs {
            let remaining = min(delayMs, last + delayMs - nowMs)
            if remaining > 0 { return .wait(seconds: Int((remaining + 999) / 1000)) }
        }
        // With none in flight, the attempts were all confirmed (a higher limit elsewhere, say):
        // this one is taken, and locks if wrong.
        if inFlight > 0 && state.attempts >= failuresBeforeLock { return .busy }
        return .check(dropInFlight: abandoned)
    }

    /// Whether the account locks once its confirmed failures (every source) reach `failures`.
    public func locks(afterFailures failures: Int) -> Bool { failures >= failuresBeforeLock }
}

/// Where a sign-in comes from, as failures are counted: a client address, or the store itself.
public enum SignInSource {
    /// The console on the embedded store and CLI commands on a local store: they have no client
    /// address, and whoever runs them can read the store anyway.
    public static let local = "local"

    /// "from this address" or "from this computer", for messages.
    public static func phrase(_ source: String) -> String {
        source == local ? "on this computer" : "from this address"
    }
}
