import DeskConsole
import DeskCore
import DeskService
import Foundation
import TerminalKit
import Testing

/// The dashboard as text at the minimum size and at 160×48: a busy hour, 24 hours, 14 days, an
/// empty range, a failed refresh, one province and one with no reports, the prompts, ASCII, help.
/// Record with RECORD_SNAPSHOTS=1 (the run then fails).
@Suite("Dashboard snapshots")
struct DashboardSnapshotTests {
    enum Scenario: String, CaseIterable {
        case hour, day, fortnight, empty, loading, failed
        case firstFailure = "first-failure"
        case province
        case provinceNoData = "province-no-data"
        case provincePrompt = "province-prompt"
        case badProvince = "bad-province"
        case export, overwrite, ascii
        case asciiEmpty = "ascii-empty"
        case help
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
            _ = ConsoleApp.update(&state, .dashboard(.exportExists("./stats-1h-2026-11-29.csv")))
        case .ascii:
            state = DashboardFixture.app(width: width, height: height, ascii: true)
        case .asciiEmpty:
            state = DashboardFixture.app(width: width, height: height, ascii: true) {
                StatsReport(query: $0, generatedAt: Fixture.now)
            }
        case .help:
            _ = Fixture.press(.char("?"), into: &state)
        }
        return state
    }

    @Test("80×24", arguments: Scenario.allCases)
    func minimumSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 80, height: 24)), named: "dashboard-80x24-\(scenario.rawValue)")
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

    @Test("the error and the figures are marked by style as well as words (roles)")
    func roles() {
        for scenario in [Scenario.hour, .failed] {
            assertSnapshot(
                Fixture.render(Self.state(scenario, width: 80, height: 24)),
                named: "dashboard-80x24-\(scenario.rawValue)", roles: true)
        }
    }
}
