import DeskConsole
import DeskContract
import DeskCore
import DeskText
import Foundation
import TerminalKit
import Testing

/// The supervisor's dashboard and the admin's audit log in Italian (issue 22, point 1): 80×24
/// snapshots beside the English ones (each range, the tracing page, the export prompt; the
/// audit list, its filter form and the detail pane), every dashboard and audit scenario read
/// for lines wider than the screen and words cut without an ellipsis at 80×24 and 120×40, in
/// Unicode and in ASCII, and counts that agree in number.
///
/// Each state is built and drawn inside `Language.$scoped.withValue(.it)`: notices are written
/// when a key is handled, the rest when the screen is drawn.
@Suite("The supervisor's and admin's screens in Italian")
struct ItalianSupervisionTests {
    static func italian<T>(_ body: () -> T) -> T { Language.$scoped.withValue(.it) { body() } }

    /// The dashboard's Italian snapshots: every range, an empty one, a failed refresh, the
    /// province prompt, the export prompt and help.
    static let dashboardScenarios: [DashboardSnapshotTests.Scenario] = [
        .hour, .today, .day, .fortnight, .rangeAsked, .empty, .failed, .rangeFailed, .province, .provincePrompt,
        .badProvince, .export, .overwrite, .ascii, .help,
    ]
    static let tracingScenarios: [DashboardTracingTests.Scenario] = [.tracing, .failed, .refreshFailed, .empty, .many]

    /// The audit screen: the list with a verified chain, a broken one, the filter form, and the
    /// detail pane of entries whose details read as words (``auditDetail(_:)``).
    enum Audit: String, CaseIterable {
        case list, broken, filter, detail, routine
        case subjectFilter = "subject-filter"
        case dayFilter = "day-filter"
        case older, empty
    }

    static let admin = Fixture.session("admin", role: .admin)

    static func entry(
        _ id: Int64, _ actor: String, _ action: AuditAction, target: String? = nil, minute: Double = 0,
        detail: String = "{}"
    ) -> AuditEntry {
        AuditEntry(
            id: id, at: Fixture.now.addingTimeInterval(60 * minute), actor: actor, action: action, target: target,
            detail: detail, previousHash: String(repeating: "0", count: 64), hash: String(repeating: "1", count: 64))
    }

    /// Entries of the tracing and follow-up actions, the newest a lookup with counts of one.
    static let detailed: [AuditEntry] = {
        let signIn = #"{"expires_at_ms":\#(Fixture.now.addingTimeInterval(3_600).unixMilliseconds)}"#
        return [
            entry(
                9, "tina", .traceLookup, target: "user 7", minute: 8,
                detail:
                    #"{"purpose":"case 2026-1234","days":1,"sightings":3,"contacts":1,"close_contacts":1,"unresolved":1}"#
            ),
            entry(
                8, "tina", .followUpAttempt, target: "follow-up 4", minute: 7,
                detail: #"{"person":"user 12","outcome":"no_answer","state":"calling"}"#),
            entry(
                7, "tina", .caseClosed, target: "case 3", minute: 6,
                detail: #"{"reference":"2026-1234","reason":"opened_in_error","follow_ups_ended":1}"#),
            entry(6, "admin", .staffDisabled, target: "neri", minute: 5, detail: #"{"sessions_ended":2}"#),
            entry(5, "admin", .accountLocked, target: "neri", minute: 4, detail: #"{"failures":5,"abandoned":1}"#),
            entry(4, "neri", .signOut, minute: 3),
            entry(3, "neri", .signIn, minute: 2, detail: signIn),
            entry(2, "-", .signInFailed, minute: 1, detail: #"{"reason":"unknown account"}"#),
            entry(1, "admin", .signIn, detail: signIn),
        ]
    }()

    static func audit(_ scenario: Audit, width: Int = 80, height: Int = 24) -> ConsoleApp.State {
        func opened(_ entries: [AuditEntry]) -> ConsoleApp.State {
            var app = Fixture.app(width: width, height: height, session: admin)
            _ = Fixture.press(.function(3), into: &app)
            _ = ConsoleApp.update(&app, .audit(.loaded(entries, for: app.audit.pending ?? AuditQuery(limit: 100))))
            return app
        }
        switch scenario {
        case .list: return ConsoleSnapshotTests.state(.audit, width: width, height: height)
        case .broken: return ConsoleSnapshotTests.state(.auditBroken, width: width, height: height)
        case .filter: return ConsoleSnapshotTests.state(.auditFilter, width: width, height: height)
        case .detail: return opened(detailed)
        case .routine:
            var app = opened(detailed)
            _ = Fixture.press(.char("h"), into: &app)
            return app
        case .subjectFilter:
            var app = opened(detailed)
            _ = Fixture.press(.char("/"), .tab, into: &app)
            Fixture.type("user 12", into: &app)
            return app
        case .dayFilter:
            var app = opened(detailed)
            _ = Fixture.press(.char("/"), .tab, .tab, .tab, into: &app)
            return app
        case .older:
            var app = opened(detailed)
            _ = Fixture.press(.char("n"), into: &app)
            return app
        case .empty:
            var app = opened([])
            _ = Fixture.press(.char("/"), into: &app)
            Fixture.type("nessuno", into: &app)
            _ = Fixture.press(.enter, into: &app)
            _ = ConsoleApp.update(&app, .audit(.loaded([], for: app.audit.pending!)))
            return app
        }
    }

    // MARK: Snapshots

    @Test("the dashboard, 80×24, in Italian", arguments: dashboardScenarios)
    func dashboard(_ scenario: DashboardSnapshotTests.Scenario) {
        let buffer = Self.italian { Fixture.render(DashboardSnapshotTests.state(scenario, width: 80, height: 24)) }
        assertSnapshot(buffer, named: "it-dashboard-80x24-\(scenario.rawValue)")
    }

    @Test("the last 7 days, 80×24 and 120×40, in Italian", arguments: [(80, 24), (120, 40)])
    func week(_ size: (Int, Int)) {
        let buffer = Self.italian {
            var state = DashboardFixture.app(width: size.0, height: size.1)
            _ = Fixture.press(.char("3"), into: &state)
            let query = state.dashboard.asked!
            _ = ConsoleApp.update(&state, .dashboard(.loaded(DashboardFixture.report(query), for: query)))
            return Fixture.render(state)
        }
        assertSnapshot(buffer, named: "it-dashboard-\(size.0)x\(size.1)-week")
    }

    @Test("today at 120×40 (boxed tiles, three charts), in Italian")
    func todayLarge() {
        let buffer = Self.italian { Fixture.render(DashboardSnapshotTests.state(.today, width: 120, height: 40)) }
        assertSnapshot(buffer, named: "it-dashboard-120x40-today")
    }

    @Test("the tracing page, 80×24, in Italian", arguments: tracingScenarios)
    func tracing(_ scenario: DashboardTracingTests.Scenario) {
        let buffer = Self.italian { Fixture.render(DashboardTracingTests.state(scenario, width: 80, height: 24)) }
        assertSnapshot(buffer, named: "it-dashboard-80x24-\(scenario.rawValue)")
    }

    @Test("the tracing page beside the tracers at 120×40, in Italian")
    func tracingLarge() {
        let buffer = Self.italian { Fixture.render(DashboardTracingTests.state(.tracing, width: 120, height: 40)) }
        assertSnapshot(buffer, named: "it-dashboard-120x40-tracing")
    }

    @Test("the audit log, 80×24, in Italian", arguments: Audit.allCases)
    func auditScreen(_ scenario: Audit) {
        let buffer = Self.italian { Fixture.render(Self.audit(scenario)) }
        assertSnapshot(buffer, named: "it-audit-80x24-\(scenario.rawValue)")
    }

    // MARK: Fit

    /// Lines wider than the screen (in columns) and words cut without an ellipsis, in Unicode
    /// and in ASCII (where an accented letter is the letter and an apostrophe, or `?`).
    static func problems(_ make: () -> ConsoleApp.State, width: Int) -> [String] {
        var found: [String] = []
        for ascii in [false, true] {
            let buffer = italian {
                var state = make()
                state.ascii = ascii
                state.dashboard.ascii = ascii
                return Fixture.render(state)
            }
            for (index, line) in buffer.lines.enumerated() where DisplayWidth.of(line) > width {
                found.append("line \(index + 1) is \(DisplayWidth.of(line)) columns\(ascii ? " (ASCII)" : "")")
            }
            let lines = buffer.lines
            let cut = NoCutWordTests.cutWords(buffer).filter { word in
                !ascii
                    || !lines.contains { $0.contains(word + "?") || $0.contains("?" + word) || $0.contains(word + "'") }
            }
            if !cut.isEmpty { found.append("cut words \(cut)\(ascii ? " (ASCII)" : ""):\n\(buffer.text)") }
        }
        return found
    }

    static let sizes = [(80, 24), (120, 40)]

    @Test(
        "every dashboard scenario fits in Italian at 80×24 and 120×40: no line too wide, no word cut",
        arguments: DashboardSnapshotTests.Scenario.allCases)
    func dashboardFits(_ scenario: DashboardSnapshotTests.Scenario) {
        for (width, height) in Self.sizes {
            let problems = Self.problems(
                { Self.italian { DashboardSnapshotTests.state(scenario, width: width, height: height) } }, width: width)
            #expect(problems.isEmpty, "\(scenario.rawValue) \(width)×\(height): \(problems.joined(separator: "\n"))")
        }
    }

    @Test(
        "every tracing page scenario fits in Italian at 80×24 and 120×40",
        arguments: DashboardTracingTests.Scenario.allCases)
    func tracingFits(_ scenario: DashboardTracingTests.Scenario) {
        for (width, height) in Self.sizes {
            let problems = Self.problems(
                { Self.italian { DashboardTracingTests.state(scenario, width: width, height: height) } }, width: width)
            #expect(problems.isEmpty, "\(scenario.rawValue) \(width)×\(height): \(problems.joined(separator: "\n"))")
        }
    }

    @Test("every audit scenario fits in Italian at 80×24 and 120×40", arguments: Audit.allCases)
    func auditFits(_ scenario: Audit) {
        for (width, height) in Self.sizes {
            let problems = Self.problems(
                { Self.italian { Self.audit(scenario, width: width, height: height) } }, width: width)
            #expect(problems.isEmpty, "\(scenario.rawValue) \(width)×\(height): \(problems.joined(separator: "\n"))")
        }
    }

    // MARK: Words

    @Test("the dashboard speaks Italian: header, tiles, charts, footer")
    func dashboardWords() {
        let text = Self.italian { Fixture.render(DashboardSnapshotTests.state(.hour, width: 80, height: 24)).text }
        for words in ["Ultima ora · per 5 min · dalle 13:05", "autorizzati", "scartate", "Tracciamento", "e CSV"] {
            #expect(text.contains(words), "missing “\(words)”:\n\(text)")
        }
        for english in ["Last hour", "authorised", "buckets", "Export", "keys dropped"] {
            #expect(!text.contains(english), "English “\(english)” on the Italian screen:\n\(text)")
        }
    }

    @Test("the audit log speaks Italian: title, columns, actions, the verdict")
    func auditWords() {
        let text = Self.italian { Fixture.render(Self.audit(.list)).text }
        for words in ["Registro delle attività", "Azione", "nuova password", "catena integra: 40 voci"] {
            #expect(text.contains(words), "missing “\(words)”:\n\(text)")
        }
        for english in ["Audit log", "Action", "password reset", "chain intact", "sign-in"] {
            #expect(!text.contains(english), "English “\(english)” on the Italian screen:\n\(text)")
        }
    }

    @Test("every audit action has Italian words, none of them a key or the English")
    func everyAction() {
        for action in AuditAction.known {
            let english = Language.$scoped.withValue(.en) { AuditDetailText.actionWords(action) }
            let italian = Self.italian { AuditDetailText.actionWords(action) }
            #expect(italian != english, "\(action.rawValue): \(italian)")
            #expect(!italian.hasPrefix("console.") && italian != Self.italian { tr("common.missing") })
            #expect(DisplayWidth.of(italian) <= 18, "\(italian) is wider than the Action column")
        }
    }

    @Test("counts agree in number in Italian: dropped keys, routine pairs, sessions, entries")
    func countsAgree() {
        Self.italian {
            #expect(EventDetail.droppedText(["too_old": 2]) == "2 troppo vecchie")
            #expect(EventDetail.droppedText(["too_old": 1, "misaligned": 3]) == "3 non allineate, 1 troppo vecchia")
            #expect(trCount("console.audit.pairs", 1) == "1 coppia abituale di accesso")
            #expect(trCount("console.audit.pairs", 2) == "2 coppie abituali di accesso")
            #expect(trCount("console.audit.detail.sessionsEnded", 1) == "1 sessione chiusa")
            #expect(trCount("console.audit.detail.sessionsEnded", 2) == "2 sessioni chiuse")
            #expect(trCount("console.dashboard.tile.refused", 1, ["n": "1"]) == "1 rifiutato")
            let lookup = AuditDetailText.summary(Self.detailed[0], zone: Fixture.utc)
            #expect(lookup.contains("1 giorno di file") && lookup.contains("1 contatto (1 stretto)"), "\(lookup)")
        }
        // English keeps its words.
        Language.$scoped.withValue(.en) {
            #expect(EventDetail.droppedText(["too_old": 2, "key_length": 1]) == "1 wrong key length, 2 too old")
        }
    }

    @Test("the tracing indicators in Italian; the English lines tracedesk stats prints are unchanged")
    func indicators() {
        let query = StatsQuery.last(.fortnight, bucket: .day, now: Fixture.now, timeZone: Fixture.utc)
        let indicators = DashboardTracingTests.indicators(query)
        let english = Language.$scoped.withValue(.en) { IndicatorText.summary(indicators) }
        #expect(english.contains("  Close contacts reached in 24 h  81 %"))
        #expect(english.contains("  Not reached yet (now)           1 d: 12, 2 d: 5, 3 d: 2, >3 d: 1"))
        #expect(english.contains("  TRACER  ASSIGNED  DUE  OVERDUE  DONE TODAY"))
        let italian = Self.italian { IndicatorText.summary(indicators) }
        #expect(italian.contains { $0.hasPrefix("  Contatti stretti raggiunti entro 24 h") && $0.hasSuffix(" 81 %") })
        #expect(italian.contains { $0.contains("TRACCIATORE") && $0.contains("SCADUTI") })
        #expect(italian.contains("  Non ancora raggiunti (ora)            1 g: 12, 2 g: 5, 3 g: 2, >3 g: 1"))
        // The CSV rows are a contract: the same in both languages.
        #expect(Self.italian { IndicatorText.csvRows(indicators) } == IndicatorText.csvRows(indicators))
    }
}
