import DeskConsole
import DeskCore
import DeskService
import DeskStore
import Foundation
import TerminalKit
import Testing

/// The whole console loop on a `TestBackend`, over a real SQLite file: keys in, screen out.
@Suite("Program on a test backend")
struct ProgramTests {
    func withDesk(_ body: (LocalDesk, FixedClock, StaffSession) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-program-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("desk.sqlite").path)
        let clock = FixedClock(Fixture.now)
        let desk = LocalDesk(store: store, clock: clock)
        let admin = try await desk.createFirstAdmin(name: "admin", password: "correct horse battery")
        _ = try await desk.addStaff(admin, name: "rossi", role: .operator, password: "correct horse battery")
        try await body(desk, clock, try await desk.signIn(name: "rossi", password: "correct horse battery"))
    }

    func keys(_ text: String) -> [InputEvent] { text.map { .key(.char($0)) } }

    @Test("typing a code and a day and confirming stores the authorisation and shows the countdown")
    func authorizeThroughTheLoop() async throws {
        try await withDesk { desk, clock, session in
            let backend = TestBackend(width: 80, height: 24)
            let program = Program(backend: backend, service: desk, session: session, timeZone: Fixture.utc)
            backend.events = keys("9k2ray8uuq") + [.key(.char("y")), .key(.enter), .key(.enter)]
            while !backend.events.isEmpty { program.step(timeoutMilliseconds: 0) }
            await program.settle()
            #expect(backend.screen.text.contains("✓ Authorised: the app must upload within 2:30"))
            clock.advance(seconds: 10)
            program.step(timeoutMilliseconds: 0)
            #expect(backend.screen.text.contains("within 2:20"))
            #expect(backend.screen.text.contains("code valid 2:20"))
            let stored = try #require(try firstAuthorization(desk))
            #expect(stored.authorizedBy == "rossi")
        }
    }

    /// The one authorisation in the store, found through its event.
    func firstAuthorization(_ desk: LocalDesk) throws -> OtpAuthorization? {
        guard let hash = try desk.store.events(after: 0, limit: 1).first?.otpHash else { return nil }
        return try desk.store.authorization(for: hash)
    }

    @Test("only changed cells are redrawn after the first frame")
    func diffing() async throws {
        try await withDesk { desk, _, session in
            let backend = TestBackend(width: 80, height: 24)
            let program = Program(backend: backend, service: desk, session: session, timeZone: Fixture.utc)
            program.step(timeoutMilliseconds: 0)
            let afterFirst = backend.cellsWritten
            backend.events = [.key(.char("9"))]
            program.step(timeoutMilliseconds: 0)
            let typed = backend.cellsWritten - afterFirst
            // The field, its counter and the dimmed first step change: a few lines, not the screen.
            #expect(typed > 0 && typed < 80 * 24 / 10, "typing one character rewrote \(typed) cells")
        }
    }

    @Test("a resize redraws everything at the new size")
    func resize() async throws {
        try await withDesk { desk, _, session in
            let backend = TestBackend(width: 80, height: 24)
            let program = Program(backend: backend, service: desk, session: session, timeZone: Fixture.utc)
            program.step(timeoutMilliseconds: 0)
            backend.resize(width: 120, height: 40)
            program.step(timeoutMilliseconds: 0)
            #expect(backend.screen.width == 120)
            #expect(backend.screen.lines[0].contains("desk.sqlite"))
        }
    }

    @Test("Ctrl-C finishes the loop")
    func quit() async throws {
        try await withDesk { desk, _, session in
            let backend = TestBackend(width: 80, height: 24)
            let program = Program(backend: backend, service: desk, session: session, timeZone: Fixture.utc)
            backend.events = [.key(.ctrl("c"))]
            program.step(timeoutMilliseconds: 0)
            #expect(program.finished)
        }
    }
}
