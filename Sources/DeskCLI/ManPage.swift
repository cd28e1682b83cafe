import DeskText

/// The roff man pages, made from the table in the run's language: `tracedesk(1)` and a page
/// per command family (`tracedesk-serve(8)`, …).
package enum ManPage {
    package static let version = "0.1.0"

    /// Every page: its file name (`tracedesk-case.1`), its section and its text.
    package static func all() -> [(file: String, section: Int, text: String)] {
        [("tracedesk.1", 1, main())]
            + CommandTable.pages.map { page in
                ("tracedesk-\(page.page).\(page.section)", page.section, family(page.page, page.section, page.commands))
            }
    }

    /// Text made safe for roff: backslashes escaped, and a line that starts with a dot or quote
    /// protected.
    static func escape(_ text: String) -> String {
        var out = text.replacingOccurrences(of: "\\", with: "\\e")
        out = out.replacingOccurrences(of: "-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// A catalogue text as roff paragraphs: blank lines part paragraphs, lines that start with a
    /// space are kept as they are (no fill).
    static func paragraphs(_ text: String, first: Bool = true) -> [String] {
        var out: [String] = []
        for (index, paragraph) in text.components(separatedBy: "\n\n").enumerated() {
            if index > 0 || !first { out.append(".PP") }
            var inVerbatim = false
            for line in paragraph.split(separator: "\n", omittingEmptySubsequences: false) {
                let verbatim = line.hasPrefix(" ")
                if verbatim != inVerbatim {
                    out.append(verbatim ? ".RS 2\n.nf" : ".fi\n.RE")
                    inVerbatim = verbatim
                }
                let kept = verbatim ? String(line.drop { $0 == " " }) : String(line)
                out.append(escape(kept))
            }
            if inVerbatim { out.append(".fi\n.RE") }
        }
        return out
    }

    static func header(_ name: String, _ section: Int) -> [String] {
        [
            ".\\\" Made by tracedesk docs man from the table of commands: do not edit.",
            ".TH \(name.uppercased()) \(section) \"\" \"TraceDesk \(version)\" \"TraceDesk\"",
            ".nh", ".ad l",
        ]
    }

    static func heading(_ key: String) -> String { ".SH " + escape(CommandTable.text(key)) }

    /// `.B` on a synopsis line.
    static func synopsisLine(_ line: String) -> [String] { [".PP", ".B " + escape(line)] }

    static func option(_ option: CLIOption) -> [String] {
        let name = "\\fB" + escape("--" + option.name) + "\\fR"
        let value = option.metavar.map { " \\fI" + escape($0) + "\\fR" } ?? ""
        return [".TP", name + value] + paragraphs(option.describedText)
    }

    static func exits(_ exits: [CLIExit]) -> [String] {
        [heading("cli.man.exit")]
            + exits.flatMap { [".TP", "\\fB\($0.status.rawValue)\\fR", escape(CommandTable.text($0.key))] }
    }

    /// `tracedesk(1)`: the overview, the global options, the environment, the exit statuses and
    /// the files.
    package static func main() -> String {
        var lines = header("tracedesk", 1)
        lines += [heading("cli.man.name"), "tracedesk \\- " + escape(CommandTable.text("cli.man.tagline"))]
        lines.append(heading("cli.man.synopsis"))
        for line in CommandTable.console.overview { lines += synopsisLine(line) }
        lines += synopsisLine("tracedesk [--lang en|it] [--server URL] [--user NAME] COMMAND [OPTIONS]")
        lines.append(heading("cli.man.description"))
        lines += paragraphs(CommandTable.text("cli.main.title"))
        lines += paragraphs(CommandTable.text(CommandTable.console.summaryKey), first: false)
        for note in CommandTable.console.notes { lines += paragraphs(CommandTable.text(note), first: false) }
        lines.append(heading("cli.man.commands"))
        for command in CommandTable.commands {
            lines.append(".TP")
            lines.append(
                "\\fB" + escape(command.name) + "\\fR ("
                    + "\\fBtracedesk\\-\(escape(command.page))\\fR(\(command.section)))")
            lines += paragraphs(CommandTable.text(command.summaryKey))
        }
        lines.append(heading("cli.man.options"))
        var seen: Set<String> = []
        for option in CommandTable.globalOptions + CommandTable.console.options where seen.insert(option.name).inserted
        {
            lines += self.option(option)
        }
        lines.append(heading("cli.man.environment"))
        for (name, key) in CommandTable.environment {
            lines += [".TP", "\\fB" + escape(name) + "\\fR"] + paragraphs(CommandTable.text(key))
        }
        lines += exits(ExitStatus.allCases.map { CLIExit($0, "cli.exit.\($0.rawValue)") })
        lines.append(heading("cli.man.files"))
        for (path, key) in CommandTable.files {
            lines += [".TP", "\\fI" + escape(path) + "\\fR"] + paragraphs(CommandTable.text(key))
        }
        lines.append(heading("cli.man.seealso"))
        lines.append(
            CommandTable.pages.map { "\\fBtracedesk\\-\(escape($0.page))\\fR(\($0.section))" }.joined(separator: ",\n"))
        return lines.joined(separator: "\n") + "\n"
    }

    /// `tracedesk-PAGE(SECTION)`: its commands' synopses, verbs, options, notes and exit statuses.
    package static func family(_ page: String, _ section: Int, _ commands: [CLICommand]) -> String {
        var lines = header("tracedesk-\(page)", section)
        lines += [
            heading("cli.man.name"),
            "tracedesk\\-\(escape(page)) \\- " + escape(firstSentence(CommandTable.text(commands[0].summaryKey))),
        ]
        lines.append(heading("cli.man.synopsis"))
        for command in commands {
            for verb in command.verbs { for line in command.synopsis(of: verb) { lines += synopsisLine(line) } }
        }
        lines.append(heading("cli.man.description"))
        var first = true
        for command in commands {
            lines += paragraphs(CommandTable.text(command.summaryKey), first: first)
            first = false
            for verb in command.verbs {
                guard let key = verb.key else { continue }
                lines.append(".TP")
                lines.append(
                    "\\fB"
                        + escape(
                            (["tracedesk", command.name, verb.name]).filter { !$0.isEmpty }.joined(separator: " "))
                        + "\\fR")
                lines += paragraphs(CommandTable.text(key))
                for note in verb.notes { lines += paragraphs(CommandTable.text(note), first: false) }
                // A verb's own forms of its options (bench's ranges and defaults), under it.
                if command.verbHelp, !verb.own.isEmpty {
                    lines.append(".RS 4")
                    for option in command.options(of: verb) { lines += self.option(option) }
                    lines.append(".RE")
                }
            }
        }
        for command in commands {
            for note in command.notes { lines += paragraphs(CommandTable.text(note), first: false) }
        }
        lines.append(heading("cli.man.options"))
        var seen: Set<String> = []
        for command in commands {
            for option in command.allOptions where seen.insert(option.name).inserted { lines += self.option(option) }
        }
        var statuses: [CLIExit] = []
        for command in commands {
            for exit in command.exits where !statuses.contains(where: { $0.status == exit.status }) {
                statuses.append(exit)
            }
        }
        lines += exits(statuses.sorted { $0.status.rawValue < $1.status.rawValue })
        lines.append(heading("cli.man.seealso"))
        lines.append("\\fBtracedesk\\fR(1)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The first sentence of a text (up to its first ". " or ": "), for a page's NAME line.
    static func firstSentence(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        for stop in [". ", ": ", "; "] {
            if let range = flat.range(of: stop) { return String(flat[..<range.lowerBound]) }
        }
        return flat.hasSuffix(".") ? String(flat.dropLast()) : flat
    }
}
