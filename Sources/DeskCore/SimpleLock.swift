import Synchronization

/// A minimal lock for small critical sections, usable from FoundationEssentials-only code.
public final class SimpleLock: Sendable {
    private let mutex = Mutex<Void>(())

    public init() {}

    public func withLock<T, E: Error>(_ body: () throws(E) -> sending T) throws(E) -> sending T {
        try mutex.withLock { (_: inout Void) throws(E) -> sending T in try body() }
    }
}
