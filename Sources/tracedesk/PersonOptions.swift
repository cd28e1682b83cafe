import DeskContract
import DeskCore
import DeskStore
import Foundation

/// Who a command acts for, and where: `--user NAME` (or `TRACEDESK_USER`), the password (asked on
/// the terminal without echo, or the first line of stdin with `--password-stdin`), and the
/// embedded store (`--store`) or a server (`--server URL`).
///
/// These options may come before the subcommand (`tracedesk --server URL --user ana otp …`) or
/// after it; ``Globals/extract(_:)`` takes the leading ones off.
struct PersonOptions {
    var server: String?
    var user: String?
    var passwordStdin = false

    /// The global person options of the table of commands (DeskCLI's CommandTable).
    static let valueOptions = Set(CommandTable.personOptions.filter { !$0.isFlag }.map(\.name))
    static let flagOptions = Set(CommandTable.personOptions.filter(\.isFlag).map(\.name))

    /// The options given to the subcommand, over those given before it.
    func merged(with arguments: Arguments) -> PersonOptions {
        var out = self
        if let server = arguments.values["server"] { out.server = server }
        if let user = arguments.values["user"] { out.user = user }
        if arguments.has("password-stdin") { out.passwordStdin = true }
        return out
    }

    var userName: String? {
        if let user, !user.isEmpty { return user }
        if let user = ProcessInfo.processInfo.environment["TRACEDESK_USER"], !user.isEmpty { return user }
        return nil
    }
}

/// Options given before the subcommand: the table's global options (CommandTable.globalOptions).
enum Globals {
    nonisolated(unsafe) static var person = PersonOptions()
    /// `--lang en|it`, before the subcommand: the language of this run's screens and output.
    nonisolated(unsafe) static var language: String?

    /// Takes the global options (`--server`, `--user`, `--lang`, `--password-stdin`) off the front
    /// of `words`; returns the rest (from the first other word on, `--store` included, for the
    /// subcommand).
    static func extract(_ words: [String]) throws(UsageError) -> [String] {
        var rest = words[...]
        while let word = rest.first, word.hasPrefix("--") {
            var name = String(word.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = CommandTable.globalOptions.first(where: { $0.name == name }) else { break }
            rest = rest.dropFirst()
            if option.isFlag {
                if inline != nil {
                    throw UsageError(tr("cli.usage.takesNoValue", ["option": name]), command: "tracedesk")
                }
                person.passwordStdin = true
                continue
            }
            guard let value = inline ?? rest.first else {
                guard option.allowed.isEmpty else {
                    throw UsageError(
                        tr("cli.usage.needsValueOf", ["option": name, "allowed": CommandTable.list(option.allowed)]),
                        command: "tracedesk")
                }
                throw UsageError(tr("cli.usage.needsValue", ["option": name]), command: "tracedesk")
            }
            if inline == nil { rest = rest.dropFirst() }
            if !option.allowed.isEmpty, !option.allowed.contains(value) {
                throw UsageError(
                    tr(
                        "cli.usage.oneOf",
                        [
                            "option": name, "allowed": option.allowed.joined(separator: ", "),
                            "value": terminalSafe(String(value.prefix(20))),
                        ]),
                    command: "tracedesk")
            }
            switch name {
            case "server": person.server = value
            case "user": person.user = value
            default: language = value
            }
        }
        return Array(rest)
    }
}
