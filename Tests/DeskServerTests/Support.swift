@preconcurrency import CSQLite
import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskHTTPClient
import DeskLocal
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// A real `tracedesk serve` in-process: both listeners on 127.0.0.1 ephemeral ports (or, with
/// `sockets` false, none: its handlers on values), over a real SQLite file in its own temporary
/// directory, the shipped app-settings file.
final class ServerFixture: ServedFixture, @unchecked Sendable {
    let directory: URL
    let store: SQLiteStore
    let server: TraceDeskServer
    /// False: the server is built and never started; requests go to its handlers on values.
    let sockets: Bool
    let logLines = LogLines()
    let accessLines = LogLines()
    /// The API key of the HIS client `test-his` (no rate limit to speak of), made in the store
    /// before the server starts: what a hospital system sends on `POST /v1/otp`.
    let hisKey: String

    /// `Content-Type: application/json` and the HIS client's key: the headers of `POST /v1/otp`.
    var hisHeaders: [String: String] { ["Content-Type": "application/json", "Authorization": "Bearer \(hisKey)"] }

    /// The repository's config/app-settings.json.
    static var appSettingsPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/app-settings.json").path
    }

    init(
        sockets: Bool = true, delayMs: Int = 0, configure: (inout ServerConfig) -> Void = { _ in },
        appSettingsPath: String? = nil,
        busyTimeoutMs: Int32 = 5_000, deviceCheck: ImmuniAPI.DeviceCheck? = nil,
        attestationCheck: ImmuniAPI.AttestationCheck? = nil, clock: any DeskCore.Clock = SystemClock(),
        signing: ChunkSigning? = nil, auditKey: ECPrivateKey? = nil, setupToken: SetupToken? = nil,
        hasher: PasswordHasher = TestHashing.cheap, delays: WaitClock? = nil
    ) throws {
        self.sockets = sockets
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-server-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(
            path: directory.appendingPathComponent("tracedesk.sqlite").path, busyTimeoutMilliseconds: busyTimeoutMs)
        var config = ServerConfig.loopbackForTests()
        config.checkDelayMeanMs = delayMs
        config.checkDelaySdMs = delayMs == 0 ? 0 : 20
        configure(&config)
        hisKey = HISKey.make()
        _ = try store.addHISClient(
            name: "test-his", keyHash: HISKey.hash(hisKey), ratePerMinute: 100_000, by: "boss", now: Date())
        var nonce: ImmuniAPI.NonceMaker?
        if attestationCheck != nil { nonce = { info, salt in "\(info.province.code)-\(salt)" } }
        server = try TraceDeskServer.startedForTests(
            listening: sockets, config: config, store: store, clock: clock,
            appSettingsPath: appSettingsPath ?? Self.appSettingsPath, deviceCheck: deviceCheck,
            attestationCheck: attestationCheck, nonce: nonce, signing: signing, auditKey: auditKey,
            setupToken: setupToken, hasher: hasher, log: logLines, access: accessLines,
            delays: delays)
    }

    deinit {
        server.stop(grace: .seconds(2))
        try? FileManager.default.removeItem(at: directory)
    }

    /// Authorises `otp` directly in the store (as a console would), symptoms `daysAgo` days ago.
    func authorize(_ otp: String, daysAgo: Int = 3, lifetime: Duration = .seconds(150)) throws {
        let code = try Otp(validating: otp)
        _ = try store.authorize(
            otpHash: code.hash, symptomsStartedOn: Date().utcDay.adding(days: -daysAgo), by: "rossi", now: Date(),
            lifetime: lifetime)
    }

    /// Every event but staff actions (sign-ins and accounts the tests make along the way).
    func events() throws -> [DeskEvent] { try store.events(after: 0, limit: 10_000).filter { $0.kind != .staffAction } }
}

/// A response, read over real HTTP or given by a handler on values (``HandlerClient``).
typealias Reply = HandlerReply

/// A server of a test's fixture, and where its requests go: over real HTTP to the listeners
/// of a started server, or (`sockets` false) to the handlers of one never started, on values
/// (``HandlerClient``: no socket, so only what the handlers decide is tested). The same test
/// reads the same either way: `send(method, phone.appendingPathComponent(…))`.
protocol ServedFixture {
    var server: TraceDeskServer { get }
    var sockets: Bool { get }
}

/// The base URLs of a server that was not started: they name a listener, and reach no socket.
enum ValueListener {
    static let phone = URL(string: "http://phone.handler.invalid")!
    static let `internal` = URL(string: "http://internal.handler.invalid")!
}

extension ServedFixture {
    var phone: URL { sockets ? URL(string: "http://127.0.0.1:\(server.phonePort)")! : ValueListener.phone }
    var internalURL: URL {
        sockets ? URL(string: "http://127.0.0.1:\(server.internalPort)")! : ValueListener.internal
    }

    /// `method url` to the listener `url` names. `from`: another client address (on values only;
    /// over sockets a request comes from 127.0.0.1, see ``HTTP/raw(_:_:readTimeout:from:)``).
    func send(
        _ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil, from: String? = nil
    ) async throws -> Reply {
        if sockets {
            precondition(from == nil, "a request from another address over sockets is HTTP.raw(from:)")
            return try await HTTP.send(method, url, headers: headers, body: body)
        }
        let text = url.absoluteString
        let listeners = [(ValueListener.phone, server.phoneClient), (ValueListener.internal, server.internalClient)]
        guard let (base, client) = listeners.first(where: { text.hasPrefix($0.0.absoluteString) }) else {
            preconditionFailure("\(text) names no listener of a server on values")
        }
        let target = String(text.dropFirst(base.absoluteString.count))
        return try await client.send(method, target.isEmpty ? "/" : target, headers: headers, body: body, from: from)
    }
}

enum HTTP {
    /// The tests' one client: many connections at once (the concurrency tests), redirects not
    /// followed (a test sees the 3xx a server sent), waits far past any test's own.
    static let client = HTTPClient(options: .init(maxConnectionsPerHost: 256, keptConnections: 256))

    static func send(
        _ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Reply {
        let response = try await client.send(
            .init(
                method, url, headers: headers.map { (name: $0.key, value: $0.value) }, body: body.map(Array.init),
                connectTimeout: .seconds(60), deadline: .seconds(120), maxAnswerBytes: 64 << 20))
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name] = value }
        return Reply(status: response.status, headers: fields, body: Data(response.body))
    }

    /// Raw bytes over a socket, for what no HTTP client will send (repeated headers, broken
    /// UTF-8, a body that never ends…). Returns the whole response (the request says close).
    static func raw(_ port: UInt16, _ bytes: [UInt8], readTimeout: Int = 10, from source: String? = nil) throws -> Reply
    {
        let fd = try connect(port, readTimeout: readTimeout, from: source)
        defer { close(fd) }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }  // the server may close early (413): read what it said
            sent += n
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            response.append(contentsOf: buffer[0..<n])
        }
        return parse(response)
    }

    /// A connected socket to 127.0.0.1:`port` with a read timeout.
    /// `source`: a loopback address to send from (127.x.y.z stands for another client).
    static func connect(_ port: UInt16, readTimeout: Int = 10, from source: String? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CocoaError(.fileReadUnknown) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(fd)
                throw CocoaError(.fileReadUnknown)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw CocoaError(.fileReadUnknown)
        }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// ``raw(_:_:readTimeout:)`` off the cooperative pool.
    static func rawAsync(_ port: UInt16, _ bytes: [UInt8]) async throws -> Reply {
        try await offPool { try raw(port, bytes) }
    }

    static func parse(_ bytes: [UInt8]) -> Reply {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return Reply(status: 0, headers: [:], body: Data()) }
        let head = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: Data(text[split.upperBound...].utf8))
    }

    /// A raw request with `Connection: close` and a Content-Length matching `body`.
    static func request(_ method: String, _ path: String, headers: [String], body: [UInt8]) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }
}

/// Requests of the Immuni API, built the way the apps build them.
enum Phone {
    static let json = "application/json; charset=utf-8"

    static func hash(_ otp: String) -> String { SHA256.hex(otp) }

    static func headers(token: String, dummy: String = "0", clock: Int64? = nil) -> [String: String] {
        var h = ["Content-Type": json, "Authorization": "Bearer \(token)", "Immuni-Dummy-Data": dummy]
        if let clock { h["Immuni-Client-Clock"] = String(clock) }
        return h
    }

    /// Daily keys ending with today's (by the server's UTC day), newest last.
    static func dailyKeys(_ count: Int, startByte: UInt8 = 1) -> [[String: Any]] {
        let today = Int64(Date().timeIntervalSince1970) / 86_400 * 144
        return (0..<count).map { i in
            let bytes = [UInt8](repeating: startByte &+ UInt8(i), count: 16)
            return [
                "key_data": Data(bytes).base64EncodedString(),
                "rolling_start_number": today - Int64(count - 1 - i) * 144, "rolling_period": 144,
            ]
        }
    }

    static func uploadBody(keys: [[String: Any]], province: String? = "RM", extra: [String: Any] = [:]) -> Data {
        var body: [String: Any] = ["teks": keys, "padding": "00ab", "exposure_detection_summaries": []]
        if let province { body["province"] = province }
        for (k, v) in extra { body[k] = v }
        return try! JSONSerialization.data(withJSONObject: body)
    }

    static var now: Int64 { Int64(Date().timeIntervalSince1970) }
}

/// A second connection to the store file: holds the write lock, or counts rows.
final class SQLiteLockHolder: @unchecked Sendable {
    private var db: OpaquePointer?

    init(path: String, lock: Bool = true) throws {
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
            throw CocoaError(.fileReadUnknown)
        }
        sqlite3_busy_timeout(db, 5_000)
        if lock {
            guard sqlite3_exec(db, "BEGIN EXCLUSIVE", nil, nil, nil) == SQLITE_OK else {
                throw CocoaError(.fileLocking)
            }
        }
    }

    func release() { sqlite3_exec(db, "ROLLBACK", nil, nil, nil) }

    /// Runs one statement; whether it succeeded.
    @discardableResult
    func execute(_ sql: String) -> Bool { sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK }

    func integer(_ sql: String) -> Int64 {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { return -1 }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return -1 }
        return sqlite3_column_int64(statement, 0)
    }

    deinit { sqlite3_close_v2(db) }
}

extension ServerFixture {
    /// `SELECT count(*) FROM table`, read through a separate connection.
    func count(_ table: String) throws -> Int64 {
        try SQLiteLockHolder(path: store.path, lock: false).integer("SELECT count(*) FROM \(table)")
    }
}
