import DeskText

/// `tracedesk --help` and `tracedesk CMD --help`, made from the table in the run's language,
/// wrapped at 80 columns.
package enum HelpText {
    package static let width = 80

    /// `text` (paragraphs split by blank lines; a line that starts with a space is kept as it
    /// is, indented) wrapped to `width` after `indent` spaces.
    package static func wrap(_ text: String, indent: Int, width: Int = HelpText.width) -> [String] {
        var out: [String] = []
        for (index, paragraph) in text.components(separatedBy: "\n\n").enumerated() {
            if index > 0 { out.append("") }
            var words: [Substring] = []
            func flush() {
                out += fill(words, indent: indent, width: width)
                words = []
            }
            for line in paragraph.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(" ") {
                    flush()
                    out.append(String(repeating: " ", count: indent) + line)
                } else {
                    words += line.split(separator: " ")
                }
            }
            flush()
        }
        return out
    }

    /// Words filled into lines of at most `width` (a longer word stands alone on its line).
    static func fill(_ words: [Substring], indent: Int, width: Int, first: String? = nil) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = first ?? pad
        var empty = first == nil
        for word in words {
            if !empty, line.count + 1 + word.count > width {
                lines.append(line)
                line = pad
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        if !empty || first != nil { lines.append(line) }
        return lines
    }

    /// A usage line broken between bracketed groups, the continuation under the first option.
    package static func synopsis(_ line: String, indent: Int, width: Int = HelpText.width) -> [String] {
        var groups: [String] = []
        var depth = 0
        var current = ""
        for character in line {
            if character == " ", depth == 0 {
                if !current.isEmpty { groups.append(current) }
                current = ""
                continue
            }
            if character == "[" { depth += 1 }
            if character == "]" { depth -= 1 }
            current.append(character)
        }
        if !current.isEmpty { groups.append(current) }
        // The continuation starts under the first word after the command and its verb.
        let head = groups.prefix { !$0.hasPrefix("-") && !$0.hasPrefix("[") && $0 == $0.lowercased() }.count
        let hang = indent + groups.prefix(max(1, min(head, 3))).map { $0.count + 1 }.reduce(0, +)
        let continuation = hang > width / 2 ? indent + 4 : hang
        var lines: [String] = []
        var text = String(repeating: " ", count: indent)
        var empty = true
        for group in groups {
            if !empty, text.count + 1 + group.count > width {
                lines.append(text)
                text = String(repeating: " ", count: continuation)
                empty = true
            }
            text += (empty ? "" : " ") + group
            empty = false
        }
        lines.append(text)
        return lines
    }

    /// One option's lines: `  --name META  description`, the description in a column.
    static func option(_ option: CLIOption, column: Int = 24) -> [String] {
        let name = "  " + option.spelled
        let words = option.describedText.split(separator: " ")
        if name.count + 2 <= column {
            let first = name + String(repeating: " ", count: column - 1 - name.count)
            return fill(words, indent: column, width: width, first: first).map { $0 }
        }
        return [name] + fill(words, indent: column, width: width)
    }

    /// `Exit status:` and one line per status.
    static func exits(_ exits: [CLIExit]) -> [String] {
        [CommandTable.text("cli.heading.exit")]
            + exits.flatMap { exit -> [String] in
                let number = "  \(exit.status.rawValue)"
                let first = number + String(repeating: " ", count: max(0, 6 - number.count))
                return fill(CommandTable.text(exit.key).split(separator: " "), indent: 7, width: width, first: first)
            }
    }

    /// `tracedesk CMD --help`.
    package static func command(_ command: CLICommand) -> String {
        var lines = [CommandTable.text("cli.heading.usage")]
        for verb in command.verbs {
            for synopsis in command.synopsis(of: verb) { lines += self.synopsis(synopsis, indent: 2) }
            if let key = verb.key { lines += wrap(CommandTable.text(key), indent: 6) }
        }
        lines.append("")
        lines.append(CommandTable.text("cli.heading.options"))
        for option in command.allOptions { lines += self.option(option) }
        for note in command.notes {
            lines.append("")
            lines += wrap(CommandTable.text(note), indent: 0)
        }
        lines.append("")
        lines += exits(command.exits)
        return lines.joined(separator: "\n")
    }

    /// `tracedesk CMD VERB --help` (`bench monitor`): the verb's usage, what it does, its own
    /// notes, its options in its own forms (ranges and defaults), the command's exit statuses.
    package static func verb(_ command: CLICommand, _ verb: CLIVerb) -> String {
        var lines = [CommandTable.text("cli.heading.usage")]
        for synopsis in command.synopsis(of: verb) { lines += self.synopsis(synopsis, indent: 2) }
        if let key = verb.key { lines += wrap(CommandTable.text(key), indent: 6) }
        for note in verb.notes {
            lines.append("")
            lines += wrap(CommandTable.text(note), indent: 6)
        }
        let options = command.options(of: verb)
        if !options.isEmpty {
            lines.append("")
            lines.append(CommandTable.text("cli.heading.options"))
            for option in options { lines += self.option(option) }
        }
        lines.append("")
        lines += exits(command.exits)
        return lines.joined(separator: "\n")
    }

    /// `tracedesk --help`: every command's lines, the global options, the environment and the
    /// exit statuses.
    package static func main() -> String {
        var lines = wrap(CommandTable.text("cli.main.title"), indent: 0)
        lines.append("")
        lines.append(CommandTable.text("cli.heading.usage"))
        for command in CommandTable.all {
            for line in command.overview { lines += synopsis(line, indent: 2) }
            lines += wrap(CommandTable.text(command.summaryKey), indent: 6)
        }
        lines += synopsis("tracedesk --version | --help", indent: 2)
        lines.append("")
        lines += wrap(CommandTable.text("cli.main.more"), indent: 0)
        lines.append("")
        lines.append(CommandTable.text("cli.heading.options"))
        var seen: Set<String> = []
        for option in CommandTable.globalOptions + CommandTable.console.options where seen.insert(option.name).inserted
        {
            lines += self.option(option)
        }
        for note in CommandTable.console.notes {
            lines.append("")
            lines += wrap(CommandTable.text(note), indent: 0)
        }
        lines.append("")
        lines.append(CommandTable.text("cli.heading.environment"))
        for (name, key) in CommandTable.environment {
            lines.append("  " + name)
            lines += wrap(CommandTable.text(key), indent: 6)
        }
        lines.append("")
        lines += exits(ExitStatus.allCases.map { CLIExit($0, "cli.exit.\($0.rawValue)") })
        return lines.joined(separator: "\n")
    }
}
