import CivilCalendar
import DeskCore

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Group commit of the phone API's writes (issue 23): authorisations and uploads that wait for
/// the write lock at the same time are committed together.
///
/// A caller queues its transaction body. If no batch is being written, it becomes the writer:
/// it takes every body queued by then, runs each inside a savepoint of one `BEGIN IMMEDIATE`
/// transaction, and commits once; otherwise it waits until a writer has committed its body.
/// Each caller gets its own result, and only after the commit that holds its rows. A body that
/// fails is rolled back to its savepoint, so it never fails another's; a commit that fails, or
/// a failure that aborts the whole transaction (a full disk), re-runs every body in a
/// transaction of its own, as if they had never been batched.
///
/// One body runs at a time, in queue order, on the writer's thread: a second authorisation of
/// a code in the same batch sees the first one's row, exactly as in two transactions one after
/// the other; the audit chain reads the entry the previous body appended.
final class GroupCommit: @unchecked Sendable {
    /// One queued body and, once its batch committed, its outcome.
    final class Slot {
        let operation: String
        /// Runs the body on the connection and keeps its result (inside the caller's closure).
        let run: (SQLiteConnection) -> StoreError?
        var failure: StoreError?
        var done = false

        init(operation: String, run: @escaping (SQLiteConnection) -> StoreError?) {
            self.operation = operation
            self.run = run
        }
    }

    private var mutex = pthread_mutex_t()
    private var wake = pthread_cond_t()
    private var queue: [Slot] = []
    private var writing = false
    /// The most bodies one transaction holds.
    let maxBatch: Int
    /// Batches written and bodies in them (for tests).
    private var batches = 0
    private var bodies = 0

    init(maxBatch: Int = 64) {
        self.maxBatch = max(1, maxBatch)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&wake, nil)
    }

    deinit {
        pthread_cond_destroy(&wake)
        pthread_mutex_destroy(&mutex)
    }

    /// Batches written and the bodies in them, so far.
    var counts: (batches: Int, bodies: Int) { locked { (batches, bodies) } }
    /// Bodies waiting for a writer.
    var queued: Int { locked { queue.count } }
    /// Whether a batch is being written now.
    var isWriting: Bool { locked { writing } }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }

    /// Queues `body`, and returns once the transaction holding it has committed (or it failed).
    /// `write(batch)` writes a batch on the connection; it is called by one caller at a time.
    func submit<T: Sendable>(
        _ operation: String, _ body: (SQLiteConnection) throws(StoreError) -> T,
        write: ([Slot]) -> Void
    ) throws(StoreError) -> T {
        var result: T?
        let failure: StoreError? = withoutActuallyEscaping(body) { body in
            let slot = Slot(operation: operation) { db in
                do throws(StoreError) {
                    result = try body(db)
                    return nil
                } catch {
                    result = nil
                    return error
                }
            }
            pthread_mutex_lock(&mutex)
            queue.append(slot)
            while !slot.done {
                if writing {
                    pthread_cond_wait(&wake, &mutex)
                    continue
                }
                writing = true
                let batch = Array(queue.prefix(maxBatch))
                queue.removeFirst(batch.count)
                pthread_mutex_unlock(&mutex)
                write(batch)
                pthread_mutex_lock(&mutex)
                batches += 1
                bodies += batch.count
                for done in batch { done.done = true }
                writing = false
                pthread_cond_broadcast(&wake)
            }
            pthread_mutex_unlock(&mutex)
            return slot.failure
        }
        if let failure { throw failure }
        guard let result else { throw StoreError.failed(operation: operation, reason: "no result") }
        return result
    }

    /// Writes `batch` on `db` (the caller holds the connection): one transaction, a savepoint
    /// per body when there are several; see the type's comment for failures.
    static func write(_ batch: [Slot], on db: SQLiteConnection) {
        if batch.count == 1 {
            let slot = batch[0]
            slot.failure = alone(slot, on: db)
            return
        }
        do throws(StoreError) {
            try db.execute("BEGIN IMMEDIATE", operation: batch[0].operation)
        } catch {
            for slot in batch { slot.failure = error }
            return
        }
        var aborted = false
        for slot in batch {
            do throws(StoreError) {
                try db.execute("SAVEPOINT phone_write", operation: slot.operation)
                if let failure = slot.run(db) {
                    slot.failure = failure
                    // A failure SQLite ended the whole transaction for: the others must be re-run.
                    if db.inAutocommit {
                        aborted = true
                        break
                    }
                    try db.execute("ROLLBACK TO phone_write", operation: slot.operation)
                }
                try db.execute("RELEASE phone_write", operation: slot.operation)
            } catch {
                aborted = true
                break
            }
        }
        if !aborted {
            do throws(StoreError) {
                try db.execute("COMMIT", operation: batch[0].operation)
                return
            } catch {}
        }
        db.rollbackIfOpen()
        // As if never batched: each body in a transaction of its own.
        for slot in batch { slot.failure = alone(slot, on: db) }
    }

    /// `slot`'s body in a transaction of its own.
    private static func alone(_ slot: Slot, on db: SQLiteConnection) -> StoreError? {
        do throws(StoreError) {
            return try db.transaction(operation: slot.operation) { () throws(StoreError) -> StoreError? in
                if let failure = slot.run(db) { throw failure }
                return nil
            }
        } catch {
            return error
        }
    }
}
