import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The sign-in and first-admin screens, alone and inside the frame: keys in, state and commands
/// out.
@Suite("Sign-in and first-admin screens")
struct SignInScreenTests {
    func type(_ text: String, into state: inout ConsoleApp.State) { Fixture.type(text, into: &state) }

    @Test("the console starts on the sign-in and asks the desk whether any account exists")
    func start() {
        var app = Fixture.signedOut()
        #expect(ConsoleApp.start(&app) == [.checkAccounts])
        #expect(app.page == .signIn)
        #expect(app.signIn.checking)
        #expect(Fixture.render(app).text.contains("… checking for staff accounts…"))
        _ = ConsoleApp.update(&app, .accountsChecked(needsFirstAdmin: false))
        #expect(app.page == .signIn)
        #expect(!app.signIn.checking)
    }

    @Test("name, Tab, password, Enter: a signIn command with both; the screen says it is signing in")
    func signIn() {
        var app = Fixture.signedOut()
        type("rossi", into: &app)
        _ = Fixture.press(.tab, into: &app)
        type("correct horse battery", into: &app)
        let commands = Fixture.press(.enter, into: &app)
        #expect(commands == [.signIn(name: "rossi", password: "correct horse battery")])
        #expect(app.signIn.signingIn)
        #expect(app.signIn.notice == .working("signing in…"))
        let keysWhileWaiting = Fixture.press(.char("x"), .enter, into: &app)
        #expect(keysWhileWaiting.isEmpty)
        #expect(app.signIn.password.text == "correct horse battery", "keys wait while the desk answers")
    }

    @Test("Enter on the name moves to the password; with nothing typed it asks for the name")
    func enterMovesOn() {
        var app = Fixture.signedOut()
        #expect(Fixture.press(.enter, into: &app).isEmpty)
        #expect(app.signIn.notice == .error("type your user name"))
        type("rossi", into: &app)
        #expect(Fixture.press(.enter, into: &app).isEmpty)
        #expect(app.signIn.focus == .password)
        #expect(Fixture.press(.enter, into: &app).isEmpty)
        #expect(app.signIn.notice == .error("type your password"))
    }

    @Test("the password is drawn as bullets and never as typed")
    func passwordMasked() {
        var app = Fixture.signedOut(userName: "rossi")
        type("s3cret-Pass?q", into: &app)
        let text = Fixture.render(app).text
        #expect(!text.contains("s3cret"))
        #expect(text.contains(String(repeating: "•", count: 13)))
        #expect(app.help == nil, "? and q are part of the password, not help or quit")
    }

    @Test("a failure shows the desk's message, keeps the name and clears the password")
    func failure() {
        var app = Fixture.signedOut()
        type("Rossi", into: &app)
        _ = Fixture.press(.tab, into: &app)
        type("wrong password", into: &app)
        _ = Fixture.press(.enter, into: &app)
        let message = "wrong user name or password: check both and try again"
        _ = ConsoleApp.update(&app, .signInScreen(.failed(message)))
        #expect(!app.signIn.signingIn)
        #expect(app.signIn.name.text == "Rossi")
        #expect(app.signIn.password.text.isEmpty)
        #expect(app.signIn.focus == .password)
        #expect(app.signIn.notice == .error(message))
        #expect(Fixture.render(app).text.contains("✗ wrong user name or password: check both and try again"))
    }

    @Test(
        "the desk's sign-in messages are shown as they are",
        arguments: [
            "the account rossi is locked after 8 failed sign-ins: ask an admin to reset its password (tracedesk staff reset-password rossi)",
            "the account rossi is disabled: ask an admin for a new account",
            "too many failed sign-ins for rossi: wait 8 s, then try again",
            "server unreachable: check the network, then try again",
        ])
    func messages(_ message: String) {
        var app = Fixture.signedOut(userName: "rossi")
        type("whatever pass", into: &app)
        _ = Fixture.press(.enter, into: &app)
        _ = ConsoleApp.update(&app, .signInScreen(.failed(message)))
        #expect(app.signIn.notice == .error(message))
        #expect(Fixture.prose(app).contains("✗ " + message))
    }

    @Test("--user fills in the name and starts on the password")
    func prefilled() {
        let app = Fixture.signedOut(userName: "rossi")
        #expect(app.signIn.name.text == "rossi")
        #expect(app.signIn.focus == .password)
    }

    @Test("when the check for accounts failed, a failed sign-in asks again")
    func recheck() {
        var app = Fixture.signedOut(userName: "rossi")
        _ = ConsoleApp.start(&app)
        _ = ConsoleApp.update(&app, .accountsCheckFailed("the store is locked by another process"))
        #expect(app.signIn.notice == .error("cannot reach the desk: the store is locked by another process"))
        type("whatever pass", into: &app)
        _ = Fixture.press(.enter, into: &app)
        let commands = ConsoleApp.update(&app, .signInScreen(.failed("the store is locked by another process")))
        #expect(commands == [.checkAccounts])
    }

    @Test(
        "a signed-in operator gets the authorise screen and the feed; an admin the staff screen, which loads; a supervisor the monitor"
    )
    func homeByRole() {
        var app = Fixture.signedOut()
        #expect(ConsoleApp.update(&app, .signedIn(Fixture.session())) == [.startFeed(after: nil)])
        #expect(app.page == .authorize)
        var admin = Fixture.signedOut()
        let commands = ConsoleApp.update(&admin, .signedIn(Fixture.session("admin", role: .admin)))
        #expect(admin.page == .staff)
        #expect(commands == [.stopFeed, .staff(.load)])
        var tracer = Fixture.signedOut()
        _ = ConsoleApp.update(&tracer, .signedIn(Fixture.session("verdi", role: .tracer)))
        #expect(tracer.page == .queue)
        var supervisor = Fixture.signedOut()
        let asked = ConsoleApp.update(&supervisor, .signedIn(Fixture.session("sara", role: .supervisor)))
        #expect(supervisor.page == .dashboard)
        #expect(
            asked == [
                .startFeed(after: nil),
                .dashboard(.load(StatsQuery.last(.hour, bucket: .fiveMinutes, now: Fixture.now))),
            ])
    }

    @Test("a tracer starts on the call queue; F2 brings the contact-trace screen, asked for the patient's number")
    func tracerStart() {
        var app = Fixture.app(session: Fixture.session("verdi", role: .tracer))
        #expect(Fixture.prose(app).contains("Call queue verdi (tracer)"))
        _ = Fixture.press(.function(2), into: &app)
        let text = Fixture.prose(app)
        #expect(text.contains("Contact trace verdi (tracer)"))
        #expect(text.contains("Look up a patient"))
        #expect(text.contains("› Phone number"))
    }
}

@Suite("First-admin setup")
struct FirstAdminScreenTests {
    func setup() -> ConsoleApp.State {
        var app = Fixture.signedOut()
        _ = ConsoleApp.start(&app)
        _ = ConsoleApp.update(&app, .accountsChecked(needsFirstAdmin: true))
        return app
    }

    @Test("no account: the first-admin form replaces the sign-in and says what it creates")
    func shown() {
        let app = setup()
        #expect(app.page == .firstAdmin)
        #expect(Fixture.prose(app).contains("This creates the first admin"))
    }

    @Test("through a server the form also asks for the setup token: Enter on an empty one says where it is")
    func setupToken() {
        var app = Fixture.signedOut()
        _ = ConsoleApp.start(&app)
        _ = ConsoleApp.update(&app, .accountsChecked(needsFirstAdmin: true, setupToken: true))
        #expect(app.firstAdmin.fields == [.name, .password, .again, .token])
        #expect(Fixture.prose(app).contains("Setup token"))
        Fixture.type("admin", into: &app)
        _ = Fixture.press(.enter, into: &app)
        Fixture.type(Fixture.password, into: &app)
        _ = Fixture.press(.enter, into: &app)
        Fixture.type(Fixture.password, into: &app)
        #expect(Fixture.press(.enter, into: &app).isEmpty)
        #expect(app.firstAdmin.focus == .token)
        #expect(Fixture.press(.enter, into: &app).isEmpty)
        #expect(
            app.firstAdmin.notice
                == .error(
                    "type the setup token that tracedesk serve printed at start (also in its setup-token file beside the store)"
                ))
        Fixture.type("tdsetup_abc", into: &app)
        let commands = Fixture.press(.enter, into: &app)
        #expect(
            commands == [.createFirstAdmin(name: "admin", password: Fixture.password, setupToken: "tdsetup_abc")])
        // The token is a secret: never drawn.
        #expect(!Fixture.prose(app).contains("tdsetup_abc"))
    }

    @Test("on the store itself the form has no token field")
    func noTokenLocally() {
        let app = setup()
        #expect(app.firstAdmin.fields == [.name, .password, .again])
        #expect(!Fixture.prose(app).contains("Setup token"))
    }

    @Test("name, password twice: Enter moves field by field, then creates the admin")
    func create() {
        var app = setup()
        Fixture.type("Admin", into: &app)
        #expect(Fixture.press(.enter, into: &app).isEmpty)
        Fixture.type(Fixture.password, into: &app)
        #expect(Fixture.press(.enter, into: &app).isEmpty)
        Fixture.type(Fixture.password, into: &app)
        let commands = Fixture.press(.enter, into: &app)
        #expect(commands == [.createFirstAdmin(name: "admin", password: Fixture.password)])
        #expect(app.firstAdmin.creating)
        _ = ConsoleApp.update(&app, .signedIn(Fixture.session("admin", role: .admin)))
        #expect(app.page == .staff)
    }

    @Test("the password rules are checked as typed")
    func rulesAsTyped() {
        var app = setup()
        Fixture.type("admin", into: &app)
        _ = Fixture.press(.tab, into: &app)
        Fixture.type("short", into: &app)
        #expect(app.firstAdmin.passwordProblem == "a password has at least 10 characters")
        #expect(Fixture.render(app).text.contains("✗ a password has at least 10 characters"))
        Fixture.type("-admin-xyz", into: &app)
        #expect(app.firstAdmin.passwordProblem == "the password must not contain the user name")
        _ = Fixture.press(.ctrl("u"), into: &app)
        Fixture.type(Fixture.password, into: &app)
        #expect(app.firstAdmin.passwordProblem == nil)
        #expect(Fixture.render(app).text.contains("✓ password accepted"))
    }

    @Test("passwords that differ are refused with the focus on the second")
    func mismatch() {
        var app = setup()
        Fixture.type("admin", into: &app)
        _ = Fixture.press(.tab, into: &app)
        Fixture.type(Fixture.password, into: &app)
        _ = Fixture.press(.tab, into: &app)
        Fixture.type("correct horse", into: &app)
        #expect(app.firstAdmin.againProblem == nil, "still a prefix: being typed")
        Fixture.type("X", into: &app)
        #expect(app.firstAdmin.againProblem == "the two passwords differ")
        #expect(Fixture.press(.enter, into: &app).isEmpty)
        #expect(app.firstAdmin.focus == .again)
        #expect(app.firstAdmin.notice == .error("the two passwords differ: type the same password twice"))
    }

    @Test("a bad name is refused before anything is sent")
    func badName() {
        var app = setup()
        Fixture.type("1admin", into: &app)
        _ = Fixture.press(.tab, into: &app)
        Fixture.type(Fixture.password, into: &app)
        _ = Fixture.press(.tab, into: &app)
        Fixture.type(Fixture.password, into: &app)
        #expect(Fixture.press(.enter, into: &app).isEmpty)
        #expect(app.firstAdmin.focus == .name)
        #expect(app.firstAdmin.notice == .error("a user name starts with a letter (a-z)"))
    }

    @Test("someone else made the first admin meanwhile: the sign-in, with the desk's message")
    func conflict() {
        var app = setup()
        Fixture.type("admin", into: &app)
        _ = ConsoleApp.update(
            &app, .firstAdminExists("staff accounts exist already: sign in, or ask an admin for an account"))
        #expect(app.page == .signIn)
        #expect(app.signIn.name.text == "admin")
        #expect(app.signIn.notice == .error("staff accounts exist already: sign in, or ask an admin for an account"))
    }
}
