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

    public init(name: String, width: Int) {
        self.width = max(1, width)
        queue = OperationQueue()
        queue.name = name
        queue.maxConcurrentOperationCount = self.width
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.addOperation { job.runSynchronously(on: executor) }
    }

    /// Jobs waiting or running now (for tests and metrics).
    public var backlog: Int { queue.operationCount }
}
