import DeskCore
import TerminalKit

extension ConsoleApp {
    /// Every binding of the current context, grouped: what `?` (or F1) shows. Generated from the
    /// same key maps `update` uses, so help never lists a key that does something else.
    static func helpSections(_ state: State) -> [HelpSection] {
        var sections: [HelpSection] = []
        func add<A>(_ map: KeyMap<A>, as name: String? = nil) {
            for section in map.helpSections {
                let rows = section.rows.map { HelpRow(keys: $0.keys, help: $0.help) }
                let group = name ?? section.group
                if let index = sections.firstIndex(where: { $0.group == group }) {
                    sections[index].rows += rows.filter { row in !sections[index].rows.contains(row) }
                } else {
                    sections.append(HelpSection(group: group, rows: rows))
                }
            }
        }
        if state.lock != nil {
            add(LockScreen.keyMap, as: "lock screen")
            add(TextFieldState.keyMap, as: "editing text")
        } else {
            switch state.page {
            case .signIn:
                add(SignInScreen.keyMap, as: "sign in")
                add(TextFieldState.keyMap, as: "editing text")
            case .firstAdmin:
                add(FirstAdminScreen.keyMap, as: "first admin")
                add(TextFieldState.keyMap, as: "editing text")
            case .authorize:
                switch state.authorize.phase {
                case .finished:
                    if let dialog = state.authorize.quitConfirm { add(dialog.keyMap, as: "quit?") }
                    add(AuthorizeScreen.resultKeyMap, as: "result")
                case .reviewing: if let dialog = state.authorize.review { add(dialog.keyMap, as: "review") }
                default:
                    add(AuthorizeScreen.formKeyMap, as: "form")
                    sections.append(
                        HelpSection(
                            group: "code",
                            rows: [HelpRow(keys: "A…9", help: "Type it: \(OtpRules.alphabetDescription)")]))
                    add(AuthorizeScreen.codeFieldKeyMap, as: "code")
                    add(AuthorizeScreen.onsetFooter, as: "symptom onset")
                    add(DateFieldState.keyMap, as: "symptom onset")
                    add(TextFieldState.keyMap, as: "editing text")
                }
                if state.authorize.phase != .reviewing { add(operatorKeyMap, as: "screens") }
            case .monitor:
                if state.monitor.filtering {
                    add(MonitorScreen.filterKeyMap, as: "filter (applies as you type)")
                    add(TextFieldState.keyMap, as: "editing text")
                } else {
                    add(state.monitor.keyMap, as: "monitor")
                }
                if state.session?.role == .operator { add(operatorKeyMap, as: "screens") }
                if state.session?.role == .supervisor { add(supervisorKeyMap, as: "screens") }
            case .dashboard:
                let dashboard = state.dashboard
                if dashboard.provincePrompt != nil {
                    add(DashboardScreen.provinceKeyMap, as: "province")
                    add(TextFieldState.keyMap, as: "editing text")
                } else if let export = dashboard.export {
                    if let dialog = export.confirm { add(dialog.keyMap, as: "overwrite?") }
                    add(DashboardScreen.exportKeyMap, as: "export")
                    add(TextFieldState.keyMap, as: "editing text")
                } else {
                    add(DashboardScreen.keyMap, as: "dashboard")
                    add(supervisorKeyMap, as: "screens")
                }
            case .staff:
                if let dialog = state.staff.confirm {
                    add(dialog.keyMap, as: "confirm")
                } else if state.staff.form != nil {
                    add(StaffScreen.Form.keyMap, as: "form")
                    add(StaffScreen.Form.roleKeyMap, as: "role (when chosen)")
                    add(TextFieldState.keyMap, as: "editing text")
                } else {
                    add(StaffScreen.keyMap, as: "staff accounts")
                    add(adminKeyMap, as: "screens")
                }
            case .his:
                if let dialog = state.his.confirm {
                    add(dialog.keyMap, as: "confirm")
                } else if state.his.form != nil {
                    add(TextFieldState.keyMap, as: "editing text")
                } else {
                    add(HISScreen.keyMap, as: "HIS clients")
                    add(adminKeyMap, as: "screens")
                }
            case .audit:
                if state.audit.filterForm != nil {
                    add(AuditScreen.FilterForm.keyMap, as: "filter")
                    add(AuditScreen.FilterForm.actionKeyMap, as: "action (when chosen)")
                    add(
                        KeyMap(
                            DateFieldState.keyMap.bindings.filter {
                                ![.openCalendar, .pick, .closeCalendar].contains($0.action)
                            }),
                        as: "day (when chosen)")
                    sections.append(
                        HelpSection(
                            group: "day (when chosen)", rows: [HelpRow(keys: "Bksp", help: "Any day (no day filter)")]))
                    add(TextFieldState.keyMap, as: "editing text")
                } else {
                    add(AuditScreen.keyMap, as: "audit log")
                    add(adminKeyMap, as: "screens")
                }
            case .trace:
                let trace = state.trace
                switch trace.phase {
                case .phone, .purpose:
                    add(TraceScreen.inputKeyMap(trace), as: "look up")
                    add(TextFieldState.keyMap, as: "editing text")
                case .loading:
                    add(TraceScreen.loadingKeyMap, as: "looking up")
                case .result:
                    if let export = trace.export {
                        if let dialog = export.confirm { add(dialog.keyMap, as: "overwrite?") }
                        add(TraceScreen.inputKeyMap(trace), as: "export")
                        add(TextFieldState.keyMap, as: "editing text")
                    } else if trace.outcomeForm != nil {
                        add(TraceScreen.outcomeKeyMap, as: "outcome")
                        add(TextFieldState.keyMap, as: "editing the note")
                    } else if trace.filtering {
                        add(MonitorScreen.filterKeyMap, as: "filter (applies as you type)")
                        add(TextFieldState.keyMap, as: "editing text")
                    } else if trace.detail != nil {
                        add(TraceScreen.detailKeyMap, as: "contact detail")
                    } else {
                        add(TraceScreen.keyMap, as: "contacts")
                    }
                }
            }
        }
        var global = globalKeyMap.bindings
        if state.session == nil { global.removeAll { $0.action == .signOut } }
        add(KeyMap(global), as: "global")
        if let demo = state.demoAccounts {
            add(DemoAccounts.keyMap, as: "demo")
            sections += demo.helpSections
        }
        return sections
    }
}
