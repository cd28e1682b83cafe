import DeskCore
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Every connection libmicrohttpd holds, and whether it is waiting for (or slowly receiving)
/// its next request head.
///
/// Why: the head gate sees only a connection's first head. A kept-alive connection then waits
/// in libmicrohttpd for its next one, whose only limit is the idle timeout: a client could send
/// one good request and then trickle, and 1 100 such connections would hold the listener as the
/// trickle of issue 18 did. So the next head gets the same deadline, counted from the end of
/// the previous answer, and kept idle connections count against the gate's cap on connections
/// reading a head.
///
/// A connection is "reading a head" from the end of an answer (libmicrohttpd's completion
/// callback) until the next head has arrived (the access handler's first call); a request
/// being handled, suspended (long polls, check-otp's delay) or sending its body never is.
/// An expired connection is `shutdown(SHUT_RDWR)`, never closed: libmicrohttpd then sees the
/// end of the stream and closes it itself. That happens under the lock that the closed
/// notification also takes, so a socket is never shut after libmicrohttpd closed it (and the
/// number was perhaps reused).
final class KeptConnections: @unchecked Sendable {
    private struct Kept {
        let fd: Int32
        let source: UInt64
        /// Set while reading a head: since when.
        var readingSince: UInt64?
    }

    private let lock = SimpleLock()
    private var kept: [UInt: Kept] = [:]
    private var reading = 0

    /// A connection libmicrohttpd took; `readingHead`: its first head is still to come (TLS,
    /// where the gate cannot look).
    func opened(_ key: UInt, fd: Int32, source: UInt64, readingHead: Bool, now: UInt64) {
        lock.withLock {
            kept[key] = Kept(fd: fd, source: source, readingSince: readingHead ? now : nil)
            if readingHead { reading += 1 }
        }
    }

    /// The connection's head arrived: the clock stops.
    func headArrived(_ key: UInt) {
        lock.withLock { setReading(key, nil) }
    }

    /// An answer is done and the connection stays open: the next head's clock starts.
    func answered(_ key: UInt, now: UInt64) {
        lock.withLock { setReading(key, now) }
    }

    /// libmicrohttpd is about to close the connection's socket.
    func closed(_ key: UInt) {
        lock.withLock {
            if kept.removeValue(forKey: key)?.readingSince != nil { reading -= 1 }
        }
    }

    /// Connections waiting for or reading their next head.
    var readingCount: Int { lock.withLock { reading } }

    /// The connections reading a head, per address, and the oldest one's start.
    func readingBySource() -> [UInt64: (count: Int, oldest: UInt64)] {
        lock.withLock {
            var result: [UInt64: (count: Int, oldest: UInt64)] = [:]
            for connection in kept.values {
                guard let since = connection.readingSince else { continue }
                let previous = result[connection.source] ?? (0, since)
                result[connection.source] = (previous.count + 1, min(previous.oldest, since))
            }
            return result
        }
    }

    /// Shuts the connection of `source` that has been reading a head longest; whether there was one.
    @discardableResult
    func shutOldest(of source: UInt64) -> Bool {
        lock.withLock {
            let oldest = kept.filter { $0.value.source == source && $0.value.readingSince != nil }
                .min { $0.value.readingSince! < $1.value.readingSince! }
            guard let oldest else { return false }
            shut(oldest.key)
            return true
        }
    }

    /// Shuts every connection that has been reading a head for longer than `deadline`
    /// nanoseconds; how many.
    func reap(now: UInt64, deadline: UInt64) -> Int {
        lock.withLock {
            // `now` may be a little older than a clock started on another thread since.
            let expired = kept.filter { $0.value.readingSince.map { now > $0 && now - $0 > deadline } ?? false }
            for key in expired.keys { shut(key) }
            return expired.count
        }
    }

    /// Under the lock. No longer counted as reading: libmicrohttpd closes it at its next look.
    private func shut(_ key: UInt) {
        guard let connection = kept[key] else { return }
        setReading(key, nil)
        shutdown(connection.fd, Int32(SHUT_RDWR))
    }

    /// Under the lock.
    private func setReading(_ key: UInt, _ since: UInt64?) {
        guard let connection = kept[key] else { return }
        if (connection.readingSince == nil) != (since == nil) { reading += since == nil ? -1 : 1 }
        kept[key]?.readingSince = since
    }
}
