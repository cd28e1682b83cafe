#if canImport(Glibc)
    import Glibc
#endif

/// A small pool of PostgreSQL connections, opened on demand up to `size`.
///
/// A connection goes back to the pool only when it is idle and healthy; one that broke
/// (the server restarted, the network went away) is closed, and the next use opens a new one,
/// which is how the store reconnects. A caller waits at most `waitMilliseconds` for a free
/// connection, then gets ``StoreError/locked(path:)`` (a 503 with `Retry-After` for a phone).
///
/// Threading rule: safe from any thread.
final class PGPool: @unchecked Sendable {
    let target: PGTarget
    let size: Int
    let connectTimeoutSeconds: Int
    let waitMilliseconds: Int
    /// Allocated, not stored inline: a pthread object must not move, and `&property` of a
    /// class promises no stable address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let available = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var idle: [PGConnection] = []
    private var open = 0

    init(target: PGTarget, size: Int, connectTimeoutSeconds: Int, waitMilliseconds: Int) {
        self.target = target
        self.size = max(1, size)
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.waitMilliseconds = waitMilliseconds
        mutex.initialize(to: pthread_mutex_t())
        available.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(available, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        idle.removeAll()
        pthread_cond_destroy(available)
        pthread_mutex_destroy(mutex)
        available.deallocate()
        mutex.deallocate()
    }

    /// A new connection outside the pool (for a job lock held across a whole run).
    func dedicated() throws(StoreError) -> PGConnection {
        try PGConnection(
            target: target, connectTimeoutSeconds: connectTimeoutSeconds, lockTimeoutMilliseconds: waitMilliseconds)
    }

    /// Adds an already-open connection (the one that ran the migrations).
    func adopt(_ connection: PGConnection) {
        pthread_mutex_lock(mutex)
        open += 1
        idle.append(connection)
        pthread_cond_signal(available)
        pthread_mutex_unlock(mutex)
    }

    /// Lends a connection to `body`. When a reused connection turns out to be dead on a first
    /// command that could not have changed anything (a `BEGIN` or a `SELECT`), every idle
    /// connection is closed (they went with the same restart or failover) and the call is made
    /// once more on a new connection: after a database restart the first request succeeds
    /// instead of failing once per pooled connection.
    func withConnection<T>(_ body: (PGConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        var attempt = 0
        while true {
            attempt += 1
            let (connection, reused) = try checkOut()
            connection.commandsSent = 0
            do {
                let result = try body(connection)
                checkIn(connection)
                return result
            } catch {
                let retry =
                    attempt == 1 && reused && connection.broken && connection.commandsSent == 1
                    && connection.firstCommandRepeatable
                checkIn(connection)
                if retry {
                    dropIdle()
                    continue
                }
                throw error
            }
        }
    }

    /// Closes every idle connection.
    func dropIdle() {
        pthread_mutex_lock(mutex)
        let dropped = idle
        idle.removeAll()
        open -= dropped.count
        pthread_cond_broadcast(available)
        pthread_mutex_unlock(mutex)
        withExtendedLifetime(dropped) {}  // closed here, outside the lock
    }

    private func checkOut() throws(StoreError) -> (PGConnection, reused: Bool) {
        pthread_mutex_lock(mutex)
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let nanos = Int(deadline.tv_nsec) + (waitMilliseconds % 1000) * 1_000_000
        deadline.tv_sec += waitMilliseconds / 1000 + nanos / 1_000_000_000
        deadline.tv_nsec = nanos % 1_000_000_000
        while idle.isEmpty && open >= size {
            if pthread_cond_timedwait(available, mutex, &deadline) == ETIMEDOUT, idle.isEmpty, open >= size {
                pthread_mutex_unlock(mutex)
                throw StoreError.locked(path: target.description)
            }
        }
        if let connection = idle.popLast() {
            pthread_mutex_unlock(mutex)
            return (connection, true)
        }
        open += 1
        pthread_mutex_unlock(mutex)
        do {
            return (
                try PGConnection(
                    target: target, connectTimeoutSeconds: connectTimeoutSeconds,
                    lockTimeoutMilliseconds: waitMilliseconds), false
            )
        } catch {
            pthread_mutex_lock(mutex)
            open -= 1
            pthread_cond_signal(available)
            pthread_mutex_unlock(mutex)
            throw error
        }
    }

    private func checkIn(_ connection: PGConnection) {
        let keep = connection.reusable
        pthread_mutex_lock(mutex)
        if keep {
            idle.append(connection)
        } else {
            open -= 1
        }
        pthread_cond_signal(available)
        pthread_mutex_unlock(mutex)
        // A dropped connection is closed here, outside the lock (PQfinish may block briefly).
    }
}
