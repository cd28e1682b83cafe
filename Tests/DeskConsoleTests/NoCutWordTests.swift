import DeskConsole
import DeskCore
import Foundation
import TerminalKit
import Testing

/// No word on screen is cut without showing it (issue 20, defects 1 and 5): every screen,
/// dialog and form of the snapshot suites, at 80×24 and in ASCII, is read word by word, and
/// each word must be one the console's sources or fixtures spell out whole, unless an ellipsis
/// follows it. A word touching a border is left out: that is a screen showing under a dialog,
/// which hides it as it should.
@Suite("No cut word")
struct NoCutWordTests {
    /// Every run of letters in the sources and these tests, lowercased: the words a screen can show.
    static let vocabulary: Set<String> = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var words = Set<String>()
        for folder in ["Sources", "Tests/DeskConsoleTests"] {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let file as URL in files where file.pathExtension == "swift" {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                for run in text.lowercased().split(whereSeparator: { !$0.isLetter }) { words.insert(String(run)) }
            }
        }
        // Days and months as the date formatter spells them ("Sun 29 Nov").
        let calendar = Calendar(identifier: .gregorian)
        for name in calendar.shortWeekdaySymbols + calendar.weekdaySymbols + calendar.shortMonthSymbols {
            words.insert(name.lowercased())
        }
        return words
    }()

    /// Words on screen that are cut without an ellipsis: not known whole, not followed by `…`
    /// or `...`, not touching a border.
    static func cutWords(_ buffer: Buffer) -> [String] {
        let borders: Set<Character> = ["│", "┌", "┐", "└", "┘", "─", "╭", "╮", "╯", "╰", "|", "+", "-"]
        var cut: [String] = []
        for line in buffer.lines {
            let characters = Array(line)
            var index = 0
            while index < characters.count {
                guard characters[index].isLetter else {
                    index += 1
                    continue
                }
                let start = index
                while index < characters.count, characters[index].isLetter { index += 1 }
                let before = start > 0 ? characters[start - 1] : " "
                let after = index < characters.count ? characters[index] : " "
                let word = String(characters[start..<index])
                // Cut and marked: "numb…", or a path kept by its end, "…desk/tracedesk.sqlite".
                let marked =
                    after == "…" || before == "…" || characters.dropFirst(index).prefix(3).elementsEqual("...")
                    || characters[..<start].suffix(3).elementsEqual("...")
                if before.isNumber || after.isNumber || marked { continue }
                if borders.contains(before) && before != "-" || borders.contains(after) && after != "-" { continue }
                if !vocabulary.contains(word.lowercased()) { cut.append(word) }
            }
        }
        return cut
    }

    static func check(_ state: ConsoleApp.State, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for ascii in [false, true] {
            var state = state
            state.ascii = ascii
            state.trace.ascii = ascii
            state.dashboard.ascii = ascii
            let buffer = Fixture.render(state)
            let cut = cutWords(buffer)
            #expect(
                cut.isEmpty, "\(name)\(ascii ? " (ASCII)" : ""): cut words \(cut)\n\(buffer.text)",
                sourceLocation: sourceLocation)
        }
    }

    @Test("console screens and dialogs", arguments: ConsoleSnapshotTests.Scenario.allCases)
    func console(_ scenario: ConsoleSnapshotTests.Scenario) {
        Self.check(ConsoleSnapshotTests.state(scenario, width: 80, height: 24), scenario.rawValue)
    }

    @Test("authorise screen and dialogs", arguments: AuthorizeSnapshotTests.Scenario.allCases)
    func authorize(_ scenario: AuthorizeSnapshotTests.Scenario) {
        Self.check(AuthorizeSnapshotTests.state(scenario, width: 80, height: 24), scenario.rawValue)
    }

    @Test("monitor screen and dialogs", arguments: MonitorSnapshotTests.Scenario.allCases)
    func monitor(_ scenario: MonitorSnapshotTests.Scenario) {
        Self.check(MonitorSnapshotTests.state(scenario, width: 80, height: 24), scenario.rawValue)
    }

    @Test("contact-trace screen and dialogs", arguments: TraceSnapshotTests.Scenario.allCases)
    func trace(_ scenario: TraceSnapshotTests.Scenario) {
        Self.check(TraceSnapshotTests.state(scenario, width: 80, height: 24), scenario.rawValue)
    }

    @Test("dashboard screen and dialogs", arguments: DashboardSnapshotTests.Scenario.allCases)
    func dashboard(_ scenario: DashboardSnapshotTests.Scenario) {
        Self.check(DashboardSnapshotTests.state(scenario, width: 80, height: 24), scenario.rawValue)
    }

    @Test("the staff form's role descriptions and the new-password form", arguments: StaffRole.allCases)
    func staffForms(_ role: StaffRole) {
        var state = ConsoleSnapshotTests.adminWithData(width: 80, height: 24)
        _ = Fixture.press(.char("a"), into: &state)
        Fixture.type("neri", into: &state)
        _ = Fixture.press(.tab, into: &state)
        for _ in 0..<(StaffRole.allCases.firstIndex(of: role) ?? 0) + StaffRole.allCases.count {
            if Fixture.prose(state).contains("‹ \(role.rawValue) ›") { break }
            _ = Fixture.press(.right, into: &state)
        }
        Self.check(state, "add \(role.rawValue)")
        var reset = ConsoleSnapshotTests.adminWithData(width: 80, height: 24)
        _ = Fixture.press(.down, .char("p"), into: &reset)
        Self.check(reset, "reset password")
    }

    @Test("the first admin's name rule")
    func firstAdminNameRule() {
        var state = Fixture.signedOut()
        _ = ConsoleApp.update(&state, .accountsChecked(needsFirstAdmin: true))
        Fixture.type("9 Bad Name!", into: &state)
        Self.check(state, "first admin, bad name")
        _ = ConsoleApp.update(&state, .accountsChecked(needsFirstAdmin: true, setupToken: true))
        Self.check(state, "first admin, with the setup token")
    }

    @Test("the tracer's lookup when the server is down")
    func traceServerDown() {
        var state = TraceFixture.app(width: 80, height: 24)
        Fixture.type("+39 333 123 4567", into: &state)
        _ = Fixture.press(.enter, into: &state)
        Fixture.type("case 2026-1234", into: &state)
        _ = Fixture.press(.enter, into: &state)
        _ = ConsoleApp.update(
            &state,
            .trace(
                .lookupFailed(
                    "the server at https://desk.example.org cannot be reached: check the network, or ask whoever runs it"
                )))
        Self.check(state, "trace, server down")
    }
}
