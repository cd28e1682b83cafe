import CivilCalendar
import DeskConsole
import DeskCore
import DeskCrypto
import DeskService
import DeskStore
import Foundation
import TerminalKit
import Testing

/// The whole program on a `TestBackend` over any desk, driven as a person would: keys in, the
/// loop stepped, the screen read.
///
/// Threading rule: used from the test's task only (the program's loop runs on it).
struct Console {
    let backend: TestBackend
    let program: Program

    init(_ service: any DeskService, width: Int = 120, height: Int = 40) {
        backend = TestBackend(width: width, height: height)
        program = Program(backend: backend, service: service, timeZone: Fixture.utc)
    }

    var state: ConsoleApp.State { program.state }
    var screen: String { backend.screen.text }
    /// The screen's words, borders removed and runs of spaces collapsed (a line that wraps reads
    /// on, as long as no panel stands beside it).
    var prose: String {
        backend.screen.lines.joined(separator: " ").filter { !"│┌┐└┘─".contains($0) }
            .split(separator: " ").joined(separator: " ")
    }

    /// Queues the events, runs the loop until they are used, then waits for every call they
    /// started. Settling waits for calls only: with the feed counted it would wait its whole two
    /// minutes, and the suites' time limits would fail the test.
    func send(_ events: [InputEvent]) async {
        backend.events += events
        while !backend.events.isEmpty { program.step(timeoutMilliseconds: 0) }
        await program.settle(seconds: 120)
    }

    func type(_ text: String) async { await send(text.map { .key(.char($0)) }) }
    func press(_ keys: Key...) async { await send(keys.map { .key($0) }) }

    /// Signs in on the sign-in screen.
    func signIn(_ name: String, _ password: String = Fixture.password) async {
        await type(name)
        await press(.tab)
        await type(password)
        await press(.enter)
    }

    /// Types `code`, picks yesterday as the symptom onset and confirms the review.
    func authorize(_ code: String) async {
        await type(code)
        await press(.char("y"), .enter, .enter)
    }

    /// Steps the loop until `condition` holds, at most `seconds` (generous for a loaded machine:
    /// it returns as soon as the condition holds); false if it never did (the caller's `#expect`
    /// then names what was waited for).
    func until(seconds: Double = 60, _ condition: () throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            if Date() > deadline { return false }
            program.step(timeoutMilliseconds: 0)
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Steps the loop for a while with nothing pressed, for checks that nothing happens.
    func idle(milliseconds: Int = 500) async {
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        while Date() < deadline {
            program.step(timeoutMilliseconds: 0)
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The positions of the monitor's rows, newest first.
    var rowIDs: [Int64] { state.monitor.rows.map(\.event.id) }

    /// Steps the loop until the monitor's rows are `stored()` (every event once, newest first),
    /// then compares them, so a failure shows the rows missing or repeated.
    func expectRows(
        _ stored: () throws -> [Int64], seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        _ = try await until(seconds: seconds) { try rowIDs == stored() }
        #expect(
            rowIDs == (try stored()), "every stored event once, newest first", sourceLocation: sourceLocation)
    }
}

/// A `LocalDesk` over a real SQLite file in its own folder, on a fixed clock, with cheap password
/// hashing, and a console on it. The admin, two operators (rossi, bianchi) and a supervisor
/// (sara) are made through the desk.
struct LocalConsole {
    let store: SQLiteStore
    let clock: FixedClock
    let desk: LocalDesk
    let console: Console

    /// Runs `body` on a fresh store; the folder is removed afterwards.
    static func with(
        width: Int = 120, height: Int = 40, _ body: (LocalConsole) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("desk.sqlite").path)
        let clock = FixedClock(Fixture.now)
        let desk = LocalDesk(store: store, clock: clock, hasher: PasswordHasher(logN: 10, r: 8, p: 1))
        let admin = try await desk.createFirstAdmin(name: "admin", password: Fixture.password)
        for (name, role) in [("rossi", StaffRole.operator), ("bianchi", .operator), ("sara", .supervisor)] {
            _ = try await desk.addStaff(admin, name: name, role: role, password: Fixture.password)
        }
        try await desk.signOut(admin)
        let console = Console(desk, width: width, height: height)
        await console.send([])
        try await body(LocalConsole(store: store, clock: clock, desk: desk, console: console))
    }

    /// Every event position in the store, newest first: what a supervisor's monitor must end
    /// with, each once.
    func storedIDs() throws -> [Int64] { try store.events(after: 0, limit: 1_000).map(\.id).reversed() }

    /// An authorisation written straight to the store (as another console or the CLI would).
    @discardableResult
    func authorize(_ code: String, by actor: String, at: Date? = nil) throws -> OtpHash {
        let hash = try Otp(operatorInput: code).hash
        _ = try store.authorize(
            otpHash: hash, symptomsStartedOn: Fixture.yesterday, by: actor, now: at ?? clock.now(),
            lifetime: .seconds(150))
        return hash
    }
}

extension Fixture {
    /// The day before ``now``: the symptom onset `y` picks.
    static let yesterday = now.utcDay.adding(days: -1)

    /// A valid code made of `prefix` (nine characters) and its check character.
    static func code(_ prefix: String) -> String {
        prefix + String(OtpRules.checkCharacter(for: prefix) ?? "?")
    }
}
