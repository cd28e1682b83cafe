import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import DeskRemote
import DeskServer
import DeskStore
import DeskTestSupport
import Foundation
import TerminalKit
import Testing

/// A real `TraceDeskServer` on 127.0.0.1 over a SQLite file, that a test can stop and start
/// again on the same port, with its access log kept; a `RemoteDesk` to it. The server, the desk
/// and the test share one fixed clock.
final class LoopbackDesk: @unchecked Sendable {
    let directory: URL
    let store: SQLiteStore
    let clock = FixedClock(Fixture.now)
    let access = AccessLines()
    private(set) var server: TraceDeskServer
    let port: UInt16
    /// Holds the port while the server is away, so that no other test's listener is given it
    /// (the desk must find nobody there); each server takes it over.
    private let held: ReservedLoopbackPort
    let desk: RemoteDesk

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-console-remote-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory.appendingPathComponent("tracedesk.sqlite").path)
        held = try ReservedLoopbackPort()
        port = held.port
        server = try Self.start(store, clock: clock, port: port, access: access)
        desk = RemoteDesk(
            url: URL(string: "http://127.0.0.1:\(port)")!, clock: clock,
            options: RemoteDesk.Options(attempts: 1, firstBackoff: .milliseconds(50)))
    }

    deinit {
        server.stop(grace: .seconds(2))
        try? FileManager.default.removeItem(at: directory)
    }

    static func start(_ store: SQLiteStore, clock: FixedClock, port: UInt16, access: AccessLines) throws
        -> TraceDeskServer
    {
        var config = ServerConfig()
        config.listen = ListenAddress(host: "127.0.0.1", port: 0)
        config.internalListen = ListenAddress(host: "127.0.0.1", port: port)
        config.checkDelayMeanMs = 0
        config.checkDelaySdMs = 0
        let server = try TraceDeskServer(
            config: config, store: store, clock: clock, appSettingsPath: nil,
            accessLog: AccessLog(write: { access.append($0) }), hasher: TestHashing.cheap, log: { _ in })
        try server.start(runningJobs: false)
        return server
    }

    /// Stops the server (answering its waiting polls), off Swift's cooperative pool.
    func stop() async {
        let server = self.server
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                server.stop(grace: .seconds(5))
                done.resume()
            }.start()
        }
    }

    /// A new server on the same address, over the same store.
    func restart() throws { server = try Self.start(store, clock: clock, port: port, access: access) }

    /// The first admin and a supervisor, sara, made through the server (it hashes their passwords).
    func accounts() async throws -> StaffSession {
        let admin = try await desk.createFirstAdmin(name: "admin", password: Fixture.password)
        _ = try await desk.addStaff(admin, name: "sara", role: .supervisor, password: Fixture.password)
        return admin
    }

    /// Every event position in the store, newest first.
    func storedIDs() throws -> [Int64] { try store.events(after: 0, limit: 1_000).map(\.id).reversed() }

    func authorize(_ code: String, by actor: String) throws {
        _ = try store.authorize(
            otpHash: try Otp(operatorInput: code).hash, symptomsStartedOn: Fixture.yesterday, by: actor,
            now: clock.now(), lifetime: .seconds(150))
    }

    /// Reads of the feed the server has answered (with `status`: "200", "401", "aborted"; nil:
    /// any). The access log names the route and the status, never the query.
    func feedReads(_ status: String? = nil) -> Int {
        access.all.filter { $0.contains(" GET /staff/v1/events " + (status.map { $0 + " " } ?? "")) }.count
    }
}

final class AccessLines: @unchecked Sendable {
    private let lock = SimpleLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// The program's feed loop over a `RemoteDesk` to a real server on loopback: a server that goes
/// away mid long poll shows as reconnecting and the loop asks again from the same cursor, and
/// what the loop sends on the wire stops with the session, the sign-out and the quit.
@Suite("Program feed loop over the network", .timeLimit(.minutes(2)))
struct FeedRemoteProgramTests {
    @Test("the server goes away: reconnecting…, then asked again after the same cursor; each event once")
    func serverRestart() async throws {
        let r = try LoopbackDesk()
        _ = try await r.accounts()
        try r.authorize(Fixture.code, by: "rossi")
        let c = Console(r.desk)
        await c.signIn("sara")
        await c.press(.function(3))
        try await c.expectRows(r.storedIDs)
        #expect(await c.until { r.server.staffAPI.waitingPolls == 1 }, "the feed's long poll waits on the server")
        let before = c.state.feedCursor

        await r.stop()
        // While the server is away, another server or the CLI writes to the store.
        for prefix in ["K2J3IWY5U", "AEF234HIJ", "ZYX987WUS"] { try r.authorize(Fixture.code(prefix), by: "rossi") }
        #expect(
            await c.until {
                if case .reconnecting = c.state.monitor.connection { return true }
                return false
            })
        #expect(c.screen.contains("… reconnecting…"))
        #expect(c.state.feedCursor == before, "a failed read moves nothing")

        try r.restart()
        // The back-off is at most 5 s between tries.
        try await c.expectRows(r.storedIDs, seconds: 30)
        // Asked after any other cursor, the rows would show it: an earlier one repeats events
        // (the monitor keeps every page), a later one loses those written while the server was away.
        #expect(Set(c.rowIDs).count == c.rowIDs.count, "no event twice")
        #expect(c.state.feedCursor == (try r.store.latestEventID()))
        #expect(c.state.feedCursor > before)
        #expect(c.state.monitor.connection == .live)
        #expect(await c.until { c.screen.contains("● live") })
    }

    @Test("on the wire: the session's end, the sign-out and the quit each leave no read behind but the poll in flight")
    func readsStop() async throws {
        let r = try LoopbackDesk()
        let admin = try await r.accounts()
        let c = Console(r.desk)

        /// Waits until the feed's long poll waits on the server, then counts the reads answered
        /// so far (the wait lets the line of the read before it reach the log).
        func polling() async -> Int {
            #expect(await c.until { r.server.staffAPI.waitingPolls == 1 }, "the feed's long poll waits on the server")
            await c.idle(milliseconds: 300)
            return r.feedReads()
        }

        await c.signIn("sara")
        try await c.expectRows(r.storedIDs)
        var answered = await polling()
        #expect(r.feedReads("401") == 0)

        // The session ends (an admin resets sara's password). The server re-reads for the
        // waiting poll when the reset's event comes, finds the session over and answers 401:
        // the lock comes up and no other read is made while it is up.
        _ = try await r.desk.resetPassword(admin, name: "sara", password: "a brand new one")
        #expect(await c.until { c.state.lock != nil })
        await c.idle(milliseconds: 1_000)
        #expect(r.feedReads() == answered + 1, "the poll in flight, and no read after it")
        #expect(r.feedReads("401") == 1)

        // The unlock reads again, from where the loop stopped.
        await c.type("a brand new one")
        await c.press(.enter)
        #expect(c.state.lock == nil)
        try await c.expectRows(r.storedIDs)

        // The sign-out key: the poll in flight ends with the sign-out's event; no read follows.
        answered = await polling()
        await c.press(.ctrl("o"))
        #expect(await c.until { r.server.staffAPI.waitingPolls == 0 })
        await c.idle(milliseconds: 1_000)
        #expect(r.feedReads() == answered + 1, "no read after the sign-out")

        // Quit: finishing the calls waits for the quit's sign-out, not for the feed; no read follows.
        await c.signIn("sara", "a brand new one")
        answered = await polling()
        c.backend.events = [.key(.ctrl("c"))]
        c.program.step(timeoutMilliseconds: 0)
        #expect(c.program.finished)
        c.program.finishCalls(within: 120)
        let signOuts = try r.store.auditEntries(matching: AuditQuery(actor: "sara", action: .signOut))
        #expect(signOuts.count == 2, "the quit's sign-out was waited for")
        #expect(await c.until { r.server.staffAPI.waitingPolls == 0 })
        await c.idle(milliseconds: 1_000)
        #expect(r.feedReads() == answered + 1, "no read after the quit")
    }

    @Test("signed out while the server is away: when it is back, the loop that waited to retry reads nothing")
    func signOutWhileAway() async throws {
        let r = try LoopbackDesk()
        _ = try await r.accounts()
        let c = Console(r.desk)
        await c.signIn("sara")
        try await c.expectRows(r.storedIDs)
        #expect(await c.until { r.server.staffAPI.waitingPolls == 1 })

        await r.stop()
        #expect(
            await c.until {
                if case .reconnecting = c.state.monitor.connection { return true }
                return false
            })
        // The loop waits to try again. The sign-out cannot reach the desk, so sara's session
        // stays valid there: only the program can end the loop, and it must.
        await c.press(.ctrl("o"))
        #expect(c.screen.contains("sara signed out."))
        try r.restart()
        let answered = r.feedReads()
        // Longer than the back-off a loop could still be waiting out (1 s after two failures).
        await c.idle(milliseconds: 3_000)
        #expect(r.feedReads() == answered, "no read once the server was back")
        #expect(r.server.staffAPI.waitingPolls == 0)
    }
}
