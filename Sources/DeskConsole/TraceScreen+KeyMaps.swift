import TerminalKit

extension TraceScreen {
    public enum Action: Hashable, Sendable {
        case up, down, pageUp, pageDown, top, bottom
        case cycleSort
        case sort(Sort)
        case filter, clear, detail, outcome, export, newLookup, again, quit
    }

    public enum InputAction: Hashable, Sendable { case submit, back }

    public enum DetailAction: Hashable, Sendable {
        case close, up, down, pageUp, pageDown, top, bottom, outcome, timeline, retry, quit
    }

    public enum OutcomeAction: Hashable, Sendable { case previous, next, save, cancel }

    /// The contacts table's keys.
    public static let keyMap = KeyMap<Action>([
        Binding([.enter], .detail, help: "Detail: timeline and sightings"),
        Binding([.char("s")], .cycleSort, help: "Sort: minutes → last seen → days"),
        Binding([.char("m")], .sort(.minutes), help: "Sort by minutes", shownInFooter: false),
        Binding([.char("l")], .sort(.lastSeen), help: "Sort by last seen", shownInFooter: false),
        Binding([.char("d")], .sort(.days), help: "Sort by days", shownInFooter: false),
        Binding([.char("/")], .filter, help: "Filter (phone digits, outcome words, close, far)"),
        Binding([.char("o")], .outcome, help: "Record the call's outcome"),
        Binding([.char("e")], .export, help: "Export the table as CSV"),
        Binding([.char("n")], .newLookup, help: "New lookup"),
        Binding([.char("r")], .again, help: "Look the same patient up again", shownInFooter: false),
        Binding([.escape], .clear, help: "Clear the filter", shownInFooter: false),
        Binding([.up, .char("k")], .up, help: "Previous contact", shownInFooter: false),
        Binding([.down, .char("j")], .down, help: "Next contact", shownInFooter: false),
        Binding([.pageUp], .pageUp, help: "Page up", shownInFooter: false),
        Binding([.pageDown], .pageDown, help: "Page down", shownInFooter: false),
        Binding([.home, .char("g")], .top, help: "First contact", shownInFooter: false),
        Binding([.end, .char("G")], .bottom, help: "Last contact", shownInFooter: false),
        Binding([.char("q")], .quit, help: "Quit", shownInFooter: false),
    ])

    /// The phone, purpose and export path fields.
    public static let inputKeyMap = KeyMap<InputAction>([
        Binding([.enter], .submit, help: "Go on", group: "form"),
        Binding([.escape], .back, help: "Back", group: "form"),
    ])

    /// The detail view's keys.
    public static let detailKeyMap = KeyMap<DetailAction>([
        Binding([.escape, .enter], .close, help: "Back to the table"),
        Binding([.char("o")], .outcome, help: "Record the call's outcome"),
        Binding([.char("t")], .timeline, help: "Whole timeline / timeline and sightings"),
        Binding(
            [.up, .char("k")], .up, help: "Earlier sighting (newer day in the whole timeline)", shownInFooter: false),
        Binding(
            [.down, .char("j")], .down, help: "Later sighting (older day in the whole timeline)", shownInFooter: false),
        Binding([.pageUp], .pageUp, help: "Page up", shownInFooter: false),
        Binding([.pageDown], .pageDown, help: "Page down (reads more as you go)", shownInFooter: false),
        Binding([.home, .char("g")], .top, help: "First sighting", shownInFooter: false),
        Binding([.end, .char("G")], .bottom, help: "Last sighting read", shownInFooter: false),
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
