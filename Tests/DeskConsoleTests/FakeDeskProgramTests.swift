import DeskConsole
import DeskContract
import DeskCore
import DeskTestSupport
import Foundation
import TerminalKit
import Testing

/// The whole console loop on a `TestBackend` over `FakeDesk`: keys in, screen out, and the
/// calls the program made, with no store and no server (the same flows over LocalDesk on a
/// real store are DeskConsoleIntegrationTests' ProgramTests).
@Suite("Program over the fake desk")
struct FakeDeskProgramTests {
    /// A console at 80x24 on a fake desk with the admin and the operator rossi.
    func withConsole(
        accounts: [(String, StaffRole)] = [("admin", .admin), ("rossi", .operator)],
        _ body: (FakeDesk, Console) async throws -> Void
    ) async throws {
        let desk = FakeDesk(accounts: accounts, now: Fixture.now, location: Fixture.location)
        let console = Console(desk, width: 80, height: 24)
        await console.send([])
        try await body(desk, console)
    }

    @Test("sign in through the screen, then authorise: counted down by the desk's clock, by the signed-in operator")
    func signInAndAuthorize() async throws {
        try await withConsole { desk, c in
            #expect(c.screen.contains("TraceDesk · Sign in"))
            await c.signIn("rossi")
            #expect(c.screen.contains("TraceDesk · Authorise an upload"))
            #expect(c.backend.screen.lines[0].contains("rossi (operator)"))
            await c.type("9k2ray8uuq")
            await c.press(.char("y"), .enter, .enter)
            #expect(c.screen.contains("✓ Authorised: the app must upload within 2:30"))
            desk.advance(seconds: 10)
            c.program.step(timeoutMilliseconds: 0)
            #expect(c.screen.contains("within 2:20"))
            #expect(desk.callLog.filter { $0 == "authorize" }.count == 1)
        }
    }

    @Test("a refused code: the desk's refusal on the screen, nothing authorised")
    func refusedCode() async throws {
        try await withConsole { desk, c in
            await c.signIn("rossi")
            // A valid first nine characters with a wrong check character.
            let wrong = String(Fixture.code.dropLast()) + (Fixture.code.last == "A" ? "B" : "A")
            await c.type(wrong)
            await c.press(.char("y"), .enter, .enter)
            #expect(!c.screen.contains("✓ Authorised"))
            let session = try await desk.signIn(name: "rossi", password: FakeDesk.password)
            #expect(try await desk.status(session, of: Fixture.code) == .unknown)
        }
    }

    @Test("a wrong password: the desk's message under the form, the name kept, the password cleared")
    func wrongPassword() async throws {
        try await withConsole { desk, c in
            await c.signIn("rossi", "not the password")
            #expect(c.prose.contains("✗ wrong user name or password: check both and try again"))
            #expect(c.state.signIn.name.text == "rossi")
            #expect(c.state.signIn.password.text.isEmpty)
            #expect(!c.screen.contains("not the password"))
            #expect(desk.callLog.filter { $0 == "signIn" }.count == 1)
        }
    }

    @Test("no account yet: the first admin is made on the screen and lands on the staff screen")
    func firstAdmin() async throws {
        try await withConsole(accounts: []) { desk, c in
            #expect(c.state.page == .firstAdmin)
            #expect(c.screen.contains("This creates the first"))
            await c.type("admin")
            await c.press(.enter)
            await c.type(FakeDesk.password)
            await c.press(.enter)
            await c.type(FakeDesk.password)
            await c.press(.enter)
            #expect(c.state.page == .staff)
            #expect(c.screen.contains("Staff accounts (1)"))
            #expect(desk.auditActions == [.staffAdded])
        }
    }

    @Test("the sign-out key ends the session at the desk and clears the screen")
    func signOutKey() async throws {
        try await withConsole { desk, c in
            await c.signIn("rossi")
            await c.type("9K2RA")
            await c.press(.ctrl("o"))
            #expect(c.screen.contains("TraceDesk · Sign in"))
            #expect(c.screen.contains("rossi signed out."))
            #expect(c.state.authorize.code.text.isEmpty)
            #expect(desk.auditActions.last == .signOut)
        }
    }

    @Test("a desk that cannot reach its data: the sign-in says so, and the title bar shows the desk's problem")
    func unreachable() async throws {
        try await withConsole { desk, c in
            desk.fail(with: .unavailable("the store is locked: try again in a moment"))
            desk.setConnectionProblem("server unreachable, retrying")
            await c.signIn("rossi")
            #expect(c.prose.contains("the store is locked: try again in a moment"))
            #expect(c.backend.screen.lines[0].contains("server unreachable, retrying"))
            desk.fail(with: nil)
            desk.setConnectionProblem(nil)
            // The name is kept and the password focused: typing the password again is enough.
            await c.type(FakeDesk.password)
            await c.press(.enter)
            #expect(c.screen.contains("TraceDesk · Authorise an upload"))
        }
    }

    @Test("a resize redraws everything at the new size, the desk's location in the title")
    func resize() async throws {
        try await withConsole { _, c in
            c.backend.resize(width: 120, height: 40)
            c.program.step(timeoutMilliseconds: 0)
            #expect(c.backend.screen.width == 120)
            #expect(c.backend.screen.lines[0].contains("tracedesk.sqlite"))
        }
    }
}
