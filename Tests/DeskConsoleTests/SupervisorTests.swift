import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The supervisor's conventions (issue 20, point 5): the dashboard's Today range and the range
/// kept between runs; the monitor's counts apart from its keys, and an operator's monitor
/// listing only the kinds the desk sends them.
@Suite("Supervisor conventions")
struct SupervisorTests {
    typealias F = DashboardFixture
    static let rome = TimeZone(identifier: "Europe/Rome")!

    // MARK: Today

    @Test("0 chooses today: from local midnight to now, in hours, asked at once and kept for the next run")
    func todayKey() {
        var state = F.app()
        let commands = Fixture.press(.char("0"), into: &state)
        #expect(state.dashboard.range == .today && state.dashboard.bucket == .hour)
        let query = F.load(commands)
        // 14:02 UTC: 15 hours since midnight, the current one included.
        #expect(query?.from == Date(timeIntervalSince1970: 1_795_910_400))
        #expect(query?.bucket == .hour && query?.bucketCount == 15)
        #expect(commands.contains(.dashboard(.rememberRange(.today))))
        #expect(state.dashboardRange == .today)
        // The same range again asks nothing and keeps nothing.
        #expect(Fixture.press(.char("0"), into: &state).isEmpty)
        // Today is in hours only: b says so.
        #expect(Fixture.press(.char("b"), into: &state).isEmpty)
        #expect(state.dashboard.notice?.text == "today is shown in hour buckets only")
    }

    @Test("today's title, and the footer offers 0-4")
    func todayTitle() {
        var state = F.app()
        _ = Fixture.press(.char("0"), into: &state)
        if let query = state.dashboard.asked {
            _ = ConsoleApp.update(&state, .dashboard(.loaded(F.report(query), for: query)))
        }
        let lines = Fixture.render(state).lines
        #expect(lines[1].contains("Today · hour buckets · since 00:00 · updated 14:02:00 UTC"))
        #expect(lines[23].contains("0-4 Range"))
        _ = Fixture.press(.char("?"), into: &state)
        #expect(Fixture.prose(state).contains("Today, since midnight"))
    }

    @Test("today starts at midnight in the console's zone, not UTC's")
    func todayInZone() {
        // 14:02 UTC is 15:02 in Rome, whose day began at 23:00 UTC.
        let query = StatsQuery.last(.today, now: Fixture.now, timeZone: Self.rome)
        #expect(query.from == Date(timeIntervalSince1970: 1_795_910_400 - 3_600))
        #expect(query.bucketCount == 16 && query.toMs == Fixture.now.unixMilliseconds + 1)
        // Just after midnight: one hour so far.
        let early = StatsQuery.last(.today, now: Date(timeIntervalSince1970: 1_795_910_400 + 60), timeZone: Fixture.utc)
        #expect(early.bucketCount == 1 && early.from == Date(timeIntervalSince1970: 1_795_910_400))
        #expect(StatsQuery(from: early.from, to: early.to, bucket: early.bucket) == early, "a query the desk accepts")
    }

    @Test("the day the clocks go back has 25 hours; five-minute buckets become hours past 24")
    func todayLongDay() {
        // 2026-10-25 in Rome: midnight is 22:00 UTC on the 24th; at 23:30 local (22:30 UTC)
        // 25 hours have begun.
        let late = Date(timeIntervalSince1970: 1_792_967_400)
        let query = StatsQuery.last(.today, now: late, timeZone: Self.rome)
        #expect(query.from == Date(timeIntervalSince1970: 1_792_879_200))
        #expect(query.bucketCount == 25)
        #expect(StatsQuery.today(bucket: .fiveMinutes, now: late, timeZone: Self.rome).bucket == .hour)
        #expect(StatsQuery.today(bucket: .day, now: late, timeZone: Self.rome).bucket == .hour)
        #expect(StatsQuery(from: query.from, to: query.to, bucket: query.bucket) == query)
    }

    @Test("a zone half an hour off UTC: today's first hour holds its midnight")
    func todayHalfHourZone() {
        let india = TimeZone(identifier: "Asia/Kolkata")!
        let query = StatsQuery.last(.today, now: Fixture.now, timeZone: india)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = india
        let midnight = calendar.startOfDay(for: Fixture.now)
        #expect(query.from <= midnight && midnight.timeIntervalSince(query.from) < 3_600)
        #expect(StatsQuery(from: query.from, to: query.to, bucket: query.bucket) == query)
    }

    @Test("--range today parses; the message lists it")
    func parse() {
        #expect(StatsRange.parse("Today") == .success(.today))
        guard case .failure(let problem) = StatsRange.parse("tomorrow") else {
            Issue.record("tomorrow parsed")
            return
        }
        #expect(problem.message.contains("today, 1h, 24h, 7d or 14d"))
    }

    // MARK: The range kept between runs

    @Test("the range kept is the one the next sign-in opens on, after a sign-out too")
    func keptAcrossSignIns() {
        var state = Fixture.signedOut()
        state.dashboardRange = .week
        let commands = ConsoleApp.update(&state, .signedIn(F.supervisor))
        #expect(state.dashboard.range == .week && state.dashboard.bucket == .day)
        #expect(F.load(commands) == StatsQuery.last(.week, now: Fixture.now))
        _ = Fixture.press(.char("0"), into: &state)
        // The next person at this desk (every screen starts afresh) opens on it too.
        _ = ConsoleApp.update(&state, .signedIn(Fixture.session("sandro", role: .supervisor)))
        #expect(state.dashboard.range == .today && state.dashboard.report == nil)
    }

    /// A fresh folder under the temporary one, removed by the caller.
    static func folder() -> String {
        let path = NSTemporaryDirectory() + "tracedesk-range-" + UUID().uuidString.prefix(8)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber)?.intValue ?? -1
    }

    @Test("the state file: $XDG_STATE_HOME/tracedesk, else ~/.local/state/tracedesk; nothing without a home")
    func paths() {
        #expect(
            RememberedRange.path(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])
                == "/s/tracedesk/dashboard-range")
        #expect(
            RememberedRange.path(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h/"])
                == "/h/.local/state/tracedesk/dashboard-range", "a relative XDG_STATE_HOME is ignored")
        #expect(
            RememberedRange.path(environment: ["XDG_STATE_HOME": "", "HOME": "/h"])
                == "/h/.local/state/tracedesk/dashboard-range")
        #expect(RememberedRange.path(environment: [:]) == nil)
    }

    @Test("written 0600 in a folder made 0700, read back; every range")
    func writeRead() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/state/tracedesk/dashboard-range"
        #expect(RememberedRange.read(path) == nil, "no file yet")
        for range in StatsRange.allCases {
            #expect(RememberedRange.write(range, to: path) == nil)
            #expect(RememberedRange.read(path) == range)
        }
        #expect(Self.mode(path) == 0o600)
        #expect(Self.mode(root + "/state/tracedesk") == 0o700)
        #expect(Self.mode(root + "/state") == 0o700)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "14d\n")
    }

    @Test(
        "a bad file is ignored, never a crash, and replaced at the next change",
        arguments: ["", "yesterday\n", "1h 24h", String(repeating: "7d", count: 40), "\u{0}\u{FF}"])
    func badFile(_ content: String) throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/dashboard-range"
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(RememberedRange.read(path) == nil)
        #expect(RememberedRange.write(.week, to: path) == nil)
        #expect(RememberedRange.read(path) == .week)
    }

    @Test("an unreadable file, a folder, a link and a pipe in its place are ignored without waiting")
    func oddFiles() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let unreadable = root + "/unreadable"
        try "7d\n".write(toFile: unreadable, atomically: true, encoding: .utf8)
        chmod(unreadable, 0)
        if getuid() != 0 { #expect(RememberedRange.read(unreadable) == nil) }
        let folder = root + "/folder"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(RememberedRange.read(folder) == nil)
        #expect(RememberedRange.write(.day, to: folder) != nil, "a folder in the way is said, not a crash")
        let link = root + "/link"
        try "24h\n".write(toFile: root + "/target", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: root + "/target")
        #expect(RememberedRange.read(link) == nil)
        let pipe = root + "/pipe"
        #expect(mkfifo(pipe, 0o600) == 0)
        #expect(RememberedRange.read(pipe) == nil)
    }

    @Test("a home that cannot hold the folder: the write says why and nothing stops")
    func unwritable() {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try? "x".write(toFile: root + "/file", atomically: true, encoding: .utf8)
        #expect(RememberedRange.write(.day, to: root + "/file/tracedesk/dashboard-range") != nil)
    }

    // MARK: The monitor's counts and keys

    static func monitor(session: StaffSession, width: Int = 80, height: Int = 24) -> ConsoleApp.State {
        var state = Fixture.app(width: width, height: height, session: session)
        if state.page != .monitor { _ = Fixture.press(.function(3), into: &state) }
        let kinds = MonitorScreen.Kind.visible(to: session.role)
        // What the desk sends the role: kinds this build does not know pass (a newer server's).
        let events = Fixture.feed().filter { event in
            event.known.flatMap(MonitorScreen.Kind.init).map(kinds.contains) ?? true
        }
        _ = ConsoleApp.update(&state, .feed(EventPage(events: events, cursor: 12)))
        return state
    }

    @Test("counts sit under the feed's state, words first; the kinds' keys in a legend above the footer")
    func countsApartFromKeys() {
        for (width, height) in [(80, 24), (120, 40)] {
            let state = Self.monitor(session: Fixture.session("sara", role: .supervisor), width: width, height: height)
            let lines = Fixture.render(state).lines
            #expect(lines[2].hasPrefix(" authorised 2 · checked 2 · upload 1"), "\(width)×\(height)")
            let legend = lines.firstIndex { $0.contains("show/hide  1 authorised") }
            #expect(legend != nil && legend! > height / 2, "the legend is at the bottom at \(width)×\(height)")
            // No count line carries a key, no legend line a count.
            for line in lines[2..<4] where line.contains(" · ") {
                #expect(!line.contains("1 authorised"), "\(line)")
            }
            for line in lines[(legend ?? 0)..<(height - 1)] {
                #expect(!line.contains("authorised 2") && !line.contains(" · "), "\(line)")
            }
        }
    }

    @Test("the legend's digits are drawn as keys, the counts as text: apart without colour")
    func legendRoles() {
        let state = Self.monitor(session: Fixture.session("sara", role: .supervisor))
        var buffer = Buffer(width: 80, height: 24)
        ConsoleApp.render(state, into: &buffer)
        let lines = buffer.lines
        let legend = lines.firstIndex { $0.contains("show/hide  1 authorised") }!
        let x = lines[legend].distance(
            from: lines[legend].startIndex, to: lines[legend].range(of: "1 authorised")!.lowerBound)
        #expect(buffer[x, legend].style.role == .keyLabel)
        #expect(buffer[1, 2].style.role == .normal)
        // NO_COLOR keeps keys in reverse video and plain text plain.
        #expect(Theme.monochrome.appearances[.keyLabel]?.attributes.contains(.reverse) == true)
        #expect(Theme.monochrome.appearances[.normal]?.attributes.contains(.reverse) != true)
    }

    @Test("an operator's monitor lists, counts, toggles and explains only the kinds the desk sends them")
    func operatorKinds() {
        var state = Self.monitor(session: Fixture.session())
        #expect(state.monitor.kinds == [.authorised, .checked, .upload, .refused, .chunk, .staff])
        let text = Fixture.render(state).text
        for word in ["analytics", "registered", "contacts", "5 ", "8 ", "9 "] {
            #expect(!Fixture.render(state).lines[2].contains(word), "\(word) in the counts")
        }
        #expect(text.contains("show/hide  1 authorised  2 checked  3 upload  4 refused  6 chunk  7 staff"))
        #expect(!text.contains("analytics"))
        // 5 is no key of theirs.
        #expect(Fixture.press(.char("5"), into: &state).isEmpty)
        #expect(state.monitor.hidden.isEmpty)
        _ = Fixture.press(.char("6"), into: &state)
        #expect(state.monitor.hidden == [.chunk])
        _ = Fixture.press(.char("?"), into: &state)
        let help = Fixture.prose(state)
        #expect(help.contains("Show or hide published chunks"))
        #expect(!help.contains("analytics") && !help.contains("APRICOT"))
        // A supervisor gets every kind, in help too.
        var supervisor = Self.monitor(session: Fixture.session("sara", role: .supervisor))
        #expect(supervisor.monitor.kinds == MonitorScreen.Kind.allCases)
        _ = Fixture.press(.char("?"), into: &supervisor)
        #expect(Fixture.prose(supervisor).contains("Show or hide analytics from apps"))
    }
}
