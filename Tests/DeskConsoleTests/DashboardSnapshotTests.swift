import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The dashboard as text at the minimum size and at 160×48: a busy hour, 24 hours, 14 days, an
/// empty range, a failed refresh, one province and one with no reports, the prompts, ASCII, help.
/// Record with RECORD_SNAPSHOTS=1 (the run then fails).
@Suite("Dashboard snapshots")
struct DashboardSnapshotTests {
    enum Scenario: String, CaseIterable {
        case hour, today, day, fortnight, empty, loading, failed
        case todayEmpty = "today-empty"
        case todayAscii = "today-ascii"
        case firstFailure = "first-failure"
        case province
        case provinceNoData = "province-no-data"
        case provincePrompt = "province-prompt"
        case badProvince = "bad-province"
        case export, overwrite, ascii
        case asciiEmpty = "ascii-empty"
        case asciiProvince = "ascii-province"
        case help
        /// Figures too big for a tile's column.
        case big
        /// A new range asked while the old one's figures are on screen, then its ask failed.
        case rangeAsked = "range-asked"
        case rangeFailed = "range-failed"
        /// A key pressed before the first figures came.
        case noticeFirst = "notice-first"
    }

    static func state(_ scenario: Scenario, width: Int, height: Int) -> ConsoleApp.State {
        var state = DashboardFixture.app(width: width, height: height)
        func answer() {
            if let query = state.dashboard.asked {
                _ = ConsoleApp.update(&state, .dashboard(.loaded(DashboardFixture.report(query), for: query)))
            }
        }
        switch scenario {
        case .hour:
            break
        case .today:
            _ = Fixture.press(.char("0"), into: &state)
            answer()
        case .todayEmpty:
            _ = Fixture.press(.char("0"), into: &state)
            if let query = state.dashboard.asked {
                _ = ConsoleApp.update(
                    &state, .dashboard(.loaded(StatsReport(query: query, generatedAt: Fixture.now), for: query)))
            }
        case .todayAscii:
            state = DashboardFixture.app(width: width, height: height, ascii: true)
            _ = Fixture.press(.char("0"), into: &state)
            answer()
        case .day:
            _ = Fixture.press(.char("2"), into: &state)
            answer()
        case .fortnight:
            _ = Fixture.press(.char("4"), into: &state)
            answer()
        case .empty:
            state = DashboardFixture.app(width: width, height: height) {
                StatsReport(query: $0, generatedAt: Fixture.now)
            }
        case .loading:
            _ = Fixture.press(.char("r"), into: &state)
        case .failed:
            _ = Fixture.press(.char("r"), into: &state)
            _ = ConsoleApp.update(
                &state,
                .dashboard(.failed("cannot reach the server at http://127.0.0.1:8081", for: state.dashboard.asked!)))
        case .firstFailure:
            state = Fixture.signedOut(width: width, height: height)
            _ = ConsoleApp.update(&state, .signedIn(DashboardFixture.supervisor))
            _ = ConsoleApp.update(
                &state, .dashboard(.failed("statistics are not built yet", for: state.dashboard.asked!)))
        case .province:
            _ = Fixture.press(.char("p"), into: &state)
            Fixture.type("RM", into: &state)
            _ = Fixture.press(.enter, into: &state)
        case .provinceNoData:
            _ = Fixture.press(.char("p"), into: &state)
            Fixture.type("RI", into: &state)
            _ = Fixture.press(.enter, into: &state)
        case .provincePrompt:
            _ = Fixture.press(.char("p"), into: &state)
            Fixture.type("R", into: &state)
        case .badProvince:
            _ = Fixture.press(.char("p"), into: &state)
            Fixture.type("ZZ", into: &state)
            _ = Fixture.press(.enter, into: &state)
        case .export:
            _ = Fixture.press(.char("e"), into: &state)
        case .overwrite:
            _ = Fixture.press(.char("e"), .enter, into: &state)
            _ = ConsoleApp.update(&state, .dashboard(.exportExists("~/stats-1h-2026-11-29.csv")))
        case .ascii:
            state = DashboardFixture.app(width: width, height: height, ascii: true)
        case .asciiEmpty:
            state = DashboardFixture.app(width: width, height: height, ascii: true) {
                StatsReport(query: $0, generatedAt: Fixture.now)
            }
        case .asciiProvince:
            state = DashboardFixture.app(width: width, height: height, ascii: true)
            _ = Fixture.press(.char("p"), into: &state)
            Fixture.type("FC", into: &state)
            _ = Fixture.press(.enter, into: &state)
        case .help:
            _ = Fixture.press(.char("?"), into: &state)
        case .big:
            state = DashboardFixture.app(width: width, height: height) { DashboardFixture.bigReport($0) }
        case .rangeAsked:
            _ = Fixture.press(.char("3"), into: &state)
        case .rangeFailed:
            _ = Fixture.press(.char("3"), into: &state)
            _ = ConsoleApp.update(
                &state,
                .dashboard(.failed("cannot reach the server at http://127.0.0.1:8081", for: state.dashboard.asked!)))
        case .noticeFirst:
            state = Fixture.signedOut(width: width, height: height)
            _ = ConsoleApp.update(&state, .signedIn(DashboardFixture.supervisor))
            _ = Fixture.press(.char("b"), into: &state)
        }
        return state
    }

    @Test("80×24", arguments: Scenario.allCases)
    func minimumSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 80, height: 24)), named: "dashboard-80x24-\(scenario.rawValue)")
    }

    @Test("120×40: today", arguments: [Scenario.today, .todayEmpty, .todayAscii])
    func todaySize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 120, height: 40)),
            named: "dashboard-120x40-\(scenario.rawValue)")
    }

    @Test("160×48", arguments: Scenario.allCases)
    func largeSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 160, height: 48)),
            named: "dashboard-160x48-\(scenario.rawValue)")
    }

    @Test("120×30: three charts side by side, tiles in three columns")
    func wideShort() {
        assertSnapshot(Fixture.render(Self.state(.hour, width: 120, height: 30)), named: "dashboard-120x30-hour")
    }

    @Test("120×40 boxes the tiles; 120×39 does not", arguments: [39, 40])
    func boxedFrom(_ height: Int) {
        let text = Fixture.render(Self.state(.hour, width: 120, height: height)).lines.joined(separator: "\n")
        #expect(text.contains("┌─ authorised") == (height >= 40))
    }

    @Test(
        "ASCII: nothing outside ASCII but the box borders the other screens draw too",
        arguments: [
            Scenario.ascii, .asciiEmpty, .asciiProvince,
        ])
    func asciiOnly(_ scenario: Scenario) {
        for (width, height) in [(80, 24), (160, 48)] {
            var state = Self.state(scenario, width: width, height: height)
            // The help too: TerminalKit draws its borders and scroll marks in ASCII as well.
            for keys in [
                [], [Key.char("e")], [.escape, .char("r")], [.escape, .char("4")], [.char("p")], [.char("?")],
            ] {
                for key in keys { _ = Fixture.press(key, into: &state) }
                let text = Fixture.render(state).lines.joined(separator: "\n")
                let leaks = Set(text.filter { !$0.isASCII })
                #expect(leaks.isEmpty, "\(scenario) \(width)×\(height) \(keys): \(leaks.sorted())")
            }
        }
    }

    @Test("the error and the figures are marked by style as well as words (roles)")
    func roles() {
        for scenario in [Scenario.hour, .failed] {
            assertSnapshot(
                Fixture.render(Self.state(scenario, width: 80, height: 24)),
                named: "dashboard-80x24-\(scenario.rawValue)", roles: true)
        }
    }
}
