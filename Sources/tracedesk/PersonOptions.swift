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

    static let valueOptions: Set<String> = ["user", "server"]
    static let flagOptions: Set<String> = ["password-stdin"]

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

/// Options given before the subcommand.
enum Globals {
    nonisolated(unsafe) static var person = PersonOptions()
    /// `--lang en|it`, before the subcommand: the language of this run's screens and output.
    nonisolated(unsafe) static var language: String?

    /// Takes `--server`, `--user`, `--lang` and `--password-stdin` off the front of `words`; returns the
    /// rest (from the first other word on, `--store` included, for the subcommand).
    static func extract(_ words: [String]) throws(UsageError) -> [String] {
        var rest = words[...]
        while let word = rest.first, word.hasPrefix("--") {
            var name = String(word.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if PersonOptions.valueOptions.contains(name) {
                rest = rest.dropFirst()
                guard let value = inline ?? rest.first else {
                    throw UsageError("option --\(name) needs a value", command: "tracedesk")
                }
                if inline == nil { rest = rest.dropFirst() }
                if name == "server" { person.server = value } else { person.user = value }
            } else if name == "lang" {
                rest = rest.dropFirst()
                guard let value = inline ?? rest.first else {
                    throw UsageError("option --lang needs a value: en or it", command: "tracedesk")
                }
                if inline == nil { rest = rest.dropFirst() }
                guard ConsoleSettings.languages.contains(value) else {
                    throw UsageError(
                        "--lang must be one of \(ConsoleSettings.languages.joined(separator: ", ")), got '\(terminalSafe(String(value.prefix(20))))'",
                        command: "tracedesk")
                }
                language = value
            } else if name == "password-stdin" {
                rest = rest.dropFirst()
                person.passwordStdin = true
            } else {
                break
            }
        }
        return Array(rest)
    }
}
