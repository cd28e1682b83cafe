import DeskContract
import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The admin's hospital systems (HIS clients): a table (name, state, rate limit, created,
/// created by, revoked), and keys to add a client (its API key is shown once, in a panel that
/// stays until dismissed) and to revoke one (after a confirm dialog that names it).
///
/// `/` filters the list in place by name or state (``ListFilter``); `y` copies the selected row.
/// The desk enforces every rule (admin only, names, rates); this screen shows its messages.
/// Pure: ``update(_:_:)`` returns commands; the program runs them through the ``DeskService``.
/// Privacy: ``State/shownKey`` holds an API key until dismissed; never log the state.
public enum HISScreen {
    public struct State: Hashable, Sendable {
        public var clients: [HISClient] = []
        /// Index into ``clients``.
        public var selected = 0
        public var loading = false
        public var loaded = false
        public var notice: Notice?
        public var form: Form?
        public var confirm: DialogState?
        public var confirmTarget: String?
        /// A client just added and its key: shown once, forgotten when dismissed.
        public var shownKey: NewHISClient?
        public var timeZone: TimeZone
        /// `/`: the rows shown.
        public var filter = ListFilter()

        public init(timeZone: TimeZone = .current) {
            self.timeZone = timeZone
        }

        /// Indices into ``clients`` of the rows shown (the filter's).
        public var visible: [Int] { clients.indices.filter { filter.matches(HISScreen.searchText(clients[$0])) } }

        /// The selected row's position among those shown; nil when it is not shown.
        public func selectedPosition(in visible: [Int]) -> Int? { visible.firstIndex(of: selected) }

        public var selectedClient: HISClient? {
            guard clients.indices.contains(selected) else { return nil }
            return filter.isActive && !filter.matches(HISScreen.searchText(clients[selected])) ? nil : clients[selected]
        }

        /// A form, a dialog or the key panel is open: it takes every key.
        public var isModal: Bool { form != nil || confirm != nil || shownKey != nil }
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        case rowClicked(Int)
        case loaded([HISClient])
        case loadFailed(String)
        case added(NewHISClient)
        case revoked(HISClient)
        case changeFailed(String)
        case copied(CopyResult)
    }

    public enum Command: Hashable, Sendable {
        case load
        case add(name: String, ratePerMinute: Int?)
        case revoke(name: String)
        /// `y`: the selected row as text.
        case copy(ClipboardCopy)
        case quit
    }

    public enum Action: Hashable, Sendable {
        case move(TableCursor.Move)
        case add, revoke, reload, filter, clearFilter, copy, quit
    }

    /// What the filter searches in a client: name, actor, state, who created it.
    static func searchText(_ client: HISClient) -> String {
        "\(client.name) \(client.actor) \(client.stateName) \(stateText(client)) \(client.createdBy)".lowercased()
    }

    /// A client's state in words ("active", "attivo"); the store's name stays English.
    static func stateText(_ client: HISClient) -> String { tr("console.his.state.\(client.stateName)") }

    public static var keyMap: KeyMap<Action> {
        KeyMap([
            Binding([.char("a"), .insert], .add, help: tr("console.his.key.add"), name: "add"),
            Binding([.char("x"), .delete], .revoke, help: tr("console.his.key.revoke"), name: "revoke"),
            Binding(
                [.char("/")], .filter, help: tr("console.his.key.filter"), footer: tr("console.frame.hint.filter"),
                name: "filter"),
            Binding(
                [.escape], .clearFilter, help: tr("console.frame.filter.clear"), shownInFooter: false, name: "back"),
            Binding([.char("y")], .copy, help: tr("console.his.key.copy"), shownInFooter: false, name: "copy"),
            Binding(
                [.char("r"), .function(5)], .reload, help: tr("console.his.key.reload"), shownInFooter: false,
                name: "reload"),
            Binding([.up, .char("k")], .move(.up), help: tr("console.his.key.previous"), shownInFooter: false),
            Binding([.down, .char("j")], .move(.down), help: tr("console.his.key.next"), shownInFooter: false),
            Binding([.home, .char("g")], .move(.top), help: tr("console.his.key.first"), shownInFooter: false),
            Binding([.end, .char("G")], .move(.bottom), help: tr("console.his.key.last"), shownInFooter: false),
            Binding([.char("q")], .quit, help: tr("console.frame.hint.quit"), shownInFooter: false, name: "quit"),
        ])
    }

    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .keyPressed(let key):
            if state.shownKey != nil {
                // Only Enter or Esc put the key away: a stray key must not hide it unread.
                if key == .enter || key == .escape { state.shownKey = nil }
                return []
            }
            if state.confirm != nil { return handleConfirmKey(&state, key) }
            if var form = state.form {
                let edit = form.handle(key)
                state.form = form
                switch edit {
                case .cancelled: state.form = nil
                case .submit(let command): return [command]
                case .edited: break
                }
                return []
            }
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
            state.selected = shown[row]
            return []
        case .copied(let result):
            state.notice = result.notice
            return []
        case .loaded(let clients):
            let keep = state.selectedClient?.name
            state.clients = clients
            state.loading = false
            state.loaded = true
            state.selected = TableCursor.position(of: keep, in: clients, id: \.name)
            keepSelectionShown(&state)
            if state.notice?.kind == .working { state.notice = nil }
            return []
        case .loadFailed(let message):
            state.loading = false
            state.notice = .error(tr("console.his.loadFailed", ["message": message]))
            return []
        case .added(let added):
            state.form = nil
            state.shownKey = added
            state.notice = .ok(tr("console.his.added", ["name": added.client.name, "actor": added.client.actor]))
            return reload(&state)
        case .revoked(let client):
            state.notice = .ok(tr("console.his.revoked", ["name": client.name]))
            return reload(&state)
        case .changeFailed(let message):
            if var form = state.form, form.submitting {
                form.submitting = false
                form.notice = .error(message)
                state.form = form
            } else {
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

    /// After the filter changed: the selection stays on its row while it is shown, else it
    /// goes to the first row shown.
    static func keepSelectionShown(_ state: inout State) {
        let shown = state.visible
        if state.selectedPosition(in: shown) == nil, let first = shown.first { state.selected = first }
    }

    private static func perform(_ state: inout State, _ action: Action) -> [Command] {
        switch action {
        case .move(let move):
            let shown = state.visible
            guard !shown.isEmpty else { return [] }
            let position = TableCursor.position(state.selectedPosition(in: shown) ?? 0, after: move, count: shown.count)
            state.selected = shown[position]
        case .filter:
            state.filter.editing = true
        case .clearFilter:
            state.filter = ListFilter()
        case .copy:
            guard let client = state.selectedClient else {
                state.notice = CopyResult.nothing(tr("console.his.nothingToCopy")).notice
                return []
            }
            return [
                .copy(
                    .row(
                        cells(client, state.timeZone).map(\.text), what: tr("console.his.rowOf", ["name": client.name]))
                )
            ]
        case .reload:
            state.notice = nil
            return reload(&state)
        case .quit: return [.quit]
        case .add: state.form = Form()
        case .revoke:
            guard let client = state.selectedClient else {
                state.notice = .error(tr("console.his.noneSelected"))
                return []
            }
            if client.isRevoked {
                state.notice = .info(tr("console.his.alreadyRevoked", ["name": client.name]))
                return []
            }
            state.confirmTarget = client.name
            state.confirm = DialogState.confirm(
                title: tr("console.his.revokeTitle", ["name": client.name]),
                message:
                    tr("console.his.revokeMessage", ["name": client.name]),
                confirm: tr("console.his.revokeConfirm", ["name": client.name]), cancel: tr("console.his.keep"))
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
            state.notice = .working(tr("console.his.revoking", ["name": name]))
            return [.revoke(name: name)]
        case .chosen, .cancelled:
            state.confirm = nil
            state.confirmTarget = nil
            return []
        case .changed, .unchanged, .notHandled:
            return []
        }
    }

    /// The add form: a name (staff-name rules) and an optional rate limit, checked as typed.
    public struct Form: Hashable, Sendable {
        public enum Field: Hashable, Sendable { case name, rate }
        public enum Edit: Hashable, Sendable {
            case edited, cancelled
            case submit(Command)
        }

        public var name = ConsoleText.nameField()
        public var rate = TextFieldState(maxLength: 7, transform: .digits)
        public var focus = Field.name
        /// In the order Tab goes through them.
        static let fields: [Field] = [.name, .rate]
        public var submitting = false
        public var notice: Notice?

        public init() {}

        public var clientName: String? {
            guard case .success(let normalized) = HISClientName.normalize(name.text) else { return nil }
            return normalized
        }

        public var nameProblem: String? {
            guard !name.text.isEmpty, case .failure(let problem) = HISClientName.normalize(name.text) else {
                return nil
            }
            return problem.message
        }

        /// Nil: empty (the server's setting) or acceptable.
        public var rateProblem: String? {
            guard !rate.text.isEmpty else { return nil }
            guard let value = Int(rate.text), HISRate.allowed.contains(value) else {
                return tr(
                    "console.his.rateRange",
                    ["low": String(HISRate.allowed.lowerBound), "high": String(HISRate.allowed.upperBound)])
            }
            return nil
        }

        public typealias FormAction = FormFocus.Action

        /// The form's keys besides typing (help and the key conventions test read them).
        public static var keyMap: KeyMap<FormAction> {
            FormFocus.keyMap(submitHelp: tr("console.his.key.submit"), submitName: "add")
        }

        public mutating func handle(_ key: Key) -> Edit {
            if submitting { return .edited }
            switch Self.keyMap.action(for: key) {
            case .cancel: return .cancelled
            case .nextField:
                focus = FormFocus.step(focus, by: 1, in: Self.fields)
                return .edited
            case .previousField:
                focus = FormFocus.step(focus, by: -1, in: Self.fields)
                return .edited
            case .submit:
                guard FormFocus.advance(&focus, in: Self.fields) else { return .edited }
                guard let clientName else {
                    focus = .name
                    notice = .error(nameProblem ?? tr("console.his.typeName"))
                    return .edited
                }
                if let rateProblem {
                    notice = .error(tr("console.his.rateIs", ["problem": rateProblem]))
                    return .edited
                }
                submitting = true
                notice = .working(tr("console.his.adding", ["name": clientName]))
                return .submit(.add(name: clientName, ratePerMinute: Int(rate.text)))
            case nil:
                var cut: String?
                switch focus {
                case .name:
                    let edit = name.handle(key)
                    cut = FieldLimit.cut(name, by: key, edit).map { tr("console.firstadmin.nameCut", ["problem": $0]) }
                case .rate: _ = rate.handle(key)
                }
                if notice?.kind == .error { notice = nil }
                if let cut { notice = .error(cut) }
                return .edited
            }
        }
    }
}
