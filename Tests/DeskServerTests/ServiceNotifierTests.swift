import DeskServer
import DeskTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The sd_notify datagrams `tracedesk serve` sends systemd, received on a real AF_UNIX datagram
/// socket (a path, and an abstract name), and the sockets it cannot reach.
@Suite struct ServiceNotifierTests {
    /// A datagram socket bound to `name` (a path, or `@` and an abstract name) that the test reads.
    final class Receiver {
        let fd: Int32

        init(_ name: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var bytes = Array(name.utf8)
            let abstract = bytes.first == UInt8(ascii: "@")
            if abstract { bytes[0] = 0 }
            withUnsafeMutableBytes(of: &address.sun_path) { path in
                for (index, byte) in bytes.enumerated() { path[index] = byte }
            }
            let length = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + bytes.count + (abstract ? 0 : 1)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
            }
            guard fd >= 0, bound == 0 else { throw CocoaError(.fileWriteUnknown) }
            // A cap on each read, so a message that never comes fails the test instead of hanging it.
            var cap = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &cap, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(fd) }

        /// The next datagram, nil after the cap.
        func receive() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n < 0 ? nil : String(decoding: buffer[0..<n], as: UTF8.self)
        }
    }

    @Test func readyAndStoppingReachASocketAtAPath() throws {
        let folder = try TemporaryDirectory("notify")
        let path = folder.file("notify.sock")
        let receiver = try Receiver(path)
        let notifier = ServiceNotifier(environment: ["NOTIFY_SOCKET": path])
        #expect(notifier.send("READY=1\nSTATUS=serving") == nil)
        #expect(receiver.receive() == "READY=1\nSTATUS=serving")
        #expect(notifier.send("STOPPING=1") == nil)
        #expect(receiver.receive() == "STOPPING=1")
    }

    @Test func anAbstractNameStartsWithAnAt() throws {
        let name = "@tracedesk-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let receiver = try Receiver(name)
        let notifier = ServiceNotifier(socket: name)
        #expect(notifier.send("READY=1") == nil)
        #expect(receiver.receive() == "READY=1")
    }

    @Test func withoutNotifySocketNothingIsSent() {
        #expect(ServiceNotifier(environment: [:]).socket == nil)
        #expect(ServiceNotifier(environment: [:]).send("READY=1") == nil)
        #expect(ServiceNotifier(environment: ["NOTIFY_SOCKET": ""]).send("READY=1") == nil)
    }

    /// A socket that is gone, a relative name, a name too long for an address: a reason, never
    /// a crash, and never the message.
    @Test func aBrokenSocketGivesAReason() throws {
        let folder = try TemporaryDirectory("notify")
        let gone = ServiceNotifier(socket: folder.file("nobody-listens.sock")).send("READY=1")
        #expect(gone?.reason.contains("nobody-listens.sock") == true)
        #expect(gone?.reason.contains("READY") == false)
        #expect(ServiceNotifier(socket: "relative.sock").send("READY=1") != nil)
        #expect(ServiceNotifier(socket: "/" + String(repeating: "x", count: 200)).send("READY=1") != nil)
        // A plain file where the socket should be.
        FileManager.default.createFile(atPath: folder.file("file"), contents: Data())
        #expect(ServiceNotifier(socket: folder.file("file")).send("READY=1") != nil)
    }
}
