import DeskText
import Testing

@testable import DeskCLI

/// The command line's parser and the table it takes its options from: what is typed, what is
/// refused and how, and that every option of the table is documented and completed.
@Suite struct ArgumentsTests {
    static let spec = CommandTable.command("stats")

    @Test("--name value and --name=value give the value; positionals stay in order")
    func values() throws {
        let arguments = try Arguments(
            ["a", "--from", "2026-11-01", "--to=2026-11-02", "b"], Self.spec, command: "stats")
        #expect(arguments.values["from"] == "2026-11-01")
        #expect(arguments.values["to"] == "2026-11-02")
        #expect(arguments.positionals == ["a", "b"])
    }

    @Test("a value may hold '=' and start with a dash when it follows its option")
    func awkwardValues() throws {
        let arguments = try Arguments(
            ["--search", "-12", "--tracer=a=b"], CommandTable.command("queue"), command: "queue")
        #expect(arguments.values["search"] == "-12")
        #expect(arguments.values["tracer"] == "a=b")
    }

    @Test("-- ends the options: what follows is positional, dashes and all")
    func doubleDash() throws {
        let arguments = try Arguments(["--json", "--", "--csv", "-h"], Self.spec, command: "stats")
        #expect(arguments.has("json"))
        #expect(!arguments.has("csv"))
        #expect(!arguments.has("help"))
        #expect(arguments.positionals == ["--csv", "-h"])
    }

    @Test("-h and --help ask for help; a lone dash is a positional")
    func help() throws {
        #expect(try Arguments(["-h"], Self.spec, command: "stats").has("help"))
        #expect(try Arguments(["--help"], Self.spec, command: "stats").has("help"))
        #expect(try Arguments(["-"], Self.spec, command: "stats").positionals == ["-"])
    }

    @Test("an unknown option is refused with its name and the command")
    func unknownOption() {
        #expect(throws: UsageError.self) { try Arguments(["--frobnicate"], Self.spec, command: "stats") }
        do {
            _ = try Arguments(["--frobnicate"], Self.spec, command: "stats")
        } catch {
            #expect(error.message == "unknown option '--frobnicate' for 'stats'")
            #expect(error.command == "stats")
        }
        do {
            _ = try Arguments(["-x"], Self.spec, command: "stats")
            Issue.record("-x was accepted")
        } catch {
            #expect(error.message == "unknown option '-x' for 'stats'")
        }
    }

    @Test("an option of another command is unknown here")
    func otherCommandsOption() {
        #expect(throws: UsageError.self) { try Arguments(["--role", "admin"], Self.spec, command: "stats") }
    }

    @Test("an option without its value is refused")
    func missingValue() {
        do {
            _ = try Arguments(["--from"], Self.spec, command: "stats")
            Issue.record("--from without a value was accepted")
        } catch {
            #expect(error.message == "option --from needs a value")
        }
    }

    @Test("a flag given a value is refused")
    func flagWithValue() {
        do {
            _ = try Arguments(["--json=yes"], Self.spec, command: "stats")
            Issue.record("--json=yes was accepted")
        } catch {
            #expect(error.message == "option --json takes no value")
        }
    }

    @Test("a value outside the allowed ones is refused, naming them")
    func allowedValues() throws {
        do {
            _ = try Arguments(["--range", "3h"], Self.spec, command: "stats")
            Issue.record("--range 3h was accepted")
        } catch {
            #expect(error.message == "unknown range '3h': use today, 1h, 24h, 7d or 14d")
            #expect(error.command == "stats")
        }
        do {
            _ = try Arguments(["add", "--role=boss"], CommandTable.command("staff"), command: "staff add")
            Issue.record("--role boss was accepted")
        } catch {
            #expect(error.message == "unknown role 'boss': use operator, tracer, supervisor or admin")
        }
        // Case aside: the commands read values in lower case.
        #expect(try Arguments(["--bucket", "Hour"], Self.spec, command: "stats").values["bucket"] == "Hour")
        #expect(try Arguments(["--range", "today"], Self.spec, command: "stats").values["range"] == "today")
    }

    @Test("a refused value is shown terminal-safe and cut short")
    func refusedValueIsSafe() {
        do {
            _ = try Arguments(
                ["--range", "\u{1B}[2J" + String(repeating: "x", count: 100)], Self.spec, command: "stats")
            Issue.record("accepted")
        } catch {
            #expect(!error.message.contains("\u{1B}"))
            #expect(error.message.count < 100)
        }
    }

    @Test("a verb refuses another verb's option, and takes the person options")
    func verbOptions() throws {
        let spec = CommandTable.command("case")
        let arguments = try Arguments(["1", "--limit", "3", "--user", "tom"], spec, command: "case show")
        do {
            try arguments.checkVerb(spec, "show", command: "case show")
            Issue.record("case show took --limit")
        } catch {
            #expect(error.message == "'case show' takes no --limit")
        }
        try arguments.checkVerb(spec, "list", command: "case list")
    }

    @Test("the person options are every person-taking command's")
    func personOptions() throws {
        let arguments = try Arguments(
            ["--user", "ana", "--password-stdin", "--server", "http://127.0.0.1:8081"], CommandTable.command("otp"),
            command: "otp status")
        #expect(arguments.values["user"] == "ana")
        #expect(arguments.has("password-stdin"))
        #expect(throws: UsageError.self) {
            try Arguments(["--user", "x"], CommandTable.command("serve"), command: "serve")
        }
    }
}

@Suite struct CommandTableTests {
    /// Every command of the table, each language.
    static func eachLanguage(_ body: () -> Void) {
        for language in Language.allCases { Language.$scoped.withValue(language) { body() } }
    }

    @Test("every command has help, with its usage, options and exit statuses")
    func everyCommandHasHelp() {
        Self.eachLanguage {
            for command in CommandTable.all {
                let help = command.name.isEmpty ? HelpText.main() : HelpText.command(command)
                #expect(
                    help.hasPrefix(
                        command.name.isEmpty
                            ? CommandTable.text("cli.main.title") : CommandTable.text("cli.heading.usage")))
                #expect(help.contains(CommandTable.text("cli.heading.exit")), "\(command.name)")
                #expect(!help.contains(CommandTable.text("common.missing")), "\(command.name) has a text missing")
            }
        }
    }

    @Test("every key the table names has a text in every language, none falls back")
    func everyKeyHasText() {
        var keys: [String] = []
        for command in CommandTable.all {
            keys.append(command.summaryKey)
            keys += command.notes
            keys += command.exits.map(\.key)
            keys += command.verbs.compactMap(\.key)
            keys += command.allOptions.map(\.key)
            keys += command.verbs.flatMap { $0.own.map(\.key) + $0.notes }
        }
        keys += ["cli.bench.help.range", "cli.bench.help.default"]
        keys += CommandTable.globalOptions.map(\.key)
        keys += CommandTable.environment.map(\.key)
        keys += CommandTable.files.map(\.key)
        keys += ExitStatus.allCases.map { "cli.exit.\($0.rawValue)" }
        for language in Language.allCases {
            let table = Dictionary(Catalogue.entries(language), uniquingKeysWith: { first, _ in first })
            let missing = Set(keys).filter { table[$0] == nil }
            #expect(missing.isEmpty, "missing in \(language): \(missing.sorted())")
        }
    }

    @Test("every option of the table appears in its command's help and in every completion script")
    func everyOptionDocumentedAndCompleted() {
        Self.eachLanguage {
            let bash = Completion.bash()
            let zsh = Completion.zsh()
            let fish = Completion.fish()
            for command in CommandTable.commands {
                let help = HelpText.command(command)
                for option in command.allOptions {
                    #expect(help.contains("--" + option.name), "\(command.name) --help lacks --\(option.name)")
                    #expect(bash.contains("--" + option.name), "bash lacks \(command.name) --\(option.name)")
                    #expect(zsh.contains("--" + option.name), "zsh lacks \(command.name) --\(option.name)")
                    let fishLine = fish.split(separator: "\n").contains {
                        $0.contains("__fish_seen_subcommand_from \(command.name)") && $0.contains(" -l \(option.name) ")
                    }
                    #expect(fishLine, "fish lacks \(command.name) --\(option.name)")
                    for value in option.allowed {
                        #expect(bash.contains(value), "bash lacks \(value) of --\(option.name)")
                        #expect(fish.contains(value), "fish lacks \(value) of --\(option.name)")
                    }
                }
                for verb in command.verbs where !verb.name.isEmpty {
                    #expect(
                        bash.contains(verb.name) && fish.contains("-a \(verb.name) "), "\(command.name) \(verb.name)")
                }
            }
            let main = HelpText.main()
            for option in CommandTable.globalOptions + CommandTable.console.options {
                #expect(main.contains("--" + option.name), "tracedesk --help lacks --\(option.name)")
            }
        }
    }

    @Test("an option's default, range and allowed values are named in its description, in every language")
    func defaultsDocumented() {
        Self.eachLanguage {
            for command in CommandTable.all {
                for option in command.allOptions + command.verbs.flatMap(\.own) {
                    let text = option.describedText + " " + (option.metavar ?? "")
                    if let range = option.range {
                        #expect(text.contains("\(range.lowerBound)") && text.contains("\(range.upperBound)"))
                    }
                    if let value = option.defaultValue {
                        #expect(
                            text.contains(value), "--\(option.name) of '\(command.name)' lacks its default \(value)")
                    }
                    for value in option.allowed {
                        #expect(text.contains(value), "--\(option.name) of '\(command.name)' lacks \(value)")
                    }
                }
            }
        }
    }

    @Test("no two options of a command share a name, and a verb names only its command's options")
    func uniqueOptionNames() {
        for command in CommandTable.all {
            let names = command.allOptions.map(\.name)
            #expect(Set(names).count == names.count, "\(command.name) has an option twice: \(names.sorted())")
            for verb in command.verbs {
                for name in verb.options ?? [] {
                    #expect(command.option(name) != nil, "\(command.name) \(verb.name) names --\(name), not an option")
                }
                // A verb's own form is of one of its command's options: documented and completed there.
                for option in verb.own {
                    #expect(
                        command.option(option.name) != nil, "\(command.name) \(verb.name) has its own --\(option.name)")
                    #expect(
                        verb.options == nil || verb.options?.contains(option.name) == true,
                        "\(command.name) \(verb.name): its own --\(option.name) is not among its options")
                }
            }
        }
        let names = CommandTable.commands.flatMap { [$0.name] + $0.aliases }
        #expect(Set(names).count == names.count)
        let globals = CommandTable.globalOptions.map(\.name)
        #expect(Set(globals).count == globals.count)
    }

    @Test("the exit statuses documented are the code's, with serve's cannot listen")
    func exitStatuses() {
        #expect(ExitStatus.cannotListen.rawValue == 5)
        #expect(CommandTable.command("serve").exits.map(\.status).contains(.cannotListen))
        Self.eachLanguage {
            let main = HelpText.main()
            for status in ExitStatus.allCases {
                #expect(
                    main.contains("\n  \(status.rawValue) "), "tracedesk --help lacks exit status \(status.rawValue)")
            }
        }
    }

    @Test("help fits in 80 columns, but for a word too long to break")
    func eightyColumns() {
        Self.eachLanguage {
            for command in CommandTable.all {
                let help = command.name.isEmpty ? HelpText.main() : HelpText.command(command)
                for line in help.split(separator: "\n") where line.count > 80 {
                    let words = line.split(separator: " ")
                    #expect(words.count <= 2 || words.contains { $0.count > 40 }, "too wide: \(line)")
                }
            }
        }
    }

    @Test("wrapping keeps paragraphs and indented lines")
    func wrapping() {
        let lines = HelpText.wrap("one two three\nfour\n\n  kept  as is\nfive", indent: 2, width: 12)
        #expect(lines == ["  one two", "  three four", "", "    kept  as is", "  five"])
    }

    @Test("man pages: one per family, sections 1 and 8, roff-safe")
    func manPages() {
        Self.eachLanguage {
            let pages = ManPage.all()
            let files = pages.map(\.file)
            #expect(files.contains("tracedesk.1"))
            #expect(files.contains("tracedesk-serve.8"))
            #expect(files.contains("tracedesk-staff.8"))
            #expect(files.contains("tracedesk-otp.1"))
            #expect(files.contains("tracedesk-trace.1"))
            #expect(files.contains("tracedesk-case.1"))
            for page in pages {
                #expect(page.text.hasPrefix(".\\\""))
                #expect(page.text.contains(".TH "))
                for line in page.text.split(separator: "\n") {
                    // A text line that starts with a dot or quote would be read as a request.
                    if line.hasPrefix(".") || line.hasPrefix("'") {
                        #expect(
                            ["SH", "TH", "TP", "PP", "RS", "RE", "nf", "fi", "B ", "nh", "ad", "\\\""].contains {
                                line.dropFirst().hasPrefix($0)
                            }, "\(page.file): \(line)")
                    }
                }
            }
            let serve = pages.first { $0.file == "tracedesk-serve.8" }?.text ?? ""
            for option in CommandTable.command("serve").allOptions {
                #expect(serve.contains("\\fB\\-\\-" + option.name.replacingOccurrences(of: "-", with: "\\-") + "\\fR"))
            }
        }
    }
}
