import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The admin's staff screen inside the frame: the table, the add and new-password forms, the
/// disable confirmation, the desk's answers, and switching to the audit log.
@Suite("Staff screen")
struct StaffScreenTests {
    static let admin = Fixture.session("admin", role: .admin)

    func loaded() -> ConsoleApp.State {
        var app = Fixture.app(session: Self.admin)
        _ = ConsoleApp.update(&app, .staff(.loaded(Fixture.accounts)))
        return app
    }

    @Test("the table lists every account with its role, state, failures, last sign-in and creator")
    func table() {
        let app = loaded()
        let text = Fixture.render(app).text
        #expect(text.contains("Staff accounts (5)"))
        #expect(text.contains("bianchi         operator    locked         8  never             admin"))
        #expect(text.contains("verdi           tracer      disabled       0  never"))
        #expect(text.contains("rossi           operator    active         1  2026-11-29 13:02  admin"))
    }

    @Test("the selection moves with ↓/↑/End and follows the account's name across a reload")
    func selection() {
        var app = loaded()
        _ = Fixture.press(.down, .down, into: &app)
        #expect(app.staff.selectedAccount?.name == "rossi")
        _ = ConsoleApp.update(&app, .staff(.loaded(Array(Fixture.accounts.dropFirst()))))
        #expect(app.staff.selectedAccount?.name == "rossi")
        _ = Fixture.press(.end, into: &app)
        #expect(app.staff.selectedAccount?.name == "verdi")
    }

    @Test("a: name, role (→ cycles), password twice; Enter field by field, then an add command")
    func add() {
        var app = loaded()
        _ = Fixture.press(.char("a"), into: &app)
        #expect(app.staff.form?.kind == .add)
        Fixture.type("Neri", into: &app)
        _ = Fixture.press(.enter, .right, .right, into: &app)
        #expect(app.staff.form?.role == .supervisor)
        _ = Fixture.press(.enter, into: &app)
        Fixture.type(Fixture.password, into: &app)
        _ = Fixture.press(.enter, into: &app)
        Fixture.type(Fixture.password, into: &app)
        let commands = Fixture.press(.enter, into: &app)
        #expect(commands == [.staff(.add(name: "neri", role: .supervisor, password: Fixture.password))])
        #expect(app.staff.form?.submitting == true)
        let added = Fixture.account("neri", .supervisor)
        #expect(ConsoleApp.update(&app, .staff(.added(added))) == [.staff(.load)])
        #expect(app.staff.form == nil)
        #expect(app.staff.notice == .ok("added neri as supervisor: they can sign in now"))
        _ = ConsoleApp.update(&app, .staff(.loaded(Fixture.accounts + [added])))
        #expect(app.staff.selectedAccount?.name == "neri", "the new account is selected")
    }

    @Test("the desk refuses an add: its message in the form, everything typed kept")
    func addRefused() {
        var app = loaded()
        _ = Fixture.press(.char("a"), into: &app)
        Fixture.type("rossi", into: &app)
        _ = Fixture.press(.tab, .tab, into: &app)
        Fixture.type(Fixture.password, into: &app)
        _ = Fixture.press(.tab, into: &app)
        Fixture.type(Fixture.password, into: &app)
        _ = Fixture.press(.enter, into: &app)
        let message = "the name rossi is taken (disabled accounts keep their names): choose another"
        _ = ConsoleApp.update(&app, .staff(.changeFailed(message)))
        #expect(app.staff.form?.notice == .error(message))
        #expect(app.staff.form?.submitting == false)
        #expect(app.staff.form?.name.text == "rossi")
        #expect(app.staff.form?.password.text == Fixture.password)
        #expect(Fixture.render(app).text.contains("✗ the name rossi is taken"))
    }

    @Test("Esc closes the form without sending anything; Tab in a form moves fields, not screens")
    func formKeys() {
        var app = loaded()
        _ = Fixture.press(.char("a"), into: &app)
        _ = Fixture.press(.tab, into: &app)
        #expect(app.page == .staff)
        #expect(app.staff.form?.focus == .role)
        Fixture.type("?q", into: &app)
        #expect(app.help == nil)
        #expect(Fixture.press(.escape, into: &app).isEmpty)
        #expect(app.staff.form == nil)
    }

    @Test("d asks first, naming the account; the safe choice is selected, y disables")
    func disable() throws {
        var app = loaded()
        _ = Fixture.press(.down, into: &app)
        _ = Fixture.press(.char("d"), into: &app)
        let dialog = try #require(app.staff.confirm)
        #expect(dialog.title == "Disable bianchi?")
        #expect(dialog.message.contains("bianchi (operator) will no longer be able to sign in"))
        #expect(Fixture.press(.enter, into: &app).isEmpty, "Enter on the selected Keep does nothing")
        #expect(app.staff.confirm == nil)
        _ = Fixture.press(.char("d"), into: &app)
        #expect(Fixture.press(.char("y"), into: &app) == [.staff(.disable(name: "bianchi"))])
        var disabled = Fixture.accounts[1]
        disabled.disabled = true
        #expect(ConsoleApp.update(&app, .staff(.disabled(disabled))) == [.staff(.load)])
        #expect(app.staff.notice == .ok("bianchi is disabled: they cannot sign in, and their sessions have ended"))
    }

    @Test("the desk's refusal is shown plainly (disabling oneself)")
    func refusalShown() {
        var app = loaded()
        _ = Fixture.press(.char("d"), .char("y"), into: &app)
        _ = ConsoleApp.update(&app, .staff(.changeFailed("you cannot disable your own account: ask another admin")))
        #expect(Fixture.render(app).text.contains("✗ you cannot disable your own account: ask another admin"))
        #expect(app.staff.disabling == nil)
    }

    @Test("an account disabled already is not asked about again")
    func alreadyDisabled() {
        var app = loaded()
        _ = Fixture.press(.end, .char("d"), into: &app)
        #expect(app.staff.confirm == nil)
        #expect(app.staff.notice == .info("verdi is disabled already"))
    }

    @Test("p: a new password typed twice for the selected account")
    func resetPassword() {
        var app = loaded()
        _ = Fixture.press(.down, .char("p"), into: &app)
        #expect(app.staff.form?.kind == .resetPassword("bianchi"))
        Fixture.type(Fixture.password, into: &app)
        _ = Fixture.press(.enter, into: &app)
        Fixture.type(Fixture.password, into: &app)
        let commands = Fixture.press(.enter, into: &app)
        #expect(commands == [.staff(.resetPassword(name: "bianchi", password: Fixture.password))])
        #expect(ConsoleApp.update(&app, .staff(.passwordReset(Fixture.accounts[1]))) == [.staff(.load)])
        #expect(app.staff.form == nil)
        #expect(app.staff.notice?.text.hasPrefix("new password set for bianchi") == true)
    }

    @Test("a password containing the account's name is refused as typed")
    func resetRules() {
        var app = loaded()
        _ = Fixture.press(.down, .char("p"), into: &app)
        Fixture.type("bianchi-2026-x", into: &app)
        #expect(app.staff.form?.passwordProblem == "the password must not contain the user name")
    }

    @Test("F3 and Tab switch to the audit log (loading it once), F2 back; the footer and help list them")
    func switching() throws {
        var app = loaded()
        #expect(Fixture.press(.function(3), into: &app) == [.audit(.load(AuditQuery(limit: 100)))])
        #expect(app.page == .audit)
        #expect(Fixture.press(.function(2), into: &app).isEmpty)
        #expect(app.page == .staff)
        _ = Fixture.press(.tab, into: &app)
        #expect(app.page == .staff, "Tab never switches screens")
        _ = Fixture.press(.char("A"), into: &app)
        #expect(app.page == .audit)
        #expect(Fixture.render(app).lines.last?.contains("F2 Staff") == true)
        _ = Fixture.press(.char("?"), into: &app)
        let rows = try #require(app.help).sections.flatMap(\.rows)
        #expect(rows.contains(HelpRow(keys: "F2/S", help: "Staff")))
        #expect(rows.contains(HelpRow(keys: "F3/A", help: "Audit")))
        #expect(rows.contains(HelpRow(keys: "^O/F12", help: "Sign out")))
    }

    @Test("an operator has no admin screens: F2 and F3 are the authorise screen and the monitor")
    func operatorHasNoAdminScreens() {
        var app = Fixture.app()
        _ = Fixture.press(.function(3), into: &app)
        #expect(app.page == .monitor)
        _ = Fixture.press(.function(2), into: &app)
        #expect(app.page == .authorize)
        #expect(app.staff == StaffScreen.State(timeZone: Fixture.utc))
    }

    @Test("a click selects a row; the wheel scrolls")
    func mouse() {
        var app = loaded()
        let regions = StaffScreen.regions(in: Rect(x: 0, y: 1, width: 80, height: 22))
        _ = ConsoleApp.update(&app, .mouse(MouseEvent(.press, x: 10, y: regions.rows.y + 3)))
        #expect(app.staff.selectedAccount?.name == "sara")
        _ = ConsoleApp.update(&app, .mouse(MouseEvent(.wheelUp, x: 10, y: regions.rows.y)))
        #expect(app.staff.selected == 0)
    }
}
