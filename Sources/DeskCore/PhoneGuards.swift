/// How many wrong codes one client address may send to `check-otp` and `upload` (issue 18,
/// point 10a): a leaky bucket of failures that holds `failures` and drains in `windowSeconds`.
///
/// A code has about 42 bits, so guessing one is hopeless at any rate a server answers; what the
/// limit stops is a flood of guesses costing the server (and the monitor) for nothing. It must
/// not stop phones: behind one carrier NAT many phones share an address, and a phone whose
/// citizen taps "verify" before the operator has finished gets "unauthorised" and tries again.
/// The default, 100 in ten minutes, is a third of the 300 the issue names as far too many, and
/// about 30 phones behind one address each retrying three times before the operator is done
/// (docs/decisions.md, 2026-12-01). 0 turns it off.
public struct OtpGuessPolicy: Hashable, Sendable {
    public var failures: Int
    public var windowSeconds: Double

    public init(failures: Int = 100, windowSeconds: Double = 600) {
        self.failures = failures
        self.windowSeconds = windowSeconds
    }

    public var isOff: Bool { failures <= 0 || windowSeconds <= 0 }
    /// Failures that drain away each second.
    var drainPerSecond: Double { Double(failures) / windowSeconds }
}

/// The failures of one address: `level` failures as of `at` (seconds, a monotonic scale).
public struct OtpGuessTally: Hashable, Sendable {
    public var level: Double
    public var at: Double

    public init(level: Double, at: Double) {
        self.level = level
        self.at = at
    }
}

/// The guess limit's rules, as pure functions of a tally, a time and a policy.
public enum OtpGuessLimit {
    public enum Decision: Hashable, Sendable {
        case allowed
        /// Too many failures: answer 429 and ask to wait `retryAfter` seconds (at least 1).
        case refused(retryAfter: Int)
    }

    /// The tally drained up to `now` (nil: none yet, or drained to nothing).
    public static func drained(_ tally: OtpGuessTally?, now: Double, policy: OtpGuessPolicy) -> OtpGuessTally? {
        guard let tally, !policy.isOff else { return nil }
        let level = tally.level - max(0, now - tally.at) * policy.drainPerSecond
        return level > 0 ? OtpGuessTally(level: level, at: now) : nil
    }

    /// Whether a request from an address with `tally` is answered at `now`. Refused while the
    /// bucket is full: room for one more failure comes after `1 / drainPerSecond` seconds.
    public static func decision(_ tally: OtpGuessTally?, now: Double, policy: OtpGuessPolicy) -> Decision {
        guard let current = drained(tally, now: now, policy: policy) else { return .allowed }
        let room = Double(policy.failures) - current.level
        if room >= 1 { return .allowed }
        let wait = (1 - room) / policy.drainPerSecond
        return .refused(retryAfter: max(1, Int(wait.rounded(.up))))
    }

    /// The tally after one more failure at `now`.
    public static func afterFailure(_ tally: OtpGuessTally?, now: Double, policy: OtpGuessPolicy) -> OtpGuessTally? {
        guard !policy.isOff else { return nil }
        let level = drained(tally, now: now, policy: policy)?.level ?? 0
        return OtpGuessTally(level: min(Double(policy.failures), level + 1), at: now)
    }
}

/// Which numbers `POST /apricot/v1/otp` sends a paid SMS to (issue 18, point 10b): those that
/// start with one of `prefixes` (`+39`, or finer, `+39 3` for Italian mobiles), and the
/// unassigned `+999` test numbers of the simulation only where `testNumbers` is true (the
/// outbox gateway, where no SMS leaves the machine). Everything else, premium (+1 900),
/// satellite (+881, +882) or unassigned, is refused: SMS pumping pays per message sent.
public struct SmsDestinations: Hashable, Sendable {
    /// `+` and digits, longest first.
    public let prefixes: [String]
    public let testNumbers: Bool
    /// The simulation's numbers: ITU-T E.164 leaves +999 unassigned.
    public static let testPrefix = "+999"

    public init(prefixes: [String], testNumbers: Bool) {
        self.prefixes = prefixes.sorted { $0.count > $1.count }
        self.testNumbers = testNumbers
    }

    public enum Verdict: Hashable, Sendable {
        case allowed
        /// Refused; `detail` names the rule and what to do, never the number.
        case refused(detail: String)
    }

    public func verdict(for phone: PhoneNumber) -> Verdict {
        if phone.e164.hasPrefix(Self.testPrefix) {
            return testNumbers
                ? .allowed
                : .refused(
                    detail:
                        "+999 numbers are test numbers, served only where sms_gateway is outbox: use a real phone number"
                )
        }
        if prefixes.contains(where: { phone.e164.hasPrefix($0) }) { return .allowed }
        return .refused(
            detail:
                "this server sends codes only to numbers starting \(prefixes.joined(separator: ", ")): use a phone number of this country's networks"
        )
    }

    /// Parses a list of prefixes: `+` then 1 to 15 digits each, separated by commas or spaces
    /// inside one (`+39 3` is `+393`). Nil with a problem when one is malformed.
    public static func parse(_ text: String) -> Result<[String], SmsDestinationProblem> {
        var found: [String] = []
        for part in text.split(separator: ",") {
            let compact = part.filter { $0 != " " }
            let digits = compact.dropFirst()
            guard compact.hasPrefix("+"), (1...15).contains(digits.count), digits.first != "0",
                digits.allSatisfy({ ("0"..."9").contains($0) })
            else { return .failure(SmsDestinationProblem(part: String(part.prefix(20)))) }
            found.append(String(compact))
        }
        guard !found.isEmpty else { return .failure(SmsDestinationProblem(part: "")) }
        return .success(found)
    }
}

/// A prefix list that does not parse; `part` is the first wrong entry (at most 20 characters).
public struct SmsDestinationProblem: Error, Hashable, Sendable {
    public let part: String
}
