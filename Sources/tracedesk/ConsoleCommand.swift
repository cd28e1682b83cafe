import DeskConsole
import DeskService
import DeskStore
import Foundation
import TerminalKit
import TerminalNcurses

/// `tracedesk` with no subcommand: the full-screen console.
///
/// Everything that can fail (options, theme, store) is checked before the screen opens, so a
/// problem is one clear line on a normal terminal, never a garbled screen.
enum ConsoleCommand {
    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(
            words, valueOptions: Set(["store", "theme"]).union(PersonOptions.valueOptions),
            flagOptions: Set(["no-color", "no-mouse"]).union(PersonOptions.flagOptions), command: "tracedesk")
        if arguments.has("help") {
            print(mainHelp)
            return .success
        }
        if let extra = arguments.positionals.first {
            throw UsageError("unexpected argument '\(extra)'", command: "tracedesk")
        }
        let environment = ProcessInfo.processInfo.environment
        let noColor = arguments.has("no-color") || !(environment["NO_COLOR"] ?? "").isEmpty
        var theme: Theme
        do {
            theme = try ThemeLoader.load(arguments.values["theme"] ?? "default")
        } catch {
            printError(error.message)
            return .refused
        }
        if noColor { theme = theme.withoutColor }
        let lifetime = try StoreLocation.otpLifetime()
        let busyTimeout = try StoreLocation.busyTimeout()
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            printError("the console needs a terminal: run it in one, or use 'tracedesk otp …' in scripts")
            return .usage
        }
        let desk: any DeskService
        if let server = Globals.person.merged(with: arguments).server {
            if arguments.values["store"] != nil {
                throw UsageError(
                    "give --store or --server, not both: a server uses its own store", command: "tracedesk")
            }
            desk = try Person.remoteDesk(server, command: "tracedesk")
        } else {
            let store: any Store
            do {
                store = try StoreLocation.open(arguments.values["store"], busyTimeoutMilliseconds: busyTimeout)
            } catch {
                printError(error.message)
                return .storeUnavailable
            }
            desk = LocalDesk(store: store, otpLifetime: lifetime)
        }
        // Interim: the sign-in screen replaces this terminal prompt.
        guard let session = try await Person.signIn(desk, Globals.person.merged(with: arguments), command: "tracedesk")
        else { return .notAllowed }
        let backend = NcursesBackend(options: .init(theme: theme, mouse: !arguments.has("no-mouse")))
        let program = Program(backend: backend, service: desk, session: session)
        program.run()
        backend.stop()
        return .success
    }
}
