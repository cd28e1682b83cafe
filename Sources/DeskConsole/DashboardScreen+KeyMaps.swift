import DeskCore
import DeskText
import TerminalKit

extension DashboardScreen {
    public enum Action: Hashable, Sendable {
        case range(StatsRange)
        case cycleBucket, refresh, province, allProvinces, export, tracing, quit
    }

    public enum InputAction: Hashable, Sendable { case submit, back }

    /// The help group of the range keys (the footer shows them as one hint).
    public static var rangeGroup: String { "range" }

    /// The dashboard's keys. Those in the footer come first, most useful first: at 80 columns
    /// the last of them give way to help, sign-out and quit (help lists them all). The tracing
    /// page (`t`) and the export stay; refresh (the dashboard refreshes by itself), the
    /// province and the bucket give way.
    public static var keyMap: KeyMap<Action> {
        KeyMap(
            [
                Binding(
                    [.char("0")], .range(.today), help: "Today, since midnight (hour buckets)", group: rangeGroup,
                    footer: "Today"),
                Binding(
                    [.char("1")], .range(.hour), help: "Last hour (5-minute buckets)", group: rangeGroup, footer: "1h"),
                Binding([.char("2")], .range(.day), help: "Last 24 hours", group: rangeGroup, footer: "24h"),
                Binding([.char("3")], .range(.week), help: "Last 7 days", group: rangeGroup, footer: "7d"),
                Binding([.char("4")], .range(.fortnight), help: "Last 14 days", group: rangeGroup, footer: "14d"),
                Binding(
                    [.char("t")], .tracing, help: "Tracing indicators and tracers' load",
                    footer: "Tracing", name: "tracing"),
                Binding([.char("e")], .export, help: "Export the figures as CSV", footer: "Export", name: "export"),
                Binding([.char("r")], .refresh, help: "Refresh now", footer: "Refresh", name: "refresh"),
                Binding([.char("p")], .province, help: "One province's figures", footer: "Province", name: "province"),
                Binding(
                    [.char("b")], .cycleBucket, help: "Next bucket size for the range", footer: "Bucket", name: "bucket"
                ),
                Binding(
                    [.char("/")], .province, help: "One province's figures (as p)", shownInFooter: false, name: "filter"
                ),
                Binding([.escape], .allProvinces, help: "Back to every province", shownInFooter: false, name: "back"),
                Binding([.char("q")], .quit, help: "Quit", shownInFooter: false, name: "quit"),
            ])
    }

    /// The province prompt's keys (typed letters go to the code).
    public static let provinceKeyMap = KeyMap<InputAction>([
        Binding(
            [.enter], .submit, help: "Show the province (empty: every province)", group: "province", footer: "Show",
            name: "show"),
        Binding([.escape], .back, help: "Cancel", group: "province", footer: "Cancel", name: "back"),
    ])

    /// The export's file name.
    public static let exportKeyMap = KeyMap<InputAction>([
        Binding([.enter], .submit, help: "Write the file", group: "export", footer: "Write", name: "write"),
        Binding([.escape], .back, help: "Cancel the export", group: "export", footer: "Cancel", name: "back"),
    ])
}
