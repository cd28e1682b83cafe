import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The admin's staff accounts: a table (name, role, state, failed sign-ins, last sign-in,
/// created by), and keys to add an account, disable one (after a confirm dialog that names it)
/// and reset a password. `/` filters the list in place by name, role or state (``ListFilter``);
/// `y` copies the selected row.
///
/// The desk enforces every rule (roles, the last admin, one's own account); this screen shows
/// its messages as they are. The selection follows the account's name across reloads.
/// Pure: ``update(_:_:)`` returns commands; the program runs them through the ``DeskService``.
/// Privacy: a form holds typed passwords; never log the state.
public enum StaffScreen {
    public struct State: Hashable, Sendable {
        public var accounts: [StaffAccount] = []
        /// Index into ``accounts``.
        public var selected = 0
        public var loading = false
        public var loaded = false
        /// The last outcome: added, disabled, reset, or what went wrong.
        public var notice: Notice?
        /// The add-account or new-password form, when open.
        public var form: Form?
        /// The disable confirmation, when open, and the account it names.
        public var confirm: DialogState?
        public var confirmTarget: String?
        /// A disable sent to the desk and not answered yet.
        public var disabling: String?
        /// The account to select once the next load arrives (one just added).
        public var selectAfterLoad: String?
        /// Zone for the times shown.
        public var timeZone: TimeZone
        /// The admin signed in (set by the frame): their own account cannot be disabled.
        public var signedInAs: String?
        /// `/`: the rows shown.
        public var filter = ListFilter()

        public init(timeZone: TimeZone = .current) {
            self.timeZone = timeZone
        }

        /// Indices into ``accounts`` of the rows shown (the filter's).
        public var visible: [Int] {
            accounts.indices.filter { filter.matches(StaffScreen.searchText(accounts[$0])) }
        }

        /// The selected row's position among those shown; nil when it is not shown.
        public func selectedPosition(in visible: [Int]) -> Int? { visible.firstIndex(of: selected) }

        public var selectedAccount: StaffAccount? {
            guard accounts.indices.contains(selected) else { return nil }
            return filter.isActive && !filter.matches(StaffScreen.searchText(accounts[selected]))
                ? nil : accounts[selected]
        }

        /// A form or a dialog is open: it takes every key.
        public var isModal: Bool { form != nil || confirm != nil }
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        case rowClicked(Int)
        case scrolled(Int)
        case loaded([StaffAccount])
        case loadFailed(String)
        case added(StaffAccount)
        case disabled(StaffAccount)
        case passwordReset(StaffAccount)
        /// An add, disable or reset the desk refused or could not run.
        case changeFailed(String)
        case copied(CopyResult)
    }

    public enum Command: Hashable, Sendable {
        case load
        case add(name: String, role: StaffRole, password: String)
        case disable(name: String)
        case resetPassword(name: String, password: String)
        /// `y`: the selected row as text.
        case copy(ClipboardCopy)
        case quit
    }

    public enum Action: Hashable, Sendable {
        case move(TableCursor.Move)
        case add, disable, resetPassword, reload, filter, clearFilter, copy, quit
    }

    /// What the filter searches in an account: name, role, state and who created it.
    static func searchText(_ account: StaffAccount) -> String {
        "\(account.name) \(account.role.rawValue) \(ConsoleApp.roleName(account.role)) \(account.stateName) \(stateText(account)) \(account.createdBy)"
            .lowercased()
    }

    /// An account's state in words ("active", "attivo"); the store's name stays English.
    static func stateText(_ account: StaffAccount) -> String { tr("console.staff.state.\(account.stateName)") }

    /// What a role may do, in words (DeskCore keeps its English summary for the command line).
    static func roleSummary(_ role: StaffRole) -> String { tr("console.staff.roleSummary.\(role.rawValue)") }

    public static var keyMap: KeyMap<Action> {
        KeyMap([
            Binding([.char("a"), .insert], .add, help: tr("console.staff.key.add"), name: "add"),
            Binding([.char("d"), .delete], .disable, help: tr("console.staff.key.disable"), name: "disable"),
            Binding([.char("p")], .resetPassword, help: tr("console.staff.key.password"), name: "password"),
            Binding([.char("/")], .filter, help: tr("console.staff.key.filter"), shownInFooter: false, name: "filter"),
            Binding(
                [.escape], .clearFilter, help: tr("console.frame.filter.clear"), shownInFooter: false, name: "back"),
            Binding([.char("y")], .copy, help: tr("console.his.key.copy"), shownInFooter: false, name: "copy"),
            Binding(
                [.char("r"), .function(5)], .reload, help: tr("console.his.key.reload"), shownInFooter: false,
                name: "reload"),
            Binding([.up, .char("k")], .move(.up), help: tr("console.staff.key.previous"), shownInFooter: false),
            Binding([.down, .char("j")], .move(.down), help: tr("console.staff.key.next"), shownInFooter: false),
            Binding([.pageUp], .move(.pageUp), help: tr("terminal.pageUp"), shownInFooter: false),
            Binding([.pageDown], .move(.pageDown), help: tr("terminal.pageDown"), shownInFooter: false),
            Binding([.home, .char("g")], .move(.top), help: tr("console.staff.key.first"), shownInFooter: false),
            Binding([.end, .char("G")], .move(.bottom), help: tr("console.staff.key.last"), shownInFooter: false),
            Binding([.char("q")], .quit, help: tr("console.frame.hint.quit"), shownInFooter: false, name: "quit"),
        ])
    }

    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .keyPressed(let key):
            if state.confirm != nil { return handleConfirmKey(&state, key) }
            if state.form != nil { return handleFormKey(&state, key) }
            if state.filter.editing {
                _ = state.filter.handle(key)
                keepSelectionShown(&state)
                return []
            }
            guard let action = keyMap.action(for: key) else { return [] }
            return perform(&state, action)
        case .rowClicked(let row):
            let shown = state.visible
            guard !state.isModal, shown.indices.contains(row) else { return [] }
            select(&state, shown[row])
            return []
        case .scrolled(let rows):
            guard !state.isModal else { return [] }
            move(&state, by: rows)
            return []
        case .copied(let result):
            state.notice = result.notice
            return []
        case .loaded(let accounts):
            let keep = state.selectAfterLoad ?? state.selectedAccount?.name
            state.selectAfterLoad = nil
            state.accounts = accounts
            state.loading = false
            state.loaded = true
            state.selected = TableCursor.position(of: keep, in: accounts, id: \.name)
            keepSelectionShown(&state)
            if state.notice?.kind == .working { state.notice = nil }
            return []
        case .loadFailed(let message):
            state.loading = false
            state.notice = .error(tr("console.staff.loadFailed", ["message": message]))
            return []
        case .added(let account):
            state.form = nil
            state.notice = .ok(
                tr("console.staff.added", ["name": account.name, "role": ConsoleApp.roleName(account.role)]))
            state.selectAfterLoad = account.name
            return reload(&state)
        case .disabled(let account):
            state.disabling = nil
            state.notice = .ok(tr("console.staff.disabled", ["name": account.name]))
            return reload(&state)
        case .passwordReset(let account):
            state.form = nil
            state.notice = .ok(tr("console.staff.passwordSet", ["name": account.name]))
            return reload(&state)
        case .changeFailed(let message):
            if var form = state.form, form.submitting {
                form.submitting = false
                form.notice = .error(message)
                state.form = form
            } else {
                state.disabling = nil
                state.notice = .error(message)
            }
            return []
        }
    }

    /// Loading on entering the screen (and on `r`).
    public static func reload(_ state: inout State) -> [Command] {
        state.loading = true
        return [.load]
    }

    /// Moves the selection; a message about the account left behind goes with it (one still
    /// being worked on stays).
    private static func select(_ state: inout State, _ row: Int) {
        guard row != state.selected else { return }
        state.selected = row
        if state.notice?.kind != .working { state.notice = nil }
    }

    /// The selection moves `rows` rows among those shown.
    private static func move(_ state: inout State, by rows: Int) {
        let shown = state.visible
        guard !shown.isEmpty else { return }
        let position = state.selectedPosition(in: shown) ?? 0
        select(&state, shown[TableCursor.position(position, by: rows, count: shown.count)])
    }

    /// After the filter changed: the selection stays on its row while it is shown, else it
    /// goes to the first row shown.
    static func keepSelectionShown(_ state: inout State) {
        let shown = state.visible
        if state.selectedPosition(in: shown) == nil, let first = shown.first { select(&state, first) }
    }

    private static func perform(_ state: inout State, _ action: Action) -> [Command] {
        switch action {
        case .move(let move) where move == .top || move == .bottom:
            let shown = state.visible
            if !shown.isEmpty { select(&state, move == .top ? shown[0] : shown[shown.count - 1]) }
        case .move(let move):
            self.move(&state, by: TableCursor.rows(move))
        case .filter:
            state.filter.editing = true
        case .clearFilter:
            state.filter = ListFilter()
        case .copy:
            guard let account = state.selectedAccount else {
                state.notice = CopyResult.nothing(tr("console.staff.nothingToCopy")).notice
                return []
            }
            return [
                .copy(
                    .row(
                        cells(account, state.timeZone).map(\.text),
                        what: tr("console.his.rowOf", ["name": account.name])))
            ]
        case .reload:
            state.notice = nil
            return reload(&state)
        case .quit:
            return [.quit]
        case .add:
            state.form = Form(kind: .add)
        case .resetPassword:
            guard let account = state.selectedAccount else {
                state.notice = .error(tr("console.staff.noneSelectedAdd"))
                return []
            }
            state.form = Form(kind: .resetPassword(account.name))
        case .disable:
            guard let account = state.selectedAccount else {
                state.notice = .error(tr("console.staff.noneSelected"))
                return []
            }
            if account.name == state.signedInAs {
                // Refused at once, as the desk would refuse it: no irreversible-action dialog first.
                state.notice = .error(tr("console.staff.notYourOwn"))
                return []
            }
            if account.disabled {
                state.notice = .info(tr("console.staff.alreadyDisabled", ["name": account.name]))
                return []
            }
            state.confirmTarget = account.name
            state.confirm = DialogState.confirm(
                title: tr("console.staff.disableTitle", ["name": account.name]),
                message:
                    tr(
                        "console.staff.disableMessage",
                        ["name": account.name, "role": ConsoleApp.roleName(account.role)]),
                confirm: tr("console.staff.disableConfirm", ["name": account.name]), cancel: tr("console.his.keep"))
        }
        return []
    }

    private static func handleConfirmKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var dialog = state.confirm else { return [] }
        let outcome = dialog.handle(key)
        state.confirm = dialog
        switch outcome {
        case .chosen(0):
            let name = state.confirmTarget ?? ""
            state.confirm = nil
            state.confirmTarget = nil
            state.disabling = name
            state.notice = .working(tr("console.staff.disabling", ["name": name]))
            return [.disable(name: name)]
        case .chosen, .cancelled:
            state.confirm = nil
            state.confirmTarget = nil
            return []
        case .changed, .unchanged, .notHandled:
            return []
        }
    }

    private static func handleFormKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var form = state.form else { return [] }
        switch form.handle(key) {
        case .cancelled:
            state.form = nil
            return []
        case .submit(let command):
            state.form = form
            return [command]
        case .edited:
            state.form = form
            return []
        }
    }
}
