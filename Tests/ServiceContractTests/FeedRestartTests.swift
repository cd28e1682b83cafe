import DeskContract
import DeskCore
import DeskRemote
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import Testing

/// A console's feed across a server restart: the long poll in flight is answered by the stop,
/// calls fail while the server is away, and the same cursor after the restart gives exactly the
/// events written meanwhile — none lost, none twice.
@Suite struct FeedRestartTests {
    static func server(_ store: SQLiteStore, port: UInt16) throws -> TraceDeskServer {
        var config = ServerConfig()
        config.listen = ListenAddress(host: "127.0.0.1", port: 0)
        config.internalListen = ListenAddress(host: "127.0.0.1", port: port)
        config.checkDelayMeanMs = 0
        config.checkDelaySdMs = 0
        let server = try TraceDeskServer(
            config: config, store: store, clock: SystemClock(), appSettingsPath: nil, accessLog: nil,
            hasher: TestHashing.cheap, log: { _ in })
        try server.start(runningJobs: false)
        return server
    }

    @Test("the server restarts during a long poll: the poll ends, the cursor resumes without loss or repeats")
    func restart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-restart-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore(path: directory.appendingPathComponent("tracedesk.sqlite").path)
        // The port stays held while the server is away, so no other test's listener is given it
        // meanwhile (the call "while away" must find nobody); each server takes it over.
        let held = try ReservedLoopbackPort()
        defer { held.release() }
        let port = held.port
        var server = try Self.server(store, port: port)
        let desk = RemoteDesk(
            url: URL(string: "http://127.0.0.1:\(port)")!,
            options: RemoteDesk.Options(attempts: 1, firstBackoff: .milliseconds(50)))
        let admin = try await desk.createFirstAdmin(name: "root", password: ContractFixture.adminPassword)
        _ = try await desk.addStaff(admin, name: "ana", role: .operator, password: ContractFixture.password)
        _ = try await desk.addStaff(admin, name: "sara", role: .supervisor, password: ContractFixture.password)
        let ana = try await desk.signIn(name: "ana", password: ContractFixture.password)
        let sara = try await desk.signIn(name: "sara", password: ContractFixture.password)
        let before = Codes.fresh()
        _ = try await desk.authorize(ana, code: before, symptomsStartedOn: Date().utcDay)
        var seen = try await desk.events(sara, after: 0, limit: 1_000, wait: .zero)
        var cursor = seen.cursor

        // A long poll waits; the server stops under it.
        let waitFrom = cursor
        let poll = Task { () async throws(ServiceError) -> EventPage in
            try await desk.events(sara, after: waitFrom, limit: 1_000, wait: .seconds(30))
        }
        try await eventually(within: .seconds(60), "the long poll waiting on the server") {
            server.staffAPI.waitingPolls == 1
        }
        let stopping = server
        try await offPool { stopping.stop(grace: .seconds(5)) }
        let ended = try await poll.value
        #expect(ended.events.isEmpty)
        #expect(ended.cursor == cursor)
        cursor = ended.cursor

        // While the server is away, codes are authorised on the store (another server, a CLI).
        let meanwhile = (0..<3).map { _ in Codes.fresh() }
        for code in meanwhile {
            _ = try store.authorize(
                otpHash: Codes.hash(code), symptomsStartedOn: Date().utcDay, by: "ana", now: Date(),
                lifetime: .seconds(150))
        }
        let away = await failure { () async throws(ServiceError) in
            try await desk.events(sara, after: cursor, limit: 1_000, wait: .zero)
        }
        guard case .unavailable = away else {
            Issue.record("a call while the server is away is unavailable, got \(String(describing: away))")
            return
        }

        // Back on the same address: the same session, the same cursor.
        server = try Self.server(store, port: port)
        seen = try await desk.events(sara, after: cursor, limit: 1_000, wait: .seconds(5))
        let tags = seen.events.filter { $0.known == .otpAuthorized }.map(\.codeTag)
        #expect(tags == meanwhile.map { Codes.hash($0).tag }, "every event written meanwhile, once, in order")
        #expect(!seen.events.contains { $0.codeTag == Codes.hash(before).tag }, "nothing from before repeats")
        let restarted = server
        try await offPool { restarted.stop(grace: .seconds(2)) }
    }
}
