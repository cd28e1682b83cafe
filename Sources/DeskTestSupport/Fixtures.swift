import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh directory under the system's temporary directory, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    public var path: String { url.path }

    /// `prefix` names the suite, so a directory left by a crashed run says whose it was.
    public init(_ prefix: String = "tracedesk-tests") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A file's path inside the directory.
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Runs `body` with a fresh temporary directory, removed afterwards.
public func withTemporaryDirectory<T>(
    _ prefix: String = "tracedesk-tests", _ body: (URL) async throws -> T
) async throws -> T {
    let directory = try TemporaryDirectory(prefix)
    let result = try await body(directory.url)
    withExtendedLifetime(directory) {}
    return result
}

/// Runs `body` with a fresh temporary directory, removed afterwards (for tests that are not async).
@discardableResult
public func withTemporaryDirectory<T>(_ prefix: String = "tracedesk-tests", _ body: (URL) throws -> T) throws -> T {
    let directory = try TemporaryDirectory(prefix)
    return try withExtendedLifetime(directory) { try body(directory.url) }
}

/// Lines written by a server's log or access log, kept for a test to read (any thread).
public final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    public init() {}

    public func append(_ line: String) { lock.withLock { lines.append(line) } }
    public var all: [String] { lock.withLock { lines } }
}

/// A loopback port that was free a moment ago (bound to 0, then released): for a process that
/// must be told its port before it starts (a fake run by python3, a server restarted on the
/// same port). Prefer port 0 wherever the code under test reports the port it got.
public func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw CocoaError(.fileReadUnknown) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw CocoaError(.fileReadUnknown) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else { throw CocoaError(.fileReadUnknown) }
    return UInt16(bigEndian: address.sin_port)
}

/// Runs blocking work (sockets, processes, waits) on its own thread, so it never holds one of
/// the few threads of Swift's cooperative pool that every other async test needs.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        thread.start()
    }
}
