import Foundation

/// A wait that gave up: what was waited for, for how long, and where the test asked.
///
/// Thrown by ``eventually(within:_:sourceLocation:_:)`` so the test stops there, with a message that
/// names the condition, rather than carrying on to a later expectation that fails for a reason
/// the reader then has to work back from.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public let what: String
    public let limit: Duration
    public let file: String
    public let line: Int

    /// The time on the clock, starved stretches included.
    public let elapsed: Duration

    public var description: String {
        "gave up after \(limit) waiting for: \(what) (\(elapsed) on the clock; \(file):\(line))"
    }
}

/// Polls `condition` until it holds, backing off from 1 ms to 100 ms between looks; throws
/// ``WaitTimedOut`` naming `what` once `within` has passed without it.
///
/// Why: a fixed sleep is either too short on a slow machine or wasted on a fast one, and a poll
/// loop that falls through silently fails later with a misleading message. The cap is a guard
/// against a hang, not a timing assertion: give it generously (30–60 s), since CI machines can be
/// four times slower than a laptop and the suite runs in parallel.
///
/// The cap counts the time this wait was given, not the time on the clock: a look that comes
/// back far later than its pause asked (the process starved: the two threads of Swift's
/// cooperative pool busy with other suites' synchronous work, which on a 2-core machine under
/// `swift test`'s parallel run lasted over a minute) is charged at most ``WaitBudget/maximumCharge``.
/// The work waited for was starved just the same, so charging that stretch failed tests that
/// pass alone in a second. A hang of the code under test still fails: each look is charged.
public func eventually(
    within limit: Duration = .seconds(30), _ what: @autoclosure () -> String,
    file: String = #fileID, line: Int = #line,
    _ condition: () async throws -> Bool
) async throws {
    var budget = WaitBudget(limit: limit)
    var pause = Duration.milliseconds(1)
    while true {
        if try await condition() { return }
        if budget.spent(pause: pause) {
            throw WaitTimedOut(what: what(), limit: limit, file: file, line: line, elapsed: budget.elapsed)
        }
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(100))
    }
}

/// The time a wait has been given, for ``eventually(within:_:file:line:_:)`` and
/// ``eventuallyBlocking(within:_:file:line:_:)``: each look is charged the time since the last,
/// but at most its pause plus ``maximumCharge``, so a stretch when the process was not run is
/// not taken for the code under test being slow.
public struct WaitBudget {
    /// The most one look is charged beyond its pause.
    public static let maximumCharge = Duration.seconds(1)

    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var last: ContinuousClock.Instant
    private var charged = Duration.zero
    public let limit: Duration

    public init(limit: Duration) {
        self.limit = limit
        start = clock.now
        last = start
    }

    /// Charges the look just made (after a pause of `pause`); true once `limit` is spent.
    public mutating func spent(pause: Duration) -> Bool {
        let now = clock.now
        charged += min(now - last, pause + Self.maximumCharge)
        last = now
        return charged >= limit
    }

    /// The time on the clock since the wait began.
    public var elapsed: Duration { clock.now - start }
}

/// ``eventually(within:_:file:line:_:)`` for a thread that is not in a task (a worker thread of a
/// store test): the same backoff, blocking the calling thread.
public func eventuallyBlocking(
    within limit: Duration = .seconds(30), _ what: @autoclosure () -> String,
    file: String = #fileID, line: Int = #line,
    _ condition: () throws -> Bool
) throws {
    var budget = WaitBudget(limit: limit)
    var pauseMs = 1
    while true {
        if try condition() { return }
        if budget.spent(pause: .milliseconds(pauseMs)) {
            throw WaitTimedOut(what: what(), limit: limit, file: file, line: line, elapsed: budget.elapsed)
        }
        usleep(useconds_t(pauseMs * 1_000))
        pauseMs = min(pauseMs * 2, 100)
    }
}

/// A fact one task or thread makes true once, and another waits for (with ``eventually``) or
/// checks has not happened yet.
public final class Latch: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    public init() {}

    public func set() { lock.withLock { value = true } }
    public var isSet: Bool { lock.withLock { value } }
}

/// A value one task or thread sets once (a call's outcome), and another waits for with
/// ``eventually`` and then reads.
public final class Slot<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    public init() {}

    public func set(_ value: Value) { lock.withLock { stored = value } }
    public var value: Value? { lock.withLock { stored } }
    public var isSet: Bool { value != nil }
}
