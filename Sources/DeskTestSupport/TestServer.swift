import DeskCore
import DeskCrypto
import DeskLocal
import DeskServer
import DeskStore
import Foundation

/// Password hashing for tests: scrypt with N = 2^10 (about a millisecond) instead of the
/// production 2^15 (about 100 ms, dozens of times per suite).
///
/// Given explicitly to `LocalDesk(hasher:)` and `TraceDeskServer(hasher:)`; never read from the
/// environment or a config file, so no production setup can reach it. The stored hashes carry
/// their parameters, so verification is the production code path unchanged. At least one test
/// (LocalDeskStaffTests, the rehash at sign-in) keeps the real cost.
public enum TestHashing {
    public static let cheap = PasswordHasher(logN: 10, r: 8, p: 1)
}

/// A SQLite store in a directory of its own, both removed when the value is released.
public final class TemporarySQLite: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let store: SQLiteStore
    public var path: String { store.path }

    public init(_ prefix: String = "tracedesk-tests", busyTimeoutMilliseconds: Int32 = 5_000) throws {
        directory = try TemporaryDirectory(prefix)
        store = try SQLiteStore(
            path: directory.file("tracedesk.sqlite"), busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }
}

extension ServerConfig {
    /// The settings every in-process test server starts from: both listeners on 127.0.0.1
    /// ephemeral ports (the server reports the ports it got), and no check-otp delay.
    public static func loopbackForTests() -> ServerConfig {
        var config = ServerConfig()
        config.listen = ListenAddress(host: "127.0.0.1", port: 0)
        config.internalListen = ListenAddress(host: "127.0.0.1", port: 0)
        config.checkDelayMeanMs = 0
        config.checkDelaySdMs = 0
        return config
    }
}

extension TraceDeskServer {
    /// A real server started in-process for a test: passwords hashed with ``TestHashing/cheap``,
    /// its log and access log kept in `log` and `access`, its jobs run only when the test calls
    /// them (so what a test publishes is what it asked for).
    ///
    /// `listening` false: assembled alike and never started (no socket, job or settings
    /// watcher), for tests that drive its handlers on values (``phoneClient``, ``internalClient``).
    public static func startedForTests(
        listening: Bool = true, config: ServerConfig = .loopbackForTests(), store: any Store,
        clock: any DeskCore.Clock = SystemClock(), appSettingsPath: String? = nil,
        deviceCheck: ImmuniAPI.DeviceCheck? = nil, attestationCheck: ImmuniAPI.AttestationCheck? = nil,
        nonce: ImmuniAPI.NonceMaker? = nil, signing: ChunkSigning? = nil, auditKey: ECPrivateKey? = nil,
        setupToken: SetupToken? = nil, hasher: PasswordHasher = TestHashing.cheap, log: LogLines = LogLines(),
        access: LogLines = LogLines(), delays: WaitClock? = nil
    ) throws -> TraceDeskServer {
        let server = try TraceDeskServer(
            config: config, store: store, clock: clock, appSettingsPath: appSettingsPath, deviceCheck: deviceCheck,
            attestationCheck: attestationCheck, nonce: nonce, signing: signing, auditKey: auditKey,
            accessLog: AccessLog(write: { access.append($0) }), setupToken: setupToken, hasher: hasher,
            delays: delays, log: { log.append($0) })
        if listening { try server.start(runningJobs: false) }
        return server
    }
}
