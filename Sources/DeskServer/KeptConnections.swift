import DeskCore
import Dispatch
import Foundation
import Synchronization

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
/// A request touches only its connection's own atomic clock (the state is libmicrohttpd's
/// socket context), no shared lock: the table of all connections changes only when one opens
/// or closes. An expired connection is `shutdown(SHUT_RDWR)`, never closed: libmicrohttpd then sees the
/// end of the stream and closes it itself. That happens under the lock that the closed
/// notification also takes, so a socket is never shut after libmicrohttpd closed it (and the
/// number was perhaps reused).
final class KeptConnections: @unchecked Sendable {
    /// One connection: libmicrohttpd's socket context points at it from open to close.
    final class Kept: Sendable {
        let fd: Int32
        let source: UInt64
        /// The socket's two ports: checked before a shutdown, so that a descriptor number reused
        /// by another socket of the process is never touched, whatever happened to this one.
        let ports: UInt32
        /// While reading a head: since when (uptime nanoseconds); 0 otherwise.
        let readingSince: Atomic<UInt64>

        init(fd: Int32, source: UInt64, readingSince: UInt64) {
            self.fd = fd
            self.source = source
            ports = Self.ports(fd)
            self.readingSince = Atomic(readingSince)
        }

        /// Local and remote port of a TCP socket (0 when it has none).
        static func ports(_ fd: Int32) -> UInt32 {
            func port(_ get: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32)
                -> UInt32
            {
                var address = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let ok = withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { get(fd, $0, &length) }
                }
                guard ok == 0 else { return 0 }
                // sin_port and sin6_port are at the same offset.
                return withUnsafeBytes(of: address) { UInt32($0[2]) << 8 | UInt32($0[3]) }
            }
            return port { getsockname($0, $1, $2) } << 16 | port { getpeername($0, $1, $2) }
        }

        /// The head arrived: the clock stops.
        func headArrived() { readingSince.store(0, ordering: .relaxed) }

        /// An answer is done and the connection stays open: the next head's clock starts.
        func answered(now: UInt64) { readingSince.store(max(now, 1), ordering: .relaxed) }
    }

    private let lock = SimpleLock()
    private var kept: [ObjectIdentifier: Kept] = [:]
    /// Connections handed to libmicrohttpd (reserved by the gate, then open there) in all and per
    /// address: the listener's connection caps, counted here rather than by libmicrohttpd.
    /// Why: once libmicrohttpd 0.9.75 reaches its own limits for connections handed to it
    /// (MHD_add_connection, with a thread pool), sockets are left unclosed: 1 050 slow bodies from
    /// 5 addresses left 549 in CLOSE-WAIT for good, and the listener answered nobody. So its own
    /// limits are set out of reach and the gate refuses past these.
    private var total = 0
    private var bySource: [UInt64: Int] = [:]
    /// Reservations not yet opened by libmicrohttpd, per address.
    private var pending: [UInt64: Int] = [:]

    /// Takes a place for a connection from `source` about to be handed to libmicrohttpd, or says
    /// which cap is full: `max_connections` (`"busy"`) or `max_connections_per_address`
    /// (`"address_busy"`; 0: none).
    func reserve(source: UInt64, maxTotal: Int, maxPerSource: Int) -> String? {
        lock.withLock {
            if total >= maxTotal { return "busy" }
            if maxPerSource > 0, bySource[source, default: 0] >= maxPerSource { return "address_busy" }
            total += 1
            bySource[source, default: 0] += 1
            pending[source, default: 0] += 1
            return nil
        }
    }

    /// Gives back a place `reserve` took for a connection libmicrohttpd did not take.
    func release(source: UInt64) {
        lock.withLock {
            guard let waiting = pending[source], waiting > 0 else { return }
            pending[source] = waiting == 1 ? nil : waiting - 1
            leave(source)
        }
    }

    /// Connections handed to libmicrohttpd and not yet closed there.
    var count: Int { lock.withLock { total } }

    private func leave(_ source: UInt64) {
        total = max(0, total - 1)
        let left = bySource[source, default: 1] - 1
        bySource[source] = left > 0 ? left : nil
    }

    /// A connection libmicrohttpd took; `readingHead`: its first head is still to come (TLS,
    /// where the gate cannot look). Returned retained, for the socket context.
    func opened(fd: Int32, source: UInt64, readingHead: Bool, now: UInt64) -> UnsafeMutableRawPointer {
        let connection = Kept(fd: fd, source: source, readingSince: readingHead ? max(now, 1) : 0)
        lock.withLock {
            kept[ObjectIdentifier(connection)] = connection
            // Its reservation becomes an open connection (one that came without one counts now).
            if let waiting = pending[source], waiting > 0 {
                pending[source] = waiting == 1 ? nil : waiting - 1
            } else {
                total += 1
                bySource[source, default: 0] += 1
            }
        }
        return Unmanaged.passRetained(connection).toOpaque()
    }

    /// The connection of a socket context, or nil.
    static func of(_ context: UnsafeMutableRawPointer?) -> Kept? {
        context.map { Unmanaged<Kept>.fromOpaque($0).takeUnretainedValue() }
    }

    /// libmicrohttpd is about to close the connection's socket: releases the socket context.
    func closed(_ context: UnsafeMutableRawPointer) {
        let connection = Unmanaged<Kept>.fromOpaque(context).takeRetainedValue()
        lock.withLock {
            if kept.removeValue(forKey: ObjectIdentifier(connection)) != nil { leave(connection.source) }
        }
    }

    /// Connections waiting for or reading their next head.
    var readingCount: Int {
        lock.withLock { kept.values.reduce(0) { $0 + ($1.readingSince.load(ordering: .relaxed) != 0 ? 1 : 0) } }
    }

    /// The connections reading a head, per address, and the oldest one's start.
    func readingBySource() -> [UInt64: (count: Int, oldest: UInt64)] {
        lock.withLock {
            var result: [UInt64: (count: Int, oldest: UInt64)] = [:]
            for connection in kept.values {
                let since = connection.readingSince.load(ordering: .relaxed)
                guard since != 0 else { continue }
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
            var oldest: (Kept, UInt64)?
            for connection in kept.values where connection.source == source {
                let since = connection.readingSince.load(ordering: .relaxed)
                if since != 0 && since < (oldest?.1 ?? .max) { oldest = (connection, since) }
            }
            guard let oldest else { return false }
            shut(oldest.0)
            return true
        }
    }

    /// Shuts every connection that has been reading a head for longer than `deadline`
    /// nanoseconds; how many.
    func reap(now: UInt64, deadline: UInt64) -> Int {
        lock.withLock {
            var count = 0
            for connection in kept.values {
                // `now` may be a little older than a clock started on another thread since.
                let since = connection.readingSince.load(ordering: .relaxed)
                if since != 0 && now > since && now - since > deadline {
                    shut(connection)
                    count += 1
                }
            }
            return count
        }
    }

    /// Under the lock (the closed notice takes it too: the socket is still libmicrohttpd's).
    /// No longer counted as reading: libmicrohttpd closes it at its next look.
    private func shut(_ connection: Kept) {
        connection.headArrived()
        guard connection.ports != 0, Kept.ports(connection.fd) == connection.ports else { return }
        shutdown(connection.fd, Int32(SHUT_RDWR))
    }
}
