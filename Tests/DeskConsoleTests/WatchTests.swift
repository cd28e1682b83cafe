import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The live watch on the authorise screen, inside the frame: when it asks the desk, what it does
/// with answers and feed events, and the steps it shows.
@Suite("Authorise screen watch")
struct WatchTests {
    /// The first ask names the typed code; once an answer came, the asks name an event about it.
    static let ask = ConsoleApp.Command.authorize(.watch(.code(Fixture.code)))
    static let askAgain = ConsoleApp.Command.authorize(.watch(.event(5)))

    /// Authorised at ``Fixture/now``; returns the commands the authorisation's answer gave.
    func authorised(_ app: inout ConsoleApp.State, already: Bool = false) -> [ConsoleApp.Command] {
        Fixture.type(Fixture.code, into: &app)
        _ = Fixture.press(.char("y"), .enter, .enter, into: &app)
        let record = Fixture.record(day: Fixture.now.utcDay.adding(days: -1))
        return ConsoleApp.update(
            &app, .authorize(.authorizeFinished(already ? .alreadyAuthorized(record) : .authorized(record))))
    }

    func tick(_ app: inout ConsoleApp.State, after seconds: Double) -> [ConsoleApp.Command] {
        ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(seconds)))
    }

    func feed(_ app: inout ConsoleApp.State, _ events: [MonitorEvent], cursor: Int64 = 100) -> [ConsoleApp.Command] {
        ConsoleApp.update(&app, .feed(EventPage(events: events, cursor: cursor)))
    }

    @Test("authorised or already authorised: the watch is asked for at once, and its answer fills the steps")
    func asksAtOnce() {
        for already in [false, true] {
            var app = Fixture.app()
            #expect(authorised(&app, already: already) == [Self.ask])
            let watch = Fixture.codeWatch(checks: [12, 19])
            #expect(ConsoleApp.update(&app, .authorize(.watchLoaded(watch))).isEmpty)
            #expect(app.authorize.watch == watch)
            #expect(Fixture.prose(app).contains("✓ the app checked the code (2 times, last at 14:02:19)"))
        }
    }

    @Test("an event about the code asks again; other codes' events do not; never two asks at a time")
    func eventsAboutTheCode() {
        var app = Fixture.app()
        _ = authorised(&app)
        let checked = Fixture.event(3, "otp_checked", at: Fixture.now, tag: Fixture.tag, #"{"status":"authorized"}"#)
        #expect(feed(&app, [checked]).isEmpty, "the first ask is still on its way")
        #expect(ConsoleApp.update(&app, .authorize(.watchLoaded(Fixture.codeWatch()))) == [Self.askAgain])
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(Fixture.codeWatch(checks: [3]))))
        let other = Fixture.event(4, "otp_checked", at: Fixture.now, tag: "4f2a91", #"{"status":"authorized"}"#)
        #expect(feed(&app, [other]).isEmpty)
        #expect(feed(&app, [checked]) == [Self.askAgain])
    }

    @Test("a published chunk asks again only while the upload's keys wait")
    func chunks() {
        var app = Fixture.app()
        _ = authorised(&app)
        let chunk = Fixture.event(9, "chunk_published", at: Fixture.now, #"{"chunk":42}"#)
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(Fixture.codeWatch())))
        #expect(feed(&app, [chunk]).isEmpty, "no upload yet: a chunk cannot hold its keys")
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(Fixture.codeWatch(upload: Fixture.upload()))))
        #expect(feed(&app, [chunk]) == [Self.askAgain])
        let published = Fixture.codeWatch(upload: Fixture.upload(chunks: [42], waiting: 0))
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(published)))
        #expect(feed(&app, [chunk]).isEmpty, "every key is published")
    }

    @Test("every 5 s as a fallback while the watch can still change; never once it is finished")
    func fallback() {
        var app = Fixture.app()
        _ = authorised(&app)
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(Fixture.codeWatch())))
        #expect(tick(&app, after: 4).isEmpty)
        #expect(tick(&app, after: 5) == [Self.askAgain])
        #expect(tick(&app, after: 11).isEmpty, "the ask is on its way")
        _ = ConsoleApp.update(
            &app, .authorize(.watchFailed("server unreachable", for: app.authorize.watchTarget ?? .code(""))))
        #expect(tick(&app, after: 11) == [Self.askAgain], "a failure is asked again")
        let published = Fixture.codeWatch(upload: Fixture.upload(chunks: [42], waiting: 0))
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(published)))
        #expect(tick(&app, after: 60).isEmpty)
        #expect(tick(&app, after: 500).isEmpty)
    }

    @Test("locked: no ask goes out; unlocking asks")
    func heldByTheLock() {
        var app = Fixture.app()
        _ = authorised(&app)
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(Fixture.codeWatch())))
        _ = ConsoleApp.update(&app, .sessionEnded("this session has ended: sign in again"))
        #expect(tick(&app, after: 30).isEmpty)
        let checked = Fixture.event(3, "otp_checked", at: Fixture.now, tag: Fixture.tag, #"{"status":"authorized"}"#)
        #expect(feed(&app, [checked]).isEmpty)
        let commands = ConsoleApp.update(&app, .unlocked(Fixture.session()))
        #expect(commands.contains(Self.askAgain))
        #expect(commands.first == .startFeed(after: 100), "the feed goes on where it stopped")
    }

    @Test("expired without an upload: says to ask for a new code; n starts a new call and the asks stop")
    func expiredWithoutUpload() {
        var app = Fixture.app()
        _ = authorised(&app)
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(Fixture.codeWatch(checks: [12]))))
        _ = tick(&app, after: 151)
        let text = Fixture.prose(app)
        #expect(
            text.contains("✗ Expired at 14:04:30 without an upload: ask the citizen to create a new code in the app"))
        #expect(text.contains("✗ no upload before the code expired at 14:04:30"))
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(Fixture.codeWatch(checks: [12]))))
        #expect(tick(&app, after: 200).isEmpty, "nothing more can happen")
        #expect(Fixture.press(.char("n"), into: &app).isEmpty)
        #expect(app.authorize.phase == .editing)
        #expect(app.authorize.code.text.isEmpty)
        #expect(app.authorize.watch == nil)
        #expect(tick(&app, after: 300).isEmpty)
    }

    @Test("refused (another operator's code): said once, not asked again")
    func refused() {
        var app = Fixture.app()
        _ = authorised(&app, already: true)
        _ = ConsoleApp.update(
            &app,
            .authorize(
                .watchRefused(
                    "you can follow only the codes you authorised", for: app.authorize.watchTarget ?? .code(""))))
        #expect(Fixture.prose(app).contains("! cannot follow this code: you can follow only the codes you authorised"))
        #expect(tick(&app, after: 30).isEmpty)
    }

    @Test("an answer about another code, or after the next call, is dropped")
    func staleAnswers() {
        var app = Fixture.app()
        _ = authorised(&app)
        var other = Fixture.codeWatch(checks: [1])
        other.codeTag = "4f2a91"
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(other)))
        #expect(app.authorize.watch == nil)
        _ = Fixture.press(.char("n"), into: &app)
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(Fixture.codeWatch())))
        _ = ConsoleApp.update(&app, .authorize(.watchFailed("late", for: .code("9K2RAY8UUQ"))))
        #expect(app.authorize.watch == nil)
        #expect(app.authorize.watchError == nil)
    }

    @Test("a late refusal about the previous call's code neither shows nor stops this call's watch")
    func lateRefusalOfAnotherCode() {
        var app = Fixture.app()
        _ = authorised(&app)
        let current = app.authorize.watchTarget
        _ = ConsoleApp.update(&app, .authorize(.watchRefused("another operator's", for: .code("KJ23IWY5UJ"))))
        _ = ConsoleApp.update(&app, .authorize(.watchFailed("late failure", for: .code("KJ23IWY5UJ"))))
        #expect(current != .code("KJ23IWY5UJ"))
        #expect(app.authorize.watchError == nil)
        #expect(!app.authorize.watchRefresh.stopped)
    }

    @Test("back to the form closes the watch")
    func editCloses() {
        var app = Fixture.app()
        _ = authorised(&app)
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(Fixture.codeWatch())))
        _ = Fixture.press(.char("e"), into: &app)
        #expect(app.authorize.watch == nil)
        #expect(tick(&app, after: 30).isEmpty)
    }

    @Test("the corner: the countdown until the upload arrives, then that the code is used; on the monitor too")
    func corner() {
        var app = Fixture.app()
        _ = authorised(&app)
        #expect(Fixture.render(app).lines[23].contains("code valid 2:30"))
        _ = Fixture.press(.function(3), into: &app)
        #expect(Fixture.render(app).lines[23].contains("code valid 2:30"))
        _ = ConsoleApp.update(&app, .authorize(.watchLoaded(Fixture.codeWatch(upload: Fixture.upload()))))
        #expect(Fixture.render(app).lines[23].contains("code used by an upload"))
    }

    @Test(
        "where the keys are",
        arguments: [
            (Fixture.upload(chunks: [42], waiting: 0), "✓ published in chunk 42"),
            (Fixture.upload(chunks: [42, 43, 44], waiting: 0), "✓ published in chunks 42–44"),
            (Fixture.upload(chunks: [42, 45], waiting: 0), "✓ published in chunks 42, 45"),
            (Fixture.upload(waiting: 0, accepted: 0), "– nothing to publish: no key was accepted"),
            (
                Fixture.upload(embargo: Fixture.now.addingTimeInterval(1_800)),
                "… keys wait for the embargo until 14:32; next publishing run at 14:15"
            ),
            (Fixture.upload(), "… next publishing run at 14:15"),
            (
                Fixture.upload(chunks: [42], waiting: 2),
                "… published in chunk 42 so far, 2 keys still wait; next publishing run at 14:15"
            ),
        ])
    func publishing(_ upload: WatchedUpload, _ line: String) {
        let steps = WatchPane.steps(
            Fixture.codeWatch(upload: upload), now: Fixture.now.addingTimeInterval(60), zone: Fixture.utc)
        #expect(steps.last?.line == line)
    }

    @Test("no run scheduled, or a run long overdue: is the server running?")
    func noRun() {
        let none = WatchPane.steps(
            Fixture.codeWatch(upload: Fixture.upload(), nextRun: nil), now: Fixture.now, zone: Fixture.utc)
        #expect(none.last?.line == "… no publishing run scheduled: is `tracedesk serve` running, with a signing key?")
        let overdue = WatchPane.steps(
            Fixture.codeWatch(upload: Fixture.upload(), nextRun: Fixture.now), now: Fixture.now.addingTimeInterval(600),
            zone: Fixture.utc)
        #expect(overdue.last?.line == "… the publishing run due at 14:02 has not run: is `tracedesk serve` running?")
    }
}
