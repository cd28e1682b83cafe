import CivilCalendar
import DeskConsole
import DeskCore
import DeskService
import Foundation
import TerminalKit
import Testing

/// A desk whose feed answers what the test scripts, for the program's feed loop: which cursor
/// each read asks after, and what happens on failures, the end of a session, sign-out and quit.
/// Everything but signing in, the feed, traffic and the watch is refused.
final class ScriptedDesk: DeskService, @unchecked Sendable {
    private let lock = SimpleLock()
    private var script: [Result<EventPage, ServiceError>] = []
    private var afters: [Int64] = []
    private var signIns = 0
    private var watchCalls = 0
    private var readsOpen = 0
    let clock = FixedClock(Fixture.now)

    var location: String { "scripted" }
    func now() -> Date { clock.now() }

    /// The `after` of every read of the feed so far.
    var asked: [Int64] { lock.withLock { afters } }

    /// Reads of the feed under way (waiting for a scripted answer).
    var reading: Int { lock.withLock { readsOpen } }

    /// How many times the watch was asked for.
    var watches: Int { lock.withLock { watchCalls } }

    /// The next read's answer. Reads wait for one however long they asked to wait, until
    /// cancelled: a long poll that never ends on its own, so a test can tell whether anything
    /// waits for the feed.
    func answer(_ result: Result<EventPage, ServiceError>) { lock.withLock { script.append(result) } }

    func events(
        _ session: StaffSession, after: Int64, limit: Int, wait: Duration
    ) async throws(ServiceError) -> EventPage {
        lock.withLock {
            afters.append(after)
            readsOpen += 1
        }
        defer { lock.withLock { readsOpen -= 1 } }
        while true {
            let next: Result<EventPage, ServiceError>? = lock.withLock {
                script.isEmpty ? nil : script.removeFirst()
            }
            if let next {
                switch next {
                case .success(let page): return page
                case .failure(let error): throw error
                }
            }
            if Task.isCancelled { return EventPage(events: [], cursor: after) }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    func signIn(name: String, password: String) async throws(ServiceError) -> StaffSession {
        let count = lock.withLock {
            signIns += 1
            return signIns
        }
        var session = Fixture.session(name, role: name == "sara" ? .supervisor : .operator)
        session.token += "-\(count)"
        return session
    }

    func signOut(_ session: StaffSession) async throws(ServiceError) {}
    func needsFirstAdmin() async throws(ServiceError) -> Bool { false }

    func traffic(_ session: StaffSession, since: Date) async throws(ServiceError) -> TrafficShare {
        // Counted per hour, as the desk does: since the start of the hour.
        let hour = (since.timeIntervalSince1970 / 3_600).rounded(.down) * 3_600
        return TrafficShare(since: Date(timeIntervalSince1970: hour), realRequests: 38, dummyRequests: 62)
    }

    func watch(_ session: StaffSession, _ target: WatchTarget) async throws(ServiceError) -> CodeWatch {
        lock.withLock { watchCalls += 1 }
        return Fixture.codeWatch(checks: [12])
    }

    func authorize(
        _ session: StaffSession, code: String, symptomsStartedOn: CivilDay
    ) async throws(ServiceError) -> AuthorizeResult {
        .authorized(Fixture.record(day: symptomsStartedOn))
    }

    private static let refused = ServiceError.unavailable("not in this test")
    func createFirstAdmin(name: String, password: String) async throws(ServiceError) -> StaffSession {
        throw Self.refused
    }
    func status(_ session: StaffSession, of code: String) async throws(ServiceError) -> OtpStatus { throw Self.refused }
    func staff(_ session: StaffSession) async throws(ServiceError) -> [StaffAccount] { throw Self.refused }
    func addStaff(
        _ session: StaffSession, name: String, role: StaffRole, password: String
    ) async throws(ServiceError) -> StaffAccount { throw Self.refused }
    func disableStaff(_ session: StaffSession, name: String) async throws(ServiceError) -> StaffAccount {
        throw Self.refused
    }
    func resetPassword(
        _ session: StaffSession, name: String, password: String
    ) async throws(ServiceError) -> StaffAccount { throw Self.refused }
    func audit(_ session: StaffSession, query: AuditQuery) async throws(ServiceError) -> [AuditEntry] {
        throw Self.refused
    }
    func verifyAudit(_ session: StaffSession) async throws(ServiceError) -> AuditVerification { throw Self.refused }
}

/// The program's one feed loop on a ``ScriptedDesk``: pages reach the monitor and the watch, the
/// loop is not a pending call, failures are retried from the same cursor, and it ends with the
/// session, the sign-out and the quit.
@Suite("Program feed loop", .timeLimit(.minutes(1)))
struct FeedProgramTests {
    struct Harness {
        let desk = ScriptedDesk()
        let backend = TestBackend(width: 80, height: 24)
        let program: Program

        init() {
            program = Program(backend: backend, service: desk, timeZone: Fixture.utc)
        }

        /// Settling waits for calls only: with the feed counted, it would wait its whole two
        /// minutes and the suite's time limit would fail the test.
        func send(_ events: [InputEvent]) async {
            backend.events += events
            while !backend.events.isEmpty { program.step(timeoutMilliseconds: 0) }
            await program.settle(seconds: 120)
        }

        func signIn(_ name: String) async {
            await send(name.map { .key(.char($0)) } + [.key(.tab)] + Fixture.password.map { .key(.char($0)) })
            await send([.key(.enter)])
        }

        /// Steps the loop until `condition` holds (at most `seconds`, generous for loaded
        /// machines: it returns as soon as the condition holds); false if it never did.
        func until(seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition() {
                if Date() > deadline { return false }
                program.step(timeoutMilliseconds: 0)
                try? await Task.sleep(for: .milliseconds(5))
            }
            return true
        }

        var screen: String { backend.screen.text }
    }

    @Test("signed in, one loop reads pages into the monitor; settling does not wait for its long poll")
    func pages() async {
        let h = Harness()
        await h.signIn("sara")
        #expect(await h.until { h.desk.reading == 1 })
        await h.program.settle(seconds: 120)
        #expect(h.desk.reading == 1, "settled while the feed's read is still waiting")
        #expect(h.program.state.page == .monitor)
        h.desk.answer(.success(EventPage(events: Fixture.feed(), cursor: 12)))
        #expect(await h.until { h.program.state.monitor.rows.count == 12 })
        #expect(await h.until { h.desk.asked == [0, 12] })
        #expect(await h.until { h.screen.contains("dummy traffic 62% of phone requests since 14:00") })
        #expect(h.screen.contains("chunk 42: 12 keys + 88 padding"))
    }

    @Test("a failed read: reconnecting…, then asked again after the same cursor; nothing lost or repeated")
    func retry() async {
        let h = Harness()
        await h.signIn("sara")
        h.desk.answer(.success(EventPage(events: Array(Fixture.feed().prefix(5)), cursor: 5)))
        h.desk.answer(.failure(.unavailable("the store is locked")))
        #expect(await h.until { h.program.state.monitor.connection == .reconnecting("the store is locked") })
        #expect(h.screen.contains("… reconnecting…"))
        h.desk.answer(.success(EventPage(events: Array(Fixture.feed().suffix(7)), cursor: 12)))
        #expect(await h.until { h.program.state.monitor.rows.count == 12 })
        #expect(h.program.state.monitor.connection == .live)
        #expect(h.program.state.monitor.rows.map(\.event.id) == Array((1...12).reversed()))
        #expect(Array(h.desk.asked.prefix(3)) == [0, 5, 5], "the retry asks after the same cursor")
    }

    @Test("the back-off: 0.5 s, 1 s, 2 s, 4 s, then 5 s")
    func backoff() {
        #expect(
            (1...7).map { Program.feedBackoff(failures: $0) } == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5), .seconds(5),
            ])
    }

    @Test("a read that finds the session over stops the loop and locks; the unlock goes on from the kept cursor")
    func sessionOver() async {
        let h = Harness()
        await h.signIn("sara")
        h.desk.answer(.success(EventPage(events: Fixture.feed(), cursor: 12)))
        #expect(await h.until { h.program.state.feedCursor == 12 })
        h.desk.answer(.failure(.notSignedIn("this session has ended: sign in again")))
        #expect(await h.until { h.program.state.lock != nil })
        let reads = h.desk.asked.count
        try? await Task.sleep(for: .milliseconds(300))
        #expect(h.desk.asked.count == reads, "no read after the session ended")
        await h.send(Fixture.password.map { .key(.char($0)) } + [.key(.enter)])
        #expect(h.program.state.lock == nil)
        #expect(await h.until { h.desk.asked.count > reads })
        #expect(h.desk.asked.last == 12)
        #expect(h.program.state.monitor.rows.count == 12, "the window was kept")
    }

    @Test("sign-out and quit stop the loop; finishing the calls does not wait for it")
    func stops() async {
        let h = Harness()
        await h.signIn("sara")
        #expect(await h.until { h.desk.asked.count == 1 })
        await h.send([.key(.ctrl("o"))])
        h.desk.answer(.success(EventPage(events: Fixture.feed(), cursor: 12)))
        try? await Task.sleep(for: .milliseconds(100))
        h.program.step(timeoutMilliseconds: 0)
        #expect(h.desk.asked.count == 1)
        await h.signIn("sara")
        #expect(await h.until { h.desk.asked.count >= 2 })
        #expect(h.desk.asked[1] == 0, "a new sign-in starts from the start")
        h.backend.events = [.key(.ctrl("c"))]
        h.program.step(timeoutMilliseconds: 0)
        #expect(h.program.finished)
        // With the feed counted this would block for two minutes (past the time limit).
        h.program.finishCalls(within: 120)
        #expect(await h.until { h.desk.reading == 0 }, "quitting cancelled the read")
    }

    @Test("an operator's authorisation is watched, and a feed event about the code asks again")
    func watch() async {
        let h = Harness()
        await h.signIn("rossi")
        await h.send(Fixture.code.map { .key(.char($0)) } + [.key(.char("y")), .key(.enter), .key(.enter)])
        #expect(await h.until { h.program.state.authorize.watch != nil })
        #expect(h.screen.contains("✓ the app checked the code (once, at 14:02:12)"))
        h.desk.answer(
            .success(
                EventPage(
                    events: [
                        Fixture.event(3, "otp_checked", at: Fixture.now, tag: Fixture.tag, #"{"status":"authorized"}"#)
                    ],
                    cursor: 3)))
        #expect(h.desk.watches == 1)
        #expect(await h.until { h.program.state.monitor.rows.count == 1 })
        #expect(await h.until { h.desk.watches == 2 }, "the event about the code asked again at once")
    }
}
