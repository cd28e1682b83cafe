import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The sd_notify datagram protocol, spoken without libsystemd: under a `Type=notify` unit
/// systemd sets `NOTIFY_SOCKET` to an AF_UNIX datagram socket (a path, or an abstract name
/// written with a leading `@`), and the service sends it newline-separated `KEY=VALUE` lines:
/// `READY=1` once it serves, `STOPPING=1` when it begins to stop, `STATUS=…` for
/// `systemctl status`.
///
/// Never fatal: without `NOTIFY_SOCKET` nothing is sent, and a socket that is gone, refuses or
/// is not a socket only makes ``send(_:)`` return the reason (the server runs on; systemd then
/// times the start out on its own, which is what it is for).
public struct ServiceNotifier: Sendable {
    /// `NOTIFY_SOCKET` as given; nil when unset or empty (not run by systemd as `Type=notify`).
    public let socket: String?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socket = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public init(socket: String?) {
        self.socket = socket.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Why a message could not be sent (never the message itself).
    public struct Failure: Error, Hashable, Sendable {
        public let reason: String
    }

    /// Sends `state` (one or more `KEY=VALUE` lines) in one datagram. Nil when sent or when there
    /// is no socket to send to; else why it could not be sent.
    @discardableResult
    public func send(_ state: String) -> Failure? {
        guard let socket else { return nil }
        guard socket.hasPrefix("/") || socket.hasPrefix("@") else {
            return Failure(reason: "NOTIFY_SOCKET must be an absolute path or an abstract name starting with @")
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var name = Array(socket.utf8)
        let abstract = name.first == UInt8(ascii: "@")
        // An abstract name is its bytes after a NUL, with no terminator; a path ends with one.
        if abstract { name[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard name.count + (abstract ? 0 : 1) <= capacity else {
            return Failure(reason: "NOTIFY_SOCKET is longer than a socket address may be (\(capacity - 1) bytes)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in name.enumerated() { path[index] = byte }
        }
        let length = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + name.count + (abstract ? 0 : 1)
        let fd = Glibc.socket(AF_UNIX, Self.datagram | Self.closeOnExec, 0)
        guard fd >= 0 else { return Failure(reason: "no datagram socket could be made: \(Self.error())") }
        defer { close(fd) }
        let bytes = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bytes.withUnsafeBytes { body in
                    sendto(fd, body.baseAddress, body.count, Self.noSignal, raw, socklen_t(length))
                }
            }
        }
        guard sent == bytes.count else { return Failure(reason: "\(socket): \(Self.error())") }
        return nil
    }

    private static func error() -> String { String(cString: strerror(errno)) }

    // Linux's SOCK_DGRAM, SOCK_CLOEXEC and MSG_NOSIGNAL (the same on x86-64 and arm64), spelled
    // out: the release build of this module (whole-module) did not find Glibc's here ("cannot
    // find 'SOCK_DGRAM' in scope") though the debug build did, and HTTPHeadGate, which also
    // imports CMicroHTTPD (whose header includes <sys/socket.h>), finds them in both.
    private static let datagram: Int32 = 2
    private static let closeOnExec: Int32 = 0o2_000_000
    private static let noSignal: Int32 = 0x4000
}
