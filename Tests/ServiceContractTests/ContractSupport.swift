import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskRemote
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// Which desk a contract test runs against.
enum DeskKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `LocalDesk` over a SQLite file.
    case local
    /// `RemoteDesk` → a real `TraceDeskServer` on 127.0.0.1 (ephemeral ports) → its `LocalDesk`
    /// over a SQLite file.
    case remote

    var testDescription: String { rawValue }
}

/// A desk of either kind over a fresh SQLite file in its own directory, on a fixed clock shared
/// by the test, the desk and (remote) the server. The policies are given the same way to both:
/// to `LocalDesk` directly, to the server through its settings.
final class ContractFixture: @unchecked Sendable {
    /// 2026-11-29 10:00:00 UTC.
    static let start = Date(timeIntervalSince1970: 1_795_946_400)
    static let today = CivilDay(iso: "2026-11-29")!

    let kind: DeskKind
    let clock: FixedClock
    let directory: URL
    let store: SQLiteStore
    let desk: any DeskService
    let server: TraceDeskServer?
    let logLines = LogLines()
    let accessLines = LogLines()

    init(
        _ kind: DeskKind, sessionHours: Int = 12, idleMinutes: Int = 10, failuresBeforeLock: Int = 100,
        remoteOptions: RemoteDesk.Options = RemoteDesk.Options(attempts: 2, firstBackoff: .milliseconds(50))
    ) throws {
        self.kind = kind
        clock = FixedClock(Self.start)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-contract-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory.appendingPathComponent("tracedesk.sqlite").path)
        switch kind {
        case .local:
            server = nil
            desk = LocalDesk(
                store: store, clock: clock,
                sessions: SessionPolicy(maximumSeconds: sessionHours * 3600, idleSeconds: idleMinutes * 60),
                signIns: SignInPolicy(failuresBeforeLock: failuresBeforeLock), hasher: TestHashing.cheap)
        case .remote:
            var config = ServerConfig.loopbackForTests()
            config.sessionHours = sessionHours
            config.sessionIdleMinutes = idleMinutes
            config.signInFailuresBeforeLock = failuresBeforeLock
            // The server's admission budgets are its own (SignInHTTPTests, e2e hardening-signin):
            // the contract is the desk's, and its tests sign in many times from one address.
            config.signInPlacesPerAddress = 0
            config.signInPerAddressPerMinute = 0
            config.signInPerNamePerMinute = 0
            let server = try TraceDeskServer.startedForTests(
                config: config, store: store, clock: clock, log: logLines, access: accessLines)
            self.server = server
            desk = RemoteDesk(
                url: URL(string: "http://127.0.0.1:\(server.internalPort)")!, clock: clock, options: remoteOptions)
        }
    }

    deinit {
        server?.stop(grace: .seconds(2))
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `body` with a fresh fixture of `kind`.
    static func with<T>(
        _ kind: DeskKind, sessionHours: Int = 12, idleMinutes: Int = 10, failuresBeforeLock: Int = 100,
        _ body: (ContractFixture) async throws -> T
    ) async throws -> T {
        let fixture = try ContractFixture(
            kind, sessionHours: sessionHours, idleMinutes: idleMinutes, failuresBeforeLock: failuresBeforeLock)
        return try await body(fixture)
    }

    // MARK: People

    static let adminPassword = "admin-pass-1234"
    static let password = "correct horse 42"

    /// The first admin, signed in.
    func admin() async throws -> StaffSession {
        try await desk.createFirstAdmin(name: "root", password: Self.adminPassword)
    }

    /// Adds `name` with `role` (by `admin`) and signs them in.
    func person(_ name: String, _ role: StaffRole, by admin: StaffSession) async throws -> StaffSession {
        _ = try await desk.addStaff(admin, name: name, role: role, password: Self.password)
        return try await desk.signIn(name: name, password: Self.password)
    }

    /// A signed-in session of every role (the admin first).
    func everyRole() async throws -> [StaffRole: StaffSession] {
        let admin = try await admin()
        var sessions: [StaffRole: StaffSession] = [.admin: admin]
        for role in StaffRole.allCases where role != .admin {
            sessions[role] = try await person("\(role.rawValue)1", role, by: admin)
        }
        return sessions
    }

    /// Every audit entry, oldest first, read straight from the store.
    func auditTrail() throws -> [AuditEntry] { try store.auditEntries(after: 0, limit: 10_000) }
}

/// Fresh valid codes: nine random characters and their check character.
enum Codes {
    static func fresh() -> String {
        let alphabet = OtpRules.alphabet
        var prefix = ""
        for _ in 0..<9 { prefix.append(alphabet[Int.random(in: 0..<alphabet.count)]) }
        return prefix + String(OtpRules.checkCharacter(for: prefix)!)
    }

    static func hash(_ code: String) -> OtpHash { try! Otp(operatorInput: code).hash }
}

/// The error a call threw, or nil when it returned.
func failure<T>(_ body: () async throws(ServiceError) -> T) async -> ServiceError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

extension ServiceError {
    var isForbidden: Bool {
        if case .forbidden = self { return true }
        return false
    }
    var isNotSignedIn: Bool {
        if case .notSignedIn = self { return true }
        return false
    }
}
