import DeskCore
import DeskText
import TerminalKit

/// `tracedesk demo` only: the demo's accounts and the simulated patients' numbers, which the
/// demo prints before the console opens and the console then covers. Help shows them, and so
/// does their own key (``keyMap``), even on the lock screen (its password was never typed by
/// anyone). Privacy: demo passwords of a throw-away store, never real ones.
public struct DemoAccounts: Hashable, Sendable {
    public struct Account: Hashable, Sendable {
        public var role: StaffRole
        public var name: String
        public var password: String
        public init(role: StaffRole, name: String, password: String) {
            self.role = role
            self.name = name
            self.password = password
        }
    }

    public var accounts: [Account]
    /// Phone numbers of the positive patients, for the tracer's lookup.
    public var patients: [String]
    /// Where the demo also wrote them (a file only this user can read); nil: not written.
    public var file: String?

    public init(accounts: [Account], patients: [String] = [], file: String? = nil) {
        self.accounts = accounts
        self.patients = patients
        self.file = file
    }

    public enum Action: Hashable, Sendable { case show }

    /// F8 shows the accounts wherever the console is (letters would be typed into a field).
    public static var keyMap: KeyMap<Action> {
        KeyMap([
            Binding(
                [.function(8)], .show, help: tr("console.frame.demo.key"), group: tr("console.frame.group.demo"),
                name: "accounts")
        ])
    }

    /// The help sections: accounts (name, role and password), patients, and the file.
    public var helpSections: [HelpSection] {
        var sections = [
            HelpSection(
                group: tr("console.frame.demo.accounts"),
                rows: accounts.map {
                    HelpRow(
                        keys: $0.name,
                        help: tr(
                            "console.frame.demo.account",
                            ["role": ConsoleApp.roleName($0.role), "password": $0.password]))
                })
        ]
        if !patients.isEmpty {
            sections.append(
                HelpSection(
                    group: tr("console.frame.demo.patients"),
                    rows: patients.map { HelpRow(keys: "", help: $0) }))
        }
        if let file {
            sections.append(HelpSection(group: tr("console.frame.demo.file"), rows: [HelpRow(keys: "", help: file)]))
        }
        return sections
    }
}
