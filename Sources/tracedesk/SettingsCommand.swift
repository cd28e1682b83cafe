import Foundation

/// `tracedesk settings`: the console's settings in force, and where each came from.
enum SettingsCommand {
    static let help = """
        Usage: tracedesk settings [--server URL] [--user NAME] [--theme NAME] [--store PATH|URL]

        Prints the console's settings in force (server, user, theme, language, export_folder)
        and where each comes from: an option (--lang before the command for the language), an
        environment variable (TRACEDESK_USER, XDG_DOCUMENTS_DIR for the export folder), the
        console's settings file, the locale (LC_ALL, LC_MESSAGES, LANG: only for the language,
        after the file), or the default.
        The file is $XDG_CONFIG_HOME/tracedesk/console.json (~/.config/tracedesk/console.json),
        one JSON object, every key optional:

          {"server": "https://desk.example:8081", "user": "rossi", "theme": "high-contrast",
           "language": "it", "export_folder": "~/Documents/exports"}

        With a server in it, `tracedesk` opens that server's sign-in (--store or
        TRACEDESK_STORE still choose a store instead). A problem in the file is printed with
        its line, here and when the console starts, and that value (or, for broken JSON, the
        whole file) is ignored.

        Exit status: 0 (also when the file has problems: they are printed), 2 usage error.
        """

    static func run(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(
            words, valueOptions: Set(["theme", "store"]).union(PersonOptions.valueOptions),
            flagOptions: PersonOptions.flagOptions, command: "settings")
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
                note = " (not applied yet: the console speaks English until its Italian catalogue lands)"
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
