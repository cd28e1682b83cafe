import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// A real `tracedesk serve` for the APRICOT API: both listeners on 127.0.0.1 ephemeral ports
/// (or, with `sockets` false, none: its handlers on values), over a real SQLite file, or over a fresh database of the PostgreSQL that
/// TRACEDESK_TEST_POSTGRES names (the code secret then comes from a file, as it must).
final class ApricotFixture: ServedFixture, @unchecked Sendable {
    let directory: URL
    let store: any Store
    let server: TraceDeskServer
    /// False: the server is built and never started; requests go to its handlers on values.
    let sockets: Bool
    let logLines = LogLines()
    let accessLines = LogLines()
    private var admin: AdminConnection?
    private var database: String?

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["TRACEDESK_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    }

    init(
        sockets: Bool = true, postgres: Bool = false, clock: any DeskCore.Clock = SystemClock(),
        configure: (inout ServerConfig) -> Void = { _ in }
    ) throws {
        self.sockets = sockets
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-apricot-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var config = ServerConfig()
        config.listen = ListenAddress(host: "127.0.0.1", port: 0)
        config.internalListen = ListenAddress(host: "127.0.0.1", port: 0)
        config.checkDelayMeanMs = 0
        config.checkDelaySdMs = 0
        if postgres, let base = Self.postgresURL {
            let admin = try AdminConnection(base)
            let database = "td_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
            try admin.execute("CREATE DATABASE \(database)")
            let parts = base.split(separator: "?", maxSplits: 1).map(String.init)
            let withoutQuery = parts.first ?? base
            let prefix = withoutQuery[..<(withoutQuery.lastIndex(of: "/") ?? withoutQuery.endIndex)]
            let url = prefix + "/" + database + (parts.count > 1 ? "?" + parts[1] : "")
            store = try PostgresStore(url: url, poolSize: 8, connectTimeoutSeconds: 2, waitMilliseconds: 10_000)
            self.admin = admin
            self.database = database
            let secret = directory.appendingPathComponent("code-secret").path
            try Hex.encode(SecureRandom.bytes(32)).write(toFile: secret, atomically: true, encoding: .utf8)
            config.apricotCodeSecretFile = secret
        } else {
            store = try SQLiteStore(path: directory.appendingPathComponent("tracedesk.sqlite").path)
        }
        // Tests ask for many codes from 127.0.0.1; the code-request limits are tested on their own.
        config.apricotOTPPerMinute = 0
        config.apricotOTPPerAddressPerHour = 0
        configure(&config)
        server = try TraceDeskServer.startedForTests(
            listening: sockets, config: config, store: store, clock: clock,
            appSettingsPath: ServerFixture.appSettingsPath, log: logLines, access: accessLines)
    }

    deinit {
        server.stop(grace: .seconds(2))
        try? FileManager.default.removeItem(at: directory)
        if let admin, let database { try? admin.execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
    }

    // MARK: The protocol, as an app speaks it

    static let json = "application/json; charset=utf-8"

    /// `from`: another client address (a fixture on values only).
    func post(_ path: String, _ body: [String: Any], from: String? = nil) async throws -> Reply {
        try await send(
            "POST", phone.appendingPathComponent(path), headers: ["Content-Type": Self.json],
            body: try JSONSerialization.data(withJSONObject: body), from: from)
    }

    func requestCode(
        _ number: String, app: String = "it.apricot.app", device: String = "device-1", from: String? = nil
    ) async throws -> Reply {
        try await post("apricot/v1/otp", ["phone": number, "app_id": app, "device_id": device], from: from)
    }

    /// The code the outbox holds for `number` (the newest message to it).
    func code(for number: String) throws -> String {
        let message = try #require(try store.smsOutbox(limit: 1_000).first { $0.phone.e164 == number })
        return try #require(SmsCodeText.code(in: message.text))
    }

    func login(
        _ number: String, otp: String, app: String = "it.apricot.app", device: String = "device-1"
    ) async throws -> Reply {
        try await post("apricot/v1/login", ["otp": otp, "phone": number, "app_id": app, "device_id": device])
    }

    struct Credentials {
        var userID: Int64
        var token: String
        var pseudoIDs: [String]
    }

    /// otp → the code from the outbox → login.
    func register(_ number: String, app: String = "it.apricot.app", device: String = "device-1") async throws
        -> Credentials
    {
        let asked = try await requestCode(number, app: app, device: device)
        #expect(asked.status == 204, "otp: \(asked.status) \(asked.text)")
        let reply = try await login(number, otp: try code(for: number), app: app, device: device)
        try #require(reply.status == 200, "login: \(reply.status) \(reply.text)")
        let object = try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
        return Credentials(
            userID: try #require((object["user_id"] as? NSNumber)?.int64Value),
            token: try #require(object["access_token"] as? String),
            pseudoIDs: try #require(object["pseudo_ids"] as? [String]))
    }

    func upload(
        _ token: String, day: CivilDay, _ bytes: [UInt8], clock: Int64? = nil, app: String = "it.apricot.app",
        device: String = "device-1", contentType: String = "application/octet-stream"
    ) async throws -> Reply {
        var headers = [
            "Content-Type": contentType, "Authorization": "Bearer \(token)", "Apricot-App-Id": app,
            "Apricot-Device-Id": device,
        ]
        headers["Apricot-Client-Clock"] = String(clock ?? Int64(Date().timeIntervalSince1970))
        return try await send(
            "POST", phone.appendingPathComponent("apricot/v1/contacts/\(day.iso)"), headers: headers,
            body: Data(bytes))
    }
}

/// Contact files made by hand.
enum Contacts {
    static func beacon(hex: String) -> [UInt8] { PseudoID(hex: hex)!.bytes }

    /// A beacon without the 0x88… prefix (another system's, or noise).
    static func foreign(_ seed: UInt8) -> [UInt8] { [UInt8](repeating: seed, count: 20) }

    static func file(_ records: [([UInt8], UInt32)]) -> [UInt8] {
        ContactFile.encode(records.map { ContactRecord(beacon: $0.0, time: $0.1) })
    }
}
