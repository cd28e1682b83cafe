import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The monitor as text, at the minimum size and at a large one: live, paused, filtered, kinds
/// hidden, the detail and watch panes, an unknown kind, a detail that is not JSON, an empty feed
/// and a broken one, and the operator's view. Record with RECORD_SNAPSHOTS=1 (the run then fails).
@Suite("Monitor snapshots")
struct MonitorSnapshotTests {
    enum Scenario: String, CaseIterable {
        case live, paused, filter, kinds, detail, unknown
        case rawDetail = "raw-detail"
        case watch
        case forbidden
        case empty, reconnecting, help
        case operatorView = "operator"
        /// An operator's help: only their kinds' keys.
        case operatorHelp = "operator-help"
        /// An operator's monitor with a kind hidden.
        case operatorKinds = "operator-kinds"
    }

    static let supervisor = Fixture.session("sara", role: .supervisor)

    /// 62 dummy requests of 100 since 14:00.
    static let traffic = TrafficShare(
        since: Fixture.now.addingTimeInterval(-120), realRequests: 38, dummyRequests: 62)

    /// The supervisor's monitor with the fixture feed and the traffic share.
    static func live(width: Int, height: Int, session: StaffSession = supervisor) -> ConsoleApp.State {
        var state = Fixture.app(width: width, height: height, session: session)
        if state.page != .monitor { _ = Fixture.press(.function(3), into: &state) }
        _ = ConsoleApp.update(&state, .feed(EventPage(events: Fixture.feed(), cursor: 12)))
        _ = ConsoleApp.update(&state, .monitor(.trafficLoaded(traffic)))
        return state
    }

    /// An operator's monitor with what the desk sends them of the fixture feed: no analytics
    /// (kinds this build does not know pass, as from a newer server).
    static func operatorLive(width: Int, height: Int) -> ConsoleApp.State {
        var state = Fixture.app(width: width, height: height, session: Fixture.session())
        _ = Fixture.press(.function(3), into: &state)
        let kinds = MonitorScreen.Kind.visible(to: .operator)
        let events = Fixture.feed().filter { event in
            event.known.flatMap(MonitorScreen.Kind.init).map(kinds.contains) ?? true
        }
        _ = ConsoleApp.update(&state, .feed(EventPage(events: events, cursor: 12)))
        _ = ConsoleApp.update(&state, .monitor(.trafficLoaded(traffic)))
        return state
    }

    /// Selects the row of event `id` (rows are newest first: 12, 11, …).
    static func select(_ id: Int, in state: inout ConsoleApp.State) {
        for _ in 0..<(12 - id) { _ = Fixture.press(.down, into: &state) }
    }

    static func state(_ scenario: Scenario, width: Int, height: Int) -> ConsoleApp.State {
        var state = live(width: width, height: height)
        switch scenario {
        case .live:
            break
        case .paused:
            select(10, in: &state)
            _ = Fixture.press(.char(" "), into: &state)
            let more = [
                Fixture.event(13, "otp_checked", at: Fixture.now, tag: "4f2a91", #"{"status":"expired"}"#),
                Fixture.event(14, "staff_action", at: Fixture.now, actor: "bianchi", #"{"action":"sign_in"}"#),
                Fixture.event(15, "upload_refused", at: Fixture.now, tag: "4f2a91", #"{"reason":"expired"}"#),
            ]
            _ = ConsoleApp.update(&state, .feed(EventPage(events: more, cursor: 15)))
        case .filter:
            _ = Fixture.press(.char("/"), into: &state)
            Fixture.type("b3b3", into: &state)
        case .kinds:
            _ = Fixture.press(.char("5"), .char("7"), into: &state)
        case .detail:
            select(5, in: &state)
            _ = Fixture.press(.enter, into: &state)
        case .unknown:
            select(10, in: &state)
            _ = Fixture.press(.enter, into: &state)
        case .rawDetail:
            select(11, in: &state)
            _ = Fixture.press(.enter, into: &state)
        case .watch:
            select(5, in: &state)
            _ = Fixture.press(.char("w"), into: &state)
            let watch = Fixture.codeWatch(
                checks: [12], upload: Fixture.upload(chunks: [42], waiting: 0),
                nextRun: Fixture.now.addingTimeInterval(600))
            _ = ConsoleApp.update(&state, .monitor(.watchLoaded(watch, for: .event(5))))
        case .forbidden:
            state = live(width: width, height: height, session: Fixture.session())
            select(7, in: &state)
            _ = Fixture.press(.char("w"), into: &state)
            _ = ConsoleApp.update(
                &state, .monitor(.watchRefused("you can watch only the codes you authorised", for: .event(7))))
        case .empty:
            state = Fixture.app(width: width, height: height, session: Self.supervisor)
            _ = Fixture.press(.function(3), into: &state)
            _ = ConsoleApp.update(&state, .feed(EventPage(events: [], cursor: 0)))
            _ = ConsoleApp.update(
                &state, .monitor(.trafficLoaded(TrafficShare(since: Fixture.now, realRequests: 0, dummyRequests: 0))))
        case .reconnecting:
            _ = ConsoleApp.update(&state, .feedFailed("server unreachable"))
            _ = ConsoleApp.update(&state, .connectionChanged("server unreachable, retrying"))
        case .help:
            _ = Fixture.press(.char("?"), into: &state)
        case .operatorView:
            state = operatorLive(width: width, height: height)
        case .operatorHelp:
            state = operatorLive(width: width, height: height)
            _ = Fixture.press(.char("?"), into: &state)
        case .operatorKinds:
            state = operatorLive(width: width, height: height)
            _ = Fixture.press(.char("6"), into: &state)
        }
        return state
    }

    @Test("80×24", arguments: Scenario.allCases)
    func minimumSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 80, height: 24)), named: "monitor-80x24-\(scenario.rawValue)")
    }

    @Test("120×40", arguments: Scenario.allCases)
    func largeSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 120, height: 40)), named: "monitor-120x40-\(scenario.rawValue)")
    }

    @Test("roles carry the meaning: live and paused states, refused and unknown kinds, the watch's marks")
    func roles() {
        for scenario in [Scenario.live, .paused, .watch, .kinds, .operatorView] {
            assertSnapshot(
                Fixture.render(Self.state(scenario, width: 80, height: 24)),
                named: "monitor-80x24-\(scenario.rawValue)", roles: true)
        }
    }
}
