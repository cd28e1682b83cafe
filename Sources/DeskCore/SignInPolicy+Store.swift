/// What the store does around a ``SignInPolicy/Decision``: the counts it writes when an attempt
/// is taken or fails, which refusals reach the audit log, and which sources' failures it keeps.
/// Pure, so the store only reads and writes rows (StaffWork) and the rules have a table test.
extension SignInPolicy {
    /// The account's counts once an attempt is taken (``Decision/check(dropInFlight:)``): one
    /// more attempt and one more in flight; abandoned ones leave the flight but stay counted.
    public static func taking(_ state: State, dropInFlight: Bool) -> (attempts: Int, inFlight: Int) {
        (state.attempts + 1, (dropInFlight ? 0 : state.inFlight) + 1)
    }

    /// What a wrong password does.
    public struct Failure: Hashable, Sendable {
        /// The number the audit entry gives the failure.
        public var failures: Int
        /// Whether it still counts (the source's failures, hence its waits, and the lock): not
        /// once a reset, a success or the abandoning of attempts took it off the account's count.
        public var counts: Bool
        /// Whether it locks the account.
        public var locks: Bool

        public init(failures: Int, counts: Bool, locks: Bool) {
            self.failures = failures
            self.counts = counts
            self.locks = locks
        }
    }

    /// A wrong password for attempt number `attempt`: `confirmed` is the account's confirmed
    /// failures once it is counted, nil when the attempt is no longer counted.
    public func failure(attempt: Int, confirmed: Int?) -> Failure {
        guard let confirmed else { return Failure(failures: attempt, counts: false, locks: false) }
        return Failure(failures: confirmed, counts: true, locks: locks(afterFailures: confirmed))
    }

    /// Sign-ins refused without a password check, which anyone can repeat: audited at most once
    /// an interval, so the log (which cannot be pruned) says it happened without being flooded.
    public enum QuietRefusal: Sendable {
        /// A name no account has (the typed name is not recorded: people type passwords into
        /// name fields): one entry a second for all of them.
        case unknownAccount
        /// A disabled or locked account: one entry per account a minute.
        case refused

        public var intervalMilliseconds: Int64 { self == .unknownAccount ? 1_000 : 60_000 }
    }

    /// Whether a refusal at `nowMs` gets an audit entry, the last like it being at `lastAtMs`.
    public static func audits(_ refusal: QuietRefusal, lastAtMs: Int64?, nowMs: Int64) -> Bool {
        guard let lastAtMs else { return true }
        return nowMs - lastAtMs >= refusal.intervalMilliseconds
    }

    /// Other sources' failures are forgotten at a success once older than this: their waits, at
    /// most ``maximumDelaySeconds``, ended long before, and the table does not grow for good.
    public static var sourceMemoryMilliseconds: Int64 { 24 * 3_600_000 }
}
