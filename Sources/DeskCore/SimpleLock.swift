#if canImport(Glibc)
    import Glibc
#else
    import Synchronization
#endif

/// A minimal lock for small critical sections, usable from FoundationEssentials-only code.
///
/// On Linux a plain `pthread_mutex_t`: Swift's `Mutex` there is a priority-inheritance futex,
/// whose contended path goes through the kernel's rt-mutex code. With a server's threads queueing
/// for the store's one SQLite connection, that path was the largest single cost in a profile
/// of `POST /v1/otp`.
#if canImport(Glibc)
    public final class SimpleLock: @unchecked Sendable {
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>

        public init() {
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }

        deinit {
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }

        public func withLock<T, E: Error>(_ body: () throws(E) -> sending T) throws(E) -> sending T {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body()
        }
    }
#else
    public final class SimpleLock: Sendable {
        private let mutex = Mutex<Void>(())

        public init() {}

        public func withLock<T, E: Error>(_ body: () throws(E) -> sending T) throws(E) -> sending T {
            try mutex.withLock { (_: inout Void) throws(E) -> sending T in try body() }
        }
    }
#endif
