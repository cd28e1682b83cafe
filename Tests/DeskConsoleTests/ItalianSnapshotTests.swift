import DeskConsole
import DeskContract
import DeskCore
import DeskText
import Foundation
import TerminalKit
import Testing

/// The console in Italian at 80×24 (issue 22), beside the English snapshots: each state is
/// built and drawn in Italian (the words a screen keeps, notices among them, are made as it
/// updates). Record with RECORD_SNAPSHOTS=1 (the run then fails).
@Suite("Italian snapshots")
struct ItalianSnapshotTests {
    /// The frame's and the operator's screens of ``ConsoleSnapshotTests``.
    static let consoleScenarios: [ConsoleSnapshotTests.Scenario] = [
        .signIn, .signInFailed, .firstAdmin, .lockIdle, .lockWrongPassword, .staff, .staffAdd, .staffDisable,
        .staffHelp,
    ]

    /// The admin's HIS screen: the list, the add form, the key shown once, the revoke question.
    enum HIS: String, CaseIterable {
        case list, form, key, revoke
    }

    static func his(_ scenario: HIS) -> ConsoleApp.State {
        var app = Fixture.app(width: 80, height: 24, session: HISScreenTests.admin)
        _ = Fixture.press(.function(4), into: &app)
        _ = ConsoleApp.update(&app, .his(.loaded(HISScreenTests.clients)))
        switch scenario {
        case .list: break
        case .form:
            _ = Fixture.press(.char("a"), into: &app)
            Fixture.type("careggi", into: &app)
        case .key:
            _ = Fixture.press(.char("a"), into: &app)
            Fixture.type("careggi", into: &app)
            _ = Fixture.press(.enter, .enter, into: &app)
            let client = HISClient(name: "careggi", createdAt: Fixture.now, createdBy: "admin")
            _ = ConsoleApp.update(&app, .his(.added(NewHISClient(client: client, key: HISScreenTests.key))))
        case .revoke:
            _ = Fixture.press(.char("x"), into: &app)
        }
        return app
    }

    static func italian<T>(_ body: () -> T) -> T { Language.$scoped.withValue(.it, operation: body) }

    @Test("sign-in, first admin and lock", arguments: consoleScenarios)
    func console(_ scenario: ConsoleSnapshotTests.Scenario) {
        let buffer = Self.italian { Fixture.render(ConsoleSnapshotTests.state(scenario, width: 80, height: 24)) }
        assertSnapshot(buffer, named: "it-80x24-\(scenario.rawValue)")
    }

    @Test("the authorise screen", arguments: AuthorizeSnapshotTests.Scenario.allCases)
    func authorize(_ scenario: AuthorizeSnapshotTests.Scenario) {
        let buffer = Self.italian { Fixture.render(AuthorizeSnapshotTests.state(scenario, width: 80, height: 24)) }
        assertSnapshot(buffer, named: "it-authorize-80x24-\(scenario.rawValue)")
    }

    @Test("the monitor", arguments: MonitorSnapshotTests.Scenario.allCases)
    func monitor(_ scenario: MonitorSnapshotTests.Scenario) {
        let buffer = Self.italian { Fixture.render(MonitorSnapshotTests.state(scenario, width: 80, height: 24)) }
        assertSnapshot(buffer, named: "it-monitor-80x24-\(scenario.rawValue)")
    }

    @Test("the HIS clients screen", arguments: HIS.allCases)
    func hisScreen(_ scenario: HIS) {
        let buffer = Self.italian { Fixture.render(Self.his(scenario)) }
        assertSnapshot(buffer, named: "it-his-80x24-\(scenario.rawValue)")
    }

    @Test("the frame speaks Italian: title, role, footer, help and palette")
    func frameWords() {
        Self.italian {
            var state = Fixture.app(width: 80, height: 24)
            let screen = Fixture.render(state).lines
            #expect(screen[0].contains("Autorizza un caricamento"))
            #expect(screen[0].contains("(operatore)"))
            #expect(screen[23].contains("Disconnetti"))
            #expect(screen.joined().contains("Data di inizio sintomi"))
            Fixture.type("9K2RAY8UUA", into: &state)
            #expect(Fixture.prose(state).contains("il carattere di controllo non corrisponde"))
            _ = Fixture.press(.char("?"), into: &state)
            #expect(Fixture.prose(state).contains("Aiuto: Autorizza un caricamento"))
            _ = Fixture.press(.escape, .ctrl("p"), into: &state)
            #expect(Fixture.prose(state).contains("scrivi un comando"))
        }
    }

    @Test("the guides' key tables are English whatever the language")
    func keyDocsStayEnglish() {
        let english = Language.$scoped.withValue(.en) { ConsoleApp.keysMarkdown(for: .operator) }
        #expect(Self.italian { ConsoleApp.keysMarkdown(for: .operator) } == english)
        #expect(Self.italian { ConsoleApp.conventionsMarkdown() } == ConsoleApp.conventionsMarkdown())
        #expect(english.contains("| Authorise: the form | `Enter` | Review |"))
    }
}

/// Italian's longer words hold at 80×24: no line wider than the screen, no word cut without an
/// ellipsis (the words known are those of the sources, the Italian catalogue included).
@Suite("Italian layouts hold")
struct ItalianLayoutTests {
    /// A word as ASCII shows it: Italian's grave accents become an apostrophe after the vowel
    /// ("attivita'"), so the word before the apostrophe is the whole word without its accent.
    static func fold(_ word: String) -> String {
        String(
            word.lowercased().map { character -> Character in
                switch character {
                case "à": "a"
                case "è": "e"
                case "ì": "i"
                case "ò": "o"
                case "ù": "u"
                default: character
                }
            })
    }

    static let folded = Set(NoCutWordTests.vocabulary.map(fold))

    static func check(_ make: () -> ConsoleApp.State, _ name: String, sourceLocation: SourceLocation = #_sourceLocation)
    {
        for ascii in [false, true] {
            let buffer = ItalianSnapshotTests.italian {
                var state = make()
                state.ascii = ascii
                state.trace.ascii = ascii
                state.dashboard.ascii = ascii
                return Fixture.render(state)
            }
            let wide = buffer.lines.filter { DisplayWidth.of($0) > 80 }
            #expect(wide.isEmpty, "\(name): lines wider than 80: \(wide)", sourceLocation: sourceLocation)
            // The HIS key shown once is no word.
            let cut = NoCutWordTests.cutWords(buffer).filter {
                !Self.folded.contains(Self.fold($0)) && !HISScreenTests.key.contains($0)
            }
            #expect(
                cut.isEmpty, "\(name)\(ascii ? " (ASCII)" : ""): cut words \(cut)\n\(buffer.text)",
                sourceLocation: sourceLocation)
        }
    }

    @Test("sign-in, first admin and lock", arguments: ItalianSnapshotTests.consoleScenarios)
    func console(_ scenario: ConsoleSnapshotTests.Scenario) {
        Self.check({ ConsoleSnapshotTests.state(scenario, width: 80, height: 24) }, scenario.rawValue)
    }

    @Test("the authorise screen and its dialogs", arguments: AuthorizeSnapshotTests.Scenario.allCases)
    func authorize(_ scenario: AuthorizeSnapshotTests.Scenario) {
        Self.check({ AuthorizeSnapshotTests.state(scenario, width: 80, height: 24) }, scenario.rawValue)
    }

    @Test("the monitor and its panes", arguments: MonitorSnapshotTests.Scenario.allCases)
    func monitor(_ scenario: MonitorSnapshotTests.Scenario) {
        Self.check({ MonitorSnapshotTests.state(scenario, width: 80, height: 24) }, scenario.rawValue)
    }

    @Test("the staff form with each role, in Italian", arguments: StaffRole.allCases)
    func staffForms(_ role: StaffRole) {
        Self.check(
            {
                var state = ConsoleSnapshotTests.adminWithData(width: 80, height: 24)
                _ = Fixture.press(.char("a"), into: &state)
                Fixture.type("neri", into: &state)
                _ = Fixture.press(.tab, into: &state)
                for _ in 0..<(2 * StaffRole.allCases.count) {
                    if Fixture.prose(state).contains("‹ \(ConsoleApp.roleName(role)) ›") { break }
                    _ = Fixture.press(.right, into: &state)
                }
                return state
            }, "add \(role.rawValue)")
    }

    @Test("the HIS clients screen, its form and dialogs", arguments: ItalianSnapshotTests.HIS.allCases)
    func his(_ scenario: ItalianSnapshotTests.HIS) {
        Self.check({ ItalianSnapshotTests.his(scenario) }, "his \(scenario.rawValue)")
    }
}
