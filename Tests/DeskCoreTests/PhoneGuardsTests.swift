import DeskCore
import Testing

/// The pure rules of issue 18, point 10: the guess limit's leaky bucket and the numbers SMS
/// codes may go to.
@Suite struct PhoneGuardsTests {
    static let policy = OtpGuessPolicy(failures: 10, windowSeconds: 600)

    /// Failures at the given seconds, then the decision at `at`.
    static func decide(_ failures: [Double], at: Double, policy: OtpGuessPolicy = policy) -> OtpGuessLimit.Decision {
        var tally: OtpGuessTally?
        for time in failures { tally = OtpGuessLimit.afterFailure(tally, now: time, policy: policy) }
        return OtpGuessLimit.decision(tally, now: at, policy: policy)
    }

    struct GuessCase: Sendable, CustomTestStringConvertible {
        var failures: [Double]
        var at: Double
        var expected: OtpGuessLimit.Decision
        var testDescription: String { "\(failures.count) failures, at \(at) s: \(expected)" }
    }

    static let ten: [Double] = Array(repeating: 0, count: 10)
    static let guessCases: [GuessCase] = [
        GuessCase(failures: [], at: 0, expected: .allowed),
        GuessCase(failures: Array(repeating: 0, count: 9), at: 0, expected: .allowed),
        GuessCase(failures: ten, at: 0, expected: .refused(retryAfter: 60)),
        GuessCase(failures: ten, at: 30, expected: .refused(retryAfter: 30)),
        GuessCase(failures: ten, at: 60, expected: .allowed),
        // Capped at the limit: a flood does not lock the address out for longer.
        GuessCase(failures: Array(repeating: 0, count: 50), at: 0, expected: .refused(retryAfter: 60)),
        GuessCase(failures: ten, at: 600, expected: .allowed),
        // One a minute never fills it.
        GuessCase(failures: (0..<10).map { Double($0) * 60 }, at: 540, expected: .allowed),
        GuessCase(failures: (0..<20).map { Double($0) * 20 }, at: 380, expected: .refused(retryAfter: 60)),
        GuessCase(failures: (0..<20).map { Double($0) * 20 }, at: 400, expected: .refused(retryAfter: 40)),
    ]

    @Test(
        "the guess limit: a full bucket refuses until one failure has drained (60 s each at 10 in 600 s)",
        arguments: guessCases)
    func guessLimit(_ c: GuessCase) {
        #expect(Self.decide(c.failures, at: c.at) == c.expected)
    }

    @Test("failures 0 turns the guess limit off")
    func off() {
        let off = OtpGuessPolicy(failures: 0)
        #expect(Self.decide(Array(repeating: 0, count: 1_000), at: 0, policy: off) == .allowed)
        #expect(OtpGuessLimit.afterFailure(nil, now: 0, policy: off) == nil)
    }

    @Test("the default allows 100 wrong codes in ten minutes, well under the 300 the issue names")
    func defaults() {
        #expect(OtpGuessPolicy().failures == 100)
        #expect(OtpGuessPolicy().windowSeconds == 600)
    }

    static let italy = SmsDestinations(prefixes: ["+39"], testNumbers: false)
    static let training = SmsDestinations(prefixes: ["+39"], testNumbers: true)
    static let mobiles = SmsDestinations(prefixes: ["+378", "+393"], testNumbers: false)

    @Test(
        "the numbers SMS codes go to",
        arguments: [
            (italy, "+393331234567", true), (italy, "+390612345678", true),
            (italy, "+19005550100", false),  // premium
            (italy, "+88213000001", false),  // satellite
            (italy, "+447700900123", false),  // another country
            (italy, "+999123456789", false),  // unassigned: test numbers only with the outbox
            (training, "+999123456789", true), (training, "+19005550100", false),
            (mobiles, "+393331234567", true), (mobiles, "+390612345678", false), (mobiles, "+37866123456", true),
        ])
    func destinations(rule: SmsDestinations, number: String, allowed: Bool) throws {
        let phone = try #require(PhoneNumber(e164: number))
        let verdict = rule.verdict(for: phone)
        #expect((verdict == .allowed) == allowed)
        if case .refused(let detail) = verdict {
            #expect(!detail.contains(number) && !detail.isEmpty, "names the rule, never the number")
        }
    }

    @Test(
        "prefix lists parse: + and digits, commas between, spaces inside",
        arguments: [
            ("+39", ["+39"] as [String]?), ("+39 3, +378", ["+393", "+378"]), ("+1,+44", ["+1", "+44"]),
            ("39", nil), ("+0", nil), ("+39a", nil), ("", nil), ("+1234567890123456", nil),
        ])
    func parse(text: String, expected: [String]?) {
        switch SmsDestinations.parse(text) {
        case .success(let prefixes): #expect(prefixes == expected)
        case .failure: #expect(expected == nil)
        }
    }
}
