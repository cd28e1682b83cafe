import DeskText
import Testing

@testable import DeskCLI

/// The parser's refusals speak the run's language: Italian under `--lang it`, English (as the
/// e2e scripts read it, byte for byte) otherwise.
@Suite struct UsageLanguageTests {
    static let spec = CommandTable.command("stats")

    /// The message of the usage error `words` raise for `stats`, in `language`.
    func refusal(_ words: [String], in language: Language, spec: CLICommand = spec, command: String = "stats")
        -> String?
    {
        Language.$scoped.withValue(language) { () -> String? in
            do throws(UsageError) {
                _ = try Arguments(words, spec, command: command)
                return nil
            } catch {
                return error.message
            }
        }
    }

    @Test("an unknown option is refused in Italian under --lang it, in English otherwise")
    func unknownOption() {
        #expect(refusal(["--x"], in: .it) == "opzione sconosciuta '--x' per 'stats'")
        #expect(refusal(["--x"], in: .en) == "unknown option '--x' for 'stats'")
        #expect(refusal(["-x"], in: .it) == "opzione sconosciuta '-x' per 'stats'")
    }

    @Test("--lang after demo or simulate is refused, saying to give it before the command, in each language")
    func langBeforeTheCommand() {
        for name in ["demo", "simulate"] {
            let spec = CommandTable.command(name)
            #expect(
                refusal(["--lang", "it"], in: .en, spec: spec, command: name)
                    == "unknown option '--lang' for '\(name)': --lang goes before the command, as in tracedesk --lang it \(name)"
            )
            #expect(
                refusal(["--lang=en"], in: .it, spec: spec, command: name)
                    == "opzione sconosciuta '--lang' per '\(name)': --lang va prima del comando, come in tracedesk --lang en \(name)"
            )
            #expect(
                refusal(["--lang"], in: .en, spec: spec, command: name)
                    == "unknown option '--lang' for '\(name)': --lang goes before the command, as in tracedesk --lang en|it \(name)"
            )
        }
        // As the table has it: --lang is a leading option, and the one command with a --lang of
        // its own is docs, whose --lang is the language of the pages it writes.
        #expect(CommandTable.leadingOnly == ["lang"])
        #expect(CommandTable.globalOptions.contains { $0.name == "lang" })
        let takers = CommandTable.commands.filter { $0.option("lang") != nil }.map(\.name)
        #expect(takers == ["docs"])
    }

    @Test("docs man takes a --lang of its own after the command")
    func docsLang() throws {
        let arguments = try Arguments(
            ["man", "--lang", "it", "--out", "x"], CommandTable.command("docs"), command: "docs")
        #expect(arguments.values["lang"] == "it")
        #expect(arguments.positionals == ["man"])
    }

    @Test("an option without its value says so in each language")
    func needsValue() {
        #expect(refusal(["--range"], in: .it) == "l'opzione --range richiede un valore")
        #expect(refusal(["--range"], in: .en) == "option --range needs a value")
        #expect(refusal(["--json=yes"], in: .it) == "l'opzione --json non accetta un valore")
        #expect(refusal(["--json=yes"], in: .en) == "option --json takes no value")
    }

    @Test("a value outside the allowed ones names them, with the language's 'or'")
    func unknownValue() throws {
        let option = try #require(Self.spec.allOptions.first { !$0.allowed.isEmpty && $0.parserChecks })
        let en = try #require(refusal(["--\(option.name)", "nope"], in: .en))
        let it = try #require(refusal(["--\(option.name)", "nope"], in: .it))
        let allowed = option.allowed
        #expect(en == "unknown \(option.valueWord) 'nope': use \(CommandTable.list(allowed))")
        #expect(it.hasPrefix("valore sconosciuto per --\(option.name): 'nope'; usare "))
        if allowed.count > 1 {
            #expect(it.hasSuffix(" o \(allowed[allowed.count - 1])"))
            #expect(en.hasSuffix(" or \(allowed[allowed.count - 1])"))
        }
    }

    @Test("a whole number out of range names the range in each language")
    func wholeNumber() throws {
        let arguments = try Arguments([], Self.spec, command: "stats")
        let parse = { (language: Language) -> String? in
            Language.$scoped.withValue(language) { () -> String? in
                do throws(UsageError) {
                    var copy = arguments
                    copy.values["limit"] = "0"
                    _ = try copy.integer("limit", default: 5, in: 1...9, command: "stats")
                    return nil
                } catch {
                    return error.message
                }
            }
        }
        #expect(parse(.en) == "--limit must be a whole number from 1 to 9, got '0'")
        #expect(parse(.it) == "--limit deve essere un numero intero da 1 a 9, non '0'")
    }

    @Test("the 'see --help' line and an unknown command, in both languages")
    func seeHelp() {
        #expect(
            Language.$scoped.withValue(.en) { tr("cli.usage.seeHelp", ["command": "stats "]) }
                == "see 'tracedesk stats --help'")
        #expect(
            Language.$scoped.withValue(.it) { tr("cli.usage.seeHelp", ["command": "stats "]) }
                == "vedere 'tracedesk stats --help'")
        #expect(
            Language.$scoped.withValue(.it) { tr("cli.usage.unknownCommand", ["command": "frob"]) }
                == "comando sconosciuto 'frob'")
    }
}
