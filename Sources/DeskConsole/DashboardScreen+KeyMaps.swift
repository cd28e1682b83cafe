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
    public static var rangeGroup: String { tr("console.dashboard.group.range") }

    /// The dashboard's keys. Those in the footer come first, most useful first: at 80 columns
    /// the last of them give way to help, sign-out and quit (help lists them all). The tracing
    /// page (`t`) and the export stay; refresh (the dashboard refreshes by itself), the
    /// province and the bucket give way.
    public static var keyMap: KeyMap<Action> {
        KeyMap(
            [
                Binding(
                    [.char("0")], .range(.today), help: tr("console.dashboard.key.today"), group: rangeGroup,
                    footer: tr("console.dashboard.footer.today")),
                Binding(
                    [.char("1")], .range(.hour), help: tr("console.dashboard.key.hour"), group: rangeGroup, footer: "1h"
                ),
                Binding(
                    [.char("2")], .range(.day), help: tr("console.dashboard.key.day"), group: rangeGroup, footer: "24h"),
                Binding(
                    [.char("3")], .range(.week), help: tr("console.dashboard.key.week"), group: rangeGroup, footer: "7d"
                ),
                Binding(
                    [.char("4")], .range(.fortnight), help: tr("console.dashboard.key.fortnight"), group: rangeGroup,
                    footer: "14d"),
                Binding(
                    [.char("t")], .tracing, help: tr("console.dashboard.key.tracing"),
                    footer: tr("console.dashboard.footer.tracing"), name: "tracing"),
                Binding(
                    [.char("e")], .export, help: tr("console.dashboard.key.export"),
                    footer: tr("console.dashboard.footer.export"), name: "export"),
                Binding(
                    [.char("r")], .refresh, help: tr("console.dashboard.key.refresh"),
                    footer: tr("console.dashboard.footer.refresh"), name: "refresh"),
                Binding(
                    [.char("p")], .province, help: tr("console.dashboard.key.province"),
                    footer: tr("console.dashboard.footer.province"), name: "province"),
                Binding(
                    [.char("b")], .cycleBucket, help: tr("console.dashboard.key.bucket"),
                    footer: tr("console.dashboard.footer.bucket"), name: "bucket"
                ),
                Binding(
                    [.char("/")], .province, help: tr("console.dashboard.key.filter"), shownInFooter: false,
                    name: "filter"
                ),
                Binding(
                    [.escape], .allProvinces, help: tr("console.dashboard.key.allProvinces"), shownInFooter: false,
                    name: "back"),
                Binding([.char("q")], .quit, help: tr("console.frame.hint.quit"), shownInFooter: false, name: "quit"),
            ])
    }

    /// The province prompt's keys (typed letters go to the code).
    public static var provinceKeyMap: KeyMap<InputAction> {
        KeyMap([
            Binding(
                [.enter], .submit, help: tr("console.dashboard.key.show"),
                group: tr("console.dashboard.group.province"),
                footer: tr("console.dashboard.footer.show"),
                name: "show"),
            Binding(
                [.escape], .back, help: tr("console.frame.hint.cancel"), group: tr("console.dashboard.group.province"),
                footer: tr("console.frame.hint.cancel"), name: "back"),
        ])
    }

    /// The export's file name.
    public static var exportKeyMap: KeyMap<InputAction> {
        KeyMap([
            Binding(
                [.enter], .submit, help: tr("console.dashboard.key.write"), group: tr("console.dashboard.group.export"),
                footer: tr("console.dashboard.footer.write"), name: "write"),
            Binding(
                [.escape], .back, help: tr("console.dashboard.key.cancelExport"),
                group: tr("console.dashboard.group.export"),
                footer: tr("console.frame.hint.cancel"), name: "back"),
        ])
    }
}
