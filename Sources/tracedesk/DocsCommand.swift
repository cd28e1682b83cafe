import DeskText
import Foundation

/// `tracedesk docs man --out DIR [--lang en|it]` and `tracedesk completion bash|zsh|fish`: the
/// man pages and completion scripts, made from the table of commands (the Debian package runs
/// both at package time).
enum DocsCommand {
    static func run(_ words: [String]) throws(UsageError) -> ExitStatus {
        let spec = CommandTable.command("docs")
        if words.first.map({ ["--help", "-h", "help"].contains($0) }) ?? true {
            if words.isEmpty { throw UsageError("say what to write: man", command: "docs") }
            print(HelpText.command(spec))
            return .success
        }
        let arguments = try Arguments(Array(words.dropFirst()), spec, command: "docs \(words[0])")
        if arguments.has("help") {
            print(HelpText.command(spec))
            return .success
        }
        guard words[0] == "man" else {
            throw UsageError("unknown command 'docs \(words[0].prefix(24))': use man", command: "docs")
        }
        if let extra = arguments.positionals.first {
            throw UsageError("docs man takes no arguments, got '\(extra.prefix(40))'", command: "docs")
        }
        guard let out = arguments.values["out"], !out.isEmpty else {
            throw UsageError("give the folder to write into: --out DIR", command: "docs")
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
                printError("docs man: cannot write \(folder)/\(page.file): \(error.localizedDescription)")
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
            throw UsageError("say which shell: bash, zsh or fish", command: "completion")
        }
        guard arguments.positionals.count == 1, let script = Completion.script(shell) else {
            throw UsageError("unknown shell '\(shell.prefix(24))': use bash, zsh or fish", command: "completion")
        }
        print(script, terminator: "")
        return .success
    }
}
