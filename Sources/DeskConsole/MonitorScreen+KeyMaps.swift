import TerminalKit

extension MonitorScreen {
    /// Keys of the filter field besides its editing keys: the table still moves under it.
    public enum FilterAction: Hashable, Sendable { case keep, clear, up, down, pageUp, pageDown }

    /// The table's keys for a supervisor (every kind). `q` quits as on the other screens; the
    /// kinds' digits are listed one by one in help and in the legend above the footer.
    public static let keyMap = keyMap(showing: Kind.allCases)

    /// The table's keys with a toggle for each of `kinds` only (an operator's: ``Kind/visible(to:)``);
    /// a kind keeps its digit whoever signs in.
    public static func keyMap(showing kinds: [Kind]) -> KeyMap<Action> {
        KeyMap<Action>(
            [
                Binding([.char(" ")], .pause, help: "Pause / resume", name: "pause"),
                Binding([.char("/")], .filter, help: "Filter", name: "filter"),
                Binding([.enter], .detail, help: "Detail", name: "detail"),
                Binding([.char("w")], .watch, help: "Watch its code", name: "watch"),
                Binding(
                    [.char("y")], .copy, help: "Copy the event's code tag (the row if none)", shownInFooter: false,
                    name: "copy"),
                Binding([.char("Y")], .copyRow, help: "Copy the event's row as text", shownInFooter: false),
                Binding(
                    [.escape], .close, help: "Close the pane (or clear the filter)", shownInFooter: false, name: "back"),
                Binding(
                    [.char("x")], .clearFilter, help: "Clear the filter, show every kind", shownInFooter: false,
                    name: "clear-filter"),
            ]
                + kinds.map { kind in
                    Binding(
                        [.char(Character(String(kind.rawValue)))], .toggle(kind), help: "Show or hide \(kind.plural)",
                        group: "kinds", shownInFooter: false)
                }
                + [
                    Binding([.up, .char("k")], .up, help: "Newer event", shownInFooter: false),
                    Binding([.down, .char("j")], .down, help: "Older event", shownInFooter: false),
                    Binding([.pageUp], .pageUp, help: "Page up", shownInFooter: false),
                    Binding([.pageDown], .pageDown, help: "Page down", shownInFooter: false),
                    Binding([.home, .char("g")], .top, help: "Newest event (follows new ones)", shownInFooter: false),
                    Binding([.end, .char("G")], .bottom, help: "Oldest event kept", shownInFooter: false),
                    Binding([.char("q")], .quit, help: "Quit", shownInFooter: false, name: "quit"),
                ])
    }

    /// While typing a filter: it applies as you type.
    public static let filterKeyMap = KeyMap<FilterAction>([
        Binding([.enter], .keep, help: "Keep the filter", group: "filter", name: "keep"),
        Binding([.escape], .clear, help: "Clear the filter", group: "filter", name: "back"),
        Binding([.up], .up, help: "Newer event", group: "filter", shownInFooter: false),
        Binding([.down], .down, help: "Older event", group: "filter", shownInFooter: false),
        Binding([.pageUp], .pageUp, help: "Page up", group: "filter", shownInFooter: false),
        Binding([.pageDown], .pageDown, help: "Page down", group: "filter", shownInFooter: false),
    ])
}
