import DeskConsole
import DeskContract
import DeskCore
import DeskTestSupport
import Foundation
import TerminalKit
import Testing

/// The `:` command palette in the console (issue 20, convention 1): what it lists for each role
/// and screen, that running an entry does what its key does, and where it is not offered.
@Suite("Command palette in the console")
struct PaletteTests {
    static func names(_ state: ConsoleApp.State) -> [String] { ConsoleApp.paletteEntries(state).map(\.name) }

    static func supervisor(width: Int = 80, height: Int = 24) -> ConsoleApp.State {
        Fixture.app(width: width, height: height, session: Fixture.session("sara", role: .supervisor))
    }

    @Test("it lists the role's screens, the screen's actions and the global ones, each with its key")
    func lists() throws {
        let operatorNames = Self.names(Fixture.app())
        for name in ["authorise", "monitor", "signout", "quit", "help", "redraw", "suspend", "review"] {
            #expect(operatorNames.contains(name), "\(name)")
        }
        #expect(!operatorNames.contains("staff"), "no other role's screens")
        #expect(!operatorNames.contains("palette"), "not itself")
        #expect(!operatorNames.contains("next-field"))
        let admin = Self.names(Fixture.app(session: Fixture.session("admin", role: .admin)))
        for name in ["staff", "audit", "his", "add", "disable", "password"] { #expect(admin.contains(name), "\(name)") }
        let supervisor = Self.names(Self.supervisor())
        for name in ["dashboard", "monitor", "export", "refresh", "filter"] {
            #expect(supervisor.contains(name), "\(name)")
        }
        let tracer = Self.names(Fixture.app(session: Fixture.session("tina", role: .tracer)))
        #expect(tracer.contains("trace"))
        let monitor = try #require(
            ConsoleApp.paletteEntries(Fixture.app()).first { $0.name == "monitor" })
        #expect(monitor.keys == "F3/M")
        #expect(monitor.key == .function(3), "F3, not M: the code field would take the letter")
        var signedOut = Fixture.signedOut()
        #expect(!Self.names(signedOut).contains("signout"))
        signedOut.demoAccounts = DemoAccounts(accounts: [])
        #expect(Self.names(signedOut).contains("accounts"), "the demo's :accounts")
    }

    @Test("`:` then `mon` Enter shows the monitor; `:monitor` exactly too; Esc closes and changes nothing")
    func running() {
        var app = Fixture.app()
        _ = Fixture.press(.char(":"), into: &app)
        #expect(app.palette != nil)
        Fixture.type("mon", into: &app)
        #expect(app.authorize.code.text.isEmpty, "nothing typed into the code below")
        _ = Fixture.press(.enter, into: &app)
        #expect(app.palette == nil)
        #expect(app.page == .monitor)
        _ = Fixture.press(.char(":"), into: &app)
        Fixture.type("authorise", into: &app)
        _ = Fixture.press(.enter, into: &app)
        #expect(app.page == .authorize)
        _ = Fixture.press(.char(":"), into: &app)
        Fixture.type("monitor", into: &app)
        _ = Fixture.press(.escape, into: &app)
        #expect(app.palette == nil)
        #expect(app.page == .authorize)
    }

    @Test(
        "`:q` quits (signing out), `:signout` signs out, `:help` opens help, `:redraw` and `:suspend` ask the program")
    func globalCommands() {
        func run(_ text: String, _ state: inout ConsoleApp.State) -> [ConsoleApp.Command] {
            _ = Fixture.press(.ctrl("p"), into: &state)
            Fixture.type(text, into: &state)
            return Fixture.press(.enter, into: &state)
        }
        var app = Fixture.app()
        #expect(run("q", &app).last == .quit)
        app = Fixture.app()
        _ = run("signout", &app)
        #expect(app.session == nil)
        #expect(app.page == .signIn)
        app = Fixture.app()
        _ = run("help", &app)
        #expect(app.help != nil)
        app = Fixture.app()
        #expect(run("redraw", &app) == [.redraw])
        #expect(run("susp", &app) == [.suspend])
    }

    @Test("Ctrl-P opens it over a text field, keeping what was typed; `:` there is typed")
    func overTextFields() {
        var app = Fixture.app(session: Fixture.session("admin", role: .admin))
        _ = ConsoleApp.update(&app, .staff(.loaded(Fixture.accounts)))
        _ = Fixture.press(.char("a"), into: &app)
        Fixture.type("neri:", into: &app)
        #expect(app.palette == nil)
        #expect(app.staff.form?.name.text.hasPrefix("neri") == true)
        _ = Fixture.press(.ctrl("p"), into: &app)
        #expect(app.palette != nil)
        #expect(!Self.names(app).contains("audit"), "no screen switch while the form is open")
        _ = Fixture.press(.escape, into: &app)
        #expect(app.palette == nil)
        #expect(app.staff.form != nil, "Esc closed the palette, not the form")
        #expect(app.staff.form?.name.text.hasPrefix("neri") == true)
    }

    @Test("not offered while a dialog asks, on the lock screen, or when too small")
    func notOffered() {
        var app = Fixture.app()
        Fixture.type(Fixture.code, into: &app)
        _ = Fixture.press(.char("y"), .enter, into: &app)
        #expect(app.authorize.phase == .reviewing)
        _ = Fixture.press(.char(":"), into: &app)
        #expect(app.palette == nil)
        _ = Fixture.press(.ctrl("p"), into: &app)
        #expect(app.palette == nil)
        #expect(app.authorize.phase == .reviewing, "the question stays")

        var locked = Fixture.app()
        _ = ConsoleApp.update(&locked, .sessionEnded("over"))
        _ = Fixture.press(.ctrl("p"), into: &locked)
        #expect(locked.palette == nil)

        var small = Fixture.app(width: 60, height: 20)
        _ = Fixture.press(.ctrl("p"), into: &small)
        #expect(small.palette == nil)
    }

    @Test("a screen's letter switches where no field takes letters, and is typed where one does")
    func letters() {
        var app = Fixture.app()
        _ = Fixture.press(.char("M"), into: &app)
        #expect(app.page == .authorize, "letters belong to the code field in the form")
        _ = Fixture.press(.char("U"), into: &app)
        #expect(app.authorize.code.text == "U")
        _ = Fixture.press(.function(3), into: &app)
        #expect(app.page == .monitor)
        _ = Fixture.press(.char("U"), into: &app)
        #expect(app.page == .authorize)
        var supervisor = Self.supervisor()
        _ = Fixture.press(.char("M"), into: &supervisor)
        #expect(supervisor.page == .monitor)
        _ = Fixture.press(.char("/"), into: &supervisor)
        _ = Fixture.press(.char("D"), into: &supervisor)
        #expect(supervisor.page == .monitor, "typed into the monitor's filter")
        #expect(supervisor.monitor.filter.text == "D")
    }

    @Test("snapshots at 80x24 and 120x40, Unicode and ASCII", arguments: [false, true])
    func snapshots(ascii: Bool) {
        for (width, height) in [(80, 24), (120, 40)] {
            var app = Fixture.app(width: width, height: height)
            app.ascii = ascii
            _ = Fixture.press(.char(":"), into: &app)
            Fixture.type("mo", into: &app)
            let buffer = Fixture.render(app)
            if ascii { #expect(buffer.text.allSatisfy { $0.isASCII }) }
            assertSnapshot(buffer, named: "palette-\(width)x\(height)\(ascii ? "-ascii" : "")")
            var all = Self.supervisor(width: width, height: height)
            all.ascii = ascii
            _ = Fixture.press(.char(":"), into: &all)
            assertSnapshot(Fixture.render(all), named: "palette-\(width)x\(height)-supervisor\(ascii ? "-ascii" : "")")
        }
    }
}
