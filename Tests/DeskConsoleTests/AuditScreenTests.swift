import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The admin's audit log inside the frame: loading and paging, filters, the detail pane and the
/// chain check's verdict.
@Suite("Audit screen")
struct AuditScreenTests {
    static let admin = Fixture.session("admin", role: .admin)
    static let firstPage = AuditQuery(limit: 100)

    func opened(pageSize: Int = 100) -> ConsoleApp.State {
        var app = Fixture.app(session: Self.admin)
        app.audit.pageSize = pageSize
        _ = Fixture.press(.function(3), into: &app)
        return app
    }

    @Test("newest first: time (local), actor, action, target, detail; the detail pane shows the selected entry")
    func list() {
        var app = opened()
        _ = ConsoleApp.update(&app, .audit(.loaded(Fixture.auditEntries(count: 5), for: Self.firstPage)))
        let text = Fixture.render(app).text
        #expect(text.contains("2026-11-29 14:00:00  admin       account added       rossi"))
        #expect(text.contains("2026-11-29 14:02:00  rossi       sign-in"))
        #expect(text.contains("Entry #40"))
        #expect(text.contains("hash " + String(repeating: "28", count: 32)))
        _ = Fixture.press(.down, into: &app)
        #expect(app.audit.selectedEntry?.id == 39)
        #expect(Fixture.render(app).text.contains("Entry #39"))
    }

    @Test("times are local: the same entry in Rome is an hour later")
    func localTime() {
        var app = Fixture.signedOut()
        app.timeZone = TimeZone(identifier: "Europe/Rome")!
        _ = ConsoleApp.update(&app, .signedIn(Self.admin))
        _ = Fixture.press(.function(3), into: &app)
        _ = ConsoleApp.update(&app, .audit(.loaded(Fixture.auditEntries(count: 1), for: Self.firstPage)))
        #expect(Fixture.render(app).text.contains("2026-11-29 15:02:00  rossi"))
    }

    @Test("n loads the page before the oldest entry shown, and appends it")
    func older() {
        var app = opened(pageSize: 5)
        let first = AuditQuery(limit: 5)
        _ = ConsoleApp.update(&app, .audit(.loaded(Fixture.auditEntries(count: 5), for: first)))
        #expect(app.audit.hasMore)
        let commands = Fixture.press(.char("n"), into: &app)
        let next = AuditQuery(beforeID: 36, limit: 5)
        #expect(commands == [.audit(.load(next))])
        _ = ConsoleApp.update(&app, .audit(.loaded(Fixture.auditEntries(count: 2, newest: 35), for: next)))
        #expect(app.audit.entries.map(\.id) == [40, 39, 38, 37, 36, 35, 34])
        #expect(app.audit.selectedEntry?.id == 35)
        #expect(!app.audit.hasMore)
        #expect(Fixture.press(.char("n"), into: &app).isEmpty)
        #expect(app.audit.notice == .info("no older entries"))
    }

    @Test("↓ past the last entry loaded fetches the next page")
    func downLoadsMore() {
        var app = opened(pageSize: 3)
        _ = ConsoleApp.update(&app, .audit(.loaded(Fixture.auditEntries(count: 3), for: AuditQuery(limit: 3))))
        #expect(Fixture.press(.down, .down, into: &app).isEmpty)
        #expect(Fixture.press(.down, into: &app) == [.audit(.load(AuditQuery(beforeID: 38, limit: 3)))])
    }

    @Test("an answer to an older query is dropped")
    func staleAnswer() {
        var app = opened()
        _ = Fixture.press(.char("/"), into: &app)
        Fixture.type("rossi", into: &app)
        _ = Fixture.press(.enter, into: &app)
        _ = ConsoleApp.update(&app, .audit(.loaded(Fixture.auditEntries(count: 5), for: Self.firstPage)))
        #expect(app.audit.entries.isEmpty)
        #expect(app.audit.loading)
    }

    @Test("the filter: person, action and day (local) become the desk's query")
    func filter() {
        var app = opened()
        _ = Fixture.press(.char("f"), into: &app)
        #expect(app.audit.filterForm != nil)
        Fixture.type("Rossi", into: &app)
        _ = Fixture.press(.tab, .tab, .right, .right, .tab, .char("y"), into: &app)
        let commands = Fixture.press(.enter, into: &app)
        let yesterday = CivilDay(iso: "2026-11-28")!
        let from = Date(timeIntervalSince1970: Double(yesterday.unixSecondsAtMidnightUTC))
        let query = AuditQuery(
            actor: "rossi", action: .signInFailed, from: from, until: from.addingTimeInterval(86_400), limit: 100)
        #expect(commands == [.audit(.load(query))])
        #expect(app.audit.filter == AuditScreen.Filter(actor: "rossi", action: .signInFailed, day: yesterday))
        #expect(Fixture.render(app).text.contains("Filter: by rossi · sign-in failed · day 2026-11-28"))
        #expect(Fixture.press(.char("x"), into: &app) == [.audit(.load(Self.firstPage))])
        #expect(app.audit.filter.isEmpty)
    }

    @Test("in the filter form ? and q are typed, Esc cancels, a bad day is explained")
    func filterForm() {
        var app = opened()
        _ = Fixture.press(.char("/"), into: &app)
        Fixture.type("q?", into: &app)
        #expect(app.help == nil)
        #expect(app.audit.filterForm?.person.text == "q?")
        _ = Fixture.press(.tab, .tab, .tab, into: &app)
        Fixture.type("2999-01-01", into: &app)
        #expect(Fixture.press(.enter, into: &app).isEmpty)
        #expect(app.audit.filterForm?.message?.contains("2999-01-01 is after the latest allowed day") == true)
        _ = Fixture.press(.escape, .escape, into: &app)
        #expect(app.audit.filterForm == nil)
        #expect(app.audit.filter.isEmpty)
    }

    @Test("v checks the chain; intact: the entry count and the head, in words")
    func verifyIntact() {
        var app = opened()
        #expect(Fixture.press(.char("v"), into: &app) == [.audit(.verify)])
        #expect(Fixture.render(app).text.contains("… verifying the whole audit chain"))
        let head = String(repeating: "ab", count: 32)
        _ = ConsoleApp.update(
            &app, .audit(.verified(AuditVerification(entries: 42, headHash: head, headID: 42, firstBroken: nil))))
        let text = Fixture.render(app).text
        #expect(text.contains("✓ chain intact: 42 entries, head #42 abababab"))
    }

    @Test("a broken chain says BROKEN, where and why")
    func verifyBroken() {
        var app = opened()
        _ = Fixture.press(.char("v"), into: &app)
        let result = AuditVerification(
            entries: 16, headHash: String(repeating: "0", count: 64), headID: 16,
            firstBroken: AuditBreak(id: 17, reason: "its hash does not match its contents"))
        _ = ConsoleApp.update(&app, .audit(.verified(result)))
        #expect(Fixture.render(app).text.contains("✗ BROKEN at entry 17: its hash does not match its contents"))
        let (text, style) = AuditScreen.verdict(.done(result), width: 118)
        #expect(text == "✗ BROKEN at entry 17: its hash does not match its contents (16 entries before it verify)")
        #expect(style.role == .error)
    }

    @Test("the head hash is shown whole when it fits, shortened with … when not")
    func verdictWidth() {
        let head = String(repeating: "cd", count: 32)
        let result = AuditVerification(entries: 3, headHash: head, headID: 3, firstBroken: nil)
        #expect(AuditScreen.verdict(.done(result), width: 118).0 == "✓ chain intact: 3 entries, head #3 " + head)
        #expect(AuditScreen.verdict(.done(result), width: 60).0.hasSuffix("…"))
    }

    @Test("a load the desk refuses is shown with what to do")
    func loadFailed() {
        var app = opened()
        _ = ConsoleApp.update(&app, .audit(.loadFailed("the store is locked by another process", for: Self.firstPage)))
        #expect(
            app.audit.notice
                == .error("could not read the audit log: the store is locked by another process (r to try again)"))
        #expect(Fixture.press(.char("r"), into: &app) == [.audit(.load(Self.firstPage))])
    }
}
