import CivilCalendar
import DeskConsole
import DeskContract
import DeskCore
import Foundation
import TerminalKit
import Testing

/// The audit screen's filter by the person acted upon, the routine sign-in/sign-out pairs it
/// can hide, and action names in words.
@Suite("Audit screen: subject, routine sign-ins, words")
struct AuditSubjectRoutineTests {
    static let admin = Fixture.session("admin", role: .admin)

    func opened(width: Int = 80, height: Int = 24) -> ConsoleApp.State {
        var app = Fixture.app(width: width, height: height, session: Self.admin)
        _ = Fixture.press(.function(3), into: &app)
        return app
    }

    static func entry(
        _ id: Int64, _ actor: String, _ action: AuditAction, target: String? = nil, minute: Double = 0,
        detail: String = "{}"
    ) -> AuditEntry {
        AuditEntry(
            id: id, at: Fixture.now.addingTimeInterval(60 * minute), actor: actor, action: action, target: target,
            detail: detail, previousHash: String(repeating: "0", count: 64), hash: String(repeating: "1", count: 64))
    }

    static func signIn(_ id: Int64, _ actor: String, minute: Double = 0, expiresAfterMinutes: Double = 720)
        -> AuditEntry
    {
        let expires = Fixture.now.addingTimeInterval(60 * (minute + expiresAfterMinutes)).unixMilliseconds
        return entry(
            id, actor, .signIn, minute: minute, detail: #"{"expires_at_ms":\#(expires),"password_rehashed":false}"#)
    }

    @Test("the filter form's On field asks for the subject: the query carries it, the status line says it")
    func subjectFilter() {
        var app = opened()
        _ = Fixture.press(.char("/"), into: &app)
        Fixture.type("admin", into: &app)
        _ = Fixture.press(.tab, into: &app)
        Fixture.type("Bianchi", into: &app)
        let commands = Fixture.press(.enter, into: &app)
        #expect(commands == [.audit(.load(AuditQuery(actor: "admin", subject: "bianchi", limit: 100)))])
        #expect(app.audit.filter.summary == "by admin · on bianchi")
        #expect(Fixture.render(app).text.contains("Filter: by admin · on bianchi"))
    }

    @Test("the action picker shows words, and the summary too")
    func actionWords() {
        var app = opened()
        _ = Fixture.press(.char("/"), into: &app)
        _ = Fixture.press(.tab, .tab, into: &app)
        #expect(app.audit.filterForm?.focus == .action)
        let index = AuditScreen.FilterForm.choices.firstIndex(of: .passwordReset)!
        for _ in 0..<index { _ = Fixture.press(.right, into: &app) }
        let text = Fixture.render(app).text
        #expect(text.contains("‹ password reset ›"))
        #expect(!text.contains("password_reset"))
        _ = Fixture.press(.enter, into: &app)
        #expect(app.audit.filter.summary == "password reset")
    }

    @Test(
        "every action this version writes has words, none with an underscore",
        arguments: AuditAction.known)
    func everyActionInWords(_ action: AuditAction) {
        let words = AuditDetailText.actionWords(action)
        #expect(!words.contains("_"))
        #expect(words.count <= 18)
    }

    @Test("an action this build does not know: its name with spaces")
    func unknownAction() {
        #expect(AuditDetailText.actionWords(AuditAction(rawValue: "vaccine_pass_issued")) == "vaccine pass issued")
    }

    @Test("the rule: a sign-in and its sign-out with nothing between them that names the person")
    func rule() {
        let entries = [
            Self.signIn(1, "neri"), Self.entry(2, "neri", .signOut, minute: 1),  // routine: hidden
            Self.signIn(3, "tina", minute: 2), Self.entry(4, "tina", .traceLookup, target: "user 7", minute: 3),
            Self.entry(5, "tina", .signOut, minute: 4),  // did something: kept
            Self.signIn(6, "bianchi", minute: 5),
            Self.entry(7, "admin", .passwordReset, target: "bianchi", minute: 6),
            Self.entry(8, "bianchi", .signOut, minute: 7),  // acted upon meanwhile: kept
            Self.signIn(9, "rossi", minute: 8), Self.signIn(10, "rossi", minute: 9),
            Self.entry(11, "rossi", .signOut, minute: 10),  // the inner pair of two sessions: hidden
            Self.signIn(12, "sara", minute: 11, expiresAfterMinutes: 1),
            Self.entry(13, "sara", .signOut, minute: 20),  // after the session's end: kept
            Self.entry(14, "-", .signInFailed, minute: 21, detail: #"{"reason":"unknown account"}"#),
            Self.signIn(15, "neri", minute: 22),  // still open: kept
        ]
        #expect(RoutineSignIns.hidden(in: entries.reversed()) == [1, 2, 10, 11])
    }

    @Test("h hides the pairs and says how many; the selection stays on its entry; h shows them again")
    func toggle() {
        var app = opened()
        let entries: [AuditEntry] = [
            Self.entry(
                5, "tina", .traceLookup, target: "user 7", minute: 4,
                detail: #"{"purpose":"case 9","found":false}"#),
            Self.entry(4, "neri", .signOut, minute: 3), Self.signIn(3, "neri", minute: 2),
            Self.entry(2, "admin", .staffAdded, target: "neri", minute: 1, detail: #"{"role":"tracer"}"#),
            Self.signIn(1, "admin"),
        ]
        _ = ConsoleApp.update(&app, .audit(.loaded(entries, for: AuditQuery(limit: 100))))
        _ = Fixture.press(.end, into: &app)
        #expect(app.audit.selectedEntry?.id == 1)
        _ = Fixture.press(.char("h"), into: &app)
        #expect(app.audit.entries.map(\.id) == [5, 2, 1])
        #expect(app.audit.hiddenCount == 2)
        #expect(app.audit.selectedEntry?.id == 1)
        let text = Fixture.render(app).text
        #expect(text.contains("1 routine sign-in pair hidden (h)"))
        _ = Fixture.press(.char("h"), into: &app)
        #expect(app.audit.entries.map(\.id) == [5, 4, 3, 2, 1])
        #expect(app.audit.selectedEntry?.id == 1)
    }

    @Test("the Detail column and the entry pane are words: no field names, no JSON, for every action")
    func detailWords() {
        let details: [(AuditAction, String)] = [
            (.signIn, #"{"expires_at_ms":1795975320000,"password_rehashed":true}"#),
            (.signInFailed, #"{"failures":3}"#), (.signInRefused, #"{"reason":"locked"}"#),
            (.accountLocked, #"{"failures":10,"abandoned":2}"#), (.signOut, "{}"),
            (.otpAuthorized, #"{"symptoms_started_on":"2026-11-28","expires_at_ms":1795961070000}"#),
            (.staffAdded, #"{"role":"operator"}"#), (.staffDisabled, #"{"sessions_ended":2}"#),
            (.passwordReset, #"{"sessions_ended":1,"was_locked":true}"#),
            (
                .traceLookup,
                #"{"purpose":"case 9","days":3,"sightings":40,"contacts":5,"close_contacts":2,"unresolved":1}"#
            ),
            (.traceExport, #"{"purpose":"case 9","kind":"contacts_csv","rows":12}"#),
            (.contactOutcome, #"{"patient":"user 3","outcome":"reached_isolating","purpose":"case 9"}"#),
            (.smsOutboxRead, #"{"messages":50}"#), (.hisClientAdded, #"{"rate_per_minute":60}"#),
            (.hisClientRevoked, "{}"), (.phoneCopied, #"{"patient":"user 7","purpose":"case 9"}"#),
            (AuditAction(rawValue: "vaccine_pass_issued"), #"{"pass_id":"x"}"#),
            (.signIn, "not json"),
        ]
        for (action, detail) in details {
            let entry = Self.entry(1, "admin", action, target: "user 3", detail: detail)
            let summary = AuditDetailText.summary(entry, zone: Fixture.utc)
            let lines = AuditDetailText.lines(entry, zone: Fixture.utc) ?? []
            for text in [summary] + lines {
                #expect(!text.contains("{") && !text.contains("\""), "\(action): \(text)")
                #expect(!text.contains("_ms") && !text.contains("sessions_ended") && !text.contains("reached_"))
            }
            var app = opened(width: 120, height: 40)
            _ = ConsoleApp.update(&app, .audit(.loaded([entry], for: AuditQuery(limit: 100))))
            let screen = Fixture.render(app).text
            #expect(!screen.contains(#"{""#), "\(action) on screen")
            #expect(!screen.contains("_"), "\(action): a raw name on screen")
        }
        let outcome = Self.entry(
            1, "tina", .contactOutcome,
            detail: #"{"patient":"user 3","outcome":"reached_isolating","purpose":"case 9"}"#)
        #expect(AuditDetailText.summary(outcome, zone: Fixture.utc).contains("outcome: reached, isolating"))
        let copied = Self.entry(
            1, "tina", .phoneCopied, target: "user 12", detail: #"{"patient":"user 7","purpose":"case 9"}"#)
        #expect(AuditDetailText.summary(copied, zone: Fixture.utc) == "contact of user 7, purpose “case 9”")
    }

    @Test(
        "snapshots: routine sign-ins hidden and the subject filter form, at 80x24 and 120x40",
        arguments: [(80, 24), (120, 40)])
    func snapshots(_ size: (Int, Int)) {
        var app = opened(width: size.0, height: size.1)
        let entries: [AuditEntry] = [
            Self.entry(
                6, "tina", .phoneCopied, target: "user 12", minute: 5,
                detail: #"{"patient":"user 7","purpose":"case 2026-1234"}"#),
            Self.entry(5, "neri", .signOut, minute: 4), Self.signIn(4, "neri", minute: 3),
            Self.entry(
                3, "admin", .passwordReset, target: "bianchi", minute: 2,
                detail: #"{"sessions_ended":1,"was_locked":true}"#),
            Self.entry(
                2, "tina", .contactOutcome, target: "user 12", minute: 1,
                detail: #"{"patient":"user 7","outcome":"wrong_number","purpose":"case 2026-1234"}"#),
            Self.signIn(1, "admin"),
        ]
        _ = ConsoleApp.update(&app, .audit(.loaded(entries, for: AuditQuery(limit: 100))))
        _ = Fixture.press(.char("h"), into: &app)
        assertSnapshot(Fixture.render(app), named: "console-\(size.0)x\(size.1)-audit-routine-hidden")
        _ = Fixture.press(.char("/"), into: &app)
        _ = Fixture.press(.tab, into: &app)
        Fixture.type("user 12", into: &app)
        assertSnapshot(Fixture.render(app), named: "console-\(size.0)x\(size.1)-audit-subject-filter")
    }
}
