import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The case view as text at the minimum size and a large one. Record with RECORD_SNAPSHOTS=1
/// (the run then fails).
@Suite("Case view snapshots")
struct CaseSnapshotTests {
    enum Scenario: String, CaseIterable {
        /// Asked for, not answered yet.
        case loading
        case open
        /// Closed, with the case it came from and one it led to.
        case chain
        case closeForm = "close-form"
        case confirm
        case failed
        case help
    }

    static func state(_ scenario: Scenario, width: Int, height: Int) -> ConsoleApp.State {
        switch scenario {
        case .loading:
            var state = QueueFixture.app(width: width, height: height)
            _ = Fixture.press(.enter, .char("v"), into: &state)
            return state
        case .open:
            return CaseFixture.app(width: width, height: height)
        case .chain:
            let trace = CaseFixture.trace(
                status: .closed(reason: .recovered, by: "sara", at: Fixture.now.addingTimeInterval(-600)),
                cameFrom: [CaseLink(caseID: 3, reference: "ASL-2026-0390", followUpID: 9)],
                ledTo: [CaseLink(caseID: 5, reference: "ASL-2026-0433", followUpID: 16)])
            return CaseFixture.app(width: width, height: height, detail: CaseFixture.detail(trace))
        case .closeForm:
            var state = CaseFixture.app(width: width, height: height)
            _ = Fixture.press(.char("x"), .down, into: &state)
            Fixture.type("isolation over", into: &state)
            return state
        case .confirm:
            var state = CaseFixture.app(width: width, height: height)
            _ = Fixture.press(.char("x"), .enter, into: &state)
            return state
        case .failed:
            var state = QueueFixture.app(width: width, height: height)
            _ = Fixture.press(.enter, .char("v"), into: &state)
            _ = ConsoleApp.update(
                &state, .queue(.caseFailed("case 1 is not one of yours: ask its tracer or a supervisor", caseID: 1)))
            return state
        case .help:
            var state = CaseFixture.app(width: width, height: height)
            _ = Fixture.press(.char("?"), into: &state)
            return state
        }
    }

    @Test("80×24", arguments: Scenario.allCases)
    func minimumSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 80, height: 24)), named: "case-80x24-\(scenario.rawValue)")
    }

    @Test("120×40", arguments: Scenario.allCases)
    func largeSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 120, height: 40)), named: "case-120x40-\(scenario.rawValue)")
    }
}
