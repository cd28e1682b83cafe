import DeskConsole
import DeskContract
import DeskStore
import Foundation
import TerminalKit
import TerminalNcurses

/// `tracedesk` with no subcommand: the full-screen console.
///
/// Everything that can fail (options, theme, store) is checked before the screen opens, so a
/// problem is one clear line on a normal terminal, never a garbled screen. Signing in happens
/// on the console's own sign-in screen (`--user NAME` fills in the name), through the desk, so
/// it is the same on the embedded store and against a server.
enum ConsoleCommand {
    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, CommandTable.command(""), command: "tracedesk")
        if arguments.has("help") {
            print(HelpText.main())
            return .success
        }
        if let extra = arguments.positionals.first {
            throw UsageError(tr("cli.common.unexpected", ["argument": extra]), command: "tracedesk")
        }
        let environment = ProcessInfo.processInfo.environment
        // The console's settings file: under the options and the environment, over the defaults.
        // Its problems are printed (they stay on the terminal once the console quits) and the
        // values they concern ignored.
        var person = Globals.person.merged(with: arguments)
        let settings = ConsoleSettings.resolve(
            options: [
                "server": person.server, "user": person.user, "theme": arguments.values["theme"],
                "language": Globals.language,
            ]
            .compactMapValues { $0 },
            environment: environment)
        for problem in settings.problems { printError(problem) }
        let storeGiven = arguments.values["store"] != nil || !(environment["TRACEDESK_STORE"] ?? "").isEmpty
        if person.server == nil, !storeGiven, let server = settings["server"].value { person.server = server }
        if person.userName == nil, let user = settings["user"].value { person.user = user }
        if settings["export_folder"].source != "XDG_DOCUMENTS_DIR", let folder = settings["export_folder"].value {
            // Where the console suggests exports: its documents folder (DeskConsole's ExportPath).
            let home = environment["HOME"] ?? NSHomeDirectory()
            let expanded = folder == "~" ? home : folder.hasPrefix("~/") ? home + folder.dropFirst() : folder
            setenv("XDG_DOCUMENTS_DIR", expanded, 1)
        }
        let noColor = arguments.has("no-color") || !(environment["NO_COLOR"] ?? "").isEmpty
        var theme: Theme
        do {
            theme = try ThemeLoader.load(settings["theme"].value ?? "default")
        } catch {
            printError(error.message)
            return .refused
        }
        if noColor { theme = theme.withoutColor }
        let idleLock = try idleLockSeconds()
        let refresh = try refreshSeconds(arguments.values["refresh"])
        if person.passwordStdin {
            throw UsageError(
                tr("cli.console.noPasswordStdin"),
                command: "tracedesk")
        }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            printError(tr("cli.console.needsTerminal"))
            return .usage
        }
        guard let desk = try Person.desk(person, store: arguments.values["store"], command: "tracedesk") else {
            return .storeUnavailable
        }
        // SIGHUP (the terminal window closed), SIGTERM and SIGINT quit as Ctrl-Q does: sign out,
        // restore the terminal, then exit 128 + the signal's number. Installed before curses
        // starts, so curses leaves them alone; should the quit hang, the process ends anyway.
        let signals = StopSignals { signal in
            sleep(5)
            _exit(StopSignals.exitStatus(signal))
        }
        let backend = NcursesBackend(options: .init(theme: theme, mouse: !arguments.has("no-mouse")))
        let program = Program(
            backend: QuitOnSignalBackend(backend, stop: signals), service: desk, userName: person.userName ?? "",
            idleLockSeconds: idleLock, ascii: backend.glyphs.ascii, refreshSeconds: refresh,
            rangeFile: RememberedRange.path())
        program.copyEnabled = try copyEnabled(arguments, environment)
        program.run()
        backend.stop()
        // Quitting signed out in the background: give it a moment, never more.
        program.finishCalls(within: 1)
        if signals.signal != 0 {
            printError(StopSignals.name(signals.signal) + ": " + tr("cli.console.stopped"))
            return ExitStatus(rawValue: StopSignals.exitStatus(signals.signal)) ?? .refused
        }
        return .success
    }

    /// Whether `y` copies (OSC 52): not with `--no-copy`, nor with `TRACEDESK_COPY=off` (or `0`,
    /// `no`, `false`); `on` (or unset, empty) copies. Anything else is refused before the screen opens.
    static func copyEnabled(_ arguments: Arguments, _ environment: [String: String]) throws(UsageError) -> Bool {
        if arguments.has("no-copy") { return false }
        let value = (environment["TRACEDESK_COPY"] ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        switch value {
        case "", "on", "1", "yes", "true": return true
        case "off", "0", "no", "false": return false
        default:
            throw UsageError(
                tr("cli.console.badCopy", ["value": terminalSafe(String(value.prefix(20)))]),
                command: "tracedesk")
        }
    }

    /// `--refresh SECONDS`: the supervisor dashboard's refresh period, 1...3600, or 0 for none
    /// (only `r` then); 5 when not given.
    static func refreshSeconds(_ text: String?) throws(UsageError) -> Int {
        guard let text else { return DashboardScreen.defaultRefreshSeconds }
        guard let seconds = Int(text), seconds == 0 || (1...DashboardScreen.maximumRefreshSeconds).contains(seconds)
        else {
            throw UsageError(
                tr(
                    "cli.console.badRefresh",
                    ["high": String(DashboardScreen.maximumRefreshSeconds), "value": String(text.prefix(20))]),
                command: "tracedesk")
        }
        return seconds
    }

    /// `TRACEDESK_IDLE_LOCK_SECONDS`: lock the console sooner than the session's idle limit
    /// (tests; desks in busy rooms). 2...86400 accepted; nil when unset.
    static func idleLockSeconds() throws(UsageError) -> Int? {
        guard let text = ProcessInfo.processInfo.environment["TRACEDESK_IDLE_LOCK_SECONDS"], !text.isEmpty else {
            return nil
        }
        guard let seconds = Int(text), (2...86_400).contains(seconds) else {
            throw UsageError(
                tr("cli.console.badIdleLock", ["value": String(text.prefix(20))]),
                command: "tracedesk")
        }
        return seconds
    }
}
