import Foundation

/// `tracedesk settings`: the console's settings in force, and where each came from.
enum SettingsCommand {
    static var help: String { HelpText.command(CommandTable.command("settings")) }

    static func run(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, CommandTable.command("settings"), command: "settings")
        if arguments.has("help") {
            print(help)
            return .success
        }
        if let extra = arguments.positionals.first {
            throw UsageError("settings takes no arguments, got '\(extra)'", command: "settings")
        }
        let environment = ProcessInfo.processInfo.environment
        let person = Globals.person.merged(with: arguments)
        let settings = ConsoleSettings.resolve(
            options: [
                "server": person.server, "user": person.user, "theme": arguments.values["theme"],
                "language": Globals.language,
            ]
            .compactMapValues { $0 },
            environment: environment)
        let exists = FileManager.default.fileExists(atPath: settings.path)
        print("Console settings (file \(terminalSafe(settings.path))\(exists ? "" : ", not found")):")
        let store = arguments.values["store"] ?? environment["TRACEDESK_STORE"].flatMap { $0.isEmpty ? nil : $0 }
        for key in ConsoleSettings.keys {
            let value = settings[key]
            var note = ""
            if key == "server", value.value != nil, store != nil, value.source != "--server" {
                note =
                    " (not used: a store is given, \(arguments.values["store"] != nil ? "--store" : "TRACEDESK_STORE"))"
            }
            if key == "server", value.value == nil {
                note = " (none: the console opens the store, \(store.map { terminalSafe($0) } ?? "the default one"))"
            }
            if key == "language", value.value != "en" {
                note =
                    " (the command line's output other than --help and the tracing indicators stays English for now)"
            }
            let shown = value.value.map { terminalSafe($0) } ?? "-"
            print(
                "  \(key.padding(toLength: 14, withPad: " ", startingAt: 0))\(shown.padding(toLength: max(24, shown.count + 2), withPad: " ", startingAt: 0))from \(terminalSafe(value.source))\(note)"
            )
        }
        if !settings.problems.isEmpty {
            print("Problems in the file (those values are ignored):")
            for problem in settings.problems { print("  " + terminalSafe(problem)) }
        }
        return .success
    }
}
