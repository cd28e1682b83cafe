import DeskContract
import DeskText

/// A command line split into positionals, options with values and flags.
///
/// Deliberately small: the binary has a handful of subcommands, each declaring which options
/// take a value and which are flags, and every mistake becomes a ``UsageError`` that says
/// what to type instead.
package struct Arguments {
    package var positionals: [String] = []
    package var values: [String: String] = [:]
    package var flags: Set<String> = []
    /// The table's options the words were parsed with, by name (``init(_:_:verb:command:)``).
    package var table: [String: CLIOption] = [:]

    /// Parses `words` given the option names (without dashes) that take a value and those that
    /// do not. Accepts `--name value` and `--name=value`; `--` ends the options.
    package init(_ words: [String], valueOptions: Set<String>, flagOptions: Set<String>, command: String)
        throws(UsageError)
    {
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            if word == "-h" {
                flags.insert("help")
                continue
            }
            guard word.hasPrefix("--") else {
                throw UsageError(tr("cli.usage.unknownOption", ["option": word, "command": command]), command: command)
            }
            var name = String(word.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if valueOptions.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else if index < words.count {
                    values[name] = words[index]
                    index += 1
                } else {
                    throw UsageError(tr("cli.usage.needsValue", ["option": name]), command: command)
                }
            } else if flagOptions.contains(name) || name == "help" {
                if inlineValue != nil {
                    throw UsageError(tr("cli.usage.takesNoValue", ["option": name]), command: command)
                }
                flags.insert(name)
            } else if CommandTable.leadingOnly.contains(name) {
                // --lang is read before the command only (as `tracedesk --help` says): say where.
                let given = inlineValue ?? (index < words.count && !words[index].hasPrefix("-") ? words[index] : nil)
                throw UsageError(
                    tr(
                        "cli.usage.beforeCommand",
                        ["option": name, "value": given ?? "en|it", "command": command]),
                    command: command)
            } else {
                throw UsageError(
                    tr("cli.usage.unknownOption", ["option": "--" + name, "command": command]), command: command)
            }
        }
    }

    package func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The whole number given to `--name` (inside `range`), or `fallback` when the option is
    /// absent; anything else is a usage error naming the range.
    package func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int>, command: String)
        throws(UsageError)
        -> Int
    {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                tr(
                    "cli.usage.wholeNumber",
                    [
                        "option": name, "low": String(range.lowerBound), "high": String(range.upperBound),
                        "value": text,
                    ]), command: command)
        }
        return value
    }
}

/// A mistake on the command line; printed with a pointer to `--help`, exit status 2.
package struct UsageError: Error {
    package let message: String
    package let command: String
    package init(_ message: String, command: String) {
        self.message = message
        self.command = command
    }
}

/// Exit statuses: the table of commands (CommandTable) documents each command's from these
/// cases, so no help or man page can name a status the code lacks.
package enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// The input was refused (invalid code, bad date…); the reason is on stderr.
    case refused = 1
    case usage = 2
    /// `otp authorize`: an earlier authorisation of the code is still running.
    case alreadyAuthorized = 3
    /// The store could not be used (locked, damaged, not a TraceDesk file…), or the server
    /// could not be reached.
    case storeUnavailable = 4
    /// `serve`: a listener could not be bound (address in use, not allowed, no such address).
    case cannotListen = 5
    /// Sign-in failed, the session ended, or the person's role does not allow the command.
    case notAllowed = 6
    /// `audit verify`: the hash chain is broken.
    case auditBroken = 7
    /// `demo`, `simulate`: stopped by a signal, the shells' 128 + its number (SIGHUP, SIGINT,
    /// SIGTERM) after the command's clean-up and summary.
    case hangUp = 129
    case interrupted = 130
    case terminated = 143
}

extension ExitStatus {
    /// The exit status for a use case that could not run.
    package init(_ error: ServiceError) {
        switch error {
        case .invalid, .conflict: self = .refused
        case .unavailable, .failed: self = .storeUnavailable
        case .notSignedIn, .forbidden, .signInFailed: self = .notAllowed
        }
    }
}

extension ExitStatus: Error {}
