import DeskCore
import Testing

/// The rules the store applies around ``SignInPolicy/decide(_:nowMs:)``: the counts an attempt
/// writes, what a wrong password does, which quiet refusals are audited.
@Suite("Sign-in policy: what the store writes")
struct SignInStoreRulesTests {
    typealias State = SignInPolicy.State

    static let policy = SignInPolicy(failuresBeforeLock: 100, maximumDelaySeconds: 300, abandonedAfterSeconds: 60)

    @Test(
        "taking an attempt: one more attempt and one more in flight; abandoned ones leave the flight only",
        arguments: [
            (State(), false, 1, 1),
            (State(attempts: 5, inFlight: 2), false, 6, 3),
            (State(attempts: 5, inFlight: 2), true, 6, 1),
            (State(attempts: 99, inFlight: 0), true, 100, 1),
        ])
    func taking(state: State, drop: Bool, attempts: Int, inFlight: Int) {
        let taken = SignInPolicy.taking(state, dropInFlight: drop)
        #expect(taken.attempts == attempts)
        #expect(taken.inFlight == inFlight)
    }

    @Test(
        "a wrong password: counted (and locking at the limit) only while the attempt is still on the count",
        arguments: [
            (7, Int?.some(7), SignInPolicy.Failure(failures: 7, counts: true, locks: false)),
            (100, 99, SignInPolicy.Failure(failures: 99, counts: true, locks: false)),
            (100, 100, SignInPolicy.Failure(failures: 100, counts: true, locks: true)),
            (101, 120, SignInPolicy.Failure(failures: 120, counts: true, locks: true)),
            // A reset, a success or abandoned attempts took it off the count: its own number only.
            (100, nil, SignInPolicy.Failure(failures: 100, counts: false, locks: false)),
        ])
    func failure(attempt: Int, confirmed: Int?, expected: SignInPolicy.Failure) {
        #expect(Self.policy.failure(attempt: attempt, confirmed: confirmed) == expected)
    }

    @Test(
        "refusals without a password check are audited once a second (unknown names) or a minute (an account)",
        arguments: [
            (SignInPolicy.QuietRefusal.unknownAccount, Int64?.none, true),
            (.unknownAccount, 999, false),
            (.unknownAccount, 1_000, true),
            (.refused, nil, true),
            (.refused, 59_999, false),
            (.refused, 60_000, true),
        ])
    func quietRefusals(refusal: SignInPolicy.QuietRefusal, sinceLast: Int64?, audits: Bool) {
        let now: Int64 = 5_000_000
        #expect(SignInPolicy.audits(refusal, lastAtMs: sinceLast.map { now - $0 }, nowMs: now) == audits)
    }

    @Test("other sources' failures are kept a day")
    func sourceMemory() {
        #expect(SignInPolicy.sourceMemoryMilliseconds == 86_400_000)
    }
}
