import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The contact-trace screen as text at the minimum size and a large one. Record with
/// RECORD_SNAPSHOTS=1 (the run then fails).
@Suite("Contact-trace snapshots")
struct TraceSnapshotTests {
    enum Scenario: String, CaseIterable {
        case empty
        case phoneError = "phone-error"
        case purpose
        case purposeError = "purpose-error"
        case unknown
        case loading
        case table
        case sortLastSeen = "sort-last-seen"
        case sortDays = "sort-days"
        case filtered
        case detail
        case wholeTimeline = "whole-timeline"
        case outcome
        case export
        case overwrite
        case ascii
        case asciiTable = "ascii-table"
        case asciiForm = "ascii-form"
        case noUploads = "no-uploads"
        case help
        /// `2` on the first row: its outcome saving, the cursor on the next contact to call.
        case callLoop = "call-loop"
        /// The same once the desk saved it.
        case callLoopSaved = "call-loop-saved"
        /// Every contact has an outcome.
        case callLoopDone = "call-loop-done"
        /// A save refused.
        case callLoopFailed = "call-loop-failed"
        /// `?` in the empty phone field: help.
        case phoneHelp = "phone-help"
    }

    static func state(_ scenario: Scenario, width: Int, height: Int) -> ConsoleApp.State {
        var state = TraceFixture.app(width: width, height: height)
        switch scenario {
        case .empty:
            break
        case .phoneError:
            Fixture.type("+39 333 12", into: &state)
            _ = Fixture.press(.enter, into: &state)
        case .purpose:
            Fixture.type("333 123 4567", into: &state)
            _ = Fixture.press(.enter, into: &state)
            Fixture.type("case 2026", into: &state)
        case .purposeError:
            Fixture.type("333 123 4567", into: &state)
            _ = Fixture.press(.enter, .enter, into: &state)
        case .unknown:
            Fixture.type("333 123 4567", into: &state)
            _ = Fixture.press(.enter, into: &state)
            Fixture.type("case 2026", into: &state)
            _ = Fixture.press(.enter, into: &state)
            _ = ConsoleApp.update(&state, .trace(.lookupFailed(ServiceChecks.unknownPatient)))
        case .loading:
            Fixture.type("333 123 4567", into: &state)
            _ = Fixture.press(.enter, into: &state)
            Fixture.type("case 2026", into: &state)
            _ = Fixture.press(.enter, into: &state)
        case .table:
            state = TraceFixture.looked(width: width, height: height)
        case .sortLastSeen:
            state = TraceFixture.looked(width: width, height: height)
            _ = Fixture.press(.char("l"), into: &state)
        case .sortDays:
            state = TraceFixture.looked(width: width, height: height)
            _ = Fixture.press(.char("d"), into: &state)
        case .filtered:
            state = TraceFixture.looked(width: width, height: height)
            _ = Fixture.press(.char("/"), into: &state)
            Fixture.type("not yet", into: &state)
        case .detail:
            state = TraceFixture.looked(width: width, height: height)
            _ = Fixture.press(.enter, into: &state)
            _ = ConsoleApp.update(
                &state,
                .trace(
                    .sightingsLoaded(
                        TraceSightingsPage(
                            sightings: TraceFixture.sightings(11, count: 50), total: 50, nextOffset: nil),
                        patient: 7, contact: 11, offset: 0)))
        case .wholeTimeline:
            // Thirty days seen: the pane shows them all with t.
            var lookup = TraceFixture.lookup()
            let first = CivilDay(iso: "2026-11-29")!
            lookup.contacts[0].summary.timeline = (0..<30).map { back in
                DayHours(
                    day: first.adding(days: -back), minutesByHour: TraceFixture.hours([back % 24: 10 + back]),
                    minutes: 10 + back)
            }
            state = TraceFixture.looked(width: width, height: height, lookup)
            _ = Fixture.press(.enter, .char("t"), .down, .down, into: &state)
        case .outcome:
            state = TraceFixture.looked(width: width, height: height)
            _ = Fixture.press(.char("o"), .down, .down, into: &state)
            Fixture.type("back on Monday", into: &state)
        case .export:
            state = TraceFixture.looked(width: width, height: height)
            _ = Fixture.press(.char("e"), into: &state)
        case .overwrite:
            state = TraceFixture.looked(width: width, height: height)
            _ = Fixture.press(.char("e"), .enter, into: &state)
            _ = ConsoleApp.update(&state, .trace(.exportExists("~/trace-7-2026-11-29.csv")))
        case .ascii:
            state = TraceFixture.looked(width: width, height: height, ascii: true)
            _ = Fixture.press(.enter, into: &state)
        case .asciiTable:
            // Every symbol in ASCII: ≥ is >=, – is -, ▼ is v, ✓ is ok.
            state = TraceFixture.looked(width: width, height: height, ascii: true)
            let recorded = RecordedOutcome(outcome: .noAnswer, note: "", by: "tina", at: Fixture.now)
            _ = ConsoleApp.update(&state, .trace(.outcomeSaved(recorded, patient: 7, contact: 12)))
        case .asciiForm:
            state = TraceFixture.app(width: width, height: height, ascii: true)
            Fixture.type("+39 333 12", into: &state)
            _ = Fixture.press(.enter, into: &state)
        case .noUploads:
            state = TraceFixture.looked(
                width: width, height: height, TraceFixture.lookup(contacts: [], daysUploaded: 0))
        case .help:
            state = TraceFixture.looked(width: width, height: height)
            _ = Fixture.press(.char("?"), into: &state)
        case .callLoop:
            state = TraceFixture.looked(width: width, height: height)
            _ = Fixture.press(.char("2"), into: &state)
        case .callLoopSaved:
            state = TraceFixture.looked(width: width, height: height)
            _ = Fixture.press(.char("2"), into: &state)
            let recorded = RecordedOutcome(outcome: .noAnswer, note: "", by: "tina", at: Fixture.now)
            _ = ConsoleApp.update(&state, .trace(.outcomeSaved(recorded, patient: 7, contact: 11)))
        case .callLoopDone:
            state = TraceFixture.looked(width: width, height: height)
            _ = Fixture.press(.char("2"), .char("3"), .char("5"), into: &state)
            for (contact, outcome) in [(11, ContactOutcome.noAnswer), (12, .reachedIsolating), (14, .wrongNumber)] {
                let recorded = RecordedOutcome(outcome: outcome, note: "", by: "tina", at: Fixture.now)
                _ = ConsoleApp.update(&state, .trace(.outcomeSaved(recorded, patient: 7, contact: Int64(contact))))
            }
        case .callLoopFailed:
            state = TraceFixture.looked(width: width, height: height)
            _ = Fixture.press(.char("2"), into: &state)
            _ = ConsoleApp.update(
                &state, .trace(.outcomeFailed("the desk cannot be reached", patient: 7, contact: 11)))
        case .phoneHelp:
            _ = Fixture.press(.char("?"), into: &state)
        }
        return state
    }

    @Test("80×24", arguments: Scenario.allCases)
    func minimumSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 80, height: 24)), named: "trace-80x24-\(scenario.rawValue)")
    }

    @Test("120×40", arguments: Scenario.allCases)
    func largeSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 120, height: 40)), named: "trace-120x40-\(scenario.rawValue)")
    }

    @Test("close contacts are marked by a symbol and bold, not by colour alone (roles)")
    func roles() {
        for scenario in [Scenario.table, .ascii] {
            assertSnapshot(
                Fixture.render(Self.state(scenario, width: 80, height: 24)), named: "trace-80x24-\(scenario.rawValue)",
                roles: true)
        }
    }
}
