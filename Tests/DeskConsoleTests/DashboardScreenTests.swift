import DeskConsole
import DeskContract
import DeskCore
import DeskText
import Foundation
import TerminalKit
import Testing

/// The supervisor's dashboard through the console's pure update: what it asks the desk, when,
/// what it keeps, and what it says.
@Suite("Dashboard screen")
struct DashboardScreenTests {
    typealias F = DashboardFixture

    @Test("a supervisor starts on the dashboard, which asks for the last hour in 5-minute buckets")
    func startsOnDashboard() {
        var state = Fixture.signedOut()
        let commands = ConsoleApp.update(&state, .signedIn(F.supervisor))
        #expect(state.page == .dashboard)
        let query = F.load(commands)
        #expect(query == StatsQuery.last(.hour, bucket: .fiveMinutes, now: Fixture.now))
        #expect(query?.bucketCount == 12)
        #expect(commands.contains(.startFeed(after: nil)))
        #expect(state.dashboard.loading)
    }

    @Test("F3 or M shows the monitor, F2 or D the dashboard again, Tab never switches; other roles get no dashboard")
    func screens() {
        var state = F.app()
        _ = Fixture.press(.function(3), into: &state)
        #expect(state.page == .monitor)
        #expect(Fixture.render(state).lines[23].contains("F2 Dashboard"))
        let back = Fixture.press(.function(2), into: &state)
        #expect(state.page == .dashboard)
        // Coming back asks again (the answer of the first ask came in already).
        #expect(F.load(back) != nil)
        _ = Fixture.press(.tab, into: &state)
        #expect(state.page == .dashboard, "Tab moves between fields or panes, never between screens")
        _ = Fixture.press(.char("M"), into: &state)
        #expect(state.page == .monitor)
        _ = Fixture.press(.char("D"), into: &state)
        #expect(state.page == .dashboard)

        var operatorState = Fixture.app()
        _ = Fixture.press(.function(2), into: &operatorState)
        #expect(operatorState.page == .authorize)
        #expect(ConsoleApp.home(for: .operator) == .authorize)
        #expect(ConsoleApp.home(for: .admin) == .staff)
    }

    @Test("keys 0 to 4 choose the range with its default bucket and ask at once; the same range asks nothing")
    func ranges() {
        var state = F.app()
        let expected: [(Character, StatsRange, StatsBucket)] = [
            ("2", .day, .hour), ("3", .week, .day), ("4", .fortnight, .day), ("0", .today, .hour),
            ("1", .hour, .fiveMinutes),
        ]
        for (key, range, bucket) in expected {
            let commands = Fixture.press(.char(key), into: &state)
            #expect(state.dashboard.range == range)
            #expect(state.dashboard.bucket == bucket)
            #expect(
                F.load(commands) == StatsQuery.last(range, bucket: bucket, now: Fixture.now, timeZone: Fixture.utc))
            #expect(commands.contains(.dashboard(.rememberRange(range))))
        }
        #expect(Fixture.press(.char("1"), into: &state).isEmpty)
    }

    @Test(
        "a new range: its title, export and province check wait for its figures; meanwhile the screen says which range it shows"
    )
    func rangeChangeShowsWhichRange() {
        var state = F.app()
        let week = F.load(Fixture.press(.char("3"), into: &state))!
        var lines = Fixture.render(state).lines
        #expect(lines[1].contains("Last hour · 5 min buckets · since 13:05 · updated 14:02:00 UTC"))
        #expect(lines[2].contains("… reading the last 7 days by day (showing the last hour)"))
        #expect(lines[3].contains("authorised          46"))
        // The export writes what is on screen, named after it.
        _ = Fixture.press(.char("e"), into: &state)
        #expect(state.dashboard.export?.path.text == "~/stats-1h-2026-11-29.csv")
        #expect(Fixture.prose(state).contains("Every figure of the last hour, by 5 min."))
        _ = Fixture.press(.escape, into: &state)
        // Its ask fails: the old figures stay, said to be the old range's.
        _ = ConsoleApp.update(&state, .dashboard(.failed("the desk is unreachable", for: week)))
        #expect(
            Fixture.prose(state).contains(
                "the last 7 days by day could not be read (still showing the last hour, from 14:02:00 UTC; r tries again)"
            ))
        #expect(Fixture.render(state).lines[1].hasPrefix(" Last hour"))
        // r asks for the 7 days again; its figures bring its title.
        let again = F.load(Fixture.press(.char("r"), into: &state))!
        #expect(again == week)
        _ = ConsoleApp.update(&state, .dashboard(.loaded(F.report(again), for: again)))
        lines = Fixture.render(state).lines
        #expect(lines[1].contains("Last 7 days · day buckets · since 23 Nov · updated 14:02:00 UTC"))
        #expect(!Fixture.prose(state).contains("showing the last hour"))
        #expect(!Fixture.prose(state).contains("could not be read"))
        _ = Fixture.press(.char("e"), into: &state)
        #expect(state.dashboard.export?.path.text == "~/stats-7d-2026-11-29.csv")
        _ = Fixture.press(.escape, into: &state)
        // Another bucket of the same range: said as the bucket.
        _ = Fixture.press(.char("b"), into: &state)
        #expect(Fixture.prose(state).contains("… reading the last 7 days by hour (showing by day)"))
    }

    @Test("r while an ask runs asks once more when it answers, however often it is pressed")
    func refreshWhileLoading() {
        var state = F.app()
        let first = F.load(Fixture.press(.char("r"), into: &state))!
        var commands: [ConsoleApp.Command] = []
        for _ in 0..<3 { commands += Fixture.press(.char("r"), into: &state) }
        #expect(F.load(commands) == nil, "one ask at a time")
        #expect(state.dashboard.refreshPending)
        let answered = ConsoleApp.update(&state, .dashboard(.loaded(F.report(first), for: first)))
        let loads = answered.filter { if case .dashboard(.load) = $0 { return true } else { return false } }
        #expect(loads.count == 1, "the three presses make one ask")
        #expect(state.dashboard.loading)
        let second = state.dashboard.asked!
        #expect(ConsoleApp.update(&state, .dashboard(.loaded(F.report(second), for: second))).isEmpty)
        #expect(!state.dashboard.loading)
        // A failed ask answers too.
        let third = F.load(Fixture.press(.char("r"), into: &state))!
        _ = Fixture.press(.char("r"), into: &state)
        #expect(F.load(ConsoleApp.update(&state, .dashboard(.failed("down", for: third)))) != nil)
    }

    @Test("an r left waiting is dropped when the monitor is in front as the answer comes")
    func pendingRefreshNotOnAnotherScreen() {
        var state = F.app()
        let first = F.load(Fixture.press(.char("r"), into: &state))!
        _ = Fixture.press(.char("r"), into: &state)
        #expect(state.dashboard.refreshPending)
        _ = Fixture.press(.function(3), into: &state)
        #expect(state.page == .monitor)
        let answered = ConsoleApp.update(&state, .dashboard(.loaded(F.report(first), for: first)))
        #expect(F.load(answered) == nil, "nobody sees the dashboard: nothing asked")
        #expect(!state.dashboard.refreshPending)
    }

    @Test("tiles of a hostile server's counts (1 100 reasons of 2^53) are drawn, not a trap")
    func tilesNeverOverflow() {
        var state = F.app()
        var report = F.report(F.load(Fixture.press(.char("r"), into: &state))!)
        report.uploadsRefused = (0..<1_100).map { ReasonCount(reason: "r\($0)", count: 1 << 53) }
        report.dummyRequests.values = report.dummyRequests.values.map { _ in 1 << 53 }
        report.realRequests.values = report.realRequests.values.map { _ in 1 << 53 }
        let tiles = DashboardScreen.tiles(report)
        #expect(!tiles.isEmpty)
    }

    @Test("b cycles the buckets the range allows; the hour has only 5-minute buckets")
    func buckets() {
        var state = F.app()
        #expect(Fixture.press(.char("b"), into: &state).isEmpty)
        #expect(Fixture.prose(state).contains("the last hour is shown in 5 min buckets only"))
        _ = Fixture.press(.char("2"), into: &state)
        var commands = Fixture.press(.char("b"), into: &state)
        #expect(state.dashboard.bucket == .fiveMinutes)
        #expect(F.load(commands)?.bucketCount == 288)
        commands = Fixture.press(.char("b"), into: &state)
        #expect(state.dashboard.bucket == .hour)
        _ = Fixture.press(.char("4"), into: &state)
        commands = Fixture.press(.char("b"), into: &state)
        #expect(state.dashboard.bucket == .hour)
        #expect(F.load(commands)?.bucketCount == 14 * 24)
        for range in StatsRange.allCases {
            for bucket in DashboardScreen.buckets(for: range) {
                // Every choice makes a query the desk accepts.
                let query = StatsQuery.last(range, bucket: bucket, now: Fixture.now, timeZone: Fixture.utc)
                #expect(StatsQuery(from: query.from, to: query.to, bucket: bucket) != nil)
            }
            #expect(DashboardScreen.buckets(for: range).first == range.defaultBucket)
        }
    }

    @Test("refreshes every 5 s while shown, one ask at a time; r asks now; none while on the monitor or locked")
    func refreshScheduling() {
        var state = F.app()
        #expect(ConsoleApp.update(&state, .ticked(Fixture.now.addingTimeInterval(4))).isEmpty)
        var commands = ConsoleApp.update(&state, .ticked(Fixture.now.addingTimeInterval(5)))
        let query = F.load(commands)
        #expect(query?.toMs == Fixture.now.addingTimeInterval(5).unixMilliseconds + 1, "up to and including now")
        // Still asking: no second ask.
        #expect(F.load(ConsoleApp.update(&state, .ticked(Fixture.now.addingTimeInterval(11)))) == nil)
        #expect(Fixture.render(state).lines[1].contains("updating…"))
        _ = ConsoleApp.update(&state, .dashboard(.loaded(F.report(query!), for: query!)))
        #expect(!Fixture.render(state).lines[1].contains("updating…"))
        // The next ask 5 s after the last one started.
        #expect(F.load(ConsoleApp.update(&state, .ticked(Fixture.now.addingTimeInterval(12)))) != nil)
        _ = ConsoleApp.update(
            &state, .dashboard(.loaded(F.report(state.dashboard.asked!), for: state.dashboard.asked!)))
        #expect(F.load(ConsoleApp.update(&state, .ticked(Fixture.now.addingTimeInterval(16)))) == nil)
        _ = ConsoleApp.update(&state, .dashboard(.failed("the desk is unreachable", for: state.dashboard.asked!)))
        commands = Fixture.press(.char("r"), into: &state)
        #expect(F.load(commands)?.toMs == Fixture.now.addingTimeInterval(16).unixMilliseconds + 1)
        #expect(state.dashboard.loading)
        #expect(Fixture.render(state).lines[1].contains("updating…"))
        _ = ConsoleApp.update(
            &state, .dashboard(.loaded(F.report(state.dashboard.asked!), for: state.dashboard.asked!)))
        #expect(state.dashboard.error == nil)
        #expect(!Fixture.prose(state).contains("refresh failed"))

        // On the monitor the dashboard asks nothing.
        var monitor = F.app()
        _ = Fixture.press(.function(3), into: &monitor)
        #expect(F.load(ConsoleApp.update(&monitor, .ticked(Fixture.now.addingTimeInterval(60)))) == nil)
        // Locked: nothing either.
        var locked = F.app()
        _ = ConsoleApp.update(&locked, .sessionEnded("the session ended"))
        #expect(F.load(ConsoleApp.update(&locked, .ticked(Fixture.now.addingTimeInterval(60)))) == nil)
    }

    @Test("--refresh 0: no ask by itself, r still asks; the header says so")
    func refreshOff() {
        var state = ConsoleApp.State(
            size: TerminalSize(width: 80, height: 24), location: Fixture.location, now: Fixture.now,
            timeZone: Fixture.utc, refreshSeconds: 0)
        _ = ConsoleApp.update(&state, .signedIn(F.supervisor))
        let query = state.dashboard.asked!
        _ = ConsoleApp.update(&state, .dashboard(.loaded(F.report(query), for: query)))
        #expect(F.load(ConsoleApp.update(&state, .ticked(Fixture.now.addingTimeInterval(300)))) == nil)
        #expect(Fixture.render(state).lines[1].contains("refresh off"))
        #expect(F.load(Fixture.press(.char("r"), into: &state)) != nil)
        // A new person keeps the console's setting.
        _ = Fixture.press(.ctrl("o"), into: &state)
        _ = ConsoleApp.update(&state, .signedIn(F.supervisor))
        #expect(state.dashboard.refreshSeconds == 0)
    }

    @Test("an answer for an older query is dropped: a quick change of range shows the new range's figures")
    func olderAnswersDropped() {
        var state = Fixture.signedOut()
        let first = F.load(ConsoleApp.update(&state, .signedIn(F.supervisor)))!
        let second = F.load(Fixture.press(.char("2"), into: &state))!
        _ = ConsoleApp.update(&state, .dashboard(.loaded(F.report(first), for: first)))
        #expect(state.dashboard.report == nil)
        #expect(state.dashboard.loading)
        _ = ConsoleApp.update(&state, .dashboard(.failed("late", for: first)))
        #expect(state.dashboard.error == nil)
        _ = ConsoleApp.update(&state, .dashboard(.loaded(F.report(second), for: second)))
        #expect(state.dashboard.report?.query == second)
        #expect(!state.dashboard.loading)
    }

    @Test("a failed refresh keeps the figures and says what to do")
    func failureKeepsFigures() {
        var state = F.app()
        let before = state.dashboard.report
        let query = F.load(Fixture.press(.char("r"), into: &state))!
        _ = ConsoleApp.update(&state, .dashboard(.failed("cannot reach the server at 127.0.0.1:8081", for: query)))
        #expect(state.dashboard.report == before)
        let prose = Fixture.prose(state)
        #expect(prose.contains("refresh failed (figures from 14:02:00 UTC; r tries again): cannot reach the"))
        #expect(prose.contains("authorised 46"))
        // Back to normal at the next success.
        let again = F.load(Fixture.press(.char("r"), into: &state))!
        _ = ConsoleApp.update(&state, .dashboard(.loaded(F.report(again), for: again)))
        #expect(!Fixture.prose(state).contains("refresh failed"))
    }

    @Test("with no figures yet a failure says so, with what to do")
    func failureFirst() {
        var state = Fixture.signedOut()
        let query = F.load(ConsoleApp.update(&state, .signedIn(F.supervisor)))!
        #expect(Fixture.prose(state).contains("reading the figures"))
        _ = ConsoleApp.update(&state, .dashboard(.failed("statistics are not built yet", for: query)))
        #expect(
            Fixture.prose(state).contains(
                "the figures could not be read: statistics are not built yet. Press r to try again."))
    }

    @Test("export: the path prompt, the CSV of the figures, the overwrite question, the notice")
    func export() {
        var state = F.app()
        _ = Fixture.press(.char("e"), into: &state)
        #expect(state.isTypingText)
        #expect(state.dashboard.export?.path.text == "~/stats-1h-2026-11-29.csv")
        // q is a character of the file name here.
        _ = Fixture.press(.backspace, .backspace, .backspace, .backspace, into: &state)
        Fixture.type("q.csv", into: &state)
        #expect(state.page == .dashboard)
        var commands = Fixture.press(.enter, into: &state)
        let csv = StatsCSV.encode(state.dashboard.report!)
        #expect(commands == [.dashboard(.export(path: "~/stats-1h-2026-11-29q.csv", csv: csv, overwrite: false))])
        #expect(Fixture.press(.enter, into: &state).isEmpty)  // writing: keys wait
        _ = ConsoleApp.update(&state, .dashboard(.exportExists("~/stats-1h-2026-11-29q.csv")))
        #expect(!state.isTypingText)
        #expect(state.dashboard.export?.confirm != nil)
        #expect(Fixture.prose(state).contains("Overwrite?"))
        commands = Fixture.press(.char("y"), into: &state)
        #expect(commands == [.dashboard(.export(path: "~/stats-1h-2026-11-29q.csv", csv: csv, overwrite: true))])
        _ = ConsoleApp.update(&state, .dashboard(.exported(path: "~/stats-1h-2026-11-29q.csv")))
        #expect(state.dashboard.export == nil)
        #expect(Fixture.prose(state).contains("exported the figures to ~/stats-1h-2026-11-29q.csv"))

        // Keep it: back to the prompt with a word on what to do; Esc cancels.
        _ = Fixture.press(.char("e"), .enter, into: &state)
        _ = ConsoleApp.update(&state, .dashboard(.exportExists("~/stats-1h-2026-11-29.csv")))
        _ = Fixture.press(.char("n"), into: &state)
        #expect(state.dashboard.export?.error?.contains("kept the existing file") == true)
        _ = ConsoleApp.update(&state, .dashboard(.exportFailed("the folder /nope does not exist")))
        #expect(Fixture.prose(state).contains("the folder /nope does not exist"))
        _ = Fixture.press(.escape, into: &state)
        #expect(state.dashboard.export == nil)
        // An empty path or a folder is refused before anything is asked.
        _ = Fixture.press(.char("e"), .ctrl("u"), into: &state)
        #expect(Fixture.press(.enter, into: &state).isEmpty)
        #expect(state.dashboard.export?.error?.hasPrefix("type the file to write") == true)
        Fixture.type("/tmp/", into: &state)
        #expect(Fixture.press(.enter, into: &state).isEmpty)
        #expect(state.dashboard.export?.error == "/tmp/ is a folder: add a file name, e.g. stats.csv")
    }

    @Test("p asks for a province: one province's figures, a bad code said plainly, a province with no reports")
    func province() {
        var state = F.app()
        _ = Fixture.press(.char("p"), into: &state)
        #expect(state.isTypingText)
        Fixture.type("zz", into: &state)
        _ = Fixture.press(.enter, into: &state)
        #expect(state.dashboard.provincePrompt?.error == "ZZ is not a province code: type two letters such as RM")
        #expect(Fixture.prose(state).contains("ZZ is not a province code: type two letters such as RM"))
        _ = Fixture.press(.backspace, .backspace, into: &state)
        Fixture.type("ri", into: &state)
        _ = Fixture.press(.enter, into: &state)
        #expect(state.dashboard.province == "RI")
        #expect(!state.isTypingText)
        #expect(Fixture.prose(state).contains("no operational info from Rieti (RI) in this range"))
        _ = Fixture.press(.char("/"), into: &state)
        Fixture.type(" re ", into: &state)
        _ = Fixture.press(.enter, into: &state)
        let prose = Fixture.prose(state)
        #expect(prose.contains("Reggio Emilia (RE)"))
        #expect(prose.contains("60 reports · 3 of 13 provinces"))
        #expect(prose.contains("Bluetooth active 85% (51)"))
        // A code the apps sent that is no province any more is kept as it is.
        _ = Fixture.press(.char("p"), into: &state)
        Fixture.type("QQ", into: &state)
        _ = Fixture.press(.enter, into: &state)
        #expect(state.dashboard.province == "QQ")
        #expect(Fixture.prose(state).contains("QQ (not a province)"))
        #expect(Fixture.prose(state).contains("the province chart shows QQ (not a province) only"))
        // Esc: every province again.
        _ = Fixture.press(.escape, into: &state)
        #expect(state.dashboard.province == nil)
        #expect(Fixture.prose(state).contains("Analytics by province"))
        // An empty code shows every province too; Esc in the prompt changes nothing.
        _ = Fixture.press(.char("p"), .escape, into: &state)
        #expect(state.dashboard.provincePrompt == nil)
    }

    @Test("no activity: said plainly, every tile 0 or a dash, nothing divided by zero")
    func empty() {
        let state = F.app { StatsReport(query: $0, generatedAt: Fixture.now) }
        let prose = Fixture.prose(state)
        #expect(prose.contains("No activity in the last hour"))
        #expect(prose.contains("authorised 0"))
        #expect(prose.contains("checked –"))
        #expect(prose.contains("no analytics from apps in this range"))
        #expect(!prose.contains("nan"))
        #expect(!prose.contains("NaN"))
        #expect(!prose.contains("inf"))
    }

    @Test("numbers: shares never round to all or none, big counts shortened, a median in minutes and seconds")
    func numbers() {
        #expect(DashboardScreen.percent(249.0 / 250) == "99%")
        #expect(DashboardScreen.percent(1) == "100%")
        #expect(DashboardScreen.percent(1.0 / 1_000) == "<1%")
        #expect(DashboardScreen.percent(0) == "0%")
        #expect(DashboardScreen.percent(0.625) == "63%")
        #expect(DashboardScreen.percent(nil, dash: "-") == "-")
        #expect(DashboardScreen.count(999_999) == "999999")
        #expect(DashboardScreen.count(1_000_000) == "1.00 M")
        #expect(DashboardScreen.count(12_000_000) == "12.0 M")
        #expect(DashboardScreen.count(123_456_789) == "123 M")
        #expect(DashboardScreen.count(999_600_000) == "1.00 G")
        #expect(DashboardScreen.count(4_294_967_296) == "4.29 G")
        #expect(DashboardScreen.count(99_999_999_999) == "100 G")
        #expect(DashboardScreen.count(Int64.max) == "9.22 E")
        Language.$scoped.withValue(.it) {
            #expect(DashboardScreen.count(4_294_967_296) == "4,29 G")
            #expect(DashboardScreen.count(12_000_000) == "12,0 M")
        }
        #expect(DashboardScreen.duration(45) == "45 s")
        #expect(DashboardScreen.duration(125) == "2 min 05 s")
        #expect(DashboardScreen.duration(150) == "2 min 30 s")
        #expect(DashboardScreen.duration(3_600 + 300) == "1 h 5 min")
    }

    @Test("big figures keep a space after the label and their sparkline or detail after them")
    func bigFigures() {
        let state = F.app { F.bigReport($0) }
        let lines = Fixture.render(state).lines
        #expect(lines[3].contains("authorised       123 M "))
        #expect(lines[5].contains("uploads         4.29 G "))
        #expect(lines[5].contains("keys accepted    100 G "))
        #expect(lines[9].contains("pseudo-ids      4.29 G of 2^32, 100%"))
        #expect(Fixture.prose(state).contains("registrations 1.00 G"))
        #expect(lines[4].contains("uploaded           <1%"))
    }

    @Test("the dummy share's sparkline is the share per bucket; a bucket without requests at the baseline")
    func dummyShareSparkline() {
        let tiles = DashboardScreen.tiles(F.report())
        let tile = tiles.first { $0.label == "dummy share" }!
        #expect(tile.series?.first == 689, "20 dummy of 29 requests")
        #expect(tile.series?.last == 0)
        #expect(tile.detail == "229 of 349")
    }

    @Test("a key before the first figures: its notice shows")
    func noticeBeforeFigures() {
        var state = Fixture.signedOut()
        _ = ConsoleApp.update(&state, .signedIn(F.supervisor))
        _ = Fixture.press(.char("b"), into: &state)
        #expect(Fixture.prose(state).contains("the last hour is shown in 5 min buckets only"))
        #expect(Fixture.prose(state).contains("reading the figures"))
    }

    @Test("sparklines: resampled to the width, a zero series flat, nonzero never at the baseline; ASCII levels")
    func sparklines() {
        #expect(DashboardScreen.sparkline([0, 0, 0], width: 6) == "▁▁▁▁▁▁")
        #expect(DashboardScreen.sparkline([], width: 4) == "▁▁▁▁")
        #expect(DashboardScreen.sparkline([0, 1, 100], width: 3) == "▁▂█")
        #expect(DashboardScreen.sparkline([0, 8], width: 4) == "▁▁██")
        #expect(DashboardScreen.sparkline([0, 0, 4, 4], width: 2) == "▁█")
        #expect(DashboardScreen.sparkline([0, 2, 4], width: 3, ascii: true) == "_=#")
        #expect(DashboardScreen.sparkline([5], width: 0) == "")
        #expect(DashboardScreen.bar(0.5, width: 4) == "██")
        #expect(DashboardScreen.bar(0.01, width: 4) == "▏")
        #expect(DashboardScreen.bar(0, width: 4) == "")
        #expect(DashboardScreen.bar(1, width: 3, ascii: true) == "###")
    }

    @Test("sign-out clears the figures; help lists the dashboard's keys")
    func signOutAndHelp() {
        var state = F.app()
        _ = Fixture.press(.char("?"), into: &state)
        let help = Fixture.prose(state)
        #expect(help.contains("Last 14 days"))
        #expect(help.contains("One province's figures"))
        #expect(help.contains("Export the figures as CSV"))
        _ = Fixture.press(.escape, .ctrl("o"), into: &state)
        #expect(state.page == .signIn)
        #expect(state.dashboard.report == nil)
        #expect(state.dashboard.asked == nil)
    }
}
