import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The call queue as text at the minimum size and a large one. Record with RECORD_SNAPSHOTS=1
/// (the run then fails).
@Suite("Call queue snapshots")
struct QueueSnapshotTests {
    enum Scenario: String, CaseIterable {
        case loading
        case empty
        case rows
        /// `1` on the first row: being recorded, the cursor on the next person due.
        case recording
        case detail
        case outcome
        case check
        case filtered
        case failed
        case demo
        case ascii
        case supervisor
        case picker
        case help
    }

    static func state(_ scenario: Scenario, width: Int, height: Int) -> ConsoleApp.State {
        switch scenario {
        case .loading:
            var state = Fixture.signedOut(width: width, height: height)
            _ = ConsoleApp.update(&state, .signedIn(QueueFixture.tracer))
            return state
        case .empty:
            return QueueFixture.app(width: width, height: height, rows: [])
        case .rows:
            return QueueFixture.app(width: width, height: height)
        case .recording:
            var state = QueueFixture.app(width: width, height: height)
            _ = Fixture.press(.char("1"), into: &state)
            return state
        case .detail:
            var state = QueueFixture.app(width: width, height: height)
            _ = Fixture.press(.enter, into: &state)
            let row = QueueFixture.rows()[0]
            _ = ConsoleApp.update(
                &state,
                .queue(
                    .detailLoaded(
                        FollowUpDetail(
                            followUp: row,
                            attempts: [
                                CallAttempt(
                                    id: 1, followUpID: 11, at: Fixture.now.addingTimeInterval(-10_800), by: "tina",
                                    outcome: .noAnswer, note: "rang out")
                            ], checks: []))))
            return state
        case .outcome:
            var state = QueueFixture.app(width: width, height: height)
            _ = Fixture.press(.char("o"), .down, into: &state)
            Fixture.type("left a message", into: &state)
            return state
        case .check:
            var state = QueueFixture.app(width: width, height: height)
            _ = Fixture.press(.char("j"), .char("j"), .char("j"), .char("c"), .char("n"), into: &state)
            return state
        case .filtered:
            var state = QueueFixture.app(width: width, height: height)
            _ = Fixture.press(.char("/"), into: &state)
            Fixture.type("0415", into: &state)
            _ = ConsoleApp.update(
                &state,
                .queue(
                    .loaded(
                        QueueFixture.page([QueueFixture.followUp(12, cases: 2)]), request: state.queue.request,
                        append: false)))
            _ = Fixture.press(.enter, into: &state)
            return state
        case .failed:
            var state = QueueFixture.app(width: width, height: height)
            _ = Fixture.press(.char("2"), into: &state)
            _ = ConsoleApp.update(
                &state,
                .queue(
                    .attemptFailed(
                        "follow-up 11 is assigned to toni, not you: reload the queue (r)", followUp: 11,
                        outcome: .voicemail)))
            return state
        case .demo:
            return QueueFixture.app(width: width, height: height, demo: true)
        case .ascii:
            var rows = QueueFixture.rows()
            rows[3].symptomsFlagged = true
            return QueueFixture.app(width: width, height: height, rows: rows, ascii: true)
        case .supervisor:
            var rows = QueueFixture.rows()
            rows[1].assignedTo = nil
            rows[3].symptomsFlagged = true
            var state = QueueFixture.app(width: width, height: height, session: QueueFixture.supervisor, rows: rows)
            _ = Fixture.press(.char(" "), .char(" "), into: &state)
            return state
        case .picker:
            var state = QueueFixture.app(width: width, height: height, session: QueueFixture.supervisor)
            _ = Fixture.press(.char(" "), .char(" "), .char("a"), into: &state)
            return state
        case .help:
            var state = QueueFixture.app(width: width, height: height)
            _ = Fixture.press(.char("?"), into: &state)
            return state
        }
    }

    @Test("80×24", arguments: Scenario.allCases)
    func minimumSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 80, height: 24)), named: "queue-80x24-\(scenario.rawValue)")
    }

    @Test("120×40", arguments: Scenario.allCases)
    func largeSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 120, height: 40)), named: "queue-120x40-\(scenario.rawValue)")
    }

    @Test("overdue rows and symptom flags are marked by words and bold, not by colour alone (roles)")
    func roles() {
        assertSnapshot(
            Fixture.render(Self.state(.supervisor, width: 120, height: 40)), named: "queue-120x40-supervisor-roles",
            roles: true)
    }
}
