import DeskConsole
import DeskContract
import DeskCore
import DeskCrypto
import DeskLocal
import DeskStore
import DeskTestSupport
import Foundation
import TerminalKit
import Testing

/// The whole console loop on a `TestBackend`, over a real `LocalDesk` on a real SQLite file:
/// keys in, screen out, and what the store recorded.
@Suite("Program on a test backend")
struct ProgramTests {
    /// A desk on a fresh store in its own folder, on a fixed clock, with cheap password hashing.
    struct Desk {
        let desk: LocalDesk
        let clock: FixedClock
        let backend: TestBackend
        let program: Program

        /// Queues the events, runs the loop until they are used, then waits for every call.
        func send(_ events: [InputEvent]) async {
            backend.events += events
            while !backend.events.isEmpty { program.step(timeoutMilliseconds: 0) }
            await program.settle()
        }

        func type(_ text: String) async { await send(text.map { .key(.char($0)) }) }
        func press(_ keys: Key...) async { await send(keys.map { .key($0) }) }

        var screen: String { backend.screen.text }
        /// The screen with its line breaks turned into spaces, for messages that wrap.
        var flat: String { backend.screen.lines.joined(separator: " ").split(separator: " ").joined(separator: " ") }

        func signIn(_ name: String, _ password: String = Fixture.password) async {
            await type(name)
            await press(.tab)
            await type(password)
            await press(.enter)
        }
    }

    /// With `accounts`, an admin and the operator rossi exist (made through the desk).
    func withDesk(
        accounts: Bool = true, width: Int = 80, height: Int = 24, _ body: (Desk) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tracedesk-program-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("desk.sqlite").path)
        let clock = FixedClock(Fixture.now)
        let desk = LocalDesk(store: store, clock: clock, hasher: PasswordHasher(logN: 10, r: 8, p: 1))
        if accounts {
            let admin = try await desk.createFirstAdmin(name: "admin", password: Fixture.password)
            _ = try await desk.addStaff(admin, name: "rossi", role: .operator, password: Fixture.password)
            try await desk.signOut(admin)
        }
        let backend = TestBackend(width: width, height: height)
        let program = Program(backend: backend, service: desk, timeZone: Fixture.utc)
        let fixture = Desk(desk: desk, clock: clock, backend: backend, program: program)
        await fixture.send([])
        try await body(fixture)
    }

    /// Audit entries of one action, through an admin session.
    func audited(_ desk: LocalDesk, _ action: AuditAction, by actor: String? = nil) async throws -> [AuditEntry] {
        let admin = try await desk.signIn(name: "admin", password: Fixture.password)
        let entries = try await desk.audit(admin, query: AuditQuery(actor: actor, action: action))
        try await desk.signOut(admin)
        return entries
    }

    @Test("sign in through the screen, then authorise: stored, counted down, by the signed-in operator")
    func signInAndAuthorize() async throws {
        try await withDesk { d in
            #expect(d.screen.contains("TraceDesk · Sign in"))
            await d.signIn("rossi")
            #expect(d.screen.contains("TraceDesk · Authorise an upload"))
            #expect(d.backend.screen.lines[0].contains("rossi (operator)"))
            await d.type("9k2ray8uuq")
            await d.press(.char("y"), .enter, .enter)
            #expect(d.screen.contains("✓ Authorised: the app must upload within 2:30"))
            d.clock.advance(seconds: 10)
            d.program.step(timeoutMilliseconds: 0)
            #expect(d.screen.contains("within 2:20"))
            #expect(d.screen.contains("code valid 2:20"))
            let stored = try #require(try firstAuthorization(d.desk))
            #expect(stored.authorizedBy == "rossi")
        }
    }

    @Test("opened already signed in (the demo): the operator's screen at once, and its work is theirs")
    func openedSignedIn() async throws {
        try await withDesk { d in
            let session = try await d.desk.signIn(name: "rossi", password: Fixture.password)
            d.program.signIn(as: session)
            await d.send([])
            #expect(d.screen.contains("TraceDesk · Authorise an upload"))
            #expect(d.backend.screen.lines[0].contains("rossi (operator)"))
            await d.type("9k2ray8uuq")
            await d.press(.char("y"), .enter, .enter)
            #expect(d.screen.contains("✓ Authorised"))
            #expect(try firstAuthorization(d.desk)?.authorizedBy == "rossi")
        }
    }

    /// The demo's citizen as the program reads it (set by the test, read on the loop's ticks).
    final class CitizenBox: @unchecked Sendable {
        private let lock = NSLock()
        private var strip: DemoCitizenStrip?
        var value: DemoCitizenStrip? {
            get { lock.withLock { strip } }
            set { lock.withLock { strip = newValue } }
        }
    }

    @Test(
        "the demo's citizen, read on the loop's ticks: its strip at 80x24, its code authorised from it, its upload shown"
    )
    func demoCitizen() async throws {
        try await withDesk { d in
            let box = CitizenBox()
            box.value = DemoCitizenStrip(
                code: "9K2RAY8UUQ", symptomsStartedOn: Fixture.now.utcDay.adding(days: -1), phase: .waiting)
            d.program.demoCitizen = { box.value }
            d.program.signIn(as: try await d.desk.signIn(name: "rossi", password: Fixture.password))
            d.clock.advance(seconds: 1)
            await d.send([])
            #expect(d.backend.screen.lines[22].contains("Demo call · code 9K2-RAY8-UUQ · onset"))
            #expect(d.backend.screen.lines[22].hasSuffix("phone: waiting for you"))
            await d.type("9K2-RAY8-UUQ")
            await d.press(.char("y"), .enter, .enter)
            #expect(d.screen.contains("✓ Authorised"))
            #expect(try firstAuthorization(d.desk)?.authorizedBy == "rossi")
            box.value?.phase = .uploaded(Fixture.now.addingTimeInterval(7))
            d.clock.advance(seconds: 1)
            d.program.step(timeoutMilliseconds: 0)
            #expect(d.backend.screen.lines[22].contains("phone: uploaded at 14:02:07"))
        }
    }

    /// The one authorisation in the store, found through its event.
    func firstAuthorization(_ desk: LocalDesk) throws -> OtpAuthorization? {
        guard let hash = try desk.store.events(after: 0, limit: 100).first(where: { $0.otpHash != nil })?.otpHash
        else { return nil }
        // The event names the code as the store keeps it, which is no bearer token.
        return try desk.store.codeWatch(storedKey: hash, now: Date(), policy: PublishingPolicy())?.authorization
    }

    @Test("a wrong password: the desk's message under the form, the name kept, the password cleared")
    func wrongPassword() async throws {
        try await withDesk { d in
            await d.signIn("rossi", "not the password")
            #expect(d.flat.contains("✗ wrong user name or password: check both and try again"))
            #expect(d.program.state.signIn.name.text == "rossi")
            #expect(d.program.state.signIn.password.text.isEmpty)
            #expect(!d.screen.contains("not the password"))
            let failures = try await audited(d.desk, .signInFailed)
            #expect(failures.count == 1)
        }
    }

    @Test("an empty store: the first admin is made on the screen and lands on the staff screen")
    func firstAdmin() async throws {
        try await withDesk(accounts: false) { d in
            #expect(d.program.state.page == .firstAdmin)
            #expect(d.screen.contains("This creates the first"))
            await d.type("admin")
            await d.press(.enter)
            await d.type(Fixture.password)
            await d.press(.enter)
            await d.type(Fixture.password)
            await d.press(.enter)
            #expect(d.program.state.page == .staff)
            #expect(d.screen.contains("Staff accounts (1)"))
            #expect(d.screen.contains("admin           admin       active"))
        }
    }

    @Test("an admin adds an operator, sees it in the audit log, and the chain verifies")
    func adminFlow() async throws {
        try await withDesk { d in
            await d.signIn("admin")
            #expect(d.screen.contains("Staff accounts (2)"))
            await d.press(.char("a"))
            await d.type("verdi")
            await d.press(.enter, .enter)
            await d.type(Fixture.password)
            await d.press(.enter)
            await d.type(Fixture.password)
            await d.press(.enter)
            #expect(d.flat.contains("✓ added verdi as operator"))
            #expect(d.screen.contains("Staff accounts (3)"))
            let names = try d.desk.store.staffAccounts().map(\.name)
            #expect(names.contains("verdi"))
            await d.press(.function(3))
            #expect(d.screen.contains("account added"))
            await d.press(.char("v"))
            #expect(d.screen.contains("✓ chain intact:"))
        }
    }

    @Test("idle: the lock covers the screen and the session ends; the password brings back the typed code")
    func idleLockAndUnlock() async throws {
        try await withDesk { d in
            await d.signIn("rossi")
            await d.type("9K2RA")
            d.clock.advance(seconds: 600)
            await d.send([])
            #expect(d.screen.contains("TraceDesk · Locked"))
            #expect(!d.screen.contains("9K2-RA"))
            let signOuts = try await audited(d.desk, .signOut, by: "rossi")
            #expect(signOuts.count == 1, "the idle lock ends the session")
            await d.type("wrong password")
            await d.press(.enter)
            #expect(d.flat.contains("✗ wrong user name or password"))
            await d.type(Fixture.password)
            await d.press(.enter)
            #expect(d.program.state.lock == nil)
            #expect(d.screen.contains("9K2-RA"))
            await d.type("Y8UUQ")
            await d.press(.char("y"), .enter, .enter)
            #expect(d.screen.contains("✓ Authorised"), "the new session works")
        }
    }

    @Test("a password reset by an admin ends the session: the lock shows why; after unlocking, r retries")
    func sessionEndedByReset() async throws {
        try await withDesk { d in
            await d.signIn("rossi")
            let admin = try await d.desk.signIn(name: "admin", password: Fixture.password)
            _ = try await d.desk.resetPassword(admin, name: "rossi", password: "a brand new one")
            await d.type(Fixture.code)
            await d.press(.char("t"), .enter, .enter)
            #expect(d.screen.contains("TraceDesk · Locked"))
            #expect(d.flat.contains("this session has ended"))
            await d.type("a brand new one")
            await d.press(.enter)
            #expect(d.flat.contains("Could not authorise"))
            await d.press(.char("r"))
            #expect(d.screen.contains("✓ Authorised"))
        }
    }

    @Test("the sign-out key ends the session and clears the screen")
    func signOutKey() async throws {
        try await withDesk { d in
            await d.signIn("rossi")
            await d.type("9K2RA")
            await d.press(.ctrl("o"))
            #expect(d.screen.contains("TraceDesk · Sign in"))
            #expect(d.screen.contains("rossi signed out."))
            #expect(d.program.state.authorize.code.text.isEmpty)
            let signOuts = try await audited(d.desk, .signOut, by: "rossi")
            #expect(signOuts.count == 1)
        }
    }

    @Test("the code authorised again with another day: nothing changed, and the screen names the day it keeps")
    func alreadyAuthorisedOtherDay() async throws {
        try await withDesk { d in
            await d.signIn("rossi")
            await d.type("9K2RAY8UUQ")
            await d.press(.char("y"), .enter, .enter)
            #expect(d.screen.contains("✓ Authorised"))
            await d.press(.char("e"), .tab, .char("t"), .enter, .enter)
            #expect(d.flat.contains("Already authorised: nothing was changed"))
            let kept = Fixture.now.utcDay.adding(days: -1).iso
            // The words wrap inside the panel: read them without its borders.
            let words = d.flat.filter { $0 != "│" }.split(separator: " ").joined(separator: " ")
            #expect(words.contains("stored symptom onset, \(kept), not \(Fixture.now.utcDay.iso) as chosen now"))
            let stored = try firstAuthorization(d.desk)
            #expect(stored?.symptomsStartedOn.iso == kept, "the store kept the first day")
        }
    }

    @Test("signing out of a console started with a name leaves the sign-in form empty")
    func signOutEmptyForm() async throws {
        try await withDesk { d in
            let backend = TestBackend(width: 80, height: 24)
            let program = Program(backend: backend, service: d.desk, userName: "rossi", timeZone: Fixture.utc)
            let console = Desk(desk: d.desk, clock: d.clock, backend: backend, program: program)
            await console.send([])
            await console.type(Fixture.password)
            await console.press(.enter)
            #expect(console.screen.contains("Authorise an upload"))
            await console.press(.ctrl("o"))
            #expect(console.screen.contains("rossi signed out."))
            #expect(program.state.signIn.name.text.isEmpty)
            #expect(console.screen.contains("your name"), "the name field shows its placeholder")
        }
    }

    @Test("Ctrl-C signs out before the loop ends")
    func quit() async throws {
        try await withDesk { d in
            await d.signIn("rossi")
            d.backend.events = [.key(.ctrl("c"))]
            d.program.step(timeoutMilliseconds: 0)
            #expect(d.program.finished)
            await d.program.settle()
            let signOuts = try await audited(d.desk, .signOut, by: "rossi")
            #expect(signOuts.count == 1)
        }
    }

    @Test("only changed cells are redrawn after the first frame")
    func diffing() async throws {
        try await withDesk { d in
            await d.signIn("rossi")
            let afterFirst = d.backend.cellsWritten
            d.backend.events = [.key(.char("9"))]
            d.program.step(timeoutMilliseconds: 0)
            let typed = d.backend.cellsWritten - afterFirst
            // The field, its counter and the dimmed first step change: a few lines, not the screen.
            #expect(typed > 0 && typed < 80 * 24 / 10, "typing one character rewrote \(typed) cells")
        }
    }

    @Test("a resize redraws everything at the new size")
    func resize() async throws {
        try await withDesk { d in
            d.backend.resize(width: 120, height: 40)
            d.program.step(timeoutMilliseconds: 0)
            #expect(d.backend.screen.width == 120)
            #expect(d.backend.screen.lines[0].contains("desk.sqlite"))
        }
    }
}
