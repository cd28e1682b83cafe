import DeskCore
import Testing

/// ``SmsCodeLimit``: how many codes a number is sent, how often, and for how long one lives.
@Suite("SMS code limits")
struct SmsCodeLimitTests {
    static let now: Int64 = 10_000_000
    static let hour: Int64 = 3_600_000

    @Test(
        "whether a number gets a new code, from the codes of the last hour (defaults: 30 s apart, 5 an hour)",
        arguments: [
            // None in the window: at once.
            (SmsCodeHistory(count: 0, oldestAtMs: 0, newestAtMs: 0), SmsCodeLimit.Decision.issue),
            // One 10 s ago: 20 s more.
            (SmsCodeHistory(count: 1, oldestAtMs: now - 10_000, newestAtMs: now - 10_000), .wait(seconds: 20)),
            // One 29.5 s ago: rounded up to a whole second.
            (SmsCodeHistory(count: 1, oldestAtMs: now - 29_500, newestAtMs: now - 29_500), .wait(seconds: 1)),
            // One 30 s ago: at once.
            (SmsCodeHistory(count: 1, oldestAtMs: now - 30_000, newestAtMs: now - 30_000), .issue),
            // Four in the hour, the last a minute ago: a fifth.
            (SmsCodeHistory(count: 4, oldestAtMs: now - 50 * 60_000, newestAtMs: now - 60_000), .issue),
            // Five: until the first leaves the hour (it was 50 minutes ago: 10 minutes).
            (SmsCodeHistory(count: 5, oldestAtMs: now - 50 * 60_000, newestAtMs: now - 60_000), .wait(seconds: 600)),
            // Both limits: the interval is answered first.
            (SmsCodeHistory(count: 5, oldestAtMs: now - 50 * 60_000, newestAtMs: now - 5_000), .wait(seconds: 25)),
            // The first one just leaving the window: at least a second.
            (SmsCodeHistory(count: 5, oldestAtMs: now - hour, newestAtMs: now - 60_000), .wait(seconds: 1)),
        ])
    func decide(recent: SmsCodeHistory, expected: SmsCodeLimit.Decision) {
        #expect(SmsCodeLimit.decide(recent, nowMs: Self.now, policy: SmsCodePolicy()) == expected)
    }

    @Test(
        "a code lives its lifetime (at least a millisecond) and is expired from then on",
        arguments: [(Duration.seconds(300), Int64(300_000)), (.zero, 1), (.milliseconds(1_500), 1_500)])
    func lifetime(lifetime: Duration, lives: Int64) {
        var policy = SmsCodePolicy()
        policy.lifetime = lifetime
        let expires = SmsCodeLimit.expiresAtMs(issuedAtMs: Self.now, policy: policy)
        #expect(expires == Self.now + lives)
        #expect(!SmsCodeLimit.isExpired(expiresAtMs: expires, nowMs: expires - 1))
        #expect(SmsCodeLimit.isExpired(expiresAtMs: expires, nowMs: expires))
    }

    @Test("the defaults: 5 minutes a code, 5 tries, 30 s apart, 5 an hour")
    func defaults() {
        let policy = SmsCodePolicy()
        #expect(policy.lifetime == .seconds(300))
        #expect(policy.maxAttempts == 5)
        #expect(policy.minimumInterval == .seconds(30))
        #expect(policy.perHour == 5)
        #expect(SmsCodeLimit.windowMilliseconds == 3_600_000)
    }
}
