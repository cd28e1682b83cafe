import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The idle lock, the lock a call's `.notSignedIn` brings up, unlocking, signing out and
/// quitting: the screen underneath keeps its state through all but the sign-out.
@Suite("Lock, unlock and sign out")
struct LockFlowTests {
    func tick(_ app: inout ConsoleApp.State, after seconds: Double) -> [ConsoleApp.Command] {
        ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(seconds)))
    }

    @Test("idle for the session's limit: the lock covers the screen, the session is ended, the half-typed code stays")
    func idleLock() throws {
        var app = Fixture.app()
        Fixture.type("9K2RA", into: &app)
        #expect(tick(&app, after: 599).isEmpty)
        #expect(app.lock == nil)
        let commands = tick(&app, after: 600)
        #expect(commands == [.stopFeed, .signOut(Fixture.session())], "a locked desk reads no feed")
        let lock = try #require(app.lock)
        #expect(lock.user == "rossi")
        #expect(lock.reason == "Locked after 10 min without a key; the session was ended.")
        #expect(app.authorize.code.text == "9K2RA")
        let text = Fixture.render(app).text
        #expect(text.contains("Signed in as rossi (operator)"))
        #expect(!text.contains("9K2-RA"), "nothing of the screen underneath shows")
    }

    @Test("a key resets the idle time")
    func activity() {
        var app = Fixture.app()
        _ = tick(&app, after: 500)
        Fixture.type("9", into: &app)
        #expect(tick(&app, after: 1_000).isEmpty)
        #expect(app.lock == nil)
        #expect(!tick(&app, after: 1_100).isEmpty)
        #expect(app.lock != nil)
    }

    @Test("a shorter idle lock (TRACEDESK_IDLE_LOCK_SECONDS) wins; a longer one cannot outlast the session's")
    func idleOverride() {
        var short = Fixture.signedOut()
        short.idleLockSeconds = 5
        _ = ConsoleApp.update(&short, .signedIn(Fixture.session()))
        _ = tick(&short, after: 5)
        #expect(short.lock?.reason == "Locked after 5 s without a key; the session was ended.")
        var long = Fixture.signedOut()
        long.idleLockSeconds = 3_600
        _ = ConsoleApp.update(&long, .signedIn(Fixture.session()))
        #expect(long.idleLimit == 600)
    }

    @Test("unlock: the same person signs in again and the screen comes back with the typed code")
    func unlockKeepsCode() {
        var app = Fixture.app()
        Fixture.type("9K2RA", into: &app)
        _ = tick(&app, after: 600)
        Fixture.type("9K2", into: &app)
        #expect(app.authorize.code.text == "9K2RA", "keys go to the lock, not the screen")
        _ = Fixture.press(.ctrl("u"), into: &app)
        Fixture.type(Fixture.password, into: &app)
        let commands = Fixture.press(.enter, into: &app)
        #expect(commands == [.unlock(name: "rossi", password: Fixture.password)])
        var renewed = Fixture.session()
        renewed.token = "test-token-renewed"
        #expect(ConsoleApp.update(&app, .unlocked(renewed)) == [.startFeed(after: nil)])
        #expect(app.lock == nil)
        #expect(app.session == renewed)
        #expect(app.authorize.code.text == "9K2RA")
        Fixture.type("Y8UUQ", into: &app)
        #expect(app.authorize.code.text == Fixture.code)
    }

    @Test("a wrong password on the lock screen: the desk's message, the password cleared, still locked")
    func wrongPassword() throws {
        var app = Fixture.app()
        _ = tick(&app, after: 600)
        Fixture.type("not my password", into: &app)
        _ = Fixture.press(.enter, into: &app)
        let message = "wrong user name or password: check both and try again"
        _ = ConsoleApp.update(&app, .lockScreen(.failed(message)))
        let lock = try #require(app.lock)
        #expect(lock.password.text == "")
        #expect(lock.notice == .error(message))
        #expect(lock.unlocking == false)
        #expect(Fixture.render(app).text.contains("✗ wrong user name or password"))
    }

    @Test("a call that finds the session over locks with the desk's message; after unlocking, r retries the same code")
    func notSignedInThenRetry() {
        var app = Fixture.app()
        Fixture.type(Fixture.code, into: &app)
        _ = Fixture.press(.char("y"), .enter, .enter, into: &app)
        let message = "your session ended after 10 min without activity: sign in again"
        _ = ConsoleApp.update(&app, .sessionEnded(message))
        _ = ConsoleApp.update(&app, .authorize(.authorizeFailed(message)))
        #expect(app.lock?.reason == message)
        #expect(Fixture.prose(app).contains(message))
        Fixture.type(Fixture.password, into: &app)
        _ = Fixture.press(.enter, into: &app)
        _ = ConsoleApp.update(&app, .unlocked(Fixture.session()))
        #expect(app.lock == nil)
        let retry = Fixture.press(.char("r"), into: &app)
        #expect(
            retry == [
                .authorize(.authorize(code: Fixture.code, symptomsStartedOn: Fixture.now.utcDay.adding(days: -1)))
            ])
    }

    @Test("a session ended while an admin typed a new account: the form is still there after unlocking")
    func formSurvivesLock() {
        var app = Fixture.app(session: Fixture.session("admin", role: .admin))
        _ = Fixture.press(.char("a"), into: &app)
        Fixture.type("bianchi", into: &app)
        _ = ConsoleApp.update(
            &app, .sessionEnded("this session has ended (signed out, or the password was reset): sign in again"))
        #expect(app.lock != nil)
        Fixture.type(Fixture.password, into: &app)
        _ = Fixture.press(.enter, into: &app)
        _ = ConsoleApp.update(&app, .unlocked(Fixture.session("admin", role: .admin)))
        #expect(app.staff.form?.name.text == "bianchi")
    }

    @Test("^O on the lock screen signs out instead: the sign-in, every screen cleared")
    func signOutFromLock() {
        var app = Fixture.app()
        Fixture.type("9K2RA", into: &app)
        _ = tick(&app, after: 600)
        let commands = Fixture.press(.ctrl("o"), into: &app)
        #expect(commands == [.stopFeed, .signOut(Fixture.session())])
        #expect(app.session == nil)
        #expect(app.lock == nil)
        #expect(app.page == .signIn)
        #expect(app.authorize.code.text.isEmpty)
        #expect(app.signIn.notice == .info("rossi signed out."))
    }

    @Test(
        "the sign-out key works on every signed-in screen and changes the generation",
        arguments: [Key.ctrl("o"), .function(12)])
    func signOutKey(_ key: Key) {
        var app = Fixture.app(session: Fixture.session("admin", role: .admin))
        let generation = app.generation
        #expect(Fixture.press(key, into: &app) == [.signOut(Fixture.session("admin", role: .admin))])
        #expect(app.page == .signIn)
        #expect(app.generation != generation, "answers to the admin's calls are dropped")
        #expect(app.staff == StaffScreen.State(timeZone: Fixture.utc))
    }

    @Test("quitting while locked signs out too; quitting before signing in just quits")
    func quit() {
        var app = Fixture.app()
        _ = tick(&app, after: 600)
        #expect(Fixture.press(.ctrl("c"), into: &app) == [.signOut(Fixture.session()), .quit])
        var nobody = Fixture.signedOut()
        #expect(Fixture.press(.ctrl("c"), into: &nobody) == [.quit])
    }

    @Test("the idle lock never starts before anyone signs in")
    func noLockSignedOut() {
        var app = Fixture.signedOut()
        #expect(tick(&app, after: 10_000).isEmpty)
        #expect(app.lock == nil)
    }

    @Test("a connection problem shows in the title bar, in words, and the typed code stays")
    func connectionProblem() {
        var app = Fixture.app()
        Fixture.type("9K2RA", into: &app)
        _ = ConsoleApp.update(&app, .connectionChanged("server unreachable, retrying"))
        let title = Fixture.render(app).lines[0]
        #expect(title.contains("! server unreachable, retrying"))
        #expect(title.contains("rossi (operator)"))
        #expect(app.authorize.code.text == "9K2RA")
        _ = ConsoleApp.update(&app, .connectionChanged(nil))
        #expect(!Fixture.render(app).lines[0].contains("unreachable"))
    }
}
