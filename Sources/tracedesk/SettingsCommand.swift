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
            throw UsageError(tr("cli.settings.noArguments", ["argument": extra]), command: "settings")
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
        print(
            tr(
                exists ? "cli.settings.title" : "cli.settings.titleNotFound", ["file": terminalSafe(settings.path)]))
        let store = arguments.values["store"] ?? environment["TRACEDESK_STORE"].flatMap { $0.isEmpty ? nil : $0 }
        for key in ConsoleSettings.keys {
            let value = settings[key]
            var note = ""
            if key == "server", value.value != nil, store != nil, value.source != "--server" {
                note = tr(
                    "cli.settings.serverNotUsed",
                    ["by": arguments.values["store"] != nil ? "--store" : "TRACEDESK_STORE"])
            }
            if key == "server", value.value == nil {
                note = tr(
                    "cli.settings.noServer",
                    ["store": store.map { terminalSafe($0) } ?? tr("cli.settings.defaultStore")])
            }
            if key == "language", value.value != "en" {
                note = tr("cli.settings.languageNote")
            }
            let shown = value.value.map { terminalSafe($0) } ?? "-"
            let source =
                value.source == "default"
                ? tr("cli.settings.fromDefault") : tr("cli.settings.from", ["source": terminalSafe(value.source)])
            print(
                "  \(key.padding(toLength: 14, withPad: " ", startingAt: 0))\(shown.padding(toLength: max(24, shown.count + 2), withPad: " ", startingAt: 0))\(source)\(note)"
            )
        }
        if !settings.problems.isEmpty {
            print(tr("cli.settings.problems"))
            for problem in settings.problems { print("  " + terminalSafe(problem)) }
        }
        return .success
    }
}
