import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The monitor inside the frame: the feed's pages, the bounded window, pause, filter, kinds,
/// selection, the panes and the header.
@Suite("Monitor screen")
struct MonitorScreenTests {
    static let supervisor = Fixture.session("sara", role: .supervisor)

    func monitor(session: StaffSession = supervisor) -> ConsoleApp.State {
        var app = Fixture.app(session: session)
        if app.page != .monitor { _ = Fixture.press(.function(3), into: &app) }
        return app
    }

    @discardableResult
    func feed(_ app: inout ConsoleApp.State, _ events: [MonitorEvent]) -> [ConsoleApp.Command] {
        ConsoleApp.update(&app, .feed(EventPage(events: events, cursor: events.last?.id ?? app.feedCursor)))
    }

    func shownIDs(_ app: ConsoleApp.State) -> [Int64] { app.monitor.visible.map { app.monitor.rows[$0].event.id } }

    @Test("rows newest first: time, kind word, who, code tag, summary from the detail")
    func rows() {
        var app = monitor()
        feed(&app, Fixture.feed())
        #expect(shownIDs(app) == Array((1...12).reversed()))
        let text = Fixture.render(app).text
        #expect(text.contains("14:00:00  chunk          server              chunk 42: 12 keys + 88 padding"))
        #expect(text.contains("13:58:40  refused        phone       4f2a91  refused: the code was expired"))
        #expect(text.contains("13:47:00  staff          rossi               signed in"))
        #expect(app.feedCursor == 12)
    }

    @Test("a kind this build does not know: 'unknown event', its kind and plain fields in words")
    func unknownKind() throws {
        var app = monitor()
        feed(&app, [Fixture.event(1, "vaccine_pass_issued", at: Fixture.now, #"{"province":"MI"}"#)])
        let row = try #require(app.monitor.rows.first)
        #expect(row.kindWord == "unknown event")
        #expect(row.summary == "vaccine pass issued: province MI")
        #expect(Fixture.render(app).text.contains("unknown event  –"))
    }

    @Test("APRICOT registrations and contact files have their kinds (keys 8 and 9), from phones, in words")
    func apricotKinds() throws {
        var app = monitor()
        feed(
            &app,
            [
                Fixture.event(1, "apricot_registered", at: Fixture.now, #"{"pseudo_ids":1000}"#),
                Fixture.event(
                    2, "contact_file_received", at: Fixture.now,
                    #"{"day":"2026-11-28","records":24,"distinct_beacons":3,"unknown_beacons":1,"clock_skew_s":0,"replaced":false}"#
                ),
            ])
        let rows = app.monitor.rows
        #expect(rows.map(\.kind) == [.contactFile, .registered])
        #expect(rows.map(\.who) == ["phone", "phone"])
        #expect(
            rows.map(\.summary) == [
                "day 2026-11-28: 24 records, 3 beacons (1 unknown), phone on time", "new app user, 1000 pseudo-ids",
            ])
        _ = Fixture.press(.char("9"), into: &app)
        #expect(app.monitor.visible.map { app.monitor.rows[$0].kind } == [.registered])
        #expect(app.monitor.counts.unknown == 0)
    }

    @Test("the window keeps the newest 2 000 of 5 000 events, read in pages of 500; paused too")
    func windowBound() {
        var app = monitor()
        let all = Fixture.uploads(count: 5_000)
        for start in stride(from: 0, to: all.count, by: 500) {
            feed(&app, Array(all[start..<start + 500]))
        }
        #expect(app.monitor.rows.count == 2_000)
        #expect(app.monitor.rows.first?.event.id == 5_000)
        #expect(app.monitor.rows.last?.event.id == 3_001)
        _ = Fixture.press(.char(" "), into: &app)
        feed(&app, Fixture.uploads(count: 5_000, first: 5_001))
        #expect(app.monitor.held.count == 2_000)
        #expect(app.monitor.newWhilePaused == 5_000)
        _ = Fixture.press(.char(" "), into: &app)
        #expect(app.monitor.rows.count == 2_000)
        #expect(app.monitor.rows.first?.event.id == 10_000)
        #expect(app.monitor.held.isEmpty)
    }

    @Test("a page larger than the window keeps its newest events")
    func hugePage() {
        var app = monitor()
        app.monitor.windowSize = 10
        feed(&app, Fixture.uploads(count: 25))
        #expect(shownIDs(app) == Array((16...25).reversed()))
    }

    @Test("paused: the table stays as it was and counts what arrives; resuming shows it on top")
    func pause() {
        var app = monitor()
        feed(&app, Fixture.feed())
        _ = Fixture.press(.char(" "), into: &app)
        #expect(app.monitor.paused)
        let before = Fixture.render(app).lines[6...]
        feed(&app, Fixture.uploads(count: 3, first: 13))
        #expect(shownIDs(app) == Array((1...12).reversed()))
        let text = Fixture.render(app).text
        #expect(text.contains("‖ paused, 3 new"))
        #expect(Fixture.render(app).lines[6...] == before, "the table does not move")
        #expect(Fixture.render(app).lines[23].contains("Space Resume"))
        _ = Fixture.press(.char(" "), into: &app)
        #expect(shownIDs(app).prefix(3) == [15, 14, 13])
        #expect(Fixture.render(app).text.contains("● live"))
    }

    @Test("the selection stays on its event as rows arrive; on the newest row it follows the newest")
    func selection() {
        var app = monitor()
        feed(&app, Fixture.feed())
        #expect(app.monitor.selectedRow?.event.id == 12)
        feed(&app, Fixture.uploads(count: 2, first: 13))
        #expect(app.monitor.selectedRow?.event.id == 14, "on the newest row: follows")
        _ = Fixture.press(.down, .down, into: &app)
        #expect(app.monitor.selectedRow?.event.id == 12)
        feed(&app, Fixture.uploads(count: 2, first: 15))
        #expect(app.monitor.selectedRow?.event.id == 12, "scrolled down: stays")
        _ = Fixture.press(.char("g"), into: &app)
        #expect(app.monitor.selectedRow?.event.id == 16)
        _ = Fixture.press(.char("G"), into: &app)
        #expect(app.monitor.selectedRow?.event.id == 1)
    }

    @Test("the selected event dropping off the window: the oldest row kept is selected")
    func selectionDropsOff() {
        var app = monitor()
        app.monitor.windowSize = 5
        feed(&app, Fixture.uploads(count: 5))
        _ = Fixture.press(.char("G"), into: &app)
        #expect(app.monitor.selectedRow?.event.id == 1)
        feed(&app, Fixture.uploads(count: 2, first: 6))
        #expect(app.monitor.selectedRow?.event.id == 3)
    }

    @Test("/ filters as you type over kind, who, code and summary; Enter keeps it, Esc clears it")
    func filter() {
        var app = monitor()
        feed(&app, Fixture.feed())
        _ = Fixture.press(.char("/"), into: &app)
        #expect(app.isTypingText, "q and ? are letters of the filter")
        Fixture.type("bianchi", into: &app)
        #expect(shownIDs(app) == [6])
        app.monitor.filter = TextFieldState("4f2a91")
        #expect(shownIDs(app) == [11, 7, 6])
        app.monitor.filter = TextFieldState("REFUSED")
        #expect(shownIDs(app) == [7], "kind words, any case")
        app.monitor.filter = TextFieldState("too old")
        #expect(shownIDs(app) == [5], "the summary's words")
        app.monitor.filter = TextFieldState("was expired")
        #expect(shownIDs(app) == [7], "a status in words")
        app.monitor.filter = TextFieldState("reason: expired")
        #expect(shownIDs(app) == [7], "the stored field, as scripts typed it")
        app.monitor.filter = TextFieldState("too_old")
        #expect(shownIDs(app) == [5], "the stored reason, as typed before the words")
        _ = Fixture.press(.enter, into: &app)
        #expect(!app.monitor.filtering)
        #expect(Fixture.render(app).text.contains("Filter: too_old"))
        _ = Fixture.press(.char("/"), .escape, into: &app)
        #expect(app.monitor.filter.text.isEmpty)
        #expect(shownIDs(app).count == 12)
    }

    @Test("1–7 hide and show kinds, and the counts say which are hidden; x shows every kind again")
    func kinds() {
        var app = monitor()
        feed(&app, Fixture.feed())
        _ = Fixture.press(.char("5"), .char("7"), into: &app)
        #expect(app.monitor.hidden == [.analytics, .staff])
        #expect(shownIDs(app) == [11, 10, 8, 7, 6, 5, 3, 2], "unknown kinds always show")
        let text = Fixture.render(app).text
        #expect(text.contains("analytics hidden"))
        #expect(text.contains("staff hidden"))
        #expect(text.contains("authorised 2 · checked 2"))
        #expect(text.contains("show/hide  1 authorised  2 checked"))
        _ = Fixture.press(.char("5"), into: &app)
        #expect(app.monitor.hidden == [.staff])
        _ = Fixture.press(.char("x"), into: &app)
        #expect(app.monitor.hidden.isEmpty)
    }

    @Test("header counts are per kind, over the window after the filter")
    func counts() {
        var app = monitor()
        feed(&app, Fixture.feed())
        var counts = app.monitor.counts
        #expect(
            counts.perKind == [
                .authorised: 2, .checked: 2, .upload: 1, .refused: 1, .analytics: 2, .chunk: 1, .staff: 2,
            ])
        #expect(counts.unknown == 1)
        app.monitor.filter = TextFieldState("b3b3b3")
        counts = app.monitor.counts
        #expect(counts.perKind == [.authorised: 1, .checked: 1, .upload: 1])
        #expect(counts.unknown == 0)
        #expect(Fixture.render(app).text.contains("authorised 1 · checked 1 · upload 1 · refused 0"))
    }

    @Test("Enter opens every field of the event, the detail in words; a detail that does not read says so")
    func detail() {
        var app = monitor()
        feed(&app, Fixture.feed())
        _ = Fixture.press(.down, .down, .down, .down, .down, .down, .down, .enter, into: &app)
        #expect(app.monitor.pane == .detail)
        var text = Fixture.prose(app)
        #expect(text.contains("Event #5"))
        #expect(text.contains("upload · who: phone · code tag b3b3b3"))
        #expect(!text.contains("upload_accepted"))
        for field in [
            "upload 7", "12 keys accepted, 2 dropped", "dropped: 2 too old", "province RM",
            "phone clock 3 s behind",
        ] {
            #expect(text.contains(field), "\(field)")
        }
        for key in ["keys_accepted", "clock_skew", "upload_id", "too_old", "{"] {
            #expect(!text.contains(key), "the stored key \(key) is on screen")
        }
        _ = Fixture.press(.char("g"), .down, into: &app)
        text = Fixture.prose(app)
        #expect(text.contains("the details this version cannot read"))
        #expect(!text.contains("status=expired"), "what was stored is not shown")
        _ = Fixture.press(.escape, into: &app)
        #expect(app.monitor.pane == .none)
    }

    @Test("w follows the code of the selected event; an event about no code says so; a refusal is shown")
    func watch() {
        var app = monitor(session: Fixture.session())
        feed(&app, Fixture.feed())
        #expect(Fixture.press(.char("w"), into: &app).isEmpty)
        #expect(app.monitor.notice?.text.contains("about no code") == true)
        _ = Fixture.press(.down, .down, .down, .down, .down, .down, .down, into: &app)
        #expect(Fixture.press(.char("w"), into: &app) == [.monitor(.watch(.event(5)))])
        #expect(app.monitor.pane == .watch)
        #expect(Fixture.prose(app).contains("… asking the desk about this code"))
        let watch = Fixture.codeWatch(checks: [12], upload: Fixture.upload())
        #expect(ConsoleApp.update(&app, .monitor(.watchLoaded(watch, for: .event(5)))).isEmpty)
        #expect(Fixture.prose(app).contains("✓ upload received at 14:02:40"))
        let chunk = Fixture.event(13, "chunk_published", at: Fixture.now, #"{"chunk":43}"#)
        #expect(feed(&app, [chunk]) == [.monitor(.watch(.event(5)))], "its keys wait: a chunk may hold them")
        _ = ConsoleApp.update(
            &app, .monitor(.watchRefused("you can watch only the codes you authorised", for: .event(5))))
        #expect(Fixture.prose(app).contains("✗ cannot watch this code: you can watch only the codes you authorised"))
        #expect(
            ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(30))).allSatisfy {
                $0 != .monitor(.watch(.event(5)))
            })
        _ = Fixture.press(.escape, into: &app)
        #expect(app.monitor.pane == .none)
        _ = ConsoleApp.update(&app, .monitor(.watchLoaded(watch, for: .event(5))))
        #expect(app.monitor.watch == nil, "a late answer for a closed pane is dropped")
    }

    @Test("the dummy share: a percentage since the hour, 'no phone requests yet' when none")
    func traffic() {
        var app = monitor()
        #expect(MonitorScreen.trafficText(app.monitor) == nil)
        _ = ConsoleApp.update(
            &app,
            .monitor(
                .trafficLoaded(
                    TrafficShare(since: Fixture.now.addingTimeInterval(-120), realRequests: 38, dummyRequests: 62))))
        #expect(MonitorScreen.trafficText(app.monitor) == "dummy traffic 62% of phone requests since 14:00")
        _ = ConsoleApp.update(
            &app, .monitor(.trafficLoaded(TrafficShare(since: Fixture.now, realRequests: 0, dummyRequests: 0))))
        #expect(MonitorScreen.trafficText(app.monitor) == "no phone requests yet")
        #expect(Fixture.render(app).lines[1].contains("no phone requests yet"))
    }

    @Test("traffic is asked for when the monitor opens and every 15 s while it is shown, not elsewhere")
    func trafficTiming() {
        var app = Fixture.app()
        let opened = Fixture.press(.function(3), into: &app)
        #expect(opened == [.monitor(.traffic(since: Fixture.now))])
        func tick(_ seconds: Double) -> [ConsoleApp.Command] {
            ConsoleApp.update(&app, .ticked(Fixture.now.addingTimeInterval(seconds)))
        }
        #expect(tick(20).isEmpty, "the first ask has not come back")
        _ = ConsoleApp.update(&app, .monitor(.trafficFailed("unreachable")))
        #expect(tick(20) == [.monitor(.traffic(since: Fixture.now.addingTimeInterval(20)))])
        _ = ConsoleApp.update(
            &app, .monitor(.trafficLoaded(TrafficShare(since: Fixture.now, realRequests: 1, dummyRequests: 1))))
        #expect(tick(30).isEmpty)
        _ = Fixture.press(.function(2), into: &app)
        #expect(tick(60).isEmpty, "not shown: not asked")
    }

    @Test("a failed read: 'reconnecting…'; the next page: live again")
    func reconnecting() {
        var app = monitor()
        _ = ConsoleApp.update(&app, .feedFailed("server unreachable"))
        #expect(Fixture.render(app).lines[1].contains("… reconnecting… (server unreachable)"))
        feed(&app, [])
        #expect(Fixture.render(app).lines[1].contains("● live"))
    }

    @Test("a full page: catching up with earlier activity")
    func catchingUp() {
        var app = monitor()
        feed(&app, Fixture.uploads(count: ConsoleApp.feedPageSize))
        #expect(Fixture.render(app).lines[1].contains("… catching up with earlier activity"))
        feed(&app, Fixture.uploads(count: 3, first: 501))
        #expect(Fixture.render(app).lines[1].contains("● live"))
    }

    @Test("mouse: a click selects a row; the wheel moves the selection")
    func mouse() {
        var app = monitor()
        feed(&app, Fixture.feed())
        let body = Rect(x: 0, y: 1, width: 80, height: 22)
        let rows = Table.rowsArea(in: Panel.inner(MonitorScreen.regions(app.monitor, in: body).table))
        _ = ConsoleApp.update(&app, .mouse(MouseEvent(.press, x: 10, y: rows.y + 3)))
        #expect(app.monitor.selectedRow?.event.id == 9)
        _ = ConsoleApp.update(&app, .mouse(MouseEvent(.wheelDown, x: 10, y: rows.y)))
        #expect(app.monitor.selectedRow?.event.id == 6)
    }

    @Test("the supervisor's help lists the monitor's keys; the operator's also F2/F3")
    func help() throws {
        var app = monitor()
        _ = Fixture.press(.char("?"), into: &app)
        var rows = try #require(app.help).sections.flatMap(\.rows)
        #expect(rows.contains(HelpRow(keys: "Space", help: "Pause / resume")))
        #expect(rows.contains(HelpRow(keys: "3", help: "Show or hide accepted uploads")))
        #expect(!rows.contains(HelpRow(keys: "F2/U", help: "Authorise")))
        var op = monitor(session: Fixture.session())
        _ = Fixture.press(.char("?"), into: &op)
        rows = try #require(op.help).sections.flatMap(\.rows)
        #expect(rows.contains(HelpRow(keys: "F2/U", help: "Authorise")))
        #expect(rows.contains(HelpRow(keys: "F3/M", help: "Monitor")))
    }

    @Test("the operator's footer leads back to the authorise screen, the supervisor's to the dashboard")
    func footer() {
        let op = monitor(session: Fixture.session())
        #expect(Fixture.render(op).lines[23].contains("F2 Authorise"))
        #expect(Fixture.render(op).lines[23].contains("^O Sign out"))
        let sup = monitor()
        #expect(Fixture.render(sup).lines[23].contains("F2 Dashboard"))
        var app = sup
        _ = Fixture.press(.function(2), into: &app)
        #expect(app.page == .dashboard)
    }

    @Test("the feed is kept through the lock and restarts where it stopped; a new person starts afresh")
    func feedLifecycle() {
        var app = monitor()
        feed(&app, Fixture.feed())
        _ = ConsoleApp.update(&app, .monitor(.trafficFailed("this session has ended")))
        #expect(ConsoleApp.update(&app, .sessionEnded("this session has ended")) == [.stopFeed])
        let unlocked = ConsoleApp.update(&app, .unlocked(Self.supervisor))
        #expect(unlocked == [.startFeed(after: 12), .monitor(.traffic(since: Fixture.now))])
        #expect(app.monitor.rows.count == 12)
        _ = ConsoleApp.update(&app, .sessionEnded("this session has ended"))
        let other = ConsoleApp.update(&app, .unlocked(Fixture.session("neri", role: .supervisor)))
        #expect(other.first == .startFeed(after: nil))
        #expect(app.monitor.rows.isEmpty)
        #expect(Fixture.press(.ctrl("o"), into: &app).first == .stopFeed)
    }
}
