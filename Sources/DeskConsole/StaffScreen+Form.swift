import DeskCore
import DeskText
import TerminalKit

extension StaffScreen {
    /// The add-account form (name, role, password twice) or the new-password form (password
    /// twice), checked as typed with the same rules the desk applies.
    /// Privacy: holds typed passwords; never log it.
    public struct Form: Hashable, Sendable {
        public enum Kind: Hashable, Sendable {
            case add
            /// A new password for the named account.
            case resetPassword(String)
        }

        public enum Field: Hashable, Sendable { case name, role, password, again }

        public enum Edit: Hashable, Sendable {
            case edited
            case cancelled
            case submit(Command)
        }

        public var kind: Kind
        public var name: TextFieldState
        public var role: StaffRole = .operator
        public var password: TextFieldState
        public var again: TextFieldState
        public var focus: Field
        /// Sent to the desk, not answered yet.
        public var submitting = false
        /// What the desk said, or what to fix before sending.
        public var notice: Notice?

        public init(kind: Kind) {
            self.kind = kind
            name = ConsoleText.nameField()
            password = ConsoleText.passwordField()
            again = ConsoleText.passwordField()
            focus = kind == .add ? .name : .password
        }

        public var fields: [Field] { kind == .add ? [.name, .role, .password, .again] : [.password, .again] }

        public var title: String {
            switch kind {
            case .add: return tr("console.staff.addTitle")
            case .resetPassword(let name): return tr("console.staff.resetTitle", ["name": name])
            }
        }

        /// The account name as it will be stored, when acceptable.
        public var accountName: String? {
            switch kind {
            case .resetPassword(let name): return name
            case .add:
                guard case .success(let normalized) = StaffName.normalize(name.text) else { return nil }
                return normalized
            }
        }

        public var nameProblem: String? {
            guard kind == .add, !name.text.isEmpty, case .failure(let problem) = StaffName.normalize(name.text)
            else { return nil }
            return problem.message
        }

        public var passwordProblem: String? {
            guard !password.text.isEmpty else { return nil }
            return PasswordRules.problem(password.text, user: accountName ?? name.text)?.message
        }

        /// "the two passwords differ", but not while the second is still a prefix of the first.
        public var againProblem: String? {
            guard !again.text.isEmpty, again.text != password.text else { return nil }
            return again.text.count < password.text.count && password.text.hasPrefix(again.text)
                ? nil : tr("console.firstadmin.differ")
        }

        public static var keyMap: KeyMap<FormAction> {
            FormFocus.keyMap(submitHelp: tr("console.staff.key.save"), submitName: "save")
        }

        /// Keys of the role picker (when it has the focus).
        public static var roleKeyMap: KeyMap<RoleAction> {
            KeyMap([
                Binding(
                    [.right, .char(" "), .char("l")], .next, help: tr("console.staff.key.nextRole"),
                    group: tr("console.staff.group.role")),
                Binding(
                    [.left, .char("h")], .previous, help: tr("console.staff.key.previousRole"),
                    group: tr("console.staff.group.role")),
                Binding(
                    [.char("o")], .pick(.operator), help: tr("console.staff.key.operator"),
                    group: tr("console.staff.group.role"), shownInFooter: false),
                Binding(
                    [.char("t")], .pick(.tracer), help: tr("console.staff.key.tracer"),
                    group: tr("console.staff.group.role"), shownInFooter: false),
                Binding(
                    [.char("s")], .pick(.supervisor), help: tr("console.staff.key.supervisor"),
                    group: tr("console.staff.group.role"), shownInFooter: false),
                Binding(
                    [.char("a")], .pick(.admin), help: tr("console.staff.key.admin"),
                    group: tr("console.staff.group.role"), shownInFooter: false),
            ])
        }

        public mutating func handle(_ key: Key) -> Edit {
            if submitting { return .edited }
            if let action = Self.keyMap.action(for: key) {
                switch action {
                case .cancel: return .cancelled
                case .nextField: focus = FormFocus.step(focus, by: 1, in: fields)
                case .previousField: focus = FormFocus.step(focus, by: -1, in: fields)
                case .submit: return submit()
                }
                return .edited
            }
            var cut: String?
            switch focus {
            case .name:
                let edit = name.handle(key)
                cut = FieldLimit.cut(name, by: key, edit).map { tr("console.firstadmin.nameCut", ["problem": $0]) }
            case .password: _ = password.handle(key)
            case .again: _ = again.handle(key)
            case .role:
                let roles = StaffRole.allCases
                let index = roles.firstIndex(of: role) ?? 0
                switch Self.roleKeyMap.action(for: key) {
                case .next: role = roles[(index + 1) % roles.count]
                case .previous: role = roles[(index + roles.count - 1) % roles.count]
                case .pick(let picked): role = picked
                case nil: break
                }
            }
            if notice?.kind == .error { notice = nil }
            if let cut { notice = .error(cut) }
            return .edited
        }

        /// Enter: the next field until the last; there, the command, or what to fix first.
        private mutating func submit() -> Edit {
            guard FormFocus.advance(&focus, in: fields) else { return .edited }
            if kind == .add, case .failure(let problem) = StaffName.normalize(name.text) {
                focus = .name
                notice = .error(problem.message)
                return .edited
            }
            let account = accountName ?? ""
            if let problem = PasswordRules.problem(password.text, user: account) {
                focus = .password
                notice = .error(problem.message)
                return .edited
            }
            guard again.text == password.text else {
                focus = .again
                notice = .error(tr("console.firstadmin.differTwice"))
                return .edited
            }
            submitting = true
            switch kind {
            case .add:
                notice = .working(tr("console.his.adding", ["name": account]))
                return .submit(.add(name: account, role: role, password: password.text))
            case .resetPassword(let target):
                notice = .working(tr("console.staff.settingPassword", ["name": target]))
                return .submit(.resetPassword(name: target, password: password.text))
            }
        }
    }

    public typealias FormAction = FormFocus.Action
    public enum RoleAction: Hashable, Sendable {
        case next, previous
        case pick(StaffRole)
    }
}
