import DeskContract
import DeskCore
import DeskText

/// What an option's value completes to in a shell.
package enum ValueKind: Sendable, Hashable {
    case text
    case file
    case folder
}

/// One option of a command: its name (without dashes), its value's metavariable (nil: a flag),
/// its default, the values it allows, what its value is, and the catalogue key of its
/// description.
package struct CLIOption: Sendable, Hashable {
    package let name: String
    package let metavar: String?
    package let defaultValue: String?
    package let allowed: [String]
    /// The word the parser's refusal names the value with: "unknown reason 'x': use …".
    package let valueWord: String
    /// False when the allowed values are not all there are (themes: the built-in names are
    /// documented and completed, and an installed theme may add others, which the command finds).
    package let parserChecks: Bool
    /// The whole numbers a value may be: the parser refuses any other, and help and man pages say
    /// the range and the default after the description (``describedText``).
    package let range: ClosedRange<Int>?
    /// Whether the verb cannot run without it (the synopsis shows it unbracketed).
    package let required: Bool
    package let kind: ValueKind
    package let key: String

    package init(
        _ name: String, _ metavar: String? = nil, default defaultValue: String? = nil, allowed: [String] = [],
        word: String? = nil, parserChecks: Bool = true, range: ClosedRange<Int>? = nil, required: Bool = false,
        kind: ValueKind = .text, key: String
    ) {
        self.name = name
        self.metavar = metavar
        self.defaultValue = defaultValue
        self.allowed = allowed
        self.valueWord = word ?? name
        self.parserChecks = parserChecks
        self.range = range
        self.required = required
        self.kind = kind
        self.key = key
    }

    /// Its description in the run's language; a ranged option's followed by its range and default
    /// from the table ("…, 1 to 600 (default 10)").
    package var describedText: String {
        var text = CommandTable.text(key)
        if let range {
            text += tr("cli.bench.help.range", ["low": String(range.lowerBound), "high": String(range.upperBound)])
        }
        if range != nil, let defaultValue { text += tr("cli.bench.help.default", ["value": defaultValue]) }
        return text
    }

    /// The synopsis form: `--name META` when required, `[--name a|b]` for allowed values,
    /// `[--name DEFAULT]`, `[--name META]`, `[--flag]`.
    package var synopsisWord: String {
        if isFlag { return "[--\(name)]" }
        if required { return spelled }
        if !allowed.isEmpty { return "[--\(name) \(allowed.joined(separator: "|"))]" }
        return "[--\(name) \(defaultValue ?? metavar ?? "")]"
    }

    package var isFlag: Bool { metavar == nil }

    /// The same option with its allowed values documented and completed but not checked (a
    /// command-wide form whose verbs differ: `case add --reason` is free text, `case close`'s is not).
    package var freeText: CLIOption {
        CLIOption(
            name, metavar, default: defaultValue, allowed: allowed, word: valueWord, parserChecks: false, range: range,
            required: required, kind: kind, key: key)
    }

    /// `--name META` as help and man pages show it.
    package var spelled: String { metavar.map { "--\(name) \($0)" } ?? "--\(name)" }
}

/// A verb of a command family (`case open`), or the command itself when it has none (name "").
package struct CLIVerb: Sendable, Hashable {
    package let name: String
    /// The usage lines, each a whole `tracedesk …` line.
    package let synopsis: [String]
    /// The catalogue key of what it does (nil: the command's notes say it).
    package let key: String?
    /// The options this verb takes, by name; nil: every option of the command.
    package let options: [String]?

    /// This verb's own forms of options of its command (its default, range, allowed values,
    /// whether it is required); with no `options` named, they are the verb's options.
    package let own: [CLIOption]
    /// Paragraphs the verb's own help (and the man page, under the verb) adds, by catalogue key.
    package let notes: [String]

    package init(
        _ name: String, _ synopsis: [String], key: String?, options: [String]? = nil, own: [CLIOption] = [],
        notes: [String] = []
    ) {
        self.name = name
        self.synopsis = synopsis
        self.key = key
        self.options = options
        self.own = own
        self.notes = notes
    }
}

/// An exit status a command uses, with the catalogue key of what it means there.
package struct CLIExit: Sendable, Hashable {
    package let status: ExitStatus
    package let key: String
    package init(_ status: ExitStatus, _ key: String) {
        self.status = status
        self.key = key
    }
}

/// One command of the `tracedesk` binary (`case`, `serve`, …), the console included (name "").
package struct CLICommand: Sendable, Hashable {
    package let name: String
    package let aliases: [String]
    /// The man page it is described in: `tracedesk-PAGE(SECTION)`.
    package let page: String
    package let section: Int
    /// Its lines in `tracedesk --help`.
    package let overview: [String]
    package let summaryKey: String
    package let verbs: [CLIVerb]
    package let options: [CLIOption]
    /// Paragraphs after the options, by catalogue key.
    package let notes: [String]
    package let exits: [CLIExit]
    /// Whether the global person options (--user, --server, --password-stdin) are also its own.
    package let takesPerson: Bool
    /// Whether each verb has help of its own (`tracedesk bench seed --help`, ``HelpText/verb(_:_:)``),
    /// its own forms of options listed under it in the man page.
    package let verbHelp: Bool

    package init(
        _ name: String, aliases: [String] = [], page: String? = nil, section: Int, overview: [String],
        summary: String, verbs: [CLIVerb], options: [CLIOption], notes: [String] = [], exits: [CLIExit],
        takesPerson: Bool = false, verbHelp: Bool = false
    ) {
        self.name = name
        self.aliases = aliases
        self.page = page ?? name
        self.section = section
        self.overview = overview
        self.summaryKey = summary
        self.verbs = verbs
        self.options = options
        self.notes = notes
        self.exits = exits
        self.takesPerson = takesPerson
        self.verbHelp = verbHelp
    }

    /// Its options and, when it takes a person, the global person options.
    package var allOptions: [CLIOption] {
        takesPerson
            ? options + CommandTable.personOptions.filter { p in !options.contains { $0.name == p.name } }
            : options
    }

    package var valueOptions: Set<String> { Set(allOptions.filter { !$0.isFlag }.map(\.name)) }
    package var flagOptions: Set<String> { Set(allOptions.filter(\.isFlag).map(\.name)) }

    package func option(_ name: String) -> CLIOption? { allOptions.first { $0.name == name } }

    /// The options `verb` takes (all of the command's when the verb names none and has none of
    /// its own), each in the verb's own form where it has one.
    package func options(of verb: CLIVerb) -> [CLIOption] {
        guard let names = verb.options ?? (verb.own.isEmpty ? nil : verb.own.map(\.name)) else { return allOptions }
        let own = names.compactMap { name in
            verb.own.first { $0.name == name } ?? allOptions.first { $0.name == name }
        }
        return takesPerson ? own + CommandTable.personOptions.filter { p in !own.contains { $0.name == p.name } } : own
    }

    /// The verb named `name` ("" for a command without verbs).
    package func verb(_ name: String) -> CLIVerb? { verbs.first { $0.name == name } }

    /// A verb's usage lines: the table's, or made from its options (`tracedesk bench render
    /// [--width 200] …`) when it gives none.
    package func synopsis(of verb: CLIVerb) -> [String] {
        guard verb.synopsis.isEmpty, !verb.own.isEmpty else { return verb.synopsis }
        let words = ["tracedesk", self.name, verb.name].filter { !$0.isEmpty } + options(of: verb).map(\.synopsisWord)
        return [words.joined(separator: " ")]
    }

    package var hasVerbs: Bool { verbs.contains { !$0.name.isEmpty } }
}

extension CommandTable {
    /// The command named `name` (or one of its aliases); "" is the console.
    package static func command(_ name: String) -> CLICommand {
        if name.isEmpty { return console }
        if let found = commands.first(where: { $0.name == name || $0.aliases.contains(name) }) { return found }
        preconditionFailure("no command '\(name)' in the table")
    }

    /// What a usage error's "see 'tracedesk … --help'" names for the command `words` (`bench
    /// seed`): the verb too when the command's verbs have help of their own, else the command.
    package static func helpTopic(_ words: String) -> String {
        let parts = words.split(separator: " ").map(String.init)
        guard let first = parts.first else { return "" }
        if parts.count > 1, let found = commands.first(where: { $0.name == first }), found.verbHelp,
            found.verb(parts[1]) != nil
        {
            return first + " " + parts[1]
        }
        return first
    }

    /// Every command, the console first.
    package static var all: [CLICommand] { [console] + commands }

    /// The man pages: the families, in the order of the table.
    package static var pages: [(page: String, section: Int, commands: [CLICommand])] {
        var out: [(page: String, section: Int, commands: [CLICommand])] = []
        for command in commands {
            if let index = out.firstIndex(where: { $0.page == command.page }) {
                out[index].commands.append(command)
            } else {
                out.append((command.page, command.section, [command]))
            }
        }
        return out
    }
}

extension Arguments {
    /// Parses `words` with the options of `command` from the table, and refuses a value an
    /// option does not allow (naming the allowed ones).
    package init(_ words: [String], _ spec: CLICommand, command: String) throws(UsageError) {
        try self.init(words, valueOptions: spec.valueOptions, flagOptions: spec.flagOptions, command: command)
        try checkAllowed(spec.allOptions, command: command)
    }

    /// Parses `words` for the verb `verb` of `spec` (`bench monitor`): only the verb's options,
    /// each in the verb's form, their allowed values and ranges checked, a required one missing
    /// refused (but for --help); ``integer(_:command:)`` then reads a number or its default.
    package init(_ words: [String], _ spec: CLICommand, verb: String, command: String) throws(UsageError) {
        guard let found = spec.verb(verb) else { preconditionFailure("no verb '\(verb)' of '\(spec.name)'") }
        let options = spec.options(of: found)
        try self.init(
            words, valueOptions: Set(options.filter { !$0.isFlag }.map(\.name)),
            flagOptions: Set(options.filter(\.isFlag).map(\.name)), command: command)
        for option in options { table[option.name] = option }
        guard !has("help") else { return }
        try checkAllowed(options, command: command)
        try checkRanges(options, command: command)
        if let missing = options.first(where: { $0.required && values[$0.name] == nil }) {
            throw UsageError(
                tr("cli.bench.usage.needs", ["command": command, "option": missing.spelled]), command: command)
        }
    }

    /// Refuses an option of `spec` that its verb `verb` does not take (the table's verb options),
    /// and a value outside the verb's own allowed ones.
    package func checkVerb(_ spec: CLICommand, _ verb: String, command: String) throws(UsageError) {
        guard let found = spec.verbs.first(where: { $0.name == verb }) else { return }
        let taken = Set(spec.options(of: found).map(\.name))
        let given = values.keys.sorted() + flags.sorted().filter { $0 != "help" }
        if let extra = given.first(where: { !taken.contains($0) }) {
            throw UsageError(tr("cli.usage.verbTakesNo", ["command": command, "option": extra]), command: command)
        }
        try checkAllowed(found.own, command: command)
    }

    /// Refuses a whole number outside an option's range (or not a whole number).
    package func checkRanges(_ options: [CLIOption], command: String) throws(UsageError) {
        for option in options {
            guard let range = option.range, values[option.name] != nil else { continue }
            _ = try integer(option.name, default: range.lowerBound, in: range, command: command)
        }
    }

    /// The whole number given to `--name`, or the table's default for it; parsed with
    /// ``init(_:_:verb:command:)``, which checked the range and that a required one is there.
    package func integer(_ name: String, command: String) throws(UsageError) -> Int {
        guard let option = table[name] else { preconditionFailure("--\(name) is not in the table for '\(command)'") }
        if values[name] != nil {
            return try integer(name, default: 0, in: option.range ?? Int.min...Int.max, command: command)
        }
        guard let value = option.defaultValue.flatMap({ Int($0) }) else {
            preconditionFailure("--\(name) of '\(command)' has no whole-number default in the table")
        }
        return value
    }

    /// Refuses a value outside an option's allowed values (case aside), with the allowed ones.
    package func checkAllowed(_ options: [CLIOption], command: String) throws(UsageError) {
        for option in options where !option.allowed.isEmpty && option.parserChecks {
            guard let value = values[option.name] else { continue }
            if !option.allowed.contains(value.lowercased()) {
                // English names the value ("unknown reason 'x'"); Italian names its option.
                let word = Language.current == .en ? option.valueWord : "--" + option.name
                throw UsageError(
                    tr(
                        "cli.usage.unknownValue",
                        [
                            "word": word, "value": terminalSafe(String(value.prefix(24))),
                            "allowed": CommandTable.list(option.allowed),
                        ]), command: command)
            }
        }
    }
}

extension CommandTable {
    /// What the table's texts name from the code: `{columns}` (the queue's CSV), `{actions}`
    /// (the audit log's), `{outcomes}`.
    package static let placeholders: [String: String] = [
        "columns": QueueCSV.columns.joined(separator: ", "),
        "actions": AuditAction.known.map(\.rawValue).joined(separator: ", "),
        "outcomes": outcomes.joined(separator: ", "),
    ]

    /// A table text in the run's language, its placeholders filled in.
    package static func text(_ key: String) -> String { tr(key, placeholders) }

    /// "a, b or c".
    package static func list(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return tr("cli.list.or", ["rest": words.dropLast().joined(separator: ", "), "last": words[words.count - 1]])
    }
}
