import CivilCalendar
import DeskConsole
import DeskCore
import Foundation
import TerminalKit
import Testing

/// `tracedesk demo`'s strip: the simulated citizen's code, onset and phone, on the authorise
/// screen only, never cut at 80 columns.
@Suite("The demo citizen's strip")
struct DemoCitizenStripTests {
    static let phases: [DemoCitizenStrip.Phase] = [
        .waiting, .checked(Fixture.now), .uploaded(Fixture.now.addingTimeInterval(9)), .refused(400), .refused(0),
    ]

    static func strip(_ phase: DemoCitizenStrip.Phase) -> DemoCitizenStrip {
        DemoCitizenStrip(code: Fixture.code, symptomsStartedOn: Fixture.now.utcDay.adding(days: -2), phase: phase)
    }

    @Test("the short form fits 80 columns whole, in UTF-8 and in ASCII, with the grouped code and the onset")
    func fitsEighty() {
        for phase in Self.phases {
            for ascii in [false, true] {
                let text = Self.strip(phase).text(width: 80, timeZone: Fixture.utc, ascii: ascii)
                #expect(DisplayWidth.of(text) <= 80, "\(text)")
                #expect(text.contains("9K2-RAY8-UUQ"))
                #expect(text.contains(Fixture.now.utcDay.adding(days: -2).iso))
                #expect(!ascii || text.allSatisfy(\.isASCII), "\(text)")
            }
        }
        #expect(
            Self.strip(.uploaded(Fixture.now.addingTimeInterval(9))).text(
                width: 80, timeZone: Fixture.utc, ascii: false
            )
            .hasSuffix("uploaded at 14:02:09"))
    }

    @Test("shown on the authorise screen only: not on the monitor, not while locked, not before a citizen")
    func onlyOnAuthorise() {
        var state = Fixture.app(width: 80, height: 24)
        #expect(!Fixture.render(state).lines.joined().contains("Demo call"))
        _ = ConsoleApp.update(&state, .demoCitizenChanged(Self.strip(.waiting)))
        #expect(Fixture.render(state).lines[22].contains("Demo call · code 9K2-RAY8-UUQ"))
        _ = Fixture.press(.function(3), into: &state)
        #expect(state.page == .monitor)
        #expect(!Fixture.render(state).lines.joined().contains("Demo call"))
        _ = Fixture.press(.function(2), into: &state)
        #expect(state.page == .authorize)
        _ = ConsoleApp.update(&state, .ticked(Fixture.now.addingTimeInterval(3_600)))
        #expect(state.lock != nil)
        #expect(!Fixture.render(state).lines.joined().contains("9K2-RAY8-UUQ"))
    }
}
