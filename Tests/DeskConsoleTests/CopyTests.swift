import DeskConsole
import DeskContract
import DeskCore
import DeskTestSupport
import Foundation
import TerminalKit
import Testing

/// `y` copies with OSC 52 through the backend: a contact's phone number only after the desk
/// audited the copy, a code tag, an audit entry, an account's or a client's row; and nothing
/// when copying is turned off.
@Suite("Copy with y")
struct CopyTests {
    /// A tracer's console on a fake desk whose lookup of the patient's number is canned.
    func tracer(copy: Bool = true) async -> (FakeDesk, Console) {
        let desk = FakeDesk(accounts: [("tina", .tracer)], now: Fixture.now, location: Fixture.location)
        desk.canned { $0.lookups["333 123 4567"] = TraceFixture.lookup() }
        let console = Console(desk, width: 80, height: 24)
        console.program.copyEnabled = copy
        await console.send([])
        await console.signIn("tina")
        await console.press(.function(2))
        await console.type("333 123 4567")
        await console.press(.enter)
        await console.type(TraceFixture.purpose)
        await console.press(.enter)
        return (desk, console)
    }

    @Test(
        "y on a contact: the desk records copy_phone (target the contact, never the number), then the number is copied whole"
    )
    func phone() async throws {
        let (desk, c) = await tracer()
        #expect(c.state.trace.selectedContact?.summary.userID == 11)
        await c.press(.char("y"))
        #expect(c.backend.copied == ["+393470000011"])
        #expect(c.backend.clipboardWrites == [Clipboard.sequence(for: "+393470000011")])
        let entry = try #require(desk.auditEntries.last)
        #expect(entry.action == .phoneCopied)
        #expect(entry.actor == "tina")
        #expect(entry.target == "user 11")
        #expect(entry.detail == #"{"patient":"user 7","purpose":"case 2026-1234"}"#)
        #expect(!entry.detail.contains("3470000011"))
        #expect(c.screen.contains("phone number copied"))
        // The notice names what was copied, never the number.
        #expect(!c.screen.contains("copied +39"))
        #expect(desk.callLog.filter { $0 == "recordPhoneCopy" }.count == 1)
    }

    @Test("when the audit call fails nothing is copied, and the notice says why")
    func auditFails() async throws {
        let (desk, c) = await tracer()
        desk.fail(with: .unavailable("the store is not reachable"))
        await c.press(.char("y"))
        #expect(c.backend.copied.isEmpty)
        #expect(c.prose.contains("not copied"))
        #expect(!desk.auditActions.contains(.phoneCopied))
    }

    @Test("copying turned off: y says so, copies nothing and audits nothing")
    func off() async throws {
        let (desk, c) = await tracer(copy: false)
        await c.press(.char("y"))
        #expect(c.backend.copied.isEmpty)
        #expect(c.backend.clipboardWrites.isEmpty)
        #expect(c.prose.contains("copying is turned off"))
        #expect(!desk.callLog.contains("recordPhoneCopy"))
    }

    @Test("the monitor copies the selected event's code tag, Y its row")
    func monitorTag() {
        var app = Fixture.app(session: Fixture.session("sara", role: .supervisor))
        if app.page != .monitor { _ = Fixture.press(.function(3), into: &app) }
        _ = ConsoleApp.update(&app, .feed(EventPage(events: Fixture.feed(), cursor: 12)))
        let shown = app.monitor.visible
        guard let index = shown.firstIndex(where: { app.monitor.rows[$0].event.codeTag != nil }) else {
            Issue.record("the feed has an event with a code tag")
            return
        }
        _ = ConsoleApp.update(&app, .monitor(.rowClicked(index)))
        let row = app.monitor.rows[shown[index]]
        let tag = row.event.codeTag!
        #expect(
            Fixture.press(.char("y"), into: &app) == [.monitor(.copy(ClipboardCopy(tag, what: "code tag \(tag)")))])
        let commands = Fixture.press(.char("Y"), into: &app)
        guard case .monitor(.copy(let clip)) = commands.first else {
            Issue.record("Y copies the row")
            return
        }
        #expect(clip.text.contains(tag) && clip.text.contains(row.kindWord))
        _ = ConsoleApp.update(&app, .monitor(.copied(.copied(what: "code tag \(tag)", cut: false))))
        #expect(Fixture.prose(app).contains("code tag \(tag) copied"))
    }

    @Test("the audit screen copies the selected entry as one line of words")
    func auditRow() async throws {
        let desk = FakeDesk(accounts: [("admin", .admin), ("rossi", .operator)], now: Fixture.now)
        let c = Console(desk, width: 120, height: 40)
        await c.send([])
        await c.signIn("admin")
        await c.press(.function(3))
        #expect(c.state.page == .audit)
        await c.press(.char("y"))
        let copied = try #require(c.backend.copied.first)
        #expect(copied.contains("admin") && copied.contains("sign-in"))
        #expect(!copied.contains("{"))
        #expect(c.prose.contains("copied"))
    }

    @Test("the staff and HIS lists copy the selected row")
    func listRows() {
        var app = Fixture.app(session: Fixture.session("admin", role: .admin))
        _ = ConsoleApp.update(&app, .staff(.loaded(Fixture.accounts)))
        _ = Fixture.press(.down, into: &app)
        let commands = Fixture.press(.char("y"), into: &app)
        guard case .staff(.copy(let clip)) = commands.first else {
            Issue.record("y copies the staff row")
            return
        }
        #expect(clip.what == "row of bianchi")
        #expect(clip.text.hasPrefix("bianchi  operator  locked  8"))
    }
}
