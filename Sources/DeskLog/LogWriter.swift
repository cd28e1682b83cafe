import DeskCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The one way a log line reaches a file descriptor (stderr for the server's log and its access
/// log): a `write(2)` that cannot trap and cannot kill the process.
///
/// Why: `FileHandle.write(_:)` traps when the write fails, so a log on a full disk took the
/// server down at its first incident line; and a log read through a pipe whose reader went away
/// killed it by SIGPIPE. Here a line that cannot be written whole is dropped and counted
/// (`tracedesk_log_write_failures_total`), and the server carries on: the log is a witness, not
/// a dependency. ``ignoreBrokenPipes()`` must be called once at start so that a write to a gone
/// reader fails with EPIPE instead of raising the signal.
///
/// Thread-safe: a lock keeps lines from different threads whole and in order.
public final class LogWriter: @unchecked Sendable {
    /// Writes to standard error: the server's log and access log.
    public static let standardError = LogWriter(descriptor: 2)

    private let descriptor: Int32
    private let lock = SimpleLock()
    private var dropped = 0

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Makes a write to a pipe or socket without a reader fail with EPIPE instead of killing the
    /// process (SIGPIPE's default). Sockets already write with MSG_NOSIGNAL; this covers the log.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Lines dropped because they could not be written (a full disk, a gone reader, a closed
    /// descriptor), since start.
    public var failures: Int { lock.withLock { dropped } }

    /// Writes `text` and a newline; false (and counted) when it could not be written.
    @discardableResult
    public func line(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        bytes.append(0x0A)
        return write(bytes, lines: 1)
    }

    /// Writes `bytes` (`lines` complete lines) whole, or counts those lines as dropped.
    @discardableResult
    public func write(_ bytes: [UInt8], lines: Int) -> Bool {
        lock.withLock {
            let written = bytes.withUnsafeBytes { raw -> Bool in
                guard let base = raw.baseAddress else { return true }
                var offset = 0
                var stalls = 0
                while offset < raw.count {
                    let n = Glibc.write(descriptor, base + offset, raw.count - offset)
                    if n > 0 {
                        offset += n
                        continue
                    }
                    // Interrupted: try again. A non-blocking descriptor that is full: a few short
                    // waits, then drop (a log must not hold a request thread for long).
                    if n < 0 && errno == EINTR { continue }
                    if n < 0 && errno == EAGAIN && stalls < 20 {
                        stalls += 1
                        usleep(1_000)
                        continue
                    }
                    return false
                }
                return true
            }
            if !written { dropped += lines }
            return written
        }
    }
}
