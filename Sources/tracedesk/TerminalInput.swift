import DeskContract
import DeskCore
import DeskStore
import Foundation

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
    /// The prompt after a ^Z and `fg`, in the run's language: looked up before the handlers are
    /// installed (a signal handler may not look anything up), kept for the process.
    nonisolated(unsafe) static var retypePrompt: UnsafeMutablePointer<CChar>?

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
            if let retype = retypePrompt { _ = write(fd, retype, strlen(retype)) }
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
        if retypePrompt == nil { retypePrompt = strdup(tr("cli.person.retypePassword")) }
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
