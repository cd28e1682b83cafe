import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// Sign-in, first admin, lock, staff, audit and the tracer's start page (the contact-trace screen) as text, at the minimum
/// size and at a large one. Record with RECORD_SNAPSHOTS=1 (the run then fails).
@Suite("Console snapshots")
struct ConsoleSnapshotTests {
    enum Scenario: String, CaseIterable {
        case signIn = "signin"
        case signInFailed = "signin-failed"
        case firstAdmin = "first-admin"
        case lockIdle = "lock-idle"
        case lockWrongPassword = "lock-wrong-password"
        case staff
        case staffAdd = "staff-add"
        case staffDisable = "staff-disable"
        case audit
        case auditFilter = "audit-filter"
        case auditBroken = "audit-broken"
        case tracer
        case connectionProblem = "connection-problem"
        case staffHelp = "staff-help"
    }

    static let admin = Fixture.session("admin", role: .admin)

    static func adminWithData(width: Int, height: Int) -> ConsoleApp.State {
        var state = Fixture.app(width: width, height: height, session: admin)
        _ = ConsoleApp.update(&state, .staff(.loaded(Fixture.accounts)))
        return state
    }

    static func auditWithData(width: Int, height: Int) -> ConsoleApp.State {
        var state = adminWithData(width: width, height: height)
        _ = Fixture.press(.function(3), into: &state)
        _ = ConsoleApp.update(&state, .audit(.loaded(Fixture.auditEntries(count: 30), for: AuditQuery(limit: 100))))
        _ = Fixture.press(.down, .down, into: &state)
        return state
    }

    static func state(_ scenario: Scenario, width: Int, height: Int) -> ConsoleApp.State {
        switch scenario {
        case .signIn:
            var state = Fixture.signedOut(width: width, height: height, userName: "rossi")
            Fixture.type("secret pass", into: &state)
            return state
        case .signInFailed:
            var state = Fixture.signedOut(width: width, height: height)
            Fixture.type("bianchi", into: &state)
            _ = Fixture.press(.tab, into: &state)
            Fixture.type("guess", into: &state)
            _ = Fixture.press(.enter, into: &state)
            _ = ConsoleApp.update(
                &state,
                .signInScreen(
                    .failed(
                        "the account bianchi is locked after 8 failed sign-ins: ask an admin to reset its password (tracedesk staff reset-password bianchi)"
                    )))
            return state
        case .firstAdmin:
            var state = Fixture.signedOut(width: width, height: height)
            _ = ConsoleApp.update(&state, .accountsChecked(needsFirstAdmin: true))
            Fixture.type("admin", into: &state)
            _ = Fixture.press(.tab, into: &state)
            Fixture.type(Fixture.password, into: &state)
            _ = Fixture.press(.tab, into: &state)
            Fixture.type("correct horse x", into: &state)
            return state
        case .lockIdle, .lockWrongPassword:
            var state = Fixture.app(width: width, height: height)
            Fixture.type("9K2RA", into: &state)
            _ = ConsoleApp.update(&state, .ticked(Fixture.now.addingTimeInterval(600)))
            if scenario == .lockWrongPassword {
                Fixture.type("not it", into: &state)
                _ = Fixture.press(.enter, into: &state)
                _ = ConsoleApp.update(
                    &state, .lockScreen(.failed("wrong user name or password: check both and try again")))
            }
            return state
        case .staff:
            var state = adminWithData(width: width, height: height)
            _ = Fixture.press(.down, into: &state)
            return state
        case .staffAdd:
            var state = adminWithData(width: width, height: height)
            _ = Fixture.press(.char("a"), into: &state)
            Fixture.type("neri", into: &state)
            _ = Fixture.press(.tab, .right, .tab, into: &state)
            Fixture.type("short", into: &state)
            return state
        case .staffDisable:
            var state = adminWithData(width: width, height: height)
            _ = Fixture.press(.down, .down, .char("d"), into: &state)
            return state
        case .audit:
            var state = auditWithData(width: width, height: height)
            _ = ConsoleApp.update(
                &state,
                .audit(
                    .verified(
                        AuditVerification(
                            entries: 40, headHash: String(repeating: "28", count: 32), headID: 40, firstBroken: nil))))
            return state
        case .auditFilter:
            var state = auditWithData(width: width, height: height)
            _ = Fixture.press(.char("/"), into: &state)
            Fixture.type("rossi", into: &state)
            _ = Fixture.press(.tab, .right, into: &state)
            return state
        case .auditBroken:
            var state = auditWithData(width: width, height: height)
            _ = ConsoleApp.update(
                &state,
                .audit(
                    .verified(
                        AuditVerification(
                            entries: 16, headHash: String(repeating: "10", count: 32), headID: 16,
                            firstBroken: AuditBreak(id: 17, reason: "its hash does not match its contents")))))
            return state
        case .tracer:
            return Fixture.app(width: width, height: height, session: Fixture.session("verdi", role: .tracer))
        case .connectionProblem:
            var state = Fixture.app(width: width, height: height)
            Fixture.type("9K2RA", into: &state)
            _ = ConsoleApp.update(&state, .connectionChanged("server unreachable, retrying"))
            return state
        case .staffHelp:
            var state = adminWithData(width: width, height: height)
            _ = Fixture.press(.char("?"), into: &state)
            return state
        }
    }

    @Test("80×24", arguments: Scenario.allCases)
    func minimumSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 80, height: 24)), named: "console-80x24-\(scenario.rawValue)")
    }

    @Test("120×40", arguments: Scenario.allCases)
    func largeSize(_ scenario: Scenario) {
        assertSnapshot(
            Fixture.render(Self.state(scenario, width: 120, height: 40)), named: "console-120x40-\(scenario.rawValue)")
    }

    @Test("roles carry the meaning: lock, a broken chain, locked and disabled accounts, a connection problem")
    func roles() {
        for scenario in [Scenario.lockWrongPassword, .auditBroken, .staff, .connectionProblem] {
            assertSnapshot(
                Fixture.render(Self.state(scenario, width: 80, height: 24)),
                named: "console-80x24-\(scenario.rawValue)", roles: true)
        }
    }

    @Test(
        "no screen ever shows a typed password",
        arguments: [Scenario.signIn, .firstAdmin, .lockWrongPassword, .staffAdd])
    func noPassword(_ scenario: Scenario) {
        let text = Fixture.render(Self.state(scenario, width: 120, height: 40)).text
        for secret in ["secret pass", "correct horse", "not it", "short"] where text.contains(secret) {
            Issue.record("the screen shows '\(secret)'")
        }
    }
}
