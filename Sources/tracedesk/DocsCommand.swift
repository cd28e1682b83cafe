import DeskText
import Foundation

/// `tracedesk docs man --out DIR [--lang en|it]` and `tracedesk completion bash|zsh|fish`: the
/// man pages and completion scripts, made from the table of commands (the Debian package runs
/// both at package time).
enum DocsCommand {
    static func run(_ words: [String]) throws(UsageError) -> ExitStatus {
        let spec = CommandTable.command("docs")
        if words.first.map({ ["--help", "-h", "help"].contains($0) }) ?? true {
            if words.isEmpty { throw UsageError(tr("cli.docs.sayWhat"), command: "docs") }
            print(HelpText.command(spec))
            return .success
        }
        let arguments = try Arguments(Array(words.dropFirst()), spec, command: "docs \(words[0])")
        if arguments.has("help") {
            print(HelpText.command(spec))
            return .success
        }
        guard words[0] == "man" else {
            throw UsageError(tr("cli.docs.unknownVerb", ["verb": String(words[0].prefix(24))]), command: "docs")
        }
        if let extra = arguments.positionals.first {
            throw UsageError(
                tr("cli.common.noArguments", ["command": "docs man", "argument": String(extra.prefix(40))]),
                command: "docs")
        }
        guard let out = arguments.values["out"], !out.isEmpty else {
            throw UsageError(tr("cli.docs.giveOut"), command: "docs")
        }
        let language = arguments.values["lang"].flatMap { Language(rawValue: $0.lowercased()) } ?? Language.current
        let pages = Language.$scoped.withValue(language) { ManPage.all() }
        let base = language == .en ? out : out + "/" + language.rawValue
        for page in pages {
            let folder = base + "/man\(page.section)"
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Data(page.text.utf8).write(to: URL(fileURLWithPath: folder + "/" + page.file))
            } catch {
                printError(
                    "docs man: "
                        + tr(
                            "cli.docs.cannotWrite",
                            ["file": "\(folder)/\(page.file)", "problem": error.localizedDescription]))
                return .refused
            }
            print(folder + "/" + page.file)
        }
        return .success
    }

    static func completion(_ words: [String]) throws(UsageError) -> ExitStatus {
        let spec = CommandTable.command("completion")
        let arguments = try Arguments(words, spec, command: "completion")
        if arguments.has("help") || words.first == "help" {
            print(HelpText.command(spec))
            return .success
        }
        guard let shell = arguments.positionals.first else {
            throw UsageError(tr("cli.completion.sayWhich"), command: "completion")
        }
        guard arguments.positionals.count == 1, let script = Completion.script(shell) else {
            throw UsageError(
                tr("cli.completion.unknownShell", ["value": String(shell.prefix(24))]), command: "completion")
        }
        print(script, terminator: "")
        return .success
    }
}
