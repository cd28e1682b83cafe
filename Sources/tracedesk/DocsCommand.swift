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
            let file = folder + "/" + page.file
            if let failure = makeFolders(folder) ?? writeFile(page.text, to: file) {
                printError(
                    "docs man: "
                        + tr("cli.docs.cannotWrite", ["file": file, "problem": String(cString: strerror(failure))]))
                return .refused
            }
            print(file)
        }
        return .success
    }

    /// Makes `path` and any missing folders above it; the errno of the first that fails, nil
    /// when all are there. (Not FileManager: its errors are English sentences, where strerror's
    /// reason goes into the catalogue's message.)
    static func makeFolders(_ path: String) -> Int32? {
        var made = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            made += "/" + part
            guard mkdir(made, 0o755) != 0 else { continue }
            let failure = errno
            var status = stat()
            // An existing folder is fine whatever mkdir said (EEXIST, or EACCES above it).
            if stat(made, &status) != 0 || status.st_mode & S_IFMT != S_IFDIR {
                return failure == EEXIST ? ENOTDIR : failure
            }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return errno }
        return status.st_mode & S_IFMT == S_IFDIR ? nil : ENOTDIR
    }

    /// Writes `text` to `path` (made or emptied); the errno of a failure, nil when written.
    static func writeFile(_ text: String, to path: String) -> Int32? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return errno }
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if written < 0 {
                if errno == EINTR { continue }
                let failure = errno
                close(fd)
                return failure
            }
            done += written
        }
        return close(fd) == 0 ? nil : errno
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
