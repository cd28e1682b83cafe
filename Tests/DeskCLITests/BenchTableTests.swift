import DeskText
import Testing

@testable import DeskCLI

/// `tracedesk bench` in the table of commands: each benchmark's options in its own forms
/// (defaults, ranges, required ones), parsed, refused and documented from there.
@Suite struct BenchTableTests {
    static let bench = CommandTable.command("bench")

    static func parse(_ verb: String, _ words: [String]) throws(UsageError) -> Arguments {
        try Arguments(words, bench, verb: verb, command: "bench \(verb)")
    }

    /// The message of the usage error `body` throws (nil: it threw none).
    static func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as UsageError {
            return error.message
        } catch {
            return "not a usage error: \(error)"
        }
    }

    @Test("a benchmark's numbers: the value given, else the table's default for that benchmark")
    func defaults() throws {
        let render = try Self.parse("render", ["--width", "90", "--json"])
        #expect(try render.integer("width", command: "bench render") == 90)
        #expect(try render.integer("height", command: "bench render") == 60)
        #expect(try render.integer("frames", command: "bench render") == 2000)
        #expect(render.has("json"))
        // The same option, another benchmark's default.
        let monitor = try Self.parse("monitor", [])
        #expect(try monitor.integer("width", command: "bench monitor") == 120)
        #expect(try monitor.integer("seconds", command: "bench monitor") == 10)
        #expect(try Self.parse("events", ["--store", "x"]).integer("seconds", command: "bench events") == 60)
        #expect(try Self.parse("write-raw", ["--store", "x"]).integer("seconds", command: "bench write-raw") == 5)
        #expect(try Self.parse("trace", []).integer("days", command: "bench trace") == 30)
        #expect(try Self.parse("stats", []).integer("days", command: "bench stats") == 14)
    }

    @Test("a number outside the benchmark's range is refused by the parser, with the range")
    func ranges() {
        #expect(
            Self.refusal { _ = try Self.parse("render", ["--width", "0"]) }
                == "--width must be a whole number from 1 to 100000, got '0'")
        #expect(
            Self.refusal { _ = try Self.parse("monitor", ["--width=79"]) }
                == "--width must be a whole number from 80 to 500, got '79'")
        #expect(Self.refusal { _ = try Self.parse("render", ["--width", "79"]) } == nil)
        #expect(
            Self.refusal { _ = try Self.parse("staff", ["--hashes", "lots"]) }
                == "--hashes must be a whole number from 1 to 100000, got 'lots'")
        #expect(
            Self.refusal { _ = try Self.parse("seed", ["--store", "s", "--tokens", "t", "--count", "5000001"]) }
                == "--count must be a whole number from 1 to 5000000, got '5000001'")
    }

    @Test("a required option missing is refused, naming it; --help asks for nothing")
    func required() throws {
        #expect(
            Self.refusal { _ = try Self.parse("seed", ["--store", "s", "--tokens", "t"]) }
                == "'bench seed' needs --count N")
        #expect(Self.refusal { _ = try Self.parse("events", []) } == "'bench events' needs --store PATH|URL")
        #expect(
            Self.refusal { _ = try Self.parse("write-raw", ["--seconds", "1"]) }
                == "'bench write-raw' needs --store NEW_PATH")
        #expect(try Self.parse("seed", ["--help"]).has("help"))
        let seed = try Self.parse("seed", ["--store", "s", "--tokens", "t", "--count", "7"])
        #expect(try seed.integer("count", command: "bench seed") == 7)
        #expect(seed.values["tokens"] == "t")
    }

    @Test("another benchmark's option is unknown to this one")
    func otherBenchmarksOption() {
        #expect(
            Self.refusal { _ = try Self.parse("render", ["--tokens", "t"]) }
                == "unknown option '--tokens' for 'bench render'")
        #expect(
            Self.refusal { _ = try Self.parse("keys", ["--count", "3", "--store", "s", "--json"]) }
                == "unknown option '--json' for 'bench keys'")
    }

    @Test("--op takes authorization or upload only, any case, and names them when refused")
    func operation() throws {
        #expect(
            Self.refusal { _ = try Self.parse("write-raw", ["--store", "s", "--op", "delete"]) }
                == "unknown operation 'delete': use authorization or upload")
        #expect(try Self.parse("write-raw", ["--store", "s", "--op", "Upload"]).values["op"] == "Upload")
        Language.$scoped.withValue(.it) {
            #expect(
                Self.refusal { _ = try Self.parse("write-raw", ["--store", "s", "--op", "x"]) }
                    == "valore sconosciuto per --op: 'x'; usare authorization o upload")
            #expect(
                Self.refusal { _ = try Self.parse("seed", ["--store", "s", "--tokens", "t"]) }
                    == "'bench seed' richiede --count N")
        }
    }

    @Test("the usage lines are made from the options: defaults, required ones, allowed values")
    func synopses() {
        let spec = Self.bench
        #expect(
            spec.synopsis(of: spec.verb("render")!)
                == ["tracedesk bench render [--width 200] [--height 60] [--frames 2000] [--json]"])
        #expect(
            spec.synopsis(of: spec.verb("seed")!) == ["tracedesk bench seed --store PATH|URL --count N --tokens FILE"])
        #expect(spec.synopsis(of: spec.verb("write-raw")!).first?.contains("[--op authorization|upload]") == true)
        #expect(spec.synopsis(of: spec.verb("monitor")!).first?.contains("[--seconds 10]") == true)
        #expect(spec.synopsis(of: spec.verb("events")!).first?.contains("[--seconds 60]") == true)
    }

    @Test("a benchmark's --help: its usage, its options with their ranges and defaults, no other's")
    func verbHelp() {
        let monitor = HelpText.verb(Self.bench, Self.bench.verb("monitor")!)
        #expect(monitor.hasPrefix("Usage:\n  tracedesk bench monitor [--seconds 10]"))
        #expect(monitor.contains("  --seconds N           how long to run, in seconds, 1 to 600 (default 10)"))
        #expect(monitor.contains("80 to 500 (default 120)"))
        #expect(!monitor.contains("--tokens"))
        #expect(monitor.contains("Exit status:"))
        let seed = HelpText.verb(Self.bench, Self.bench.verb("seed")!)
        #expect(seed.contains("--count N             codes to authorise, 1 to 5000000\n"))
        Language.$scoped.withValue(.it) {
            let italian = HelpText.verb(Self.bench, Self.bench.verb("monitor")!)
            let flat = italian.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(flat.contains("per quanto tempo, in secondi, da 1 a 600 (predefinito 10)"))
            #expect(italian.contains("Stato di uscita:"))
        }
        for language in Language.allCases {
            Language.$scoped.withValue(language) {
                for verb in Self.bench.verbs {
                    let help = HelpText.verb(Self.bench, verb)
                    #expect(!help.contains(CommandTable.text("common.missing")), "bench \(verb.name)")
                    for option in Self.bench.options(of: verb) {
                        #expect(help.contains("--" + option.name), "bench \(verb.name) --help lacks --\(option.name)")
                    }
                    for line in help.split(separator: "\n") where line.count > 80 {
                        #expect(line.split(separator: " ").count <= 2, "too wide: \(line)")
                    }
                }
            }
        }
    }

    @Test("every benchmark's numbers have a default inside their range, or are required")
    func numbersConsistent() {
        for verb in Self.bench.verbs {
            #expect(!verb.own.isEmpty, "bench \(verb.name) has no options of its own in the table")
            for option in Self.bench.options(of: verb) {
                guard let range = option.range else { continue }
                if let text = option.defaultValue {
                    #expect(Int(text).map(range.contains) == true, "bench \(verb.name) --\(option.name) \(text)")
                } else {
                    #expect(option.required, "bench \(verb.name) --\(option.name) has neither default nor need")
                }
            }
        }
    }

    @Test("fish completes an option for every verb that takes it, its own form or the command's")
    func fishByName() {
        let fish = Completion.fish()
        #expect(
            fish.contains(
                "__fish_seen_subcommand_from seed keys apricot events trace stats indicators write-raw' -l store "))
        #expect(fish.contains("__fish_seen_subcommand_from close add' -l reason "))
    }

    @Test("a usage error points at the benchmark's own help, other commands' at the command's")
    func helpTopic() {
        #expect(CommandTable.helpTopic("bench seed") == "bench seed")
        #expect(CommandTable.helpTopic("bench") == "bench")
        #expect(CommandTable.helpTopic("case close") == "case")
        #expect(CommandTable.helpTopic("stats") == "stats")
    }

    @Test("the man page has every benchmark's options under it, with ranges and defaults")
    func manPage() {
        let page = ManPage.all().first { $0.file == "tracedesk-bench.1" }?.text ?? ""
        #expect(page.contains("how long to run, in seconds, 1 to 600 (default 10)"))
        #expect(page.contains("how long to run, in seconds, 1 to 3600 (default 60)"))
        #expect(page.contains(".B tracedesk bench render [\\-\\-width 200]"))
    }
}

/// Values the parser refuses from the table's allowed ones (not the commands'), and the
/// completions offer.
@Suite struct AllowedValueTests {
    @Test("serve --log-format: text or json")
    func logFormat() throws {
        let serve = CommandTable.command("serve")
        #expect(
            BenchTableTests.refusal { _ = try Arguments(["--log-format", "xml"], serve, command: "serve") }
                == "unknown log format 'xml': use text or json")
        #expect(try Arguments(["--log-format", "JSON"], serve, command: "serve").values["log-format"] == "JSON")
    }

    @Test("audit list --action: the known actions")
    func auditAction() throws {
        let audit = CommandTable.command("audit")
        let message = BenchTableTests.refusal {
            _ = try Arguments(["--action", "frobnicated"], audit, command: "audit list")
        }
        #expect(message?.hasPrefix("unknown action 'frobnicated': use sign_in, sign_in_failed,") == true)
        #expect(message?.hasSuffix(" or follow_up_assigned") == true)
        #expect(try Arguments(["--action", "staff_disabled"], audit, command: "audit list").values["action"] != nil)
    }

    @Test("case close --reason: the close reasons; case add --reason: free text")
    func caseReason() throws {
        let spec = CommandTable.command("case")
        let close = try Arguments(["1", "--reason", "healed"], spec, command: "case close")
        #expect(
            BenchTableTests.refusal { try close.checkVerb(spec, "close", command: "case close") }
                == "unknown reason 'healed': use recovered, transferred, opened-in-error or other")
        try Arguments(["1", "--reason", "Opened-In-Error"], spec, command: "case close")
            .checkVerb(spec, "close", command: "case close")
        try Arguments(["1", "+39 300", "--reason", "household member"], spec, command: "case add")
            .checkVerb(spec, "add", command: "case add")
        Language.$scoped.withValue(.it) {
            #expect(
                BenchTableTests.refusal { try close.checkVerb(spec, "close", command: "case close") }
                    == "valore sconosciuto per --reason: 'healed'; usare recovered, transferred, opened-in-error o other"
            )
        }
    }

    @Test("--theme: any installed theme passes the parser (the command finds it); the built-in ones are listed")
    func theme() throws {
        let console = CommandTable.console
        #expect(try Arguments(["--theme", "my-own"], console, command: "tracedesk").values["theme"] == "my-own")
        #expect(console.option("theme")?.allowed == ["default", "high-contrast", "monochrome"])
    }

    @Test("every option with allowed values has them in every completion script")
    func completed() {
        let bash = Completion.bash()
        let zsh = Completion.zsh()
        let fish = Completion.fish()
        for (command, option, values) in [
            ("serve", "log-format", ["text", "json"]), ("bench", "op", ["authorization", "upload"]),
            ("case", "reason", ["recovered", "opened-in-error"]), ("audit", "action", ["sign_in_failed"]),
            ("settings", "theme", ["high-contrast", "monochrome"]),
        ] {
            #expect(bash.contains("\(command):--\(option)) COMPREPLY=($(compgen -W '"), "\(command) --\(option)")
            for value in values {
                #expect(bash.contains(value), "bash: \(command) --\(option) \(value)")
                #expect(zsh.contains(value), "zsh: \(command) --\(option) \(value)")
                #expect(fish.contains(value), "fish: \(command) --\(option) \(value)")
            }
        }
    }
}
