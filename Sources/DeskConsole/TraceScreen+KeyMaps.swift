import DeskCore
import DeskText
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
        tr("console.trace.short.\(outcome.rawValue)")
    }

    /// `1`…`5`, one binding each: help lists them one by one, the footer as one hint.
    static func outcomeBindings<A>(_ action: (ContactOutcome) -> A) -> [Binding<A>] {
        outcomeByDigit.enumerated().map { index, outcome in
            Binding(
                [.char(Character(String(index + 1)))], action(outcome),
                help: tr("console.trace.key.record", ["outcome": TracingWords.outcome(outcome)]), shownInFooter: false,
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
            hints.insert((keys: first + "-" + last, help: tr("console.trace.key.outcome")), at: min(1, hints.count))
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
    public static var keyMap: KeyMap<Action> {
        KeyMap<Action>(
            [
                Binding(
                    [.enter], .detail, help: tr("console.trace.key.detailTimelineAndSightings"),
                    footer: tr("console.trace.key.detail"), name: "detail"),
                Binding(
                    [.char("v")], .showCase, help: tr("console.trace.key.theCaseOpenedItsContacts"),
                    shownInFooter: false, name: "case"),
                Binding(
                    [.char("/")], .filter, help: tr("console.trace.key.filterPhoneDigitsOutcomeWords"),
                    footer: tr("console.trace.key.filter"),
                    name: "filter"),
                Binding(
                    [.char("o")], .outcome, help: tr("console.trace.key.recordTheOutcomeWithA"),
                    footer: tr("console.trace.key.note"), name: "outcome"
                ),
                Binding(
                    [.char("n")], .newLookup, help: tr("console.trace.key.newLookup"),
                    footer: tr("console.trace.key.new"), name: "new"),
                Binding(
                    [.char("e")], .export, help: tr("console.trace.key.exportTheTableAsCsv"),
                    footer: tr("console.trace.key.export"), name: "export"),
                Binding(
                    [.char("s")], .cycleSort, help: tr("console.trace.key.sortMinutesLastSeenDays"),
                    footer: tr("console.trace.key.sort"), name: "sort"),
            ] + outcomeBindings(Action.record) + [
                Binding(
                    [.char("m")], .sort(.minutes), help: tr("console.trace.key.sortByMinutes"), shownInFooter: false),
                Binding(
                    [.char("l")], .sort(.lastSeen), help: tr("console.trace.key.sortByLastSeen"), shownInFooter: false),
                Binding([.char("d")], .sort(.days), help: tr("console.trace.key.sortByDays"), shownInFooter: false),
                Binding(
                    [.char("r")], .again, help: tr("console.trace.key.lookTheSamePatientUp"), shownInFooter: false,
                    name: "again"),
                Binding(
                    [.escape], .clear, help: tr("console.trace.key.clearTheFilter"), shownInFooter: false, name: "back"),
                Binding(
                    [.char("y")], .copy, help: tr("console.trace.key.copyTheContactSPhone"), shownInFooter: false,
                    name: "copy"),
                Binding(
                    [.up, .char("k")], .move(.up), help: tr("console.trace.key.previousContact"), shownInFooter: false),
                Binding(
                    [.down, .char("j")], .move(.down), help: tr("console.trace.key.nextContact"), shownInFooter: false),
                Binding([.pageUp], .move(.pageUp), help: tr("console.trace.key.pageUp"), shownInFooter: false),
                Binding([.pageDown], .move(.pageDown), help: tr("console.trace.key.pageDown"), shownInFooter: false),
                Binding(
                    [.home, .char("g")], .move(.top), help: tr("console.trace.key.firstContact"), shownInFooter: false),
                Binding(
                    [.end, .char("G")], .move(.bottom), help: tr("console.trace.key.lastContact"), shownInFooter: false),
                Binding(
                    [.char("q")], .quit, help: tr("console.trace.key.quitNotWhileAnOutcome"), shownInFooter: false,
                    name: "quit"),
            ])
    }

    /// The phone number's keys before any lookup: Esc clears the number.
    /// (Esc has no level to go back to here, so it does nothing: clearing has a key of its own.)
    public static var phoneKeyMap: KeyMap<InputAction> {
        KeyMap<InputAction>([
            Binding(
                [.enter], .submit, help: tr("console.trace.key.nextTheCaseReference"), group: "form",
                footer: tr("console.trace.key.next")),
            Binding(
                [.ctrl("u")], .back, help: tr("console.trace.key.clearTheNumber"), group: "form",
                footer: tr("console.trace.key.clear"), name: "clear"),
        ])
    }

    /// The phone number's keys after `n` over a shown lookup: Esc goes back to it.
    public static var phoneBackKeyMap: KeyMap<InputAction> {
        KeyMap<InputAction>([
            Binding(
                [.enter], .submit, help: tr("console.trace.key.nextTheCaseReference"), group: "form",
                footer: tr("console.trace.key.next")),
            Binding(
                [.escape], .back, help: tr("console.trace.key.backToTheShownLookup"), group: "form",
                footer: tr("console.trace.key.back"), name: "back"),
        ])
    }

    /// The case reference's and the index day's keys (the day takes the date keys, and Space
    /// switches symptom onset / test day).
    public static var purposeKeyMap: KeyMap<InputAction> {
        KeyMap<InputAction>([
            Binding(
                [.enter], .submit, help: tr("console.trace.key.openTheCaseOrGo"), group: "form",
                footer: tr("console.trace.key.openCase")),
            Binding(
                [.escape], .back, help: tr("console.trace.key.backToTheNumber"), group: "form",
                footer: tr("console.trace.key.back"), name: "back"),
            Binding(
                [.tab], .nextField, help: tr("console.trace.key.theReferenceTheIndexDay"), group: "form",
                footer: tr("console.trace.key.indexDay"),
                name: "next-field"),
            Binding(
                [.backTab], .nextField, help: tr("console.trace.key.theReferenceTheIndexDay"), group: "form",
                shownInFooter: false,
                name: "previous-field"),
        ])
    }

    /// The export's file name.
    public static var exportKeyMap: KeyMap<InputAction> {
        KeyMap<InputAction>([
            Binding(
                [.enter], .submit, help: tr("console.trace.key.writeTheFile"), group: "form",
                footer: tr("console.trace.key.write")),
            Binding(
                [.escape], .back, help: tr("console.trace.key.cancelTheExport"), group: "form",
                footer: tr("console.trace.key.cancel"), name: "back"),
        ])
    }

    /// While the lookup runs only quitting works (Ctrl-C and sign-out are global).
    public static var loadingKeyMap: KeyMap<Action> {
        KeyMap<Action>([
            Binding([.char("q")], .quit, help: tr("console.trace.key.quit"), shownInFooter: false, name: "quit")
        ])
    }

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
    public static var detailKeyMap: KeyMap<DetailAction> {
        KeyMap<DetailAction>(
            [
                Binding(
                    [.escape, .enter], .close, help: tr("console.trace.key.backToTheTable"),
                    footer: tr("console.trace.key.back"), name: "back"),
                Binding(
                    [.char("o")], .outcome, help: tr("console.trace.key.recordTheOutcomeWithA"),
                    footer: tr("console.trace.key.note"), name: "outcome"
                ),
                Binding(
                    [.char("t")], .timeline, help: tr("console.trace.key.wholeTimelineTimelineAndSightings"),
                    footer: tr("console.trace.key.timeline"),
                    name: "timeline"),
            ] + outcomeBindings(DetailAction.record) + [
                Binding(
                    [.up, .char("k")], .up, help: tr("console.trace.key.earlierSightingNewerDayIn"),
                    shownInFooter: false
                ),
                Binding(
                    [.down, .char("j")], .down, help: tr("console.trace.key.laterSightingOlderDayIn"),
                    shownInFooter: false),
                Binding([.pageUp], .pageUp, help: tr("console.trace.key.pageUp"), shownInFooter: false),
                Binding(
                    [.pageDown], .pageDown, help: tr("console.trace.key.pageDownReadsMoreAs"), shownInFooter: false),
                Binding([.home, .char("g")], .top, help: tr("console.trace.key.firstSighting"), shownInFooter: false),
                Binding(
                    [.end, .char("G")], .bottom, help: tr("console.trace.key.lastSightingReadTheLast"),
                    shownInFooter: false),
                Binding(
                    [.char("r")], .retry, help: tr("console.trace.key.readTheSightingsAgainAfter"), shownInFooter: false
                ),
                Binding(
                    [.char("q")], .quit, help: tr("console.trace.key.quitNotWhileAnOutcome"), shownInFooter: false,
                    name: "quit"),
            ])
    }

    /// The outcome form's keys (typed characters go to the note).
    public static var outcomeKeyMap: KeyMap<OutcomeAction> {
        KeyMap<OutcomeAction>([
            Binding([.enter], .save, help: tr("console.trace.key.save"), group: "outcome", name: "save"),
            Binding([.escape], .cancel, help: tr("console.trace.key.cancel"), group: "outcome", name: "back"),
            Binding([.up], .previous, help: tr("console.trace.key.previousOutcome"), group: "outcome"),
            Binding([.down], .next, help: tr("console.trace.key.nextOutcome"), group: "outcome"),
        ])
    }
}
