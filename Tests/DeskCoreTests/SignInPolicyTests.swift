import DeskCore
import Testing

/// ``SignInPolicy``: the waits follow the failing source only, the lock every source together.
@Suite("Sign-in policy")
struct SignInPolicyTests {
    typealias State = SignInPolicy.State

    static let policy = SignInPolicy(failuresBeforeLock: 100, maximumDelaySeconds: 300, abandonedAfterSeconds: 60)
    static let now: Int64 = 1_000_000

    @Test(
        "decisions from the account's row and the source's failures",
        arguments: [
            // A fresh account, a fresh source.
            (State(), SignInPolicy.Decision.check(dropInFlight: false)),
            (State(disabled: true), .disabled),
            (State(locked: true, sourceFailures: 0), .locked),
            // Two failures of this source: typos, no wait.
            (State(attempts: 2, sourceFailures: 2, sourceLastFailedAtMs: now), .check(dropInFlight: false)),
            // Three: 2 s from the last, rounded up.
            (State(attempts: 3, sourceFailures: 3, sourceLastFailedAtMs: now - 500), .wait(seconds: 2)),
            (State(attempts: 3, sourceFailures: 3, sourceLastFailedAtMs: now - 2_000), .check(dropInFlight: false)),
            // Ten: 256 s; twenty: the maximum, 300 s.
            (State(attempts: 10, sourceFailures: 10, sourceLastFailedAtMs: now), .wait(seconds: 256)),
            (State(attempts: 20, sourceFailures: 20, sourceLastFailedAtMs: now), .wait(seconds: 300)),
            // 99 failures on the account from other sources; this source has none: at once.
            (State(attempts: 99, sourceFailures: 0), .check(dropInFlight: false)),
            // The account at the limit with attempts in flight: busy (no guess past the limit).
            (State(attempts: 100, inFlight: 2, lastAttemptAtMs: now), .busy),
            // ... unless they were abandoned, which then count as failures: lock.
            (State(attempts: 100, inFlight: 2, lastAttemptAtMs: now - 60_000), .lockAbandoned(failures: 100)),
            // Abandoned but under the limit: taken, and they stop counting as in flight.
            (State(attempts: 5, inFlight: 1, lastAttemptAtMs: now - 61_000), .check(dropInFlight: true)),
            // In flight, recent: taken (they hold nothing back).
            (State(attempts: 5, inFlight: 3, lastAttemptAtMs: now), .check(dropInFlight: false)),
        ])
    func decide(state: State, expected: SignInPolicy.Decision) {
        #expect(Self.policy.decide(state, nowMs: Self.now) == expected)
    }

    @Test(
        "the wait after a source's failures: none for two, then 2, 4, 8… up to the maximum",
        arguments: [(0, 0), (1, 0), (2, 0), (3, 2), (4, 4), (5, 8), (10, 256), (11, 300), (1_000, 300)])
    func delays(failures: Int, seconds: Int) {
        #expect(Self.policy.delaySeconds(afterFailures: failures) == seconds)
    }

    @Test(
        "a longer first wait (sign_in_first_wait_seconds) starts the doubling from it, up to the same maximum",
        arguments: [(2, 0), (3, 30), (4, 60), (6, 240), (7, 300), (1_000, 300)])
    func longerFirstDelay(failures: Int, seconds: Int) {
        let policy = SignInPolicy(maximumDelaySeconds: 300, firstDelaySeconds: 30)
        #expect(policy.delaySeconds(afterFailures: failures) == seconds)
    }

    @Test("the lock comes at the limit, counted over every source", arguments: [(99, false), (100, true), (150, true)])
    func lock(failures: Int, locks: Bool) {
        #expect(Self.policy.locks(afterFailures: failures) == locks)
    }

    @Test("the defaults follow NIST SP 800-63B §5.2.2: at most 100 consecutive failures")
    func defaults() {
        #expect(SignInPolicy().failuresBeforeLock == 100)
        #expect(SignInPolicy().maximumDelaySeconds == 300)
        #expect(SignInPolicy().firstDelaySeconds == 2)
    }
}
