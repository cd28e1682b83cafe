import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The dashboard's tracing page (`t`): the indicators' asks go with the statistics' while it is
/// shown, stale answers are dropped, a failure keeps what is on screen; snapshots at 80×24 and
/// 120×40.
@Suite("Dashboard tracing page")
struct DashboardTracingTests {
    static func indicators(_ query: StatsQuery, tracers: Int = 3) -> FollowUpIndicators {
        let names = ["ada", "bea", "cid", "dora", "elio", "fabio", "gina", "ugo", "vera", "zeno", "luca", "mara"]
        return FollowUpIndicators(
            from: query.from, to: query.to, cases: 42, contactsPerCaseMean: 8.5, contactsPerCaseMedian: 7,
            reachedWithin24hPercent: 81.25, medianHoursToFirstReach: 3.2, checkedEveryDayPercent: 64,
            unreached: UnreachedAges(oneDay: 12, twoDays: 5, threeDays: 2, moreThanThreeDays: 1), lostPercent: 4.5,
            knownContactPercent: 19,
            tracers: (0..<tracers).map { index in
                TracerLoad(
                    tracer: names[index % names.count] + (index >= names.count ? "\(index)" : ""),
                    assigned: 40 + index, due: 6 - index % 4, overdue: index % 3 == 0 ? 0 : index,
                    doneToday: 20 + 3 * index)
            })
    }

    enum Scenario: String, CaseIterable {
        case tracing
        case loading = "tracing-loading"
        case failed = "tracing-failed"
        case refreshFailed = "tracing-refresh-failed"
        case empty = "tracing-empty"
        case many = "tracing-many"
        case ascii = "tracing-ascii"
    }

    static func state(_ scenario: Scenario, width: Int, height: Int) -> ConsoleApp.State {
        var state = DashboardFixture.app(width: width, height: height, ascii: scenario == .ascii)
        _ = Fixture.press(.char("4"), into: &state)
        if let query = state.dashboard.asked {
            _ = ConsoleApp.update(&state, .dashboard(.loaded(DashboardFixture.report(query), for: query)))
        }
        _ = Fixture.press(.char("t"), into: &state)
        let query = state.dashboard.indicatorsAsked!
        switch scenario {
        case .tracing, .ascii:
            _ = ConsoleApp.update(&state, .dashboard(.indicatorsLoaded(indicators(query), for: query)))
        case .loading:
            break
        case .failed:
            _ = ConsoleApp.update(
                &state, .dashboard(.indicatorsFailed("case follow-up is not available on this desk yet", for: query)))
        case .refreshFailed:
            _ = ConsoleApp.update(&state, .dashboard(.indicatorsLoaded(indicators(query), for: query)))
            _ = Fixture.press(.char("r"), into: &state)
            let again = state.dashboard.indicatorsAsked!
            _ = ConsoleApp.update(
                &state, .dashboard(.indicatorsFailed("cannot reach the server at http://127.0.0.1:8081", for: again)))
        case .empty:
            _ = ConsoleApp.update(
                &state,
                .dashboard(
                    .indicatorsLoaded(
                        FollowUpIndicators(
                            from: query.from, to: query.to, cases: 0, contactsPerCaseMean: nil,
                            contactsPerCaseMedian: nil, reachedWithin24hPercent: nil, medianHoursToFirstReach: nil,
                            checkedEveryDayPercent: nil, unreached: UnreachedAges(), lostPercent: nil,
                            knownContactPercent: nil, tracers: []), for: query)))
        case .many:
            _ = ConsoleApp.update(&state, .dashboard(.indicatorsLoaded(indicators(query, tracers: 30), for: query)))
        }
        return state
    }

    @Test("80×24", arguments: Scenario.allCases)
    func minimumSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 80, height: 24)), named: "dashboard-80x24-\(scenario.rawValue)")
    }

    @Test("120×40", arguments: Scenario.allCases)
    func largeSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 120, height: 40)),
            named: "dashboard-120x40-\(scenario.rawValue)")
    }

    @Test("ASCII: nothing outside ASCII on the tracing page")
    func asciiOnly() {
        for (width, height) in [(80, 24), (120, 40)] {
            let text = Fixture.render(Self.state(.ascii, width: width, height: height)).lines.joined(separator: "\n")
            #expect(Set(text.filter { !$0.isASCII }).isEmpty, "\(width)×\(height)")
        }
    }

    @Test("t asks for the indicators of the range shown; t again goes back without asking")
    func switching() throws {
        var state = DashboardFixture.app()
        let asked = try #require(state.dashboard.asked)
        let commands = Fixture.press(.char("t"), into: &state)
        #expect(commands.contains(.dashboard(.loadIndicators(asked))))
        #expect(state.dashboard.page == .tracing)
        #expect(state.dashboard.indicatorsAsked == asked)
        let back = Fixture.press(.char("t"), into: &state)
        #expect(state.dashboard.page == .figures)
        #expect(!back.contains { if case .dashboard(.loadIndicators) = $0 { true } else { false } })
    }

    @Test("on the tracing page a range change and r ask for both; on the figures page only the statistics")
    func asksWithStatistics() throws {
        var state = DashboardFixture.app()
        let figures = Fixture.press(.char("4"), into: &state)
        #expect(!figures.contains { if case .dashboard(.loadIndicators) = $0 { true } else { false } })
        _ = Fixture.press(.char("t"), into: &state)
        let range = Fixture.press(.char("2"), into: &state)
        let query = try #require(DashboardFixture.load(range))
        #expect(range.contains(.dashboard(.loadIndicators(query))))
        _ = ConsoleApp.update(&state, .dashboard(.loaded(DashboardFixture.report(query), for: query)))
        let refresh = Fixture.press(.char("r"), into: &state)
        let again = try #require(DashboardFixture.load(refresh))
        #expect(refresh.contains(.dashboard(.loadIndicators(again))))
    }

    @Test("an answer to an older ask is dropped; a failure keeps the indicators shown")
    func staleAndFailed() throws {
        var state = DashboardFixture.app()
        _ = Fixture.press(.char("t"), into: &state)
        let first = try #require(state.dashboard.indicatorsAsked)
        _ = ConsoleApp.update(&state, .dashboard(.indicatorsLoaded(Self.indicators(first), for: first)))
        #expect(state.dashboard.indicators?.cases == 42)
        _ = Fixture.press(.char("4"), into: &state)
        let second = try #require(state.dashboard.indicatorsAsked)
        #expect(second != first)
        var old = Self.indicators(first)
        old.cases = 1
        _ = ConsoleApp.update(&state, .dashboard(.indicatorsLoaded(old, for: first)))
        #expect(state.dashboard.indicators?.cases == 42)
        _ = ConsoleApp.update(&state, .dashboard(.indicatorsFailed("the server is down", for: second)))
        #expect(state.dashboard.indicators?.cases == 42)
        #expect(state.dashboard.indicatorsError == "the server is down")
        _ = ConsoleApp.update(&state, .dashboard(.indicatorsLoaded(Self.indicators(second), for: second)))
        #expect(state.dashboard.indicatorsError == nil)
    }

    @Test("the export holds the indicators' rows once they were read")
    func export() throws {
        var state = DashboardFixture.app()
        _ = Fixture.press(.char("t"), into: &state)
        let query = try #require(state.dashboard.indicatorsAsked)
        _ = ConsoleApp.update(&state, .dashboard(.indicatorsLoaded(Self.indicators(query), for: query)))
        let commands = Fixture.press(.char("e"), .enter, into: &state)
        let csv = commands.compactMap { command -> String? in
            if case .dashboard(.export(_, let csv, _)) = command { return csv }
            return nil
        }.first
        #expect(csv?.contains("tracing,reached_within_24h_percent,,,,81.25\r\n") == true)
        #expect(csv?.contains("tracer_load,overdue,bea,,,1\r\n") == true)
    }
}
