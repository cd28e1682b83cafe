import Foundation

/// When a run ends: the plan's duration after it started, or the moment ``Simulation/finish()``
/// was called if that comes first. Every session, registration batch, contact upload and round
/// asks it before it starts; what has started finishes.
///
/// Why a finish at all: a caller that knows what it needs from a run (a test: each flow once)
/// ends it when that is done, instead of guessing a duration long enough for a loaded machine.
/// Threading rule: any task may ask or finish, at any time (under a lock).
final class RunEnd: @unchecked Sendable {
    private let lock = NSLock()
    /// Nil until the run starts.
    private var deadline: ContinuousClock.Instant?
    private var finished = false

    /// The run starts now and lasts `duration` (none at all if it was finished already).
    func begin(lasting duration: Duration) {
        lock.withLock { deadline = finished ? .now : .now + duration }
    }

    /// Ends the run now: nothing new starts; what is in flight finishes.
    func finish() {
        lock.withLock {
            finished = true
            if let deadline { self.deadline = min(deadline, .now) }
        }
    }

    /// Whether something due at `instant` (by default now) may still start.
    func admits(_ instant: ContinuousClock.Instant = .now) -> Bool {
        lock.withLock { deadline.map { instant < $0 } ?? false }
    }
}
