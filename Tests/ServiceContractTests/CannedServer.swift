import DeskTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A listener on 127.0.0.1 that is not TraceDesk: it reads each request's head and answers
/// every connection with the same bytes (an HTML page, another program's JSON, bytes that are
/// not HTTP at all, or nothing), then closes it. Real sockets, so RemoteDesk meets exactly what
/// it would meet on the network.
final class CannedServer: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32
    private let answer: [UInt8]
    private let lock = NSLock()
    private var stopped = false
    private var requests: [String] = []

    init(answer: [UInt8]) throws {
        self.answer = answer
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
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
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw CocoaError(.fileWriteUnknown)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: actual.sin_port)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// An HTTP/1.1 response with `status`, `headers` and `body`.
    convenience init(status: String, headers: [String] = [], body: String) throws {
        var head = "HTTP/1.1 \(status)\r\n"
        for header in headers { head += header + "\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        try self.init(answer: Array((head + body).utf8))
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The heads of the requests received so far.
    var received: [String] { lock.withLock { requests } }

    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        if first {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    deinit { stop() }

    private func serve() {
        while !lock.withLock({ stopped }) {
            let client = accept(fd, nil, nil)
            if client < 0 { return }
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var head: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while head.count < 65_536 {
                let n = recv(client, &buffer, buffer.count, 0)
                if n <= 0 { break }
                head += buffer[0..<n]
                if head.count >= 4,
                    head.suffix(4) == [13, 10, 13, 10] || String(decoding: head, as: UTF8.self).contains("\r\n\r\n")
                {
                    break
                }
            }
            lock.withLock { requests.append(String(decoding: head, as: UTF8.self)) }
            var sent = 0
            while sent < answer.count {
                let n = answer[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sent += n
            }
            shutdown(client, Int32(SHUT_WR))
            // Let the client read before the socket goes (a reset could eat the answer).
            while recv(client, &buffer, buffer.count, 0) > 0 {}
            close(client)
        }
    }
}

/// A port on 127.0.0.1 where nothing listens, held so for as long as the value lives (no other
/// test's listener can be given it meanwhile; see ReservedLoopbackPort).
func closedPort() throws -> ReservedLoopbackPort { try ReservedLoopbackPort() }
