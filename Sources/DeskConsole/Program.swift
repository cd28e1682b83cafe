import DeskCore
import DeskService
import Foundation
import TerminalKit

/// Runs the console: render → diff → draw → wait for input or a result → update.
///
/// Threading rule: `run`/`step` are called on one thread (the backend's). Commands run as
/// tasks against the ``DeskService``; their results come back through a locked inbox that
/// the loop drains on every step, so the screen never blocks on the store or the network.
public final class Program {
    private let backend: TerminalBackend
    private let service: any DeskService
    private let inbox = Inbox()
    private var previous: Buffer
    /// The state the screen shows; nil forces the next draw (start, resize, ^L).
    private var drawnState: ConsoleApp.State?
    private var lastTick = Date.distantPast
    public private(set) var state: ConsoleApp.State
    public private(set) var finished = false
    /// How long one step waits for input before ticking (countdowns refresh at least this often).
    public var pollMilliseconds = 100

    private let session: StaffSession

    public init(
        backend: TerminalBackend, service: any DeskService, session: StaffSession, timeZone: TimeZone = .current
    ) {
        self.backend = backend
        self.service = service
        self.session = session
        state = ConsoleApp.State(
            size: backend.size, identity: DeskIdentity(user: session.user, location: service.location),
            now: service.now(), timeZone: timeZone)
        previous = Buffer(size: backend.size)
    }

    /// Loops until the operator quits.
    public func run() {
        draw()
        while !finished { step(timeoutMilliseconds: pollMilliseconds) }
    }

    /// One turn of the loop: wait for at most one event, apply it and any results, redraw.
    public func step(timeoutMilliseconds: Int) {
        if let event = backend.nextEvent(timeoutMilliseconds: timeoutMilliseconds) { handle(event) }
        for message in inbox.drain() { apply(.authorize(message)) }
        let now = service.now()
        if now.timeIntervalSince(lastTick) >= 0.25 {
            lastTick = now
            apply(.authorize(.ticked(now)))
        }
        if !finished { draw() }
    }

    /// Waits (up to `seconds`) until every started command has reported back; for tests.
    /// It sleeps without holding a thread: the commands run on the same cooperative pool, which
    /// has as many threads as cores, so a blocked waiter could starve the very work it waits for.
    public func settle(seconds: Double = 30) async {
        let deadline = Date().addingTimeInterval(seconds)
        while inbox.pending > 0 && Date() < deadline { try? await Task.sleep(for: .milliseconds(2)) }
        step(timeoutMilliseconds: 0)
    }

    private func handle(_ event: InputEvent) {
        switch event {
        case .key(.ctrl("l")):
            backend.invalidate()
            previous = Buffer(width: 0, height: 0)
            drawnState = nil
        case .key(let key): apply(.keyPressed(key))
        case .mouse(let mouse): apply(.mouse(mouse))
        case .resize(let size):
            apply(.resized(size))
            backend.invalidate()
            previous = Buffer(width: 0, height: 0)
            drawnState = nil
        }
    }

    private func apply(_ msg: ConsoleApp.Msg) {
        for command in ConsoleApp.update(&state, msg) { perform(command) }
    }

    private func perform(_ command: ConsoleApp.Command) {
        switch command {
        case .authorize(.quit):
            finished = true
        case .authorize(.authorize(let code, let day)):
            let service = self.service
            let session = self.session
            let inbox = self.inbox
            inbox.started()
            Task.detached {
                do {
                    let result = try await service.authorize(session, code: code, symptomsStartedOn: day)
                    inbox.deliver(.authorizeFinished(result))
                } catch let error as ServiceError {
                    inbox.deliver(.authorizeFailed(error.message))
                } catch {
                    inbox.deliver(.authorizeFailed("unexpected error: \(type(of: error))"))
                }
            }
        }
    }

    /// Renders and sends the changed cells, unless nothing the screen shows has changed
    /// (an idle step then costs one state comparison, not a render and a diff).
    private func draw() {
        if state == drawnState { return }
        drawnState = state
        var buffer = Buffer(size: state.size)
        ConsoleApp.render(state, into: &buffer)
        backend.draw(buffer.diff(from: previous), cursor: buffer.cursor)
        previous = buffer
    }
}

/// Results of commands, handed from tasks to the program loop.
final class Inbox: @unchecked Sendable {
    private let lock = SimpleLock()
    private var messages: [AuthorizeScreen.Msg] = []
    private var running = 0

    var pending: Int { lock.withLock { running } }

    func started() { lock.withLock { running += 1 } }

    func deliver(_ message: AuthorizeScreen.Msg) {
        lock.withLock {
            messages.append(message)
            running -= 1
        }
    }

    func drain() -> [AuthorizeScreen.Msg] {
        lock.withLock {
            let out = messages
            messages.removeAll()
            return out
        }
    }
}
