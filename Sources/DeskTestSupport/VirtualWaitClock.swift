import DeskCore
import Foundation

/// A ``WaitClock`` of a test's own: it stands still until the code under test sleeps, and then
/// moves by exactly that sleep, at once. What was slept is kept, so a test says "waited 300 ms,
/// then answered" without timing anything; ``whileAsleep(_:)`` runs something during a sleep,
/// so "an event comes while the page waits" is certain rather than hoped for.
///
/// Threading rule: safe from any task; the hook runs in the sleeping task, before the clock moves.
public final class VirtualWaitClock: @unchecked Sendable {
    private let lock = NSLock()
    private var elapsed = Duration.zero
    private var taken: [Duration] = []
    private var hook: @Sendable (_ sleep: Int) async -> Void = { _ in }

    public init() {}

    /// The clock to give the code under test.
    public var clock: WaitClock {
        WaitClock(
            now: { [self] in lock.withLock { elapsed } },
            sleep: { [self] duration in
                let number = lock.withLock {
                    taken.append(duration)
                    return taken.count
                }
                await lock.withLock { hook }(number)
                try Task.checkCancellation()
                lock.withLock { elapsed += duration }
                await Task.yield()
            })
    }

    /// Runs `body` at each sleep (numbered from 1), before the clock moves past it.
    public func whileAsleep(_ body: @escaping @Sendable (_ sleep: Int) async -> Void) {
        lock.withLock { hook = body }
    }

    /// Each sleep asked for, in order.
    public var sleeps: [Duration] { lock.withLock { taken } }
    /// All the time slept.
    public var slept: Duration { lock.withLock { elapsed } }
}
