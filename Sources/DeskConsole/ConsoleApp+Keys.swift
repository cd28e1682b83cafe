import DeskCore
import DeskText
import Foundation
import TerminalKit

/// One key map as help, the palette and the docs read it: an id (`trace.detail`), the help
/// group it is listed under, and its bindings without their actions.
public struct KeyTable: Hashable, Sendable {
    public var id: String
    public var group: String
    public var rows: [KeyRow]

    public init<A>(_ id: String, _ map: KeyMap<A>, as group: String? = nil) {
        self.id = id
        self.group = group ?? map.bindings.first?.group ?? id
        self.rows = map.rows.map { row in
            var row = row
            if let group { row.group = group }
            return row
        }
    }

    /// A table of rows that are no bindings ("A…9: type it").
    public init(_ id: String, group: String, rows: [KeyRow]) {
        self.id = id
        self.group = group
        self.rows = rows
    }
}

/// A key that means one thing on every screen (issue 20, conventions 1, 2 and 7): the names its
/// bindings may carry (``Binding/name``), what it does, and where it does not apply.
public struct KeyConvention: Hashable, Sendable {
    public var keys: [Key]
    /// A binding of one of ``keys`` must carry one of these names.
    public var names: Set<String>
    public var meaning: String
    public init(_ keys: [Key], _ names: Set<String>, _ meaning: String) {
        self.keys = keys
        self.names = names
        self.meaning = meaning
    }
}

extension ConsoleApp {
    /// The keys that mean the same wherever they appear. The key conventions test holds every
    /// key map to them; `docs/operator-guide.md` shows them as a table made from this list.
    public static let keyConventions: [KeyConvention] = [
        KeyConvention([.char("?")], ["help"], "Help: every key of the screen (not where typed into a field)"),
        KeyConvention([.function(1)], ["help"], "Help, always (also while typing)"),
        KeyConvention([.char(":")], ["palette"], "Command palette: type a command's name, Enter runs it"),
        KeyConvention([.ctrl("p")], ["palette"], "Command palette, always (also while typing)"),
        KeyConvention([.char("/")], ["filter"], "Filter the list in place"),
        KeyConvention([.escape], ["back"], "Back one level: close, cancel, clear the filter"),
        KeyConvention([.char("q")], ["quit", "back"], "Back, or quit where nothing would be lost"),
        KeyConvention([.tab], ["next-field"], "Next field, pane or button; never another screen"),
        KeyConvention([.backTab], ["previous-field"], "Previous field, pane or button"),
        KeyConvention([.ctrl("l")], ["redraw"], "Redraw the whole screen"),
        KeyConvention([.ctrl("z")], ["suspend"], "Suspend to the shell; `fg` comes back"),
        KeyConvention([.ctrl("o"), .function(12)], ["signout"], "Sign out"),
        KeyConvention([.ctrl("c"), .ctrl("q"), .function(10)], ["quit"], "Quit (signs out)"),
        KeyConvention([.function(2), .function(3), .function(4)], screenNames, "The role's screens"),
        KeyConvention([.function(8)], ["accounts"], "The demo's accounts and patients (demo only)"),
    ]

    /// Every screen's palette name; each has a letter key of its own besides its F-key.
    public static let screenNames: Set<String> = [
        "authorise", "monitor", "dashboard", "staff", "audit", "his", "trace", "queue",
    ]

    /// Each role's screen keys, for the docs and the tests.
    public static var roleScreenMaps: [(role: StaffRole, table: KeyTable)] {
        [
            (.operator, KeyTable("screens.operator", operatorKeyMap)),
            (.tracer, KeyTable("screens.tracer", tracerKeyMap)),
            (.supervisor, KeyTable("screens.supervisor", supervisorKeyMap)),
            (.admin, KeyTable("screens.admin", adminKeyMap)),
        ]
    }

    /// Names a palette does not list: opening itself, and moving between fields.
    static let unlistedNames: Set<String> = ["palette", "next-field", "previous-field"]

    /// Other names that run a command when typed exactly (`:q` quits, as in vi).
    static let paletteAliases: [String: [String]] = [
        "quit": ["q", "qa", "exit"], "signout": ["logout", "so"], "help": ["h"], "monitor": ["mon"],
        "dashboard": ["dash"], "authorise": ["authorize", "auth"],
    ]

    /// A sample of each kind of dialog, for the registry (their keys are made from their
    /// buttons, the same for every question of a kind).
    static var sampleDialogs: [KeyTable] {
        [
            KeyTable("dialog.confirm", DialogState.confirm(title: "Sure?", message: "").keyMap),
            KeyTable(
                "dialog.review",
                AuthorizeScreen.reviewDialog(AuthorizeScreen.State(now: Date(timeIntervalSince1970: 0))).keyMap),
        ]
    }

    /// Every key map of the console, each once: the screens', their modes', forms', fields',
    /// dialogs' and overlays'. ``keyTables(_:)`` may return only tables listed here (the key
    /// conventions test checks that over every page and mode), so a new map cannot be left out
    /// of the test or the docs.
    public static var allKeyTables: [KeyTable] {
        [
            KeyTable("global", globalKeyMap),
            KeyTable("demo", DemoAccounts.keyMap),
            KeyTable("help-overlay", HelpOverlayState.keyMap),
            KeyTable("palette", CommandPaletteState.keyMap),
            KeyTable("text-field", TextFieldState.keyMap),
            KeyTable("date-field", DateFieldState.keyMap),
            KeyTable("sign-in", SignInScreen.keyMap),
            KeyTable("first-admin", FirstAdminScreen.keyMap),
            KeyTable("lock", LockScreen.keyMap),
            KeyTable("authorize.form", AuthorizeScreen.formKeyMap),
            KeyTable("authorize.code", AuthorizeScreen.codeFieldKeyMap),
            KeyTable("authorize.onset", AuthorizeScreen.onsetFooter),
            KeyTable("authorize.result", AuthorizeScreen.resultKeyMap),
            KeyTable("monitor", MonitorScreen.keyMap),
            KeyTable("monitor.filter", MonitorScreen.filterKeyMap),
            KeyTable("dashboard", DashboardScreen.keyMap),
            KeyTable("dashboard.province", DashboardScreen.provinceKeyMap),
            KeyTable("dashboard.export", DashboardScreen.exportKeyMap),
            KeyTable("staff", StaffScreen.keyMap),
            KeyTable("staff.form", StaffScreen.Form.keyMap),
            KeyTable("staff.role", StaffScreen.Form.roleKeyMap),
            KeyTable("his", HISScreen.keyMap),
            KeyTable("his.form", HISScreen.Form.keyMap),
            KeyTable("audit", AuditScreen.keyMap),
            KeyTable("audit.filter", AuditScreen.FilterForm.keyMap),
            KeyTable("audit.action", AuditScreen.FilterForm.actionKeyMap),
            KeyTable("audit.day", auditDayKeyMap),
            KeyTable("trace", TraceScreen.keyMap),
            KeyTable("trace.phone", TraceScreen.phoneKeyMap),
            KeyTable("trace.phone-back", TraceScreen.phoneBackKeyMap),
            KeyTable("trace.purpose", TraceScreen.purposeKeyMap),
            KeyTable("trace.export", TraceScreen.exportKeyMap),
            KeyTable("trace.loading", TraceScreen.loadingKeyMap),
            KeyTable("trace.detail", TraceScreen.detailKeyMap),
            KeyTable("trace.outcome", TraceScreen.outcomeKeyMap),
            KeyTable("queue", QueueScreen.keyMap),
            KeyTable("queue.supervisor", QueueScreen.supervisorKeyMap),
            KeyTable("queue.detail", QueueScreen.detailKeyMap),
            KeyTable("queue.supervisor-detail", QueueScreen.supervisorDetailKeyMap),
            KeyTable("queue.outcome", QueueScreen.attemptKeyMap),
            KeyTable("queue.check", QueueScreen.checkKeyMap),
            KeyTable("queue.picker", QueueScreen.pickerKeyMap),
            KeyTable("queue.case", QueueScreen.caseKeyMap),
            KeyTable("queue.case-close", QueueScreen.closeKeyMap),
        ] + roleScreenMaps.map(\.table) + sampleDialogs
    }

    /// The audit filter's day: the date field without its calendar.
    static var auditDayKeyMap: KeyMap<DateFieldAction> {
        KeyMap(
            DateFieldState.keyMap.bindings.filter { ![.openCalendar, .pick, .closeCalendar].contains($0.action) })
    }

    /// The ids of the maps behind an input of the trace screen.
    static func traceInputID(_ trace: TraceScreen.State) -> String {
        if trace.export != nil { return "trace.export" }
        switch trace.phase {
        case .purpose: return "trace.purpose"
        case .phone where trace.lookup != nil: return "trace.phone-back"
        default: return "trace.phone"
        }
    }

    /// The key maps in force now, in the order help lists them: the context's, the role's
    /// screens, the global keys, the demo's. What help shows and the palette offers.
    public static func keyTables(_ state: State) -> [KeyTable] {
        var tables: [KeyTable] = []
        func add<A>(_ id: String, _ map: KeyMap<A>, as group: String) { tables.append(KeyTable(id, map, as: group)) }
        func dialog(_ dialog: DialogState, as group: String) {
            let id = dialog.buttons.first?.label == AuthorizeScreen.authoriseButton ? "dialog.review" : "dialog.confirm"
            add(id, dialog.keyMap, as: group)
        }
        func screens() {
            switch state.session?.role {
            case .admin: add("screens.admin", adminKeyMap, as: tr("console.frame.group.screens"))
            case .operator: add("screens.operator", operatorKeyMap, as: tr("console.frame.group.screens"))
            case .supervisor: add("screens.supervisor", supervisorKeyMap, as: tr("console.frame.group.screens"))
            case .tracer: add("screens.tracer", tracerKeyMap, as: tr("console.frame.group.screens"))
            case nil: break
            }
        }
        if state.lock != nil {
            add("lock", LockScreen.keyMap, as: tr("console.frame.group.lock"))
            add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
        } else {
            switch state.page {
            case .signIn:
                add("sign-in", SignInScreen.keyMap, as: tr("console.frame.group.signIn"))
                add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
            case .firstAdmin:
                add("first-admin", FirstAdminScreen.keyMap, as: tr("console.frame.group.firstAdmin"))
                add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
            case .authorize:
                switch state.authorize.phase {
                case .finished:
                    if let quit = state.authorize.quitConfirm { dialog(quit, as: tr("console.frame.group.quitAsk")) }
                    add("authorize.result", AuthorizeScreen.resultKeyMap, as: tr("console.frame.group.result"))
                case .reviewing:
                    if let review = state.authorize.review { dialog(review, as: tr("console.frame.group.review")) }
                default:
                    add("authorize.form", AuthorizeScreen.formKeyMap, as: tr("console.frame.group.form"))
                    tables.append(
                        KeyTable(
                            "authorize.code", group: tr("console.frame.group.code"),
                            rows: [
                                KeyRow(
                                    keys: [], label: "A…9",
                                    help: tr(
                                        "console.frame.key.typeCode",
                                        [
                                            "letters": OtpRules.alphabet.filter(\.isLetter).map { String($0) }.joined(
                                                separator: " ")
                                        ]
                                    ),
                                    group: tr("console.frame.group.code"))
                            ]))
                    add("authorize.code", AuthorizeScreen.codeFieldKeyMap, as: tr("console.frame.group.code"))
                    add("authorize.onset", AuthorizeScreen.onsetFooter, as: tr("console.frame.group.onset"))
                    add("date-field", DateFieldState.keyMap, as: tr("console.frame.group.onset"))
                    add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
                }
                if state.authorize.phase != .reviewing { screens() }
            case .monitor:
                if state.monitor.filtering {
                    add("monitor.filter", MonitorScreen.filterKeyMap, as: tr("console.frame.group.filterLive"))
                    add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
                } else {
                    add("monitor", state.monitor.keyMap, as: tr("console.frame.group.monitor"))
                }
                screens()
            case .dashboard:
                let dashboard = state.dashboard
                if dashboard.provincePrompt != nil {
                    add("dashboard.province", DashboardScreen.provinceKeyMap, as: tr("console.frame.group.province"))
                    add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
                } else if let export = dashboard.export {
                    if let confirm = export.confirm { dialog(confirm, as: tr("console.frame.group.overwrite")) }
                    add("dashboard.export", DashboardScreen.exportKeyMap, as: tr("console.frame.group.export"))
                    add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
                } else {
                    add("dashboard", DashboardScreen.keyMap, as: tr("console.frame.group.dashboard"))
                    screens()
                }
            case .staff:
                if let confirm = state.staff.confirm {
                    dialog(confirm, as: tr("console.frame.group.confirm"))
                } else if state.staff.form != nil {
                    add("staff.form", StaffScreen.Form.keyMap, as: tr("console.frame.group.form"))
                    add("staff.role", StaffScreen.Form.roleKeyMap, as: tr("console.frame.group.role"))
                    add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
                } else {
                    add("staff", StaffScreen.keyMap, as: tr("console.frame.group.staff"))
                    screens()
                }
            case .his:
                if let confirm = state.his.confirm {
                    dialog(confirm, as: tr("console.frame.group.confirm"))
                } else if state.his.form != nil {
                    add("his.form", HISScreen.Form.keyMap, as: tr("console.frame.group.form"))
                    add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
                } else {
                    add("his", HISScreen.keyMap, as: tr("console.frame.group.his"))
                    screens()
                }
            case .audit:
                if state.audit.filterForm != nil {
                    add("audit.filter", AuditScreen.FilterForm.keyMap, as: tr("console.frame.group.filter"))
                    add("audit.action", AuditScreen.FilterForm.actionKeyMap, as: tr("console.frame.group.action"))
                    add("audit.day", auditDayKeyMap, as: tr("console.frame.group.day"))
                    tables.append(
                        KeyTable(
                            "audit.day", group: tr("console.frame.group.day"),
                            rows: [
                                KeyRow(
                                    keys: [.backspace], help: tr("console.frame.key.anyDay"),
                                    group: tr("console.frame.group.day"))
                            ]))
                    add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
                } else {
                    add("audit", AuditScreen.keyMap, as: tr("console.frame.group.audit"))
                    screens()
                }
            case .trace:
                let trace = state.trace
                switch trace.phase {
                case .phone, .purpose:
                    add(traceInputID(trace), TraceScreen.inputKeyMap(trace), as: tr("console.frame.group.lookUp"))
                    if trace.phase == .purpose {
                        add("audit.day", auditDayKeyMap, as: tr("console.frame.group.indexDay"))
                    }
                    add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
                case .loading:
                    add("trace.loading", TraceScreen.loadingKeyMap, as: tr("console.frame.group.lookingUp"))
                case .result:
                    if let export = trace.export {
                        if let confirm = export.confirm { dialog(confirm, as: tr("console.frame.group.overwrite")) }
                        add(traceInputID(trace), TraceScreen.inputKeyMap(trace), as: tr("console.frame.group.export"))
                        add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
                    } else if trace.outcomeForm != nil {
                        add("trace.outcome", TraceScreen.outcomeKeyMap, as: tr("console.frame.group.outcome"))
                        add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editingNote"))
                    } else if trace.filtering {
                        add("monitor.filter", MonitorScreen.filterKeyMap, as: tr("console.frame.group.filterLive"))
                        add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
                    } else if trace.detail != nil {
                        add("trace.detail", TraceScreen.detailKeyMap, as: tr("console.frame.group.contactDetail"))
                    } else {
                        add("trace", TraceScreen.keyMap, as: tr("console.frame.group.contacts"))
                    }
                }
                if !trace.isModal { screens() }
            case .queue:
                let queue = state.queue
                if queue.picker != nil {
                    add("queue.picker", QueueScreen.pickerKeyMap, as: tr("console.frame.group.pick"))
                    add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
                } else if queue.checkForm != nil {
                    add("queue.check", QueueScreen.checkKeyMap, as: tr("console.frame.group.dailyCheck"))
                    add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editingNote"))
                } else if queue.attemptForm != nil {
                    add("queue.outcome", QueueScreen.attemptKeyMap, as: tr("console.frame.group.outcome"))
                    add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editingNote"))
                } else if queue.filter.editing {
                    add("monitor.filter", MonitorScreen.filterKeyMap, as: tr("console.frame.group.filterLive"))
                    add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editing"))
                } else if queue.showsCase, let view = queue.caseView {
                    if let confirm = view.confirm {
                        dialog(confirm, as: tr("console.frame.group.closeCaseAsk"))
                    } else if view.closeForm != nil {
                        add("queue.case-close", QueueScreen.closeKeyMap, as: tr("console.frame.group.closeCase"))
                        add("text-field", TextFieldState.keyMap, as: tr("console.frame.group.editingNote"))
                    } else {
                        add("queue.case", QueueScreen.caseKeyMap, as: tr("console.frame.group.case"))
                    }
                } else if queue.detail != nil {
                    if queue.supervisor {
                        add(
                            "queue.supervisor-detail", QueueScreen.supervisorDetailKeyMap,
                            as: tr("console.frame.group.person"))
                    } else {
                        add("queue.detail", QueueScreen.detailKeyMap, as: tr("console.frame.group.person"))
                    }
                } else if queue.supervisor {
                    add("queue.supervisor", QueueScreen.supervisorKeyMap, as: tr("console.frame.group.queue"))
                } else {
                    add("queue", QueueScreen.keyMap, as: tr("console.frame.group.queue"))
                }
                if !queue.isModal { screens() }
            }
        }
        var global = globalKeyMap
        if state.session == nil { global.bindings.removeAll { $0.action == .signOut } }
        add("global", global, as: tr("console.frame.group.global"))
        if state.demoAccounts != nil { add("demo", DemoAccounts.keyMap, as: tr("console.frame.group.demo")) }
        return tables
    }

    /// Every binding of the current context, grouped: what `?` (or F1) shows. Generated from the
    /// same key maps `update` uses, so help never lists a key that does something else.
    static func helpSections(_ state: State) -> [HelpSection] {
        var sections: [HelpSection] = []
        for table in keyTables(state) {
            let rows = table.rows.map { HelpRow(keys: $0.label, help: $0.help) }
            if let index = sections.firstIndex(where: { $0.group == table.group }) {
                sections[index].rows += rows.filter { row in !sections[index].rows.contains(row) }
            } else {
                sections.append(HelpSection(group: table.group, rows: rows))
            }
        }
        if let demo = state.demoAccounts { sections += demo.helpSections }
        return sections
    }

    /// What the palette offers now: every named binding of the current context, each name once,
    /// the context's own first. Each runs by its key: the first one that is no character where
    /// a field would take it as typed (F3 rather than M; F1 rather than ?).
    public static func paletteEntries(_ state: State) -> [PaletteEntry] {
        var seen: Set<String> = []
        var entries: [PaletteEntry] = []
        for table in keyTables(state) {
            for row in table.rows {
                guard let name = row.name, !unlistedNames.contains(name), !row.keys.isEmpty,
                    seen.insert(name).inserted
                else { continue }
                let key = row.keys.first { !$0.isCharacter || !state.typesLetters } ?? row.keys[0]
                entries.append(
                    PaletteEntry(
                        name: name, aliases: paletteAliases[name] ?? [], keys: row.label, help: row.help,
                        group: table.group, key: key))
            }
        }
        return entries
    }
}
