import DeskContract
import DeskCore
import DeskLocal
import DeskRemote
import DeskStore
import Foundation

/// Signing in for a command, and signing out after it.
enum Person {
    /// The desk `options` point at: a server's staff API, or the embedded store.
    static func desk(
        _ options: PersonOptions, store: String?, command: String
    ) throws(UsageError) -> (any DeskService)? {
        if let server = options.server {
            if store != nil {
                throw UsageError(tr("cli.person.storeAndServer"), command: command)
            }
            return try remoteDesk(server, command: command)
        }
        let lifetime = try StoreLocation.otpLifetime()
        let busyTimeout = try StoreLocation.busyTimeout()
        let apricot = try StoreLocation.apricotSettings(command: command)
        let followUps = try StoreLocation.followUpSettings(command: command)
        do {
            let store = try StoreLocation.open(store, busyTimeoutMilliseconds: busyTimeout)
            return LocalDesk(store: store, otpLifetime: lifetime, apricot: apricot, followUps: followUps)
        } catch {
            printError(error.message)
            return nil
        }
    }

    /// The remote desk for `--server URL` (RemoteDesk over the staff API of a `tracedesk serve`,
    /// on its internal listener). A URL that is not http(s) with a host is a usage error; nothing
    /// is sent until the first use case.
    static func remoteDesk(_ server: String, command: String) throws(UsageError) -> any DeskService {
        switch RemoteDesk.parse(server) {
        case .success(let url): return RemoteDesk(url: url)
        case .failure(let problem): throw UsageError("--server: \(problem.message)", command: command)
        }
    }

    /// Signs in as the person `options` name, asking for the password. When that fails, prints
    /// why and returns the exit status (6 refused, 4 store or server unavailable).
    static func signIn(_ desk: any DeskService, _ options: PersonOptions, command: String) async throws(UsageError)
        -> Result<StaffSession, ExitStatus>
    {
        guard let user = options.userName else {
            throw UsageError(
                tr("cli.person.sayWho"),
                command: command)
        }
        guard
            let password = readPassword(
                prompt: tr("cli.person.passwordPrompt", ["user": user]), fromStdin: options.passwordStdin)
        else {
            return .failure(.notAllowed)
        }
        do {
            return .success(try await desk.signIn(name: user, password: password))
        } catch {
            printError(error.message)
            // A server that cannot be reached is exit 4, not "not allowed".
            return .failure(ExitStatus(error))
        }
    }

    /// Opens the desk, signs the person in, runs `body`, signs out. Errors become exit statuses.
    static func acting(
        _ arguments: Arguments, _ options: PersonOptions, command: String,
        _ body: (any DeskService, StaffSession) async throws(ServiceError) -> ExitStatus
    ) async throws(UsageError) -> ExitStatus {
        guard let desk = try Person.desk(options, store: arguments.values["store"], command: command) else {
            return .storeUnavailable
        }
        let session: StaffSession
        switch try await Person.signIn(desk, options, command: command) {
        case .success(let signedIn): session = signedIn
        case .failure(let status): return status
        }
        let status: ExitStatus
        do {
            status = try await body(desk, session)
        } catch {
            printError(error.message)
            status = ExitStatus(error)
        }
        await Person.signOut(desk, session)
        return status
    }

    /// Ends the command's session; a failure here is only reported.
    static func signOut(_ desk: any DeskService, _ session: StaffSession) async {
        do {
            try await desk.signOut(session)
        } catch {
            printError(tr("cli.person.signOutFailed", ["problem": error.message]))
        }
    }

    /// A password: the first line of stdin with `--password-stdin`, else asked on the terminal
    /// without echo. Nil (with the reason printed) when neither is possible.
    static func readPassword(prompt: String, fromStdin: Bool) -> String? {
        if fromStdin {
            switch Terminal.readLine(fd: STDIN_FILENO, limit: Terminal.passwordLimit) {
            case .line(let line): return line
            case .end:
                printError(tr("cli.person.passwordStdinEmpty"))
                return nil
            case .tooLong:
                printError(
                    tr(
                        "cli.person.passwordTooLong",
                        ["limit": String(Terminal.passwordLimit), "max": String(PasswordRules.maximumLength)]))
                return nil
            }
        }
        guard let line = Terminal.readHidden(prompt: prompt) else {
            printError(tr("cli.person.noTerminal"))
            return nil
        }
        return line
    }

    /// A new password, typed twice; nil (reason printed) when they differ or none can be read.
    static func readNewPassword(for user: String, fromStdin: Bool) -> String? {
        if fromStdin { return readPassword(prompt: "", fromStdin: true) }
        guard let first = readPassword(prompt: tr("cli.person.newPassword", ["user": user]), fromStdin: false) else {
            return nil
        }
        if let problem = PasswordRules.problem(first, user: user) {
            printError(problem.message)
            return nil
        }
        guard let second = readPassword(prompt: tr("cli.person.passwordAgain"), fromStdin: false) else { return nil }
        guard first == second else {
            printError(tr("cli.person.passwordsDiffer"))
            return nil
        }
        return first
    }
}
