import DeskConsole
import TerminalKit
import Testing

/// Under a locale without UTF-8 every screen is drawn in ASCII (issue 20, defect 2): borders
/// `+ - |`, marks and the ellipsis `...`, so none vanishes. A sample of every kind of screen,
/// dialog and overlay, at both sizes; the trace and dashboard suites snapshot their own.
@Suite("ASCII snapshots")
struct AsciiSnapshotTests {
    static func ascii(_ state: ConsoleApp.State) -> ConsoleApp.State {
        var state = state
        state.ascii = true
        state.trace.ascii = true
        state.dashboard.ascii = true
        return state
    }

    static func check(_ state: ConsoleApp.State, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let buffer = Fixture.render(ascii(state))
        let leaks = Set(buffer.text.filter { !$0.isASCII })
        #expect(leaks.isEmpty, "\(name): \(leaks.sorted())", sourceLocation: sourceLocation)
        assertSnapshot(buffer, named: name, sourceLocation: sourceLocation)
    }

    @Test("console", arguments: [ConsoleSnapshotTests.Scenario.signIn, .firstAdmin, .staffAdd, .staffHelp, .audit])
    func console(_ scenario: ConsoleSnapshotTests.Scenario) {
        for (width, height) in [(80, 24), (120, 40)] {
            Self.check(
                ConsoleSnapshotTests.state(scenario, width: width, height: height),
                "console-\(width)x\(height)-ascii-\(scenario.rawValue)")
        }
    }

    @Test("authorise", arguments: [AuthorizeSnapshotTests.Scenario.review, .calendarOpen, .watchChecked])
    func authorize(_ scenario: AuthorizeSnapshotTests.Scenario) {
        for (width, height) in [(80, 24), (120, 40)] {
            Self.check(
                AuthorizeSnapshotTests.state(scenario, width: width, height: height),
                "authorize-\(width)x\(height)-ascii-\(scenario.rawValue)")
        }
    }

    @Test("monitor", arguments: [MonitorSnapshotTests.Scenario.live, .detail, .kinds, .operatorView])
    func monitor(_ scenario: MonitorSnapshotTests.Scenario) {
        for (width, height) in [(80, 24), (120, 40)] {
            Self.check(
                MonitorSnapshotTests.state(scenario, width: width, height: height),
                "monitor-\(width)x\(height)-ascii-\(scenario.rawValue)")
        }
    }
}
