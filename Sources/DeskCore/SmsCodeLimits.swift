/// How often a number may be sent an APRICOT SMS code and how a code may be tried: every code
/// is a paid SMS, and a code of few digits must not be guessable by retrying.
public struct SmsCodePolicy: Hashable, Sendable {
    /// How long a code can be used.
    public var lifetime: Duration = .seconds(300)
    /// Tries of one code before a new one is needed.
    public var maxAttempts = 5
    /// The least time between two codes for one number.
    public var minimumInterval: Duration = .seconds(30)
    /// Codes one number is sent in ``SmsCodeLimit/windowMilliseconds``.
    public var perHour = 5

    public init() {}
}

/// The codes a number was sent in the last window: how many, the first and the latest.
public struct SmsCodeHistory: Hashable, Sendable {
    public var count: Int
    public var oldestAtMs: Int64
    public var newestAtMs: Int64

    public init(count: Int, oldestAtMs: Int64, newestAtMs: Int64) {
        self.count = count
        self.oldestAtMs = oldestAtMs
        self.newestAtMs = newestAtMs
    }
}

/// The SMS code limits as pure functions (the store reads the counts and writes the rows).
public enum SmsCodeLimit {
    /// The window ``SmsCodePolicy/perHour`` counts codes in (and retention keeps codes for).
    public static var windowMilliseconds: Int64 { 3_600_000 }

    public enum Decision: Hashable, Sendable {
        case issue
        /// Too soon after the last code, or the window's codes all sent: ask again after this
        /// many seconds (at least 1).
        case wait(seconds: Int)
    }

    /// Whether a number with `recent` codes in the window gets a new one at `nowMs`.
    public static func decide(_ recent: SmsCodeHistory, nowMs: Int64, policy: SmsCodePolicy) -> Decision {
        guard recent.count > 0 else { return .issue }
        let intervalMs = milliseconds(policy.minimumInterval)
        if nowMs - recent.newestAtMs < intervalMs {
            return .wait(seconds: seconds(recent.newestAtMs + intervalMs - nowMs))
        }
        if recent.count >= policy.perHour {
            return .wait(seconds: seconds(recent.oldestAtMs + windowMilliseconds - nowMs))
        }
        return .issue
    }

    /// When a code issued at `nowMs` expires (a lifetime of at least a millisecond).
    public static func expiresAtMs(issuedAtMs nowMs: Int64, policy: SmsCodePolicy) -> Int64 {
        nowMs + max(1, milliseconds(policy.lifetime))
    }

    /// Whether a code that expires at `expiresAtMs` can no longer be used at `nowMs`.
    public static func isExpired(expiresAtMs: Int64, nowMs: Int64) -> Bool { nowMs >= expiresAtMs }

    /// Whole seconds, rounded up, at least 1.
    static func seconds(_ milliseconds: Int64) -> Int { Int(max(1, (milliseconds + 999) / 1000)) }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
