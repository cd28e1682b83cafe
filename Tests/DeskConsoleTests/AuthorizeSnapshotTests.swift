import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The authorise screen as text, at the minimum size and at a large one, for every state an
/// operator meets during a call, the watch's steps included. Record with RECORD_SNAPSHOTS=1 (the
/// run then fails).
@Suite("Authorise screen snapshots")
struct AuthorizeSnapshotTests {
    enum Scenario: String, CaseIterable {
        case empty, typing
        case badCharacter = "bad-character"
        case badCheckCharacter = "bad-check-character"
        case calendarOpen = "calendar-open"
        case review, authorized, expired
        case alreadyAuthorized = "already-authorized"
        case oldOnsetWarning = "old-onset-warning"
        case help
        case watchChecked = "watch-checked"
        case watchUpload = "watch-upload"
        case watchNextRun = "watch-next-run"
        case watchNoRun = "watch-no-run"
        case watchPublished = "watch-published"
        case watchExpired = "watch-expired"
        case watchUnreachable = "watch-unreachable"
        /// `tracedesk demo`: the simulated citizen's strip, its code typed in, then its upload.
        case demoWaiting = "demo-waiting"
        case demoUploaded = "demo-uploaded"
    }

    /// The demo's simulated citizen, with the fixture's code.
    static func demoCitizen(_ phase: DemoCitizenStrip.Phase) -> DemoCitizenStrip {
        DemoCitizenStrip(code: Fixture.code, symptomsStartedOn: Fixture.now.utcDay.adding(days: -1), phase: phase)
    }

    /// Authorised at ``Fixture/now`` for yesterday, the desk's `watch` answer, then `seconds` on.
    static func watching(_ watch: CodeWatch?, after seconds: Double, width: Int, height: Int) -> ConsoleApp.State {
        var state = Fixture.app(width: width, height: height)
        Fixture.type(Fixture.code, into: &state)
        _ = Fixture.press(.char("y"), .enter, .enter, into: &state)
        _ = ConsoleApp.update(
            &state,
            .authorize(.authorizeFinished(.authorized(Fixture.record(day: Fixture.now.utcDay.adding(days: -1))))))
        if let watch { _ = ConsoleApp.update(&state, .authorize(.watchLoaded(watch))) }
        _ = ConsoleApp.update(&state, .authorize(.ticked(Fixture.now.addingTimeInterval(seconds))))
        return state
    }

    static func state(_ scenario: Scenario, width: Int, height: Int) -> ConsoleApp.State {
        var state = Fixture.app(width: width, height: height)
        switch scenario {
        case .empty:
            break
        case .typing:
            Fixture.type("9k2-ra", into: &state)
        case .badCharacter:
            Fixture.type("9K2RAB", into: &state)
        case .badCheckCharacter:
            Fixture.type("9K2RAY8UUA", into: &state)
        case .calendarOpen:
            Fixture.type(Fixture.code, into: &state)
            _ = Fixture.press(.char("y"), .left, .left, into: &state)
        case .review:
            Fixture.type(Fixture.code, into: &state)
            _ = Fixture.press(.char("y"), .enter, into: &state)
        case .authorized:
            return watching(Fixture.codeWatch(), after: 23, width: width, height: height)
        case .expired:
            // No answer from the desk: the authorisation alone cannot tell whether an upload came.
            return watching(nil, after: 151, width: width, height: height)
        case .watchChecked:
            return watching(Fixture.codeWatch(checks: [12, 19]), after: 23, width: width, height: height)
        case .watchUpload:
            let upload = Fixture.upload(embargo: Fixture.now.addingTimeInterval(30 * 60))
            return watching(
                Fixture.codeWatch(checks: [12, 19, 35], upload: upload), after: 45, width: width, height: height)
        case .watchNextRun:
            return watching(
                Fixture.codeWatch(checks: [12], upload: Fixture.upload()), after: 45, width: width, height: height)
        case .watchNoRun:
            return watching(
                Fixture.codeWatch(checks: [12], upload: Fixture.upload(), nextRun: nil), after: 45, width: width,
                height: height)
        case .watchPublished:
            let upload = Fixture.upload(chunks: [42, 43], waiting: 0)
            return watching(Fixture.codeWatch(checks: [12], upload: upload), after: 900, width: width, height: height)
        case .watchExpired:
            return watching(
                Fixture.codeWatch(checks: [12], refused: 1, lastRefusal: "expired"), after: 151, width: width,
                height: height)
        case .watchUnreachable:
            var state = watching(Fixture.codeWatch(checks: [12]), after: 23, width: width, height: height)
            _ = ConsoleApp.update(
                &state,
                .authorize(.watchFailed("server unreachable, retrying", for: state.authorize.watchTarget ?? .code(""))))
            return state
        case .alreadyAuthorized:
            Fixture.type(Fixture.code, into: &state)
            _ = Fixture.press(.char("t"), .enter, .enter, into: &state)
            let earlier = Fixture.record(authorizedAt: Fixture.now.addingTimeInterval(-40))
            _ = ConsoleApp.update(&state, .authorize(.authorizeFinished(.alreadyAuthorized(earlier))))
        case .oldOnsetWarning:
            Fixture.type(Fixture.code, into: &state)
            Fixture.type("-20", into: &state)
            _ = Fixture.press(.enter, into: &state)
        case .help:
            _ = Fixture.press(.char("?"), into: &state)
        case .demoWaiting:
            _ = ConsoleApp.update(&state, .demoCitizenChanged(demoCitizen(.waiting)))
            Fixture.type(Fixture.code, into: &state)
        case .demoUploaded:
            let upload = Fixture.upload(embargo: Fixture.now.addingTimeInterval(30 * 60))
            state = watching(
                Fixture.codeWatch(checks: [12, 19, 35], upload: upload), after: 45, width: width, height: height)
            _ = ConsoleApp.update(
                &state, .demoCitizenChanged(demoCitizen(.uploaded(Fixture.now.addingTimeInterval(41)))))
        }
        return state
    }

    @Test("80×24", arguments: Scenario.allCases)
    func minimumSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 80, height: 24)), named: "authorize-80x24-\(scenario.rawValue)")
    }

    @Test("120×40", arguments: Scenario.allCases)
    func largeSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 120, height: 40)), named: "authorize-120x40-\(scenario.rawValue)"
        )
    }

    @Test("roles carry the meaning: ok, error, warning, selection")
    func roles() {
        for scenario in [Scenario.authorized, .badCheckCharacter, .calendarOpen] {
            assertSnapshot(
                Fixture.render(Self.state(scenario, width: 80, height: 24)),
                named: "authorize-80x24-\(scenario.rawValue)", roles: true)
        }
    }

    @Test(
        "below 80×24 only the size message is drawn, at any size down to 1×1",
        arguments: [(79, 24), (80, 23), (40, 10), (1, 1)])
    func tooSmall(_ size: (Int, Int)) {
        let buffer = Fixture.render(Fixture.app(width: size.0, height: size.1))
        let text = buffer.lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(
            separator: " ")
        if size.0 >= 40 {
            #expect(text.contains("terminal too small: have \(size.0)×\(size.1), need 80×24"))
        }
        #expect(buffer.width == size.0 && buffer.height == size.1)
    }
}
