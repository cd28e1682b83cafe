import CivilCalendar

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the time comes from. Injected everywhere so tests control it.
public protocol Clock: Sendable {
    func now() -> Date
    /// Seconds on a scale of the clock's own, for measuring how long passed (a rate bucket's
    /// refill): only differences mean anything.
    func intervalSeconds() -> Double
}

extension Clock {
    /// A clock of a test's own: its own time, so that a bucket refills when the test moves the
    /// clock, and not because the machine was slow.
    public func intervalSeconds() -> Double { now().timeIntervalSince1970 }
}

/// The system's wall clock.
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }

    /// Monotonic, not the wall clock: a step of the wall clock (NTP, an admin) must neither
    /// refill a rate bucket nor empty it.
    public func intervalSeconds() -> Double {
        let elapsed = ContinuousClock.now - Self.origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private static let origin = ContinuousClock.now
}

/// A clock that stands still until moved (tests, demos).
public final class FixedClock: Clock, @unchecked Sendable {
    private let lock = SimpleLock()
    private var current: Date

    public init(_ date: Date) { current = date }

    public func now() -> Date { lock.withLock { current } }

    public func advance(seconds: Double) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) { lock.withLock { current = date } }
}

/// Where a wait takes its time (a sign-in waiting for a place, a feed page waiting for an
/// event): the machine's monotonic clock, or a test's own that moves only when the waiting code
/// sleeps, so a test tells a wait that ran out from one that something ended without timing
/// anything.
public struct WaitClock: Sendable {
    /// The time on the clock's own scale: only differences mean anything.
    public let now: @Sendable () -> Duration
    /// Sleeps `duration`; throws `CancellationError` when the task is cancelled.
    public let sleep: @Sendable (Duration) async throws -> Void

    public init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The monotonic clock (not the wall clock, which NTP or an admin may step) and `Task.sleep`.
    public static let system = WaitClock(
        now: { ContinuousClock.now - systemOrigin }, sleep: { try await Task.sleep(for: $0) })

    private static let systemOrigin = ContinuousClock.now
}

extension Date {
    /// The UTC day this instant falls on.
    public var utcDay: CivilDay {
        CivilDay(unixSeconds: Int64(timeIntervalSince1970.rounded(.down)))
    }

    /// Whole milliseconds since 1970 (how the stores keep instants).
    public var unixMilliseconds: Int64 {
        // Date counts seconds from 2001, so an instant made from whole milliseconds near 1970
        // comes back a hair below them (999 ms reads 998.9999…); snap to it within 1 µs.
        let milliseconds = timeIntervalSince1970 * 1000
        let nearest = milliseconds.rounded()
        return Int64(abs(milliseconds - nearest) < 0.001 ? nearest : milliseconds.rounded(.down))
    }

    public init(unixMilliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(unixMilliseconds) / 1000)
    }
}
