import DeskConsole
import DeskContract
import DeskCore
import DeskTestSupport
import Foundation
import TerminalKit
import Testing

/// Ctrl-Z and Ctrl-L through the whole program (issue 20, convention 7): the backend is asked
/// to suspend, and the screen comes back whole, at the terminal's size, locked when the console
/// was stopped past its idle limit.
@Suite("Suspend and redraw")
struct SuspendRedrawTests {
    func withOperator(_ body: (FakeDesk, Console) async throws -> Void) async throws {
        let desk = FakeDesk(accounts: [("rossi", .operator)], now: Fixture.now, location: Fixture.location)
        let console = Console(desk, width: 80, height: 24)
        await console.send([])
        await console.signIn("rossi")
        try await body(desk, console)
    }

    @Test("Ctrl-Z suspends the terminal once and repaints every cell after; the session stays")
    func suspend() async throws {
        try await withOperator { _, c in
            let before = c.backend.screen.lines
            #expect(before[0].contains("Authorise an upload"))
            let written = c.backend.cellsWritten
            await c.press(.ctrl("z"))
            #expect(c.backend.suspendCount == 1)
            #expect(c.backend.screen.lines == before, "the whole screen is back (the backend forgot it)")
            #expect(c.backend.cellsWritten - written >= 80 * 24, "every cell sent again")
            #expect(c.state.session != nil)
            #expect(c.state.lock == nil)
        }
    }

    @Test("a terminal resized while stopped: the console comes back at the new size")
    func resizedWhileStopped() async throws {
        try await withOperator { _, c in
            c.backend.onSuspend = { c.backend.setSize(width: 100, height: 30) }
            await c.press(.ctrl("z"))
            #expect(c.state.size == TerminalSize(width: 100, height: 30))
            #expect(c.backend.screen.width == 100)
            #expect(c.backend.screen.lines[0].count == 99, "the clock ends one cell before the right edge")
            #expect(c.backend.screen.lines[29].contains("Help"), "the footer on the new last row")
        }
    }

    @Test("stopped past the idle limit: back locked, the screen under the lock, the session ended")
    func idleWhileStopped() async throws {
        try await withOperator { desk, c in
            await c.type("9k2")
            c.backend.onSuspend = { desk.advance(seconds: 601) }
            await c.press(.ctrl("z"))
            #expect(c.state.lock != nil)
            #expect(c.screen.contains("Locked"))
            #expect(!c.screen.contains("9K2"), "the code typed is not shown")
            #expect(c.state.authorize.code.text == "9K2", "and is kept for the unlock")
        }
    }

    @Test("Ctrl-L repaints every cell and changes nothing, in help and in the palette too")
    func redraw() async throws {
        try await withOperator { _, c in
            let before = c.backend.screen.lines
            let written = c.backend.cellsWritten
            await c.press(.ctrl("l"))
            #expect(c.backend.screen.lines == before)
            #expect(c.backend.cellsWritten - written >= 80 * 24)
            await c.press(.char(":"))
            let palette = c.backend.screen.lines
            await c.press(.ctrl("l"))
            #expect(c.backend.screen.lines == palette)
            #expect(c.state.palette != nil, "the palette stays open")
        }
    }
}
