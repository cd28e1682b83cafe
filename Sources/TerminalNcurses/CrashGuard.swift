@preconcurrency import CNcursesw

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Restores the terminal when the process dies of a signal while in curses mode.
///
/// Swift traps raise SIGILL/SIGTRAP; memory errors SIGSEGV/SIGBUS; `abort` SIGABRT. Without
/// this the terminal stays in the alternate screen with the cursor hidden and the mouse
/// reporting. The handler leaves curses mode, then re-raises the signal with the default action
/// so the exit status and core dump are unchanged. While curses is active, stderr goes to a
/// temporary file (a message written into the alternate screen would vanish); the handler and
/// ``uninstall()`` copy it back to the real stderr.
///
/// It also replaces the Swift runtime's backtracer, which on a terminal would otherwise wait
/// for a key press before exiting.
enum CrashGuard {
    private static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    // Process-wide by nature: signal handlers cannot capture context. Written only on the
    // program-loop thread before/after curses mode; read by the handler.
    nonisolated(unsafe) private static var savedStderr: Int32 = -1
    nonisolated(unsafe) private static var captureFD: Int32 = -1

    private static let handler: @convention(c) (Int32) -> Void = { signal in
        if isendwin() == false { endwin() }
        nc_write_raw("\u{1b}[?1000l\u{1b}[?1006l\u{1b}[?25h")
        CrashGuard.restoreStderr()
        Glibc.signal(signal, SIG_DFL)
        raise(signal)
    }

    static func install() {
        captureStderr()
        for number in signals { signal(number, handler) }
    }

    static func uninstall() {
        for number in signals { signal(number, SIG_DFL) }
        restoreStderr()
    }

    private static func captureStderr() {
        guard savedStderr < 0 else { return }
        var template = Array("/tmp/tracedesk-stderr-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        fflush(nil)
        savedStderr = dup(STDERR_FILENO)
        captureFD = fd
        dup2(fd, STDERR_FILENO)
    }

    /// Puts the real stderr back and replays what was written meanwhile (async-signal-safe calls only).
    fileprivate static func restoreStderr() {
        guard savedStderr >= 0 else { return }
        dup2(savedStderr, STDERR_FILENO)
        close(savedStderr)
        savedStderr = -1
        if captureFD >= 0 {
            lseek(captureFD, 0, SEEK_SET)
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(captureFD, $0.baseAddress, 4096) }
                if count <= 0 { break }
                _ = chunk.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, count) }
            }
            close(captureFD)
            captureFD = -1
        }
    }
}
