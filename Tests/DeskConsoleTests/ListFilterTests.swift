import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// `/` on the staff list and the HIS client list: filters in place as typed, Enter keeps, Esc
/// clears, and the selection stays on its row while the row is shown.
@Suite("List filters (staff, HIS clients)")
struct ListFilterTests {
    static let admin = Fixture.session("admin", role: .admin)

    func staff(width: Int = 80, height: Int = 24) -> ConsoleApp.State {
        var app = Fixture.app(width: width, height: height, session: Self.admin)
        _ = ConsoleApp.update(&app, .staff(.loaded(Fixture.accounts)))
        return app
    }

    func names(_ app: ConsoleApp.State) -> [String] { app.staff.visible.map { app.staff.accounts[$0].name } }

    @Test("typing filters by name, role or state at once; the title counts what is shown")
    func staffTyping() {
        var app = staff()
        _ = Fixture.press(.char("/"), into: &app)
        #expect(app.isTypingText)
        Fixture.type("oper", into: &app)
        #expect(names(app) == ["bianchi", "rossi"])
        #expect(Fixture.render(app).text.contains("Staff accounts (2 of 5) · / oper"))
        _ = Fixture.press(.backspace, .backspace, .backspace, .backspace, into: &app)
        Fixture.type("locked", into: &app)
        #expect(names(app) == ["bianchi"])
        _ = Fixture.press(.backspace, .backspace, .backspace, .backspace, .backspace, .backspace, into: &app)
        Fixture.type("DIS", into: &app)
        #expect(names(app) == ["verdi"])
        _ = Fixture.press(.backspace, .backspace, .backspace, into: &app)
        Fixture.type("sup sara", into: &app)
        #expect(names(app) == ["sara"])
    }

    @Test("the selection stays on its row while shown, else the first row shown; Esc clears and keeps it")
    func staffSelection() {
        var app = staff()
        _ = Fixture.press(.down, .down, into: &app)
        #expect(app.staff.selectedAccount?.name == "rossi")
        _ = Fixture.press(.char("/"), into: &app)
        Fixture.type("o", into: &app)  // bianchi, rossi, sara? (operator, supervisor, rossi…)
        #expect(app.staff.selectedAccount?.name == "rossi")
        Fixture.type("pera", into: &app)
        #expect(app.staff.selectedAccount?.name == "rossi")
        _ = Fixture.press(.enter, into: &app)
        #expect(!app.staff.filter.editing)
        #expect(Fixture.render(app).text.contains("filter: opera (/ edits, Esc clears)"))
        // The keys are the table's again: ↑ moves among the rows shown.
        _ = Fixture.press(.up, into: &app)
        #expect(app.staff.selectedAccount?.name == "bianchi")
        _ = Fixture.press(.escape, into: &app)
        #expect(names(app).count == 5)
        #expect(app.staff.selectedAccount?.name == "bianchi")
        _ = Fixture.press(.char("/"), into: &app)
        Fixture.type("sara", into: &app)
        #expect(app.staff.selectedAccount?.name == "sara")
        _ = Fixture.press(.escape, into: &app)
        #expect(!app.staff.filter.editing && !app.staff.filter.isActive)
        #expect(app.staff.selectedAccount?.name == "sara")
    }

    @Test("nothing matches: the table says so, and keys that act on a row act on none")
    func staffNothing() {
        var app = staff()
        _ = Fixture.press(.char("/"), into: &app)
        Fixture.type("zzz", into: &app)
        _ = Fixture.press(.enter, into: &app)
        #expect(app.staff.selectedAccount == nil)
        #expect(Fixture.render(app).text.contains("no account matches (Esc clears the filter)"))
        #expect(Fixture.press(.char("y"), into: &app).isEmpty)
        #expect(Fixture.press(.char("d"), into: &app).isEmpty)
        #expect(app.staff.confirm == nil)
    }

    @Test("a reload keeps the filter and the selected account")
    func staffReload() {
        var app = staff()
        _ = Fixture.press(.char("/"), into: &app)
        Fixture.type("rossi", into: &app)
        _ = Fixture.press(.enter, into: &app)
        _ = ConsoleApp.update(&app, .staff(.loaded(Fixture.accounts)))
        #expect(names(app) == ["rossi"])
        #expect(app.staff.selectedAccount?.name == "rossi")
    }

    static let clients = [
        HISClient(name: "niguarda", createdAt: Fixture.now - 86_400, createdBy: "admin", ratePerMinute: 30),
        HISClient(
            name: "old-lab", createdAt: Fixture.now - 10 * 86_400, createdBy: "admin", revokedAt: Fixture.now - 3_600,
            revokedBy: "boss"),
        HISClient(name: "san-matteo", createdAt: Fixture.now - 7_200, createdBy: "boss"),
    ]

    func his(width: Int = 80, height: Int = 24) -> ConsoleApp.State {
        var app = Fixture.app(width: width, height: height, session: Self.admin)
        _ = Fixture.press(.function(4), into: &app)
        _ = ConsoleApp.update(&app, .his(.loaded(Self.clients)))
        return app
    }

    @Test("the HIS list filters by name and state; Esc clears; the selection follows")
    func hisFilter() {
        var app = his()
        _ = Fixture.press(.down, .down, into: &app)
        #expect(app.his.selectedClient?.name == "san-matteo")
        _ = Fixture.press(.char("/"), into: &app)
        Fixture.type("revoked", into: &app)
        #expect(app.his.visible.map { app.his.clients[$0].name } == ["old-lab"])
        #expect(app.his.selectedClient?.name == "old-lab")
        #expect(Fixture.render(app).text.contains("(1 of 3) · / revoked"))
        _ = Fixture.press(.escape, into: &app)
        #expect(app.his.visible.count == 3)
        #expect(app.his.selectedClient?.name == "old-lab")
        let commands = Fixture.press(.char("y"), into: &app)
        guard case .his(.copy(let clip)) = commands.first else {
            Issue.record("y copies the HIS row")
            return
        }
        #expect(clip.text.hasPrefix("old-lab  revoked"))
    }

    @Test("snapshots of a filtered list at 80x24 and 120x40", arguments: [(80, 24), (120, 40)])
    func snapshots(_ size: (Int, Int)) {
        var app = staff(width: size.0, height: size.1)
        _ = Fixture.press(.char("/"), into: &app)
        Fixture.type("oper", into: &app)
        assertSnapshot(Fixture.render(app), named: "console-\(size.0)x\(size.1)-staff-filter")
        var clients = his(width: size.0, height: size.1)
        _ = Fixture.press(.char("/"), into: &clients)
        Fixture.type("active", into: &clients)
        _ = Fixture.press(.enter, into: &clients)
        assertSnapshot(Fixture.render(clients), named: "his-\(size.0)x\(size.1)-filter")
    }
}

/// The new states under a locale without UTF-8: nothing but ASCII on screen.
@Suite("ASCII snapshots: list filters, routine sign-ins, the subject filter")
struct CopyAuditAsciiTests {
    @Test("LANG=C at 80x24 and 120x40", arguments: [(80, 24), (120, 40)])
    func ascii(_ size: (Int, Int)) {
        var staff = ListFilterTests().staff(width: size.0, height: size.1)
        _ = Fixture.press(.char("/"), into: &staff)
        Fixture.type("oper", into: &staff)
        AsciiSnapshotTests.check(staff, "console-\(size.0)x\(size.1)-ascii-staff-filter")
        var audit = Fixture.app(width: size.0, height: size.1, session: ListFilterTests.admin)
        _ = Fixture.press(.function(3), into: &audit)
        let entries = [
            AuditSubjectRoutineTests.entry(
                3, "tina", .phoneCopied, target: "user 12", minute: 2,
                detail: #"{"patient":"user 7","purpose":"case 2026-1234"}"#),
            AuditSubjectRoutineTests.entry(2, "neri", .signOut, minute: 1),
            AuditSubjectRoutineTests.signIn(1, "neri"),
        ]
        _ = ConsoleApp.update(&audit, .audit(.loaded(entries, for: AuditQuery(limit: 100))))
        _ = Fixture.press(.char("h"), into: &audit)
        AsciiSnapshotTests.check(audit, "console-\(size.0)x\(size.1)-ascii-audit-routine-hidden")
    }
}
