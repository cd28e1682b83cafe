import TerminalKit

extension TraceScreen {
    public enum Action: Hashable, Sendable {
        case move(TableCursor.Move)
        case cycleSort
        case sort(Sort)
        case filter, clear, detail, outcome, export, newLookup, again, copy, quit
    }

    public enum InputAction: Hashable, Sendable { case submit, back }

    public enum DetailAction: Hashable, Sendable {
        case close, up, down, pageUp, pageDown, top, bottom, outcome, timeline, retry, quit
    }

    public enum OutcomeAction: Hashable, Sendable { case previous, next, save, cancel }

    /// The contacts table's keys. Those in the footer come first, most useful first: at 80
    /// columns the last of them (sort) gives way to help, sign-out and quit.
    public static let keyMap = KeyMap<Action>([
        Binding([.enter], .detail, help: "Detail: timeline and sightings", footer: "Detail"),
        Binding([.char("/")], .filter, help: "Filter (phone digits, outcome words, close, far)", footer: "Filter"),
        Binding([.char("o")], .outcome, help: "Record the call's outcome", footer: "Outcome"),
        Binding([.char("e")], .export, help: "Export the table as CSV", footer: "Export"),
        Binding([.char("n")], .newLookup, help: "New lookup", footer: "New"),
        Binding([.char("s")], .cycleSort, help: "Sort: minutes → last seen → days", footer: "Sort"),
        Binding([.char("m")], .sort(.minutes), help: "Sort by minutes", shownInFooter: false),
        Binding([.char("l")], .sort(.lastSeen), help: "Sort by last seen", shownInFooter: false),
        Binding([.char("d")], .sort(.days), help: "Sort by days", shownInFooter: false),
        Binding([.char("r")], .again, help: "Look the same patient up again", shownInFooter: false),
        Binding([.char("y")], .copy, help: "Copy the contact's phone number (audited)", shownInFooter: false),
        Binding([.escape], .clear, help: "Clear the filter", shownInFooter: false),
        Binding([.up, .char("k")], .move(.up), help: "Previous contact", shownInFooter: false),
        Binding([.down, .char("j")], .move(.down), help: "Next contact", shownInFooter: false),
        Binding([.pageUp], .move(.pageUp), help: "Page up", shownInFooter: false),
        Binding([.pageDown], .move(.pageDown), help: "Page down", shownInFooter: false),
        Binding([.home, .char("g")], .move(.top), help: "First contact", shownInFooter: false),
        Binding([.end, .char("G")], .move(.bottom), help: "Last contact", shownInFooter: false),
        Binding([.char("q")], .quit, help: "Quit", shownInFooter: false),
    ])

    /// The phone number's keys before any lookup: Esc clears the number.
    public static let phoneKeyMap = KeyMap<InputAction>([
        Binding([.enter], .submit, help: "Next: the purpose", group: "form", footer: "Next"),
        Binding([.escape], .back, help: "Clear the number", group: "form", footer: "Clear"),
    ])

    /// The phone number's keys after `n` over a shown lookup: Esc goes back to it.
    public static let phoneBackKeyMap = KeyMap<InputAction>([
        Binding([.enter], .submit, help: "Next: the purpose", group: "form", footer: "Next"),
        Binding([.escape], .back, help: "Back to the shown lookup", group: "form", footer: "Back"),
    ])

    /// The purpose's keys.
    public static let purposeKeyMap = KeyMap<InputAction>([
        Binding([.enter], .submit, help: "Look the patient up", group: "form", footer: "Look up"),
        Binding([.escape], .back, help: "Back to the number", group: "form", footer: "Back"),
    ])

    /// The export's file name.
    public static let exportKeyMap = KeyMap<InputAction>([
        Binding([.enter], .submit, help: "Write the file", group: "form", footer: "Write"),
        Binding([.escape], .back, help: "Cancel the export", group: "form", footer: "Cancel"),
    ])

    /// While the lookup runs only quitting works (Ctrl-C and sign-out are global).
    public static let loadingKeyMap = KeyMap<Action>([
        Binding([.char("q")], .quit, help: "Quit", shownInFooter: false)
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
    public static let detailKeyMap = KeyMap<DetailAction>([
        Binding([.escape, .enter], .close, help: "Back to the table", footer: "Back"),
        Binding([.char("o")], .outcome, help: "Record the call's outcome", footer: "Outcome"),
        Binding([.char("t")], .timeline, help: "Whole timeline / timeline and sightings", footer: "Timeline"),
        Binding(
            [.up, .char("k")], .up, help: "Earlier sighting (newer day in the whole timeline)", shownInFooter: false),
        Binding(
            [.down, .char("j")], .down, help: "Later sighting (older day in the whole timeline)", shownInFooter: false),
        Binding([.pageUp], .pageUp, help: "Page up", shownInFooter: false),
        Binding([.pageDown], .pageDown, help: "Page down (reads more as you go)", shownInFooter: false),
        Binding([.home, .char("g")], .top, help: "First sighting", shownInFooter: false),
        Binding([.end, .char("G")], .bottom, help: "Last sighting read (the last screenful)", shownInFooter: false),
        Binding([.char("r")], .retry, help: "Read the sightings again after a failure", shownInFooter: false),
        Binding([.char("q")], .quit, help: "Quit", shownInFooter: false),
    ])

    /// The outcome form's keys (typed characters go to the note).
    public static let outcomeKeyMap = KeyMap<OutcomeAction>([
        Binding([.enter], .save, help: "Save", group: "outcome"),
        Binding([.escape], .cancel, help: "Cancel", group: "outcome"),
        Binding([.up], .previous, help: "Previous outcome", group: "outcome"),
        Binding([.down], .next, help: "Next outcome", group: "outcome"),
    ])
}
