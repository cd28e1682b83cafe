import CivilCalendar
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

@testable import DeskConsole

/// Issue 20's "Safety in a call": what an operator does from habit mid-call never loses the
/// call, and what the screen says is what happened.
@Suite("Safety in a call")
struct CallSafetyTests {
    /// An operator with the code typed and the day chosen, authorised, the result shown.
    func authorised(_ record: OtpAuthorization = Fixture.record()) -> ConsoleApp.State {
        var app = Fixture.app()
        Fixture.type(Fixture.code, into: &app)
        _ = Fixture.press(.char("y"), .enter, .enter, into: &app)
        _ = ConsoleApp.update(&app, .authorize(.authorizeFinished(.authorized(record))))
        return app
    }

    @Test("q on the result asks first while the code is live; Enter (Stay) keeps the call, y quits")
    func quitAsks() throws {
        var app = authorised()
        #expect(Fixture.press(.char("q"), into: &app).isEmpty, "nothing quits at once")
        let dialog = try #require(app.authorize.quitConfirm)
        #expect(dialog.buttons[dialog.selected].label == "Stay")
        #expect(Fixture.prose(app).contains("The code can still be used for 2:30"))
        #expect(Fixture.press(.enter, into: &app).isEmpty)
        #expect(app.authorize.quitConfirm == nil)
        #expect(app.session != nil && app.authorize.watchedRecord != nil, "the call is still there")
        _ = Fixture.press(.char("q"), into: &app)
        #expect(Fixture.press(.char("y"), into: &app) == [.signOut(Fixture.session()), .quit])
    }

    @Test("q quits at once when nothing is live: the code expired, or the upload arrived")
    func quitWhenDone() {
        var expired = authorised()
        _ = ConsoleApp.update(&expired, .ticked(Fixture.now.addingTimeInterval(151)))
        #expect(Fixture.press(.char("q"), into: &expired) == [.signOut(Fixture.session()), .quit])
        var uploaded = authorised()
        _ = ConsoleApp.update(&uploaded, .authorize(.watchLoaded(Fixture.codeWatch(upload: Fixture.upload()))))
        #expect(Fixture.press(.char("q"), into: &uploaded) == [.signOut(Fixture.session()), .quit])
    }

    @Test("Esc in the code field keeps the code (Esc is back); Ctrl-U clears it, and help says so")
    func escapeIsBack() throws {
        var app = Fixture.app()
        Fixture.type("9K2RA", into: &app)
        _ = Fixture.press(.left, .left, .escape, into: &app)
        #expect(app.authorize.code.text == "9K2RA")
        _ = Fixture.press(.ctrl("u"), into: &app)
        #expect(app.authorize.code.text.isEmpty, "the whole code, wherever the cursor was")
        _ = Fixture.press(.char("?"), into: &app)
        let rows = try #require(app.help).sections.flatMap(\.rows)
        #expect(rows.contains(HelpRow(keys: "^U", help: "Clear the code")))
        #expect(!rows.contains { $0.keys == "Esc" && $0.help == "Clear the code" })
    }

    @Test("the review of a day more than 14 days back defaults to going back to the date")
    func warnedReviewDefault() throws {
        var app = Fixture.app()
        Fixture.type(Fixture.code + "-20", into: &app)
        _ = Fixture.press(.enter, into: &app)
        let review = try #require(app.authorize.review)
        #expect(review.buttons[review.selected].label == "Back to the date")
        #expect(Fixture.press(.enter, into: &app).isEmpty, "Enter does not authorise")
        #expect(app.authorize.phase == .editing)
        #expect(app.authorize.focus == .onset)
        // Without the warning, Enter Enter still authorises: 13 keys.
        var plain = Fixture.app()
        Fixture.type(Fixture.code, into: &plain)
        _ = Fixture.press(.char("y"), .enter, into: &plain)
        let dialog = try #require(plain.authorize.review)
        #expect(dialog.buttons[dialog.selected].label == "Authorise")
    }

    @Test("already authorised with another onset says which day the code keeps")
    func alreadyAuthorisedOtherDay() {
        var app = Fixture.app()
        Fixture.type(Fixture.code, into: &app)
        _ = Fixture.press(.char("t"), .enter, .enter, into: &app)
        let stored = Fixture.record(day: Fixture.now.utcDay.adding(days: -4))
        _ = ConsoleApp.update(&app, .authorize(.authorizeFinished(.alreadyAuthorized(stored))))
        let prose = Fixture.prose(app)
        #expect(prose.contains("Already authorised: nothing was changed"))
        #expect(prose.contains("stored symptom onset, 2026-11-25, not 2026-11-29 as chosen now"))
        var same = Fixture.app()
        Fixture.type(Fixture.code, into: &same)
        _ = Fixture.press(.char("t"), .enter, .enter, into: &same)
        _ = ConsoleApp.update(
            &same, .authorize(.authorizeFinished(.alreadyAuthorized(Fixture.record(day: Fixture.now.utcDay)))))
        #expect(!Fixture.prose(same).contains("stored symptom onset"))
    }

    @Test("a wait of more than half a second shows a spinner and the seconds waited")
    func spinner() {
        var app = Fixture.app()
        Fixture.type(Fixture.code, into: &app)
        _ = Fixture.press(.char("y"), .enter, .enter, into: &app)
        #expect(Fixture.prose(app).contains("… Authorising"))
        _ = ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(0.4)))
        #expect(!Fixture.prose(app).contains(" s "), "no spinner for a short wait")
        _ = ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(2.3)))
        let waited = Fixture.prose(app)
        #expect(["| ", "/ ", "- ", "\\ "].contains { waited.contains($0 + "Authorising… 2 s") })
        _ = ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(2.6)))
        #expect(Fixture.prose(app) != waited, "the spinner turns")
    }

    @Test("signing in that takes long shows the spinner too")
    func signInSpinner() {
        var app = Fixture.signedOut(userName: "rossi")
        Fixture.type(Fixture.password, into: &app)
        _ = Fixture.press(.enter, into: &app)
        #expect(app.signIn.notice == .working("signing in…"))
        _ = ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(3.1)))
        #expect(app.signIn.notice?.text.hasPrefix("signing in… ") == true)
        #expect(app.signIn.notice?.text.hasSuffix(" 3 s") == true)
    }

    @Test("Tab right after the automatic move to the onset keeps the focus there; the next Tab moves")
    func tabAfterAutoMove() {
        var app = Fixture.app()
        Fixture.type(Fixture.code, into: &app)
        #expect(app.authorize.focus == .onset)
        _ = Fixture.press(.tab, .char("t"), into: &app)
        #expect(app.authorize.focus == .onset)
        #expect(app.authorize.onset.value == Fixture.now.utcDay, "t picked today, it did not go into the code")
        #expect(app.authorize.code.text == Fixture.code)
        _ = Fixture.press(.tab, into: &app)
        #expect(app.authorize.focus == .code, "a deliberate Tab still moves")
    }

    @Test("clicking a day in the calendar picks it; a day after today cannot be picked")
    func clickDay() {
        var app = Fixture.app()
        let inner = Panel.inner(AuthorizeScreen.regions(in: Rect(x: 0, y: 1, width: 80, height: 22)).calendar)
        // November 2026 starts on a Sunday: the 27th is the Friday of the fifth row.
        _ = ConsoleApp.update(&app, .mouse(MouseEvent(.press, x: inner.x + 3 * 4 + 1, y: inner.y + 2 + 4)))
        #expect(app.authorize.onset.value == CivilDay(year: 2026, month: 11, day: 27))
        #expect(app.authorize.focus == .onset)
        // The 30th is after today (the 29th).
        _ = ConsoleApp.update(&app, .mouse(MouseEvent(.press, x: inner.x + 1, y: inner.y + 2 + 5)))
        #expect(app.authorize.onset.value == CivilDay(year: 2026, month: 11, day: 27))
    }

    @Test("after signing out the sign-in form is empty, even with a name given at start")
    func signOutEmptiesTheForm() {
        var app = Fixture.signedOut(userName: "rossi")
        _ = ConsoleApp.update(&app, .signedIn(Fixture.session()))
        _ = Fixture.press(.ctrl("o"), into: &app)
        #expect(app.page == .signIn)
        #expect(app.signIn.name.text.isEmpty)
        #expect(app.signIn.password.text.isEmpty)
        #expect(app.signIn.focus == .name)
        #expect(app.signIn.notice == .info("rossi signed out."))
    }
}

/// Issue 20's defects in the frame's and the screens' state.
@Suite("Console defects of issue 20")
struct ConsoleDefectTests {
    @Test("too small: Esc and q are kept for later, only the quit keys quit", arguments: [Key.escape, .char("q")])
    func tooSmallKeepsState(_ key: Key) {
        var app = Fixture.app()
        Fixture.type("9K2RA", into: &app)
        _ = ConsoleApp.update(&app, .resized(TerminalSize(width: 60, height: 20)))
        #expect(Fixture.press(key, into: &app).isEmpty)
        _ = ConsoleApp.update(&app, .resized(TerminalSize(width: 80, height: 24)))
        #expect(app.session != nil)
        #expect(app.authorize.code.text == "9K2RA", "the half-typed code is still there")
        _ = ConsoleApp.update(&app, .resized(TerminalSize(width: 60, height: 20)))
        #expect(Fixture.press(.ctrl("c"), into: &app) == [.signOut(Fixture.session()), .quit])
    }

    @Test("the countdown never shows more than the lifetime, even when the clocks differ")
    func countdownCapped() {
        var state = AuthorizeScreen.State(now: Fixture.now.addingTimeInterval(-0.6))
        _ = AuthorizeScreen.update(&state, .authorizeFinished(.authorized(Fixture.record())))
        #expect(state.secondsLeft == 150)
    }

    @Test("another operator's code: no \"waiting for the app\" under \"cannot follow this code\"")
    func refusedWatchSaysOnlyWhatIsTrue() {
        var app = Fixture.app()
        Fixture.type(Fixture.code, into: &app)
        _ = Fixture.press(.char("y"), .enter, .enter, into: &app)
        var record = Fixture.record(day: Fixture.now.utcDay.adding(days: -1))
        record.authorizedBy = "bianchi"
        _ = ConsoleApp.update(&app, .authorize(.authorizeFinished(.alreadyAuthorized(record))))
        let target = try! #require(app.authorize.watchTarget)
        _ = ConsoleApp.update(
            &app, .authorize(.watchRefused("this code was authorised by another operator", for: target)))
        let prose = Fixture.prose(app)
        #expect(prose.contains("cannot follow this code"))
        #expect(!prose.contains("waiting for the app"))
        #expect(!prose.contains("waiting for the upload"))
    }

    @Test("an embargo or a run on another day says the day")
    func embargoDay() {
        let now = Fixture.now
        #expect(WatchPane.clockWithDay(now.addingTimeInterval(3600), now: now, zone: Fixture.utc) == "15:02")
        #expect(
            WatchPane.clockWithDay(now.addingTimeInterval(12 * 3600), now: now, zone: Fixture.utc) == "tomorrow 02:02")
        #expect(
            WatchPane.clockWithDay(now.addingTimeInterval(3 * 86_400), now: now, zone: Fixture.utc)
                == "2026-12-02 14:02")
    }

    @Test("the sign-in's \"wait N s\" counts down, then says the wait is over")
    func signInWaitCountsDown() {
        var app = Fixture.signedOut(userName: "rossi")
        _ = ConsoleApp.update(&app, .ticked(Fixture.now))
        _ = ConsoleApp.update(
            &app, .signInScreen(.failed("too many failed sign-ins with this name from here: wait 3 s, then try again")))
        #expect(app.signIn.notice?.text.contains("wait 3 s") == true)
        _ = ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(1.2)))
        #expect(app.signIn.notice?.text.contains("wait 2 s, then try again") == true)
        _ = ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(3)))
        #expect(app.signIn.notice == .info("The wait is over: you can sign in again."))
    }

    @Test("the lock screen counts its \"wait N s\" down too, and spins while the desk checks")
    func lockWaitCountsDown() throws {
        var app = Fixture.app()
        _ = ConsoleApp.update(&app, .sessionEnded("this session has ended: sign in again"))
        Fixture.type(Fixture.password, into: &app)
        _ = Fixture.press(.enter, into: &app)
        _ = ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(2.2)))
        #expect(try #require(app.lock).notice?.text.hasSuffix(" 2 s") == true)
        _ = ConsoleApp.update(
            &app, .lockScreen(.failed("too many failed sign-ins with this name from here: wait 5 s, then try again")))
        _ = ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(4.5)))
        #expect(try #require(app.lock).notice?.text.contains("wait 3 s, then try again") == true)
        _ = ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(7.3)))
        #expect(try #require(app.lock).notice == .info("The wait is over: you can sign in again."))
    }

    @Test("the onset hint's example dates are three days before today, whatever today is")
    func onsetHintRelative() {
        var state = AuthorizeScreen.State(now: Fixture.now.addingTimeInterval(400 * 86_400))
        _ = AuthorizeScreen.update(&state, .keyPressed(.tab))
        _ = AuthorizeScreen.update(&state, .keyPressed(.char("z")))
        #expect(
            state.onsetMessage == "‘z’ does nothing here: t today, y yesterday, ←/→ day, or type 2027-12-31, 31/12, -3")
    }

    @Test("disabling your own account is refused at once, without the dialog")
    func disableSelf() {
        var app = Fixture.app(session: Fixture.session("admin", role: .admin))
        _ = ConsoleApp.update(&app, .staff(.loaded(Fixture.accounts)))
        let index = try! #require(app.staff.accounts.firstIndex { $0.name == "admin" })
        _ = ConsoleApp.update(&app, .staff(.rowClicked(index)))
        #expect(Fixture.press(.char("d"), into: &app).isEmpty)
        #expect(app.staff.confirm == nil)
        #expect(app.staff.notice == .error("you cannot disable your own account: ask another admin"))
        _ = Fixture.press(.down, into: &app)
        #expect(app.staff.notice == nil, "the message about admin does not stay under the next account")
    }

    @Test("a paste longer than the purpose is cut, and said; a counter shows near the limit")
    func pasteCut() {
        var app = Fixture.onTrace(Fixture.app(session: Fixture.session("tina", role: .tracer)))
        Fixture.type("+39 333 123 4567", into: &app)
        _ = Fixture.press(.enter, into: &app)
        Fixture.type(String(repeating: "a", count: TracePurpose.maximumLength - 3), into: &app)
        #expect(app.trace.purposeError == nil)
        #expect(
            Fixture.prose(app).contains("\(TracePurpose.maximumLength - 3)/\(TracePurpose.maximumLength) characters"))
        Fixture.type("bcdefgh", into: &app)
        #expect(app.trace.purpose.text.count == TracePurpose.maximumLength)
        #expect(
            app.trace.purposeError == "at most \(TracePurpose.maximumLength) characters: what came after was not kept")
    }

    @Test("a staff name pasted too long is cut, and said")
    func nameCut() {
        var app = Fixture.app(session: Fixture.session("admin", role: .admin))
        _ = Fixture.press(.char("a"), into: &app)
        Fixture.type(String(repeating: "n", count: StaffName.maximumLength + 4), into: &app)
        #expect(app.staff.form?.name.text.count == StaffName.maximumLength)
        #expect(app.staff.form?.notice?.text.contains("at most \(StaffName.maximumLength) characters") == true)
    }

    @Test("the first admin's and an HIS client's names pasted too long are cut, and said")
    func otherNamesCut() {
        var first = FirstAdminScreen.State()
        for character in String(repeating: "n", count: StaffName.maximumLength + 2) {
            _ = FirstAdminScreen.update(&first, .keyPressed(.char(character)))
        }
        #expect(first.name.text.count == StaffName.maximumLength)
        #expect(first.notice?.text.contains("at most \(StaffName.maximumLength) characters") == true)
        var app = Fixture.app(session: Fixture.session("admin", role: .admin))
        _ = Fixture.press(.function(4), .char("a"), into: &app)
        Fixture.type(String(repeating: "h", count: 80), into: &app)
        let form = try! #require(app.his.form)
        #expect(form.notice?.text.contains("characters: what came after was not kept") == true)
    }

    @Test("a number too long once the country code is added shows the number as understood")
    func phoneAsUnderstood() {
        var app = Fixture.onTrace(Fixture.app(session: Fixture.session("tina", role: .tracer)))
        Fixture.type("333 123 456 789 01", into: &app)
        _ = Fixture.press(.enter, into: &app)
        let error = try! #require(app.trace.phoneError)
        #expect(error.hasPrefix("read as +39 33312345678901 (+39 added to a number without a country code)"))
        #expect(error.contains("16 digits with the country code is too long"))
    }

    @Test("a failed r keeps the contacts shown, with a notice")
    func traceRefreshKeepsResult() throws {
        var app = Fixture.onTrace(Fixture.app(session: Fixture.session("tina", role: .tracer)))
        Fixture.type("+39 333 123 4567", into: &app)
        _ = Fixture.press(.enter, into: &app)
        Fixture.type("case 1", into: &app)
        _ = Fixture.press(.enter, into: &app)
        _ = ConsoleApp.update(&app, .trace(.lookupLoaded(TraceFixture.lookup())))
        let shown = app.trace.lookup
        _ = Fixture.press(.char("r"), into: &app)
        #expect(app.trace.phase == .loading)
        _ = ConsoleApp.update(&app, .trace(.lookupFailed("the server cannot be reached")))
        #expect(app.trace.phase == .result)
        #expect(app.trace.lookup == shown)
        #expect(app.trace.notice?.text.contains("could not look again: the server cannot be reached") == true)
        // A new lookup that fails still goes back to the number, with the reason.
        _ = Fixture.press(.char("n"), into: &app)
        Fixture.type("+39 333 765 4321", into: &app)
        _ = Fixture.press(.enter, into: &app)
        Fixture.type("case 2", into: &app)
        _ = Fixture.press(.enter, into: &app)
        _ = ConsoleApp.update(&app, .trace(.lookupFailed("no such patient")))
        #expect(app.trace.phase == .phone)
        #expect(app.trace.phoneError == "no such patient")
    }

    @Test("exports are suggested in the documents folder, else home; ~ is expanded when written")
    func exportFolder() {
        #expect(
            ExportPath.defaultFolder(
                environment: ["HOME": "/home/ana"], isFolder: { ["/home/ana/Documents"].contains($0) }) == "~/Documents"
        )
        #expect(ExportPath.defaultFolder(environment: ["HOME": "/home/ana"], isFolder: { _ in false }) == "~")
        #expect(
            ExportPath.defaultFolder(
                environment: ["HOME": "/home/ana", "XDG_DOCUMENTS_DIR": "/home/ana/Dokumente"],
                isFolder: { $0 == "/home/ana/Dokumente" })
                == "~/Dokumente")
        #expect(ExportPath.defaultFolder(environment: [:], isFolder: { _ in false }) == ".")
        #expect(ExportPath.expanded("~/Documents/a.csv", home: "/home/ana") == "/home/ana/Documents/a.csv")
        #expect(ExportPath.expanded("./a.csv", home: "/home/ana") == "./a.csv")
        var app = Fixture.app(session: Fixture.session("sara", role: .supervisor))
        app.exportFolder = "~/Documents"
        #expect(DashboardScreen.defaultExportPath(app.dashboard) == "~/Documents/stats-1h-2026-11-29.csv")
    }

    @Test("the demo's accounts: in help, and on F8 anywhere, even while typing")
    func demoAccounts() throws {
        var app = Fixture.app()
        app.demoAccounts = DemoAccounts(
            accounts: [.init(role: .admin, name: "admin", password: "demo-abc")], patients: ["+39 333 000 0001"],
            file: "/tmp/demo/demo-accounts.txt")
        _ = Fixture.press(.function(8), into: &app)
        let sheet = try #require(app.help)
        let rows = sheet.sections.flatMap(\.rows)
        #expect(rows.contains(HelpRow(keys: "admin", help: "admin, password demo-abc")))
        #expect(rows.contains { $0.help == "+39 333 000 0001" })
        #expect(rows.contains { $0.help == "/tmp/demo/demo-accounts.txt" })
        _ = Fixture.press(.escape, .char("?"), into: &app)
        #expect(
            try #require(app.help).sections.flatMap(\.rows).contains(
                HelpRow(keys: "F8", help: "The demo's accounts and patients")))
        var plain = Fixture.app()
        _ = Fixture.press(.function(8), into: &plain)
        #expect(plain.help == nil, "outside the demo F8 does nothing")
    }
}
