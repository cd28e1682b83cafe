import Foundation
import Synchronization
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

nonisolated(unsafe) private var stopSignalPipe: Int32 = -1

/// SIGINT, SIGTERM and SIGHUP as a request to stop, for the console, `tracedesk demo` and
/// `tracedesk simulate`: the handler writes the signal's number to a pipe (the self-pipe trick, as
/// ``ServeCommand/installTerminationHandler()``), and a thread of its own reads it and runs
/// `onSignal` outside the handler, where anything may be called. A second signal while the first
/// is handled ends the process at once (default action).
///
/// Installed before curses starts, so that curses keeps its hands off these signals (it installs
/// its own handler only on a signal whose action is the default, and that handler exits without
/// the command's clean-up: the demo's temporary store would stay behind).
final class StopSignals: Sendable {
    private let received = Atomic<Int32>(0)

    /// The signal received, 0 while none.
    var signal: Int32 { received.load(ordering: .acquiring) }

    /// Installs the handler for `signals`; `onSignal` runs once, on a thread of its own, with the
    /// signal's number.
    init(_ signals: [Int32] = [SIGINT, SIGTERM, SIGHUP], onSignal: @escaping @Sendable (Int32) -> Void) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        stopSignalPipe = fds[1]
        let handler: @convention(c) (Int32) -> Void = { signal in
            var byte = UInt8(truncatingIfNeeded: signal)
            _ = write(stopSignalPipe, &byte, 1)
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for number in signals { sigaction(number, &action, nil) }
        let readEnd = fds[0]
        let thread = Thread { [self] in
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) != 1 {}
            for number in signals { Glibc.signal(number, SIG_DFL) }
            self.received.store(Int32(byte), ordering: .releasing)
            onSignal(Int32(byte))
        }
        thread.start()
    }

    /// The conventional exit status of a command stopped by `signal`: 128 + its number.
    static func exitStatus(_ signal: Int32) -> Int32 { 128 + signal }

    /// The signal's name, for messages.
    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}

/// The console's terminal, which answers a quit key once `stop` has a signal: the console then
/// quits as if the operator had pressed Ctrl-Q (signs out, leaves curses mode, restores the
/// terminal), so `tracedesk demo` stops everything in order.
final class QuitOnSignalBackend: TerminalBackend {
    private let backend: TerminalBackend
    private let stop: StopSignals

    init(_ backend: TerminalBackend, stop: StopSignals) {
        self.backend = backend
        self.stop = stop
    }

    var size: TerminalSize { backend.size }
    func draw(_ changes: [CellChange], cursor: (x: Int, y: Int)?) { backend.draw(changes, cursor: cursor) }
    func invalidate() { backend.invalidate() }
    func suspend() { backend.suspend() }
    func nextEvent(timeoutMilliseconds: Int) -> InputEvent? {
        if stop.signal != 0 { return .key(.ctrl("q")) }
        return backend.nextEvent(timeoutMilliseconds: timeoutMilliseconds)
    }
    func copyToClipboard(_ text: String) -> Clipboard.Outcome { backend.copyToClipboard(text) }
}

/// What a signal stops (the simulation's task, the console): actions added before the signal run
/// when it comes; one added after it runs at once.
final class StopActions: Sendable {
    private let state = Mutex<(fired: Bool, actions: [@Sendable () -> Void])>((false, []))

    /// Runs `action` when ``fire()`` is called, or now if it has been.
    func add(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.fired { return true }
            state.actions.append(action)
            return false
        }
        if now { action() }
    }

    /// Runs every action added, once.
    func fire() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            state.fired = true
            defer { state.actions = [] }
            return state.actions
        }
        for action in actions { action() }
    }
}
