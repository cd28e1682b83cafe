import DeskContract
import DeskCore
import DeskLocal
import DeskRemote
import DeskStore
import Foundation

/// Who a command acts for, and where: `--user NAME` (or `TRACEDESK_USER`), the password (asked on
/// the terminal without echo, or the first line of stdin with `--password-stdin`), and the
/// embedded store (`--store`) or a server (`--server URL`).
///
/// These options may come before the subcommand (`tracedesk --server URL --user ana otp …`) or
/// after it; ``Globals/extract(_:)`` takes the leading ones off.
struct PersonOptions {
    var server: String?
    var user: String?
    var passwordStdin = false

    static let valueOptions: Set<String> = ["user", "server"]
    static let flagOptions: Set<String> = ["password-stdin"]

    /// The options given to the subcommand, over those given before it.
    func merged(with arguments: Arguments) -> PersonOptions {
        var out = self
        if let server = arguments.values["server"] { out.server = server }
        if let user = arguments.values["user"] { out.user = user }
        if arguments.has("password-stdin") { out.passwordStdin = true }
        return out
    }

    var userName: String? {
        if let user, !user.isEmpty { return user }
        if let user = ProcessInfo.processInfo.environment["TRACEDESK_USER"], !user.isEmpty { return user }
        return nil
    }
}

/// Options given before the subcommand.
enum Globals {
    nonisolated(unsafe) static var person = PersonOptions()

    /// Takes `--server`, `--user` and `--password-stdin` off the front of `words`; returns the
    /// rest (from the first other word on, `--store` included, for the subcommand).
    static func extract(_ words: [String]) throws(UsageError) -> [String] {
        var rest = words[...]
        while let word = rest.first, word.hasPrefix("--") {
            var name = String(word.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if PersonOptions.valueOptions.contains(name) {
                rest = rest.dropFirst()
                guard let value = inline ?? rest.first else {
                    throw UsageError("option --\(name) needs a value", command: "tracedesk")
                }
                if inline == nil { rest = rest.dropFirst() }
                if name == "server" { person.server = value } else { person.user = value }
            } else if name == "password-stdin" {
                rest = rest.dropFirst()
                person.passwordStdin = true
            } else {
                break
            }
        }
        return Array(rest)
    }
}

/// Signing in for a command, and signing out after it.
enum Person {
    /// The desk `options` point at: a server's staff API, or the embedded store.
    static func desk(
        _ options: PersonOptions, store: String?, command: String
    ) throws(UsageError) -> (any DeskService)? {
        if let server = options.server {
            if store != nil {
                throw UsageError("give --store or --server, not both: a server uses its own store", command: command)
            }
            return try remoteDesk(server, command: command)
        }
        let lifetime = try StoreLocation.otpLifetime()
        let busyTimeout = try StoreLocation.busyTimeout()
        let apricot = try StoreLocation.apricotSettings(command: command)
        do {
            let store = try StoreLocation.open(store, busyTimeoutMilliseconds: busyTimeout)
            return LocalDesk(store: store, otpLifetime: lifetime, apricot: apricot)
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
                "say who is acting: --user NAME (or set TRACEDESK_USER); accounts are made with 'tracedesk staff add'",
                command: command)
        }
        guard let password = readPassword(prompt: "password for \(user): ", fromStdin: options.passwordStdin) else {
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
            printError("could not sign out: \(error.message)")
        }
    }

    /// A password: the first line of stdin with `--password-stdin`, else asked on the terminal
    /// without echo. Nil (with the reason printed) when neither is possible.
    static func readPassword(prompt: String, fromStdin: Bool) -> String? {
        if fromStdin {
            switch Terminal.readLine(fd: STDIN_FILENO, limit: Terminal.passwordLimit) {
            case .line(let line): return line
            case .end:
                printError("--password-stdin: stdin is empty: pipe the password in, one line")
                return nil
            case .tooLong:
                printError(
                    "--password-stdin: the line is longer than \(Terminal.passwordLimit) bytes: a password has at most \(PasswordRules.maximumLength) characters"
                )
                return nil
            }
        }
        guard let line = Terminal.readHidden(prompt: prompt) else {
            printError(
                "no terminal to ask for the password on: run this in a terminal, or pass --password-stdin and pipe the password in"
            )
            return nil
        }
        return line
    }

    /// A new password, typed twice; nil (reason printed) when they differ or none can be read.
    static func readNewPassword(for user: String, fromStdin: Bool) -> String? {
        if fromStdin { return readPassword(prompt: "", fromStdin: true) }
        guard let first = readPassword(prompt: "new password for \(user): ", fromStdin: false) else { return nil }
        if let problem = PasswordRules.problem(first, user: user) {
            printError(problem.message)
            return nil
        }
        guard let second = readPassword(prompt: "the same password again: ", fromStdin: false) else { return nil }
        guard first == second else {
            printError("the two passwords differ: nothing changed, try again")
            return nil
        }
        return first
    }
}

/// Reading from the controlling terminal without echo.
enum Terminal {
    /// The longest line read as a password (256 characters of up to 4 bytes, with room to spare).
    static let passwordLimit = 4_096

    enum Line {
        case line(String)
        case end
        case tooLong
    }

    /// One line from `fd`, a byte at a time (so nothing after it is consumed), without its
    /// newline; at most `limit` bytes (a longer line is refused, and reading stops there).
    static func readLine(fd: Int32, limit: Int) -> Line {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        var sawAny = false
        var overflow = false
        while read(fd, &byte, 1) == 1 {
            sawAny = true
            if byte == 0x0A || byte == 0x0D { break }
            if bytes.count < limit {
                bytes.append(byte)
            } else {
                overflow = true
                break
            }
        }
        if overflow { return .tooLong }
        if !sawAny { return .end }
        return .line(String(decoding: bytes, as: UTF8.self))
    }

    nonisolated(unsafe) static var hiddenFD: Int32 = -1
    nonisolated(unsafe) static var hiddenSaved = termios()
    nonisolated(unsafe) static var hiddenQuiet = termios()

    /// ^C, ^\, a hangup or a kill while the password is typed: echo back on, then end as the
    /// signal would.
    static let endingHandler: @convention(c) (Int32) -> Void = { number in
        if hiddenFD >= 0 { _ = tcsetattr(hiddenFD, TCSAFLUSH, &hiddenSaved) }
        _ = "\n".withCString { write(2, $0, 1) }
        _exit(128 + number)
    }

    /// ^Z (and background reads/writes): echo back on while stopped, off again on `fg` (a shell
    /// puts its own terminal modes back when a job stops).
    static let stoppingHandler: @convention(c) (Int32) -> Void = { number in
        let fd = hiddenFD
        if fd >= 0 { _ = tcsetattr(fd, TCSAFLUSH, &hiddenSaved) }
        signal(number, SIG_DFL)
        // The signal is blocked while its handler runs: unblock it, so raising it stops the
        // process here and now.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, number)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
        raise(number)
        // Continued: silent again, and ready for the next ^Z. What was typed before the stop was
        // discarded with the line (it must not reach the shell), so say so.
        if fd >= 0 {
            _ = tcsetattr(fd, TCSAFLUSH, &hiddenQuiet)
            _ = "password (type it again from the start): ".withCString { write(fd, $0, strlen($0)) }
        }
        signal(number, stoppingHandler)
    }

    /// Asks on /dev/tty with echo off; restores the terminal whatever happens. Nil without a terminal.
    static func readHidden(prompt: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ICANON)
        hiddenFD = fd
        hiddenSaved = saved
        hiddenQuiet = quiet
        // Handlers first, then echo off: no signal can leave the terminal silent.
        var previous: [(Int32, sig_t?)] = []
        for number in [SIGINT, SIGQUIT, SIGHUP, SIGTERM] { previous.append((number, signal(number, endingHandler))) }
        for number in [SIGTSTP, SIGTTIN, SIGTTOU] { previous.append((number, signal(number, stoppingHandler))) }
        defer {
            for (number, handler) in previous { signal(number, handler) }
            hiddenFD = -1
        }
        _ = prompt.withCString { write(fd, $0, strlen($0)) }
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else { return nil }
        let result = readLine(fd: fd, limit: passwordLimit)
        _ = tcsetattr(fd, TCSAFLUSH, &saved)
        _ = "\n".withCString { write(fd, $0, 1) }
        switch result {
        case .line(let line): return line
        case .end: return ""
        case .tooLong:
            // Longer than any password can be: refuse rather than cut it (a cut one could match another).
            return String(repeating: "x", count: PasswordRules.maximumLength + 1)
        }
    }
}
