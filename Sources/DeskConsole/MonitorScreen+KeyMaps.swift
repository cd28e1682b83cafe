import DeskText
import TerminalKit

extension MonitorScreen {
    /// Keys of the filter field besides its editing keys: the table still moves under it.
    public enum FilterAction: Hashable, Sendable { case keep, clear, up, down, pageUp, pageDown }

    /// The table's keys for a supervisor (every kind). `q` quits as on the other screens; the
    /// kinds' digits are listed one by one in help and in the legend above the footer.
    public static var keyMap: KeyMap<Action> { keyMap(showing: Kind.allCases) }

    /// The table's keys with a toggle for each of `kinds` only (an operator's: ``Kind/visible(to:)``);
    /// a kind keeps its digit whoever signs in.
    public static func keyMap(showing kinds: [Kind]) -> KeyMap<Action> {
        KeyMap<Action>(
            [
                Binding([.char(" ")], .pause, help: tr("console.monitor.key.pause"), name: "pause"),
                Binding([.char("/")], .filter, help: tr("console.frame.hint.filter"), name: "filter"),
                Binding([.enter], .detail, help: tr("console.frame.hint.detail"), name: "detail"),
                Binding([.char("w")], .watch, help: tr("console.monitor.key.watch"), name: "watch"),
                Binding(
                    [.char("y")], .copy, help: tr("console.monitor.key.copy"),
                    shownInFooter: false,
                    name: "copy"),
                Binding([.char("Y")], .copyRow, help: tr("console.monitor.key.copyRow"), shownInFooter: false),
                Binding(
                    [.escape], .close, help: tr("console.monitor.key.close"), shownInFooter: false,
                    name: "back"),
                Binding(
                    [.char("x")], .clearFilter, help: tr("console.monitor.key.clearFilter"), shownInFooter: false,
                    name: "clear-filter"),
            ]
                + kinds.map { kind in
                    Binding(
                        [.char(Character(String(kind.rawValue)))], .toggle(kind),
                        help: tr("console.monitor.key.toggle", ["kinds": kind.plural]),
                        group: tr("console.monitor.group.kinds"), shownInFooter: false)
                }
                + [
                    Binding([.up, .char("k")], .up, help: tr("console.monitor.key.newer"), shownInFooter: false),
                    Binding([.down, .char("j")], .down, help: tr("console.monitor.key.older"), shownInFooter: false),
                    Binding([.pageUp], .pageUp, help: tr("terminal.pageUp"), shownInFooter: false),
                    Binding([.pageDown], .pageDown, help: tr("terminal.pageDown"), shownInFooter: false),
                    Binding([.home, .char("g")], .top, help: tr("console.monitor.key.top"), shownInFooter: false),
                    Binding([.end, .char("G")], .bottom, help: tr("console.monitor.key.bottom"), shownInFooter: false),
                    Binding(
                        [.char("q")], .quit, help: tr("console.frame.hint.quit"), shownInFooter: false, name: "quit"),
                ])
    }

    /// While typing a filter: it applies as you type.
    public static var filterKeyMap: KeyMap<FilterAction> {
        KeyMap([
            Binding(
                [.enter], .keep, help: tr("console.frame.filter.keep"), group: tr("console.frame.group.filter"),
                name: "keep"),
            Binding(
                [.escape], .clear, help: tr("console.frame.filter.clear"), group: tr("console.frame.group.filter"),
                name: "back"),
            Binding(
                [.up], .up, help: tr("console.monitor.key.newer"), group: tr("console.frame.group.filter"),
                shownInFooter: false),
            Binding(
                [.down], .down, help: tr("console.monitor.key.older"), group: tr("console.frame.group.filter"),
                shownInFooter: false),
            Binding(
                [.pageUp], .pageUp, help: tr("terminal.pageUp"), group: tr("console.frame.group.filter"),
                shownInFooter: false),
            Binding(
                [.pageDown], .pageDown, help: tr("terminal.pageDown"), group: tr("console.frame.group.filter"),
                shownInFooter: false),
        ])
    }
}
