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

    public var description: String { "gave up after \(limit) waiting for: \(what) (\(file):\(line))" }
}

/// Polls `condition` until it holds, backing off from 1 ms to 100 ms between looks; throws
/// ``WaitTimedOut`` naming `what` once `within` has passed without it.
///
/// Why: a fixed sleep is either too short on a slow machine or wasted on a fast one, and a poll
/// loop that falls through silently fails later with a misleading message. The cap is a guard
/// against a hang, not a timing assertion: give it generously (30–60 s), since CI machines can be
/// four times slower than a laptop and the suite runs in parallel.
public func eventually(
    within limit: Duration = .seconds(30), _ what: @autoclosure () -> String,
    file: String = #fileID, line: Int = #line,
    _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    var pause = Duration.milliseconds(1)
    while true {
        if try await condition() { return }
        if clock.now >= deadline { throw WaitTimedOut(what: what(), limit: limit, file: file, line: line) }
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(100))
    }
}

/// ``eventually(within:_:file:line:_:)`` for a thread that is not in a task (a worker thread of a
/// store test): the same backoff, blocking the calling thread.
public func eventuallyBlocking(
    within limit: Duration = .seconds(30), _ what: @autoclosure () -> String,
    file: String = #fileID, line: Int = #line,
    _ condition: () throws -> Bool
) throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    var pauseMs = 1
    while true {
        if try condition() { return }
        if clock.now >= deadline { throw WaitTimedOut(what: what(), limit: limit, file: file, line: line) }
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
