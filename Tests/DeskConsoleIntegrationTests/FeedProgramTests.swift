import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import DeskLocal
import DeskStore
import DeskTestSupport
import Foundation
import TerminalKit
import Testing

/// The program's one feed loop over a real `LocalDesk` on a real SQLite file: pages reach the
/// monitor and the watch, the loop is not a pending call, a session that ends locks and the
/// unlock goes on from the kept cursor, and sign-out and quit end it.
///
/// Events are written through the store, as the phone API, another console or the CLI would.
/// "Each event once" is the proof of the cursor throughout: the monitor keeps every page it is
/// given, so a loop that read from too early would repeat rows, and one that skipped ahead
/// would lose them. (What the loop sends on the wire is checked against a real server in
/// ``FeedRemoteProgramTests``.)
@Suite("Program feed loop on a local desk", .timeLimit(.minutes(1)))
struct FeedProgramTests {
    @Test("signed in, one loop reads every event into the monitor once; settling does not wait for its long poll")
    func pages() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            let hash = try d.authorize(Fixture.code, by: "rossi")
            _ = try d.store.recordCheck(otpHash: hash, now: d.clock.now())
            await c.signIn("sara")
            // A supervisor starts on the dashboard; F3 is the monitor.
            #expect(c.state.page == .dashboard)
            await c.press(.function(3))
            #expect(c.state.page == .monitor)
            try await c.expectRows(d.storedIDs)
            #expect(c.state.feedCursor == (try d.store.latestEventID()))
            #expect(c.state.monitor.connection == .live)

            // Nothing more to read: the loop now waits in the desk's long poll. With the feed
            // counted as a call, this would wait two minutes and the time limit would fail the test.
            await c.program.settle(seconds: 120)
            #expect(c.rowIDs == (try d.storedIDs()))

            // The loop still reads: what the store records next arrives with no key pressed (past
            // the 5 s in which checks of one code make one event).
            d.clock.advance(seconds: 6)
            _ = try d.store.recordCheck(otpHash: hash, now: d.clock.now())
            try await c.expectRows(d.storedIDs)
            #expect(c.state.monitor.rows.first?.kind == .checked)
            #expect(c.screen.contains("● live"))
            #expect(c.screen.contains("authorised 1 · checked 2"))
        }
    }

    @Test("the back-off: 0.5 s, 1 s, 2 s, 4 s, then 5 s")
    func backoff() {
        #expect(
            (1...7).map { Program.feedBackoff(failures: $0) } == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5), .seconds(5),
            ])
    }

    @Test("a read that finds the session over locks; the unlock goes on from the kept cursor, nothing lost or repeated")
    func sessionOver() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            try d.authorize(Fixture.code, by: "rossi")
            await c.signIn("sara")
            try await c.expectRows(d.storedIDs)

            // An admin resets sara's password: her session ends, and the feed's next read finds it over.
            let admin = try await d.desk.signIn(name: "admin", password: Fixture.password)
            _ = try await d.desk.resetPassword(admin, name: "sara", password: "a brand new one")
            #expect(await c.until { c.state.lock != nil })
            #expect(c.prose.contains("this session has ended"))
            let kept = c.state.feedCursor
            let window = c.rowIDs

            // While the console is locked, the desk records more: the locked console reads none of it.
            try d.authorize(Fixture.code("K2J3IWY5U"), by: "bianchi")
            try d.authorize(Fixture.code("AEF234HIJ"), by: "rossi")
            await c.idle()
            #expect(c.rowIDs == window, "no read while locked")
            #expect(c.state.feedCursor == kept)

            await c.type("a brand new one")
            await c.press(.enter)
            #expect(c.state.lock == nil)
            // From the kept cursor: the window stays, what came meanwhile arrives, nothing twice.
            try await c.expectRows(d.storedIDs)
            #expect(Array(c.rowIDs.suffix(window.count)) == window, "the window was kept")
            #expect(c.state.feedCursor == (try d.store.latestEventID()))
            #expect(c.state.feedCursor > kept)
        }
    }

    @Test("sign-out ends the loop and a new sign-in reads from the start; finishing the calls never waits for the feed")
    func stops() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            try d.authorize(Fixture.code, by: "rossi")
            await c.signIn("sara")
            try await c.expectRows(d.storedIDs)
            // The feed's long poll is waiting now; it is no call to wait for.
            c.program.finishCalls(within: 120)

            await c.press(.ctrl("o"))
            #expect(c.screen.contains("sara signed out."))
            #expect(c.state.monitor.rows.isEmpty)
            #expect(c.state.feedCursor == 0)
            // Activity after the sign-out reaches no screen: the loop that read for sara is over.
            try d.authorize(Fixture.code("K2J3IWY5U"), by: "rossi")
            await c.idle()
            #expect(c.state.monitor.rows.isEmpty)
            #expect(c.state.feedCursor == 0)

            // A new sign-in starts from the start: everything once, the earlier events included.
            await c.signIn("sara")
            try await c.expectRows(d.storedIDs)

            c.backend.events = [.key(.ctrl("c"))]
            c.program.step(timeoutMilliseconds: 0)
            #expect(c.program.finished)
            // Waits for the quit's sign-out, not for the feed (which would take past the time limit).
            c.program.finishCalls(within: 120)
            let signOuts = try d.store.auditEntries(matching: AuditQuery(actor: "sara", action: .signOut))
            #expect(signOuts.count == 2, "the sign-out key and the quit each ended a session")
        }
    }

    @Test("an operator's authorisation is watched, and a feed event about the code asks again at once")
    func watch() async throws {
        try await LocalConsole.with { d in
            let c = d.console
            await c.signIn("rossi")
            await c.authorize(Fixture.code)
            #expect(await c.until { c.state.authorize.watch != nil })
            #expect(c.state.authorize.watch?.checks == 0)
            #expect(c.prose.contains("… waiting for the app to check the code"))

            // The phone checks the code. The clock stands still, so the 5-second fallback never
            // comes due: only the feed's event about the code can ask for the watch again.
            _ = try d.store.recordCheck(otpHash: try Otp(operatorInput: Fixture.code).hash, now: d.clock.now())
            #expect(await c.until { c.state.authorize.watch?.checks == 1 })
            #expect(c.prose.contains("✓ the app checked the code (once, at 14:02:00)"))
            #expect(c.state.monitor.rows.contains { $0.kind == .checked }, "the same page reached the monitor")
        }
    }
}
