import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port held bound but not listening, for a test that needs "a server that is
/// down" at a known address, and perhaps brings its own server up there later.
///
/// Why not a port that was free a moment ago: once released, the kernel may hand it to any
/// other test's listener (port 0) running in parallel, and the "closed" port then answers as
/// someone else's server. While this socket holds the port:
/// - a connection to it is refused (nothing listens), however long the test takes;
/// - no socket binding port 0 is given it, and none binding it by number without
///   SO_REUSEADDR may take it;
/// - a server that binds it with SO_REUSEADDR (ours do: HTTPHeadGate) may take it over, and then
///   gets every connection, since only a listening socket accepts. So the test restarts its
///   server there while still holding it, with no moment in which another test could take it.
///
/// Linux's rules for SO_REUSEADDR (two sockets may share an address while neither listens, or
/// while only one does); the suite runs on Linux only.
public final class ReservedLoopbackPort: @unchecked Sendable {
    public let port: UInt16
    private let lock = NSLock()
    private var fd: Int32

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Lets the port go (once; also done when the value is released).
    public func release() {
        let held = lock.withLock { () -> Int32 in
            defer { fd = -1 }
            return fd
        }
        if held >= 0 { close(held) }
    }

    deinit { release() }
}
