import CivilCalendar
import DeskContract
import DeskCore
import DeskText
import Foundation
import TerminalKit
import Testing

@testable import DeskConsole

/// The tracer's screens in Italian (issue 22, point 1): the lookup form, the contacts table and
/// a contact's detail, the call queue, the person view and the case view at 80×24, as
/// snapshots beside the English ones; every scenario of their snapshot suites read for lines
/// wider than the screen and words cut without an ellipsis; and the call loop's digits
/// recording the same outcomes whatever the language.
///
/// Each state is built and drawn inside `Language.$scoped.withValue(.it)`: the notices are
/// written when a key is handled, the rest when the screen is drawn.
@Suite("The tracer's screens in Italian")
struct ItalianTracingTests {
    static func italian<T>(_ body: () -> T) -> T { Language.$scoped.withValue(.it) { body() } }

    /// The trace scenarios recorded in Italian: the form, the table, the detail and the dialogs.
    static let traceScenarios: [TraceSnapshotTests.Scenario] = [
        .empty, .phoneError, .purpose, .purposeError, .table, .filtered, .detail, .wholeTimeline, .outcome,
        .export, .noUploads, .callLoop, .callLoopDone, .callLoopFailed, .asciiTable,
    ]
    static let queueScenarios: [QueueSnapshotTests.Scenario] = [
        .empty, .rows, .recording, .detail, .outcome, .check, .failed, .demo, .supervisor, .picker,
    ]
    static let caseScenarios: [CaseSnapshotTests.Scenario] = [.loading, .open, .chain, .closeForm, .confirm, .failed]

    @Test("trace screen, 80×24, in Italian", arguments: traceScenarios)
    func trace(_ scenario: TraceSnapshotTests.Scenario) {
        let buffer = Self.italian { Fixture.render(TraceSnapshotTests.state(scenario, width: 80, height: 24)) }
        assertSnapshot(buffer, named: "it-trace-80x24-\(scenario.rawValue)")
    }

    @Test("call queue and person view, 80×24, in Italian", arguments: queueScenarios)
    func queue(_ scenario: QueueSnapshotTests.Scenario) {
        let buffer = Self.italian { Fixture.render(QueueSnapshotTests.state(scenario, width: 80, height: 24)) }
        assertSnapshot(buffer, named: "it-queue-80x24-\(scenario.rawValue)")
    }

    @Test("case view, 80×24, in Italian", arguments: caseScenarios)
    func caseView(_ scenario: CaseSnapshotTests.Scenario) {
        let buffer = Self.italian { Fixture.render(CaseSnapshotTests.state(scenario, width: 80, height: 24)) }
        assertSnapshot(buffer, named: "it-case-80x24-\(scenario.rawValue)")
    }

    /// Lines wider than the screen (measured in columns, never characters) and cut words.
    static func problems(_ state: ConsoleApp.State) -> [String] {
        var found: [String] = []
        for ascii in [false, true] {
            var state = state
            state.ascii = ascii
            state.trace.ascii = ascii
            state.queue.ascii = ascii
            let buffer = Self.italian { Fixture.render(state) }
            for (index, line) in buffer.lines.enumerated() where DisplayWidth.of(line) > 80 {
                found.append("line \(index + 1) is \(DisplayWidth.of(line)) columns\(ascii ? " (ASCII)" : "")")
            }
            // In ASCII an accented letter is drawn as the letter and an apostrophe (TerminalKit's
            // Glyphs: "perché" is "perche'"), or `?` for one it cannot spell: that is not a cut word.
            let lines = buffer.lines
            let cut = NoCutWordTests.cutWords(buffer).filter { word in
                !ascii
                    || !lines.contains { $0.contains(word + "?") || $0.contains("?" + word) || $0.contains(word + "'") }
            }
            if !cut.isEmpty { found.append("cut words \(cut)\(ascii ? " (ASCII)" : ""):\n\(buffer.text)") }
        }
        return found
    }

    @Test(
        "every trace scenario fits 80×24 in Italian: no line too wide, no word cut",
        arguments: TraceSnapshotTests.Scenario.allCases)
    func traceFits(_ scenario: TraceSnapshotTests.Scenario) {
        let state = Self.italian { TraceSnapshotTests.state(scenario, width: 80, height: 24) }
        let problems = Self.problems(state)
        #expect(problems.isEmpty, "\(scenario.rawValue): \(problems.joined(separator: "\n"))")
    }

    @Test("every queue and person scenario fits 80×24 in Italian", arguments: QueueSnapshotTests.Scenario.allCases)
    func queueFits(_ scenario: QueueSnapshotTests.Scenario) {
        let state = Self.italian { QueueSnapshotTests.state(scenario, width: 80, height: 24) }
        let problems = Self.problems(state)
        #expect(problems.isEmpty, "\(scenario.rawValue): \(problems.joined(separator: "\n"))")
    }

    @Test("every case scenario fits 80×24 in Italian", arguments: CaseSnapshotTests.Scenario.allCases)
    func caseFits(_ scenario: CaseSnapshotTests.Scenario) {
        let state = Self.italian { CaseSnapshotTests.state(scenario, width: 80, height: 24) }
        let problems = Self.problems(state)
        #expect(problems.isEmpty, "\(scenario.rawValue): \(problems.joined(separator: "\n"))")
    }

    @Test("the contacts table speaks Italian: its title, columns, outcomes and the digits' legend")
    func tableWords() {
        let text = Self.italian { Fixture.render(TraceFixture.looked(width: 80, height: 24)).text }
        for words in [
            "Contatti (4) · ordinati per minuti", "Telefono", "Esito", "da chiamare", "raggiunto, in isolamento",
            "1 da chiamare  2 non risponde  3 in isolamento  4 rifiuta  5 numero errato",
        ] {
            #expect(text.contains(words), "missing “\(words)”:\n\(text)")
        }
        for english in ["Contacts (", "Outcome", "not yet called", "sorted by"] {
            #expect(!text.contains(english), "English “\(english)” on the Italian screen:\n\(text)")
        }
    }

    @Test("the queue speaks Italian: its title, columns, due times and the digits' legend")
    func queueWords() {
        let text = Self.italian { Fixture.render(QueueFixture.app(width: 80, height: 24)).text }
        for words in ["Le tue chiamate", "Scadenza", "Ultimo esito", "1 non risponde  2 segreteria"] {
            #expect(text.contains(words), "missing “\(words)”:\n\(text)")
        }
        for english in ["Your calls", "overdue", "due now", "no answer"] {
            #expect(!text.contains(english), "English “\(english)” on the Italian screen:\n\(text)")
        }
    }

    @Test("counts agree in number in Italian: 1 contatto, 2 contatti; 1 non risolto, 2 non risolti")
    func countsAgree() {
        Self.italian {
            #expect(trCount("console.trace.counts.contacts", 1) == "1 contatto")
            #expect(trCount("console.trace.counts.contacts", 2) == "2 contatti")
            #expect(trCount("console.trace.counts.unresolved", 1) == "1 non risolto")
            #expect(trCount("console.trace.counts.unresolved", 0) == "0 non risolti")
            #expect(trCount("console.queue.title.marked", 1) == "1 segnato")
            #expect(trCount("console.case.active", 3) == "3 attivi")
        }
    }

    @Test("every outcome, state, index day and close reason has its words in both languages")
    func everyValueHasWords() {
        for language in Language.allCases {
            Language.$scoped.withValue(language) {
                var shown: [String] = []
                shown += ContactOutcome.allCases.map(TracingWords.outcome)
                shown += ContactOutcome.allCases.map(TraceScreen.shortWord)
                shown += CallOutcome.allCases.map(TracingWords.call)
                shown += FollowUpState.allCases.map(TracingWords.state)
                shown += IndexDayKind.allCases.map(TracingWords.indexKind)
                shown += CaseCloseReason.allCases.map(TracingWords.closeReason)
                shown += CallOutcome.allCases.map { outcome in
                    TracingWords.demoHint(
                        followUpID: [1, 3, 6, 7, 9][CallOutcome.allCases.firstIndex(of: outcome)!], attempt: 1)
                }
                for text in shown {
                    #expect(text != tr("common.missing") && !text.hasPrefix("console."), "\(language): \(text)")
                }
            }
        }
        // English keeps the core's own words, which the command line prints.
        Language.$scoped.withValue(.en) {
            #expect(ContactOutcome.allCases.map(TracingWords.outcome) == ContactOutcome.allCases.map(\.label))
            #expect(CallOutcome.allCases.map(TracingWords.call) == CallOutcome.allCases.map(\.label))
            #expect(FollowUpState.allCases.map(TracingWords.state) == FollowUpState.allCases.map(\.label))
            #expect(IndexDayKind.allCases.map(TracingWords.indexKind) == IndexDayKind.allCases.map(\.label))
            #expect(CaseCloseReason.allCases.map(TracingWords.closeReason) == CaseCloseReason.allCases.map(\.label))
            for id in Int64(0)..<10 {
                #expect(
                    TracingWords.demoHint(followUpID: id, attempt: 1)
                        == DemoContactAnswer.hint(followUpID: id, attempt: 1))
            }
        }
    }

    @Test("the trace screen's digits record the same outcomes in Italian as in English")
    func traceDigits() {
        let expected: [ContactOutcome] = [.notYetCalled, .noAnswer, .reachedIsolating, .reachedRefused, .wrongNumber]
        for language in Language.allCases {
            Language.$scoped.withValue(language) {
                for (index, outcome) in expected.enumerated() {
                    let key = Key.char(Character(String(index + 1)))
                    #expect(TraceScreen.keyMap.action(for: key) == .record(outcome))
                    #expect(TraceScreen.detailKeyMap.action(for: key) == .record(outcome))
                    // Pressed on the first row (contact 11) of a fresh lookup: the desk is sent the outcome.
                    var state = TraceFixture.looked()
                    let sent = Fixture.press(key, into: &state)
                    #expect(
                        sent == [
                            .trace(
                                .recordOutcome(
                                    patientUserID: 7, contactUserID: 11, outcome: outcome, note: "",
                                    purpose: TraceFixture.purpose))
                        ], "\(language) \(index + 1)")
                }
            }
        }
    }

    @Test("the queue's digits record the same call outcomes in Italian as in English")
    func queueDigits() {
        for language in Language.allCases {
            Language.$scoped.withValue(language) {
                for outcome in CallOutcome.allCases {
                    let key = Key.char(Character(String(outcome.digit)))
                    #expect(QueueScreen.keyMap.action(for: key) == .record(outcome))
                    #expect(QueueScreen.detailKeyMap.action(for: key) == .record(outcome))
                    var state = QueueFixture.app(width: 80, height: 24)
                    let first = state.queue.rows[0].id
                    let sent = Fixture.press(key, into: &state)
                    #expect(
                        sent == [.queue(.attempt(followUpID: first, outcome: outcome, note: ""))],
                        "\(language) \(outcome.digit)")
                }
            }
        }
    }

    @Test("a filter typed in Italian finds the rows the English words find")
    func italianFilter() {
        Self.italian {
            var state = TraceFixture.looked()
            _ = Fixture.press(.char("/"), into: &state)
            Fixture.type("isolamento", into: &state)
            let italian = state.trace.order
            var english = TraceFixture.looked()
            _ = Fixture.press(.char("/"), into: &english)
            Fixture.type("isolating", into: &english)
            #expect(!italian.isEmpty)
            #expect(italian == english.trace.order)
        }
    }
}
