import DeskCore
import Foundation

/// A task executor over a few threads of its own, for async code that blocks inside: the desk's
/// calls hash passwords with scrypt (~100 ms and 32 MiB each) and wait on store transactions.
///
/// Run there with `Task(executorPreference:)`, such work holds neither a libmicrohttpd thread
/// (the connection is suspended meanwhile) nor one of the few threads of Swift's cooperative
/// pool, which everything else async in the process shares. At most `width` jobs run at once;
/// the rest wait in order.
///
/// Threading rule: `enqueue` is called from any thread.
public final class DeskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: OperationQueue
    public let width: Int
    /// Calls admitted and not yet answered, at most ``limit``: beyond it a caller is answered 503
    /// at once instead of waiting (a flood of sign-ins must not queue without bound, hold
    /// connections for minutes, or keep a stopping server busy).
    public let limit: Int
    private let lock = SimpleLock()
    private var admitted = 0
    private var stopping = false

    public init(name: String, width: Int, limit: Int? = nil) {
        self.width = max(1, width)
        self.limit = max(self.width, limit ?? self.width * 8)
        queue = OperationQueue()
        queue.name = name
        queue.maxConcurrentOperationCount = self.width
    }

    /// Takes a place for one call; false when ``limit`` calls are admitted already or the
    /// server is stopping. Every true is paired with one ``release()``.
    public func admit() -> Bool {
        lock.withLock {
            guard !stopping, admitted < limit else { return false }
            admitted += 1
            return true
        }
    }

    public func release() {
        lock.withLock { admitted = max(0, admitted - 1) }
    }

    /// From now on no call is admitted, and admitted calls that have not started are answered
    /// without their work (``isStopping``).
    public func beginStopping() {
        lock.withLock { stopping = true }
    }

    public var isStopping: Bool { lock.withLock { stopping } }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.addOperation { job.runSynchronously(on: executor) }
    }

    /// Jobs waiting or running now (for tests and metrics).
    public var backlog: Int { queue.operationCount }
}
