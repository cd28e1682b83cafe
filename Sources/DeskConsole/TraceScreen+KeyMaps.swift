import DeskCore
import TerminalKit

extension TraceScreen {
    public enum Action: Hashable, Sendable {
        case move(TableCursor.Move)
        case cycleSort
        case sort(Sort)
        /// A digit: record this outcome for the selected contact at once, then go to the next
        /// contact that still needs a call.
        case record(ContactOutcome)
        case filter, clear, detail, outcome, export, newLookup, again, copy, quit
        /// `v`: the case view of the case this lookup opened (on the queue's page).
        case showCase
    }

    public enum InputAction: Hashable, Sendable { case submit, back, nextField }

    public enum DetailAction: Hashable, Sendable {
        case close, up, down, pageUp, pageDown, top, bottom, outcome, timeline, retry, quit
        /// A digit: as on the table; the detail closes onto the next contact to call.
        case record(ContactOutcome)
    }

    /// The outcomes by digit, in this fixed order: `1` not yet called … `5` wrong number
    /// (docs/tracer-guide.md, "The call loop"). The table's footer, its legend and help are
    /// made from the bindings below, never from this list directly.
    public static let outcomeByDigit: [ContactOutcome] = [
        .notYetCalled, .noAnswer, .reachedIsolating, .reachedRefused, .wrongNumber,
    ]

    /// The legend's word for an outcome: short enough that all five fit one 80-column line.
    static func shortWord(_ outcome: ContactOutcome) -> String {
        switch outcome {
        case .notYetCalled: return "not called"
        case .noAnswer: return "no answer"
        case .reachedIsolating: return "isolating"
        case .reachedRefused: return "refused"
        case .wrongNumber: return "wrong number"
        }
    }

    /// `1`…`5`, one binding each: help lists them one by one, the footer as one hint.
    static func outcomeBindings<A>(_ action: (ContactOutcome) -> A) -> [Binding<A>] {
        outcomeByDigit.enumerated().map { index, outcome in
            Binding(
                [.char(Character(String(index + 1)))], action(outcome),
                help: "Record “\(outcome.label)”, go to the next to call", shownInFooter: false,
                footer: shortWord(outcome))
        }
    }

    /// The digit legend, from a key map's outcome bindings: "1 not called  2 no answer  …".
    public static func outcomeLegend<A>(_ map: KeyMap<A>, outcome: (A) -> ContactOutcome?) -> String {
        map.bindings.filter { outcome($0.action) != nil }.map { "\($0.keysLabel) \($0.footerText)" }
            .joined(separator: "  ")
    }

    /// The footer's hints for a map with outcome digits: the digits as one hint ("1-5
    /// Outcome") after the first, then the map's other footer hints.
    static func hintsWithDigits<A>(_ map: KeyMap<A>, outcome: (A) -> ContactOutcome?) -> [(keys: String, help: String)]
    {
        let digits = map.bindings.filter { outcome($0.action) != nil }.compactMap { $0.keys.first?.description }
        var hints = map.bindings.filter(\.shownInFooter).map {
            (keys: $0.keys.first?.description ?? "", help: $0.footerText)
        }
        if let first = digits.first, let last = digits.last {
            hints.insert((keys: first + "-" + last, help: "Outcome"), at: min(1, hints.count))
        }
        return hints
    }

    /// The contacts table's footer hints.
    public static var tableHints: [(keys: String, help: String)] {
        hintsWithDigits(keyMap) { if case .record(let outcome) = $0 { return outcome } else { return nil } }
    }

    /// The detail view's footer hints.
    public static var detailHints: [(keys: String, help: String)] {
        hintsWithDigits(detailKeyMap) { if case .record(let outcome) = $0 { return outcome } else { return nil } }
    }

    /// The contacts table's digit legend (drawn on the table's lower border).
    static var tableLegend: String {
        outcomeLegend(keyMap) { if case .record(let outcome) = $0 { return outcome } else { return nil } }
    }

    public enum OutcomeAction: Hashable, Sendable { case previous, next, save, cancel }

    /// The contacts table's keys. Those in the footer come first, most useful first (the
    /// digits as one "1-5 Outcome" after Detail): at 80 columns the last of them (export,
    /// sort) give way to help, sign-out and quit.
    public static let keyMap = KeyMap<Action>(
        [
            Binding([.enter], .detail, help: "Detail: timeline and sightings", footer: "Detail", name: "detail"),
            Binding(
                [.char("v")], .showCase, help: "The case opened: its contacts, history, chain; close it there",
                shownInFooter: false, name: "case"),
            Binding(
                [.char("/")], .filter, help: "Filter (phone digits, outcome words, close, far)", footer: "Filter",
                name: "filter"),
            Binding(
                [.char("o")], .outcome, help: "Record the outcome with a note (a form)", footer: "Note", name: "outcome"
            ),
            Binding([.char("n")], .newLookup, help: "New lookup", footer: "New", name: "new"),
            Binding([.char("e")], .export, help: "Export the table as CSV", footer: "Export", name: "export"),
            Binding([.char("s")], .cycleSort, help: "Sort: minutes → last seen → days", footer: "Sort", name: "sort"),
        ] + outcomeBindings(Action.record) + [
            Binding([.char("m")], .sort(.minutes), help: "Sort by minutes", shownInFooter: false),
            Binding([.char("l")], .sort(.lastSeen), help: "Sort by last seen", shownInFooter: false),
            Binding([.char("d")], .sort(.days), help: "Sort by days", shownInFooter: false),
            Binding([.char("r")], .again, help: "Look the same patient up again", shownInFooter: false, name: "again"),
            Binding([.escape], .clear, help: "Clear the filter", shownInFooter: false, name: "back"),
            Binding(
                [.char("y")], .copy, help: "Copy the contact's phone number (audited)", shownInFooter: false,
                name: "copy"),
            Binding([.up, .char("k")], .move(.up), help: "Previous contact", shownInFooter: false),
            Binding([.down, .char("j")], .move(.down), help: "Next contact", shownInFooter: false),
            Binding([.pageUp], .move(.pageUp), help: "Page up", shownInFooter: false),
            Binding([.pageDown], .move(.pageDown), help: "Page down", shownInFooter: false),
            Binding([.home, .char("g")], .move(.top), help: "First contact", shownInFooter: false),
            Binding([.end, .char("G")], .move(.bottom), help: "Last contact", shownInFooter: false),
            Binding(
                [.char("q")], .quit, help: "Quit (not while an outcome is being saved)", shownInFooter: false,
                name: "quit"),
        ])

    /// The phone number's keys before any lookup: Esc clears the number.
    /// (Esc has no level to go back to here, so it does nothing: clearing has a key of its own.)
    public static let phoneKeyMap = KeyMap<InputAction>([
        Binding([.enter], .submit, help: "Next: the case reference", group: "form", footer: "Next"),
        Binding([.ctrl("u")], .back, help: "Clear the number", group: "form", footer: "Clear", name: "clear"),
    ])

    /// The phone number's keys after `n` over a shown lookup: Esc goes back to it.
    public static let phoneBackKeyMap = KeyMap<InputAction>([
        Binding([.enter], .submit, help: "Next: the case reference", group: "form", footer: "Next"),
        Binding([.escape], .back, help: "Back to the shown lookup", group: "form", footer: "Back", name: "back"),
    ])

    /// The case reference's and the index day's keys (the day takes the date keys, and Space
    /// switches symptom onset / test day).
    public static let purposeKeyMap = KeyMap<InputAction>([
        Binding(
            [.enter], .submit, help: "Open the case (or go to the patient's open one)", group: "form",
            footer: "Open case"),
        Binding([.escape], .back, help: "Back to the number", group: "form", footer: "Back", name: "back"),
        Binding(
            [.tab], .nextField, help: "The reference / the index day", group: "form", footer: "Index day",
            name: "next-field"),
        Binding(
            [.backTab], .nextField, help: "The reference / the index day", group: "form", shownInFooter: false,
            name: "previous-field"),
    ])

    /// The export's file name.
    public static let exportKeyMap = KeyMap<InputAction>([
        Binding([.enter], .submit, help: "Write the file", group: "form", footer: "Write"),
        Binding([.escape], .back, help: "Cancel the export", group: "form", footer: "Cancel", name: "back"),
    ])

    /// While the lookup runs only quitting works (Ctrl-C and sign-out are global).
    public static let loadingKeyMap = KeyMap<Action>([
        Binding([.char("q")], .quit, help: "Quit", shownInFooter: false, name: "quit")
    ])

    /// The keys of the text field in use: the number, the purpose or the export's file.
    public static func inputKeyMap(_ state: State) -> KeyMap<InputAction> {
        if state.export != nil { return exportKeyMap }
        switch state.phase {
        case .purpose: return purposeKeyMap
        case .phone where state.lookup != nil: return phoneBackKeyMap
        default: return phoneKeyMap
        }
    }

    /// The detail view's keys.
    public static let detailKeyMap = KeyMap<DetailAction>(
        [
            Binding([.escape, .enter], .close, help: "Back to the table", footer: "Back", name: "back"),
            Binding(
                [.char("o")], .outcome, help: "Record the outcome with a note (a form)", footer: "Note", name: "outcome"
            ),
            Binding(
                [.char("t")], .timeline, help: "Whole timeline / timeline and sightings", footer: "Timeline",
                name: "timeline"),
        ] + outcomeBindings(DetailAction.record) + [
            Binding(
                [.up, .char("k")], .up, help: "Earlier sighting (newer day in the whole timeline)", shownInFooter: false
            ),
            Binding(
                [.down, .char("j")], .down, help: "Later sighting (older day in the whole timeline)",
                shownInFooter: false),
            Binding([.pageUp], .pageUp, help: "Page up", shownInFooter: false),
            Binding([.pageDown], .pageDown, help: "Page down (reads more as you go)", shownInFooter: false),
            Binding([.home, .char("g")], .top, help: "First sighting", shownInFooter: false),
            Binding(
                [.end, .char("G")], .bottom, help: "Last sighting read (the last screenful)", shownInFooter: false),
            Binding([.char("r")], .retry, help: "Read the sightings again after a failure", shownInFooter: false),
            Binding(
                [.char("q")], .quit, help: "Quit (not while an outcome is being saved)", shownInFooter: false,
                name: "quit"),
        ])

    /// The outcome form's keys (typed characters go to the note).
    public static let outcomeKeyMap = KeyMap<OutcomeAction>([
        Binding([.enter], .save, help: "Save", group: "outcome", name: "save"),
        Binding([.escape], .cancel, help: "Cancel", group: "outcome", name: "back"),
        Binding([.up], .previous, help: "Previous outcome", group: "outcome"),
        Binding([.down], .next, help: "Next outcome", group: "outcome"),
    ])
}
