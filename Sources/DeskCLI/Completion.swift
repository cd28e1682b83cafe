import DeskText

/// The shell completion scripts, made from the table: commands, verbs, options, the allowed
/// values of an option (roles, ranges, outcomes…), files and folders where one is asked.
package enum Completion {
    package static let shells = ["bash", "zsh", "fish"]

    package static func script(_ shell: String) -> String? {
        switch shell {
        case "bash": return bash()
        case "zsh": return zsh()
        case "fish": return fish()
        default: return nil
        }
    }

    /// A short description for a menu: the first sentence, at most 70 characters.
    static func short(_ key: String) -> String {
        var text = CommandTable.text(key).replacingOccurrences(of: "\n", with: " ")
        for stop in [". ", "; "] {
            if let range = text.range(of: stop) { text = String(text[..<range.lowerBound]) }
        }
        if text.hasSuffix(".") { text.removeLast() }
        return text.count > 70 ? String(text.prefix(69)) + "…" : text
    }

    static func words(_ options: [CLIOption]) -> String { options.map { "--" + $0.name }.joined(separator: " ") }

    static var consoleOptions: [CLIOption] {
        var seen: Set<String> = []
        return (CommandTable.globalOptions + CommandTable.console.options).filter { seen.insert($0.name).inserted }
    }

    /// The value-completion cases (`CMD:--option)`) of a command, for bash and zsh.
    static func valueCases(
        _ prefix: String, _ options: [CLIOption], values: (CLIOption) -> String, file: String, folder: String,
        text: String
    ) -> [String] {
        options.filter { !$0.isFlag }.map { option in
            let action: String
            if !option.allowed.isEmpty {
                action = values(option)
            } else {
                switch option.kind {
                case .file: action = file
                case .folder: action = folder
                case .text: action = text
                }
            }
            return "        \(prefix):--\(option.name)) \(action); return ;;"
        }
    }

    /// The words from the command on that take a value, per command (for skipping values).
    static func valueOptionCases() -> [String] {
        CommandTable.commands.map { command in
            let names = command.allOptions.filter { !$0.isFlag }.map { "--" + $0.name }.joined(separator: "|")
            return
                "            \(([command.name] + command.aliases).joined(separator: "|"))) case $word in \(names.isEmpty ? "--" : names)) skip=1 ;; esac ;;"
        }
    }

    // MARK: bash

    package static func bash() -> String {
        let global = CommandTable.globalOptions.filter { !$0.isFlag }.map { "--" + $0.name }.joined(separator: "|")
        var lines = [
            "# bash completion for tracedesk: made by `tracedesk completion bash` from its table of commands.",
            "_tracedesk() {",
            "    local cur prev cmd= verb= word skip= i",
            "    cur=${COMP_WORDS[COMP_CWORD]}",
            "    prev=",
            "    [ \"$COMP_CWORD\" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    COMPREPLY=()",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        word=${COMP_WORDS[i]}",
            "        if [ -n \"$skip\" ]; then skip=; continue; fi",
            "        case $word in *=*) continue ;; esac",
            "        if [ -z \"$cmd\" ]; then",
            "            case $word in",
            "                \(global)) skip=1 ;;",
            "                -*) ;;",
            "                *) cmd=$word ;;",
            "            esac",
            "            continue",
            "        fi",
            "        case $cmd in",
        ]
        lines += valueOptionCases()
        lines += [
            "        esac",
            "        [ -n \"$skip\" ] && continue",
            "        case $word in -*) ;; *) [ -z \"$verb\" ] && verb=$word ;; esac",
            "    done",
            "    case $cmd in follow-up) cmd=followup ;; esac",
            "    case \"$cmd:$prev\" in",
        ]
        func bashValues(_ option: CLIOption) -> String {
            "COMPREPLY=($(compgen -W '\(option.allowed.joined(separator: " "))' -- \"$cur\"))"
        }
        lines += valueCases(
            "", consoleOptions, values: bashValues, file: "COMPREPLY=($(compgen -f -- \"$cur\"))",
            folder: "COMPREPLY=($(compgen -d -- \"$cur\"))", text: ":")
        for command in CommandTable.commands {
            lines += valueCases(
                command.name, command.allOptions, values: bashValues,
                file: "COMPREPLY=($(compgen -f -- \"$cur\"))", folder: "COMPREPLY=($(compgen -d -- \"$cur\"))",
                text: ":")
        }
        let names = CommandTable.commands.flatMap { [$0.name] + $0.aliases }.joined(separator: " ")
        lines += [
            "    esac",
            "    local opts=",
            "    case $cmd in",
            "        '') [[ $cur == -* ]] || { COMPREPLY=($(compgen -W '\(names)' -- \"$cur\")); return; }",
            "            opts='\(words(consoleOptions)) --help --version' ;;",
        ]
        for command in CommandTable.commands {
            let pattern = ([command.name] + command.aliases).joined(separator: "|")
            if command.hasVerbs {
                let verbs = command.verbs.map(\.name).joined(separator: " ")
                lines.append(
                    "        \(pattern)) if [ -z \"$verb\" ] && [[ $cur != -* ]]; then COMPREPLY=($(compgen -W '\(verbs)' -- \"$cur\")); return; fi"
                )
                lines.append("            case $verb in")
                for verb in command.verbs {
                    lines.append("                \(verb.name)) opts='\(words(command.options(of: verb))) --help' ;;")
                }
                lines.append("                *) opts='\(words(command.allOptions)) --help' ;;")
                lines.append("            esac ;;")
            } else {
                lines.append("        \(pattern)) opts='\(words(command.allOptions)) --help' ;;")
            }
        }
        lines += [
            "    esac",
            "    [[ $cur == -* ]] && COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))",
            "    return 0",
            "}",
            "complete -F _tracedesk tracedesk",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: zsh

    /// `'text'` for zsh and bash, a quote inside closed and reopened.
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    static func zshEntry(_ name: String, _ key: String) -> String {
        quoted(name.replacingOccurrences(of: ":", with: "\\:") + ":" + short(key))
    }

    package static func zsh() -> String {
        let global = CommandTable.globalOptions.filter { !$0.isFlag }.map { "--" + $0.name }.joined(separator: "|")
        var lines = [
            "#compdef tracedesk",
            "# zsh completion for tracedesk: made by `tracedesk completion zsh` from its table of commands.",
            "_tracedesk() {",
            "    local cur prev cmd= verb= word skip= i",
            "    local -a entries",
            "    cur=${words[CURRENT]}",
            "    prev=${words[CURRENT-1]}",
            "    for ((i = 2; i < CURRENT; i++)); do",
            "        word=${words[i]}",
            "        if [[ -n $skip ]]; then skip=; continue; fi",
            "        case $word in *=*) continue ;; esac",
            "        if [[ -z $cmd ]]; then",
            "            case $word in",
            "                \(global)) skip=1 ;;",
            "                -*) ;;",
            "                *) cmd=$word ;;",
            "            esac",
            "            continue",
            "        fi",
            "        case $cmd in",
        ]
        lines += valueOptionCases()
        lines += [
            "        esac",
            "        [[ -n $skip ]] && continue",
            "        case $word in -*) ;; *) [[ -z $verb ]] && verb=$word ;; esac",
            "    done",
            "    case $cmd in follow-up) cmd=followup ;; esac",
            "    case \"$cmd:$prev\" in",
        ]
        func zshValues(_ option: CLIOption) -> String { "compadd -- \(option.allowed.joined(separator: " "))" }
        lines += valueCases(
            "", consoleOptions, values: zshValues, file: "_files", folder: "_files -/", text: "_message value")
        for command in CommandTable.commands {
            lines += valueCases(
                command.name, command.allOptions, values: zshValues, file: "_files", folder: "_files -/",
                text: "_message value")
        }
        lines += [
            "    esac",
            "    case $cmd in",
            "        '')",
            "            if [[ $cur != -* ]]; then",
            "                entries=(\(CommandTable.commands.map { zshEntry($0.name, $0.summaryKey) }.joined(separator: " ")))",
            "                _describe command entries; return",
            "            fi",
            "            entries=(\(consoleOptions.map { zshEntry("--" + $0.name, $0.key) }.joined(separator: " ")))",
            "            ;;",
        ]
        for command in CommandTable.commands {
            let pattern = ([command.name] + command.aliases).joined(separator: "|")
            lines.append("        \(pattern))")
            if command.hasVerbs {
                let verbs = command.verbs.map { zshEntry($0.name, $0.key ?? command.summaryKey) }.joined(separator: " ")
                lines.append(
                    "            if [[ -z $verb && $cur != -* ]]; then entries=(\(verbs)); _describe verb entries; return; fi"
                )
                lines.append("            case $verb in")
                for verb in command.verbs {
                    let options = command.options(of: verb).map { zshEntry("--" + $0.name, $0.key) }.joined(
                        separator: " ")
                    lines.append("                \(verb.name)) entries=(\(options)) ;;")
                }
                let all = command.allOptions.map { zshEntry("--" + $0.name, $0.key) }.joined(separator: " ")
                lines.append("                *) entries=(\(all)) ;;")
                lines.append("            esac ;;")
            } else {
                let all = command.allOptions.map { zshEntry("--" + $0.name, $0.key) }.joined(separator: " ")
                lines.append("            entries=(\(all)) ;;")
            }
        }
        lines += [
            "    esac",
            "    if [[ $cur == -* ]]; then _describe option entries; else _files; fi",
            "}",
            "# Autoloaded from the fpath (compinit): complete now; sourced: register for tracedesk.",
            "if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then",
            "    _tracedesk \"$@\"",
            "else",
            "    (( $+functions[compdef] )) && compdef _tracedesk tracedesk",
            "fi",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: fish

    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    static func fishOption(_ option: CLIOption, condition: String) -> String {
        var line = "complete -c tracedesk -n \(fishQuoted(condition)) -l \(option.name)"
        if !option.isFlag {
            if !option.allowed.isEmpty {
                line += " -x -a \(fishQuoted(option.allowed.joined(separator: " ")))"
            } else {
                switch option.kind {
                case .file: line += " -r -F"
                case .folder: line += " -x -a '(__fish_complete_directories)'"
                case .text: line += " -x"
                }
            }
        }
        return line + " -d \(fishQuoted(short(option.key)))"
    }

    package static func fish() -> String {
        var lines = [
            "# fish completion for tracedesk: made by `tracedesk completion fish` from its table of commands.",
            "complete -c tracedesk -f",
        ]
        for command in CommandTable.commands {
            lines.append(
                "complete -c tracedesk -n __fish_use_subcommand -a \(command.name) -d \(fishQuoted(short(command.summaryKey)))"
            )
        }
        for option in consoleOptions { lines.append(fishOption(option, condition: "__fish_use_subcommand")) }
        for command in CommandTable.commands {
            let seen = "__fish_seen_subcommand_from " + ([command.name] + command.aliases).joined(separator: " ")
            if command.hasVerbs {
                let verbs = command.verbs.map(\.name).joined(separator: " ")
                for verb in command.verbs {
                    lines.append(
                        "complete -c tracedesk -n \(fishQuoted("\(seen); and not __fish_seen_subcommand_from \(verbs)")) -a \(verb.name) -d \(fishQuoted(short(verb.key ?? command.summaryKey)))"
                    )
                }
                for option in command.allOptions {
                    // By name: a verb's own form of the option (bench's defaults) is still the option.
                    let takers = command.verbs.filter { verb in
                        command.options(of: verb).contains { $0.name == option.name }
                    }.map(\.name)
                    let condition =
                        takers.count == command.verbs.count
                        ? seen : "\(seen); and __fish_seen_subcommand_from \(takers.joined(separator: " "))"
                    lines.append(fishOption(option, condition: condition))
                }
            } else {
                for option in command.allOptions { lines.append(fishOption(option, condition: seen)) }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
