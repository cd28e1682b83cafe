import DeskContract
import DeskCore
import DeskText
import Foundation
import TerminalKit

/// Runs the console: render → diff → draw → wait for input or a result → update.
///
/// Threading rule: `run`/`step` are called on one thread (the backend's). Commands run as
/// tasks against the ``DeskService`` with the session in the state when they start; their
/// results come back through a locked inbox that the loop drains on every step, so the screen
/// never blocks on the store or the network. Answers to calls made for an earlier sign-in are
/// dropped (``ConsoleApp/State/generation``), and any call that finds the session over also
/// reports ``ConsoleApp/Msg/sessionEnded(_:)``, which brings up the lock screen.
///
/// The activity feed is one long-running task (``ConsoleApp/Command/startFeed(after:)``): it
/// reads pages of events with a long poll and posts each as ``ConsoleApp/Msg/feed(_:)`` through
/// the same inbox, but uncounted, so ``settle(seconds:)`` and ``finishCalls(within:)`` never wait
/// for it. On a failure it posts ``ConsoleApp/Msg/feedFailed(_:)`` and asks again from the same
/// cursor after 0.5 s, 1 s, 2 s… (at most 5 s); on `.notSignedIn` it stops and reports
/// ``ConsoleApp/Msg/sessionEnded(_:)``. Stopping it (sign-out, lock, quit) cancels the task,
/// and anything a stopped loop still posts is dropped.
public final class Program {
    let backend: TerminalBackend
    let service: any DeskService
    let inbox = Inbox()
    private var previous: Buffer
    /// The state the screen shows; nil forces the next draw (start, resize, ^L).
    private var drawnState: ConsoleApp.State?
    private var lastTick = Date.distantPast
    private var started = false
    /// The feed loop, while one runs; posts of any loop but the current one are dropped.
    var feedTask: Task<Void, Never>?
    var feedEpoch = 0
    public private(set) var state: ConsoleApp.State
    public private(set) var finished = false
    /// How long one step waits for input before ticking (countdowns refresh at least this often).
    public var pollMilliseconds = 100
    /// `tracedesk demo` only: the simulated citizen to show on the authorise screen, read on
    /// every tick (``DemoCitizenStrip``); nil outside the demo.
    public var demoCitizen: (@Sendable () -> DemoCitizenStrip?)?
    /// Where the dashboard's range is kept between runs; nil: not kept.
    let rangeFile: String?

    /// Whether `y` copies (OSC 52); off with `tracedesk --no-copy` or `TRACEDESK_COPY=off`.
    /// When off, nothing is written to the terminal and no copy of a phone number is audited.
    public var copyEnabled = true

    /// `tracedesk demo` only: the accounts and patients help and F8 show.
    public var demoAccounts: DemoAccounts? {
        get { state.demoAccounts }
        set { state.demoAccounts = newValue }
    }

    /// - Parameters:
    ///   - userName: fills in the sign-in's name (`--user NAME`).
    ///   - idleLockSeconds: locks sooner than the session's idle limit (tests, busy desks).
    ///   - refreshSeconds: the dashboard's refresh period (`--refresh`); 0: only on `r`.
    ///   - rangeFile: where the dashboard's range is kept between runs (``RememberedRange/path(environment:)``);
    ///     nil: nothing is read or kept (tests).
    public init(
        backend: TerminalBackend, service: any DeskService, userName: String = "", idleLockSeconds: Int? = nil,
        timeZone: TimeZone = .current, ascii: Bool = false,
        refreshSeconds: Int = DashboardScreen.defaultRefreshSeconds, rangeFile: String? = nil
    ) {
        self.backend = backend
        self.service = service
        state = ConsoleApp.State(
            size: backend.size, location: service.location, now: service.now(), timeZone: timeZone,
            userName: userName, idleLockSeconds: idleLockSeconds, ascii: ascii, refreshSeconds: refreshSeconds)
        state.exportFolder = ExportPath.defaultFolder()
        self.rangeFile = rangeFile
        if let rangeFile, let range = RememberedRange.read(rangeFile) { state.dashboardRange = range }
        previous = Buffer(size: backend.size)
    }

    deinit { feedTask?.cancel() }

    /// Opens the console already signed in with `session`, as if its sign-in screen had just
    /// succeeded (`tracedesk demo` opens it as the demo operator). Call before ``run()``.
    public func signIn(as session: StaffSession) {
        startIfNeeded()
        apply(.signedIn(session))
    }

    /// Loops until the operator quits.
    public func run() {
        startIfNeeded()
        draw()
        while !finished { step(timeoutMilliseconds: pollMilliseconds) }
    }

    /// One turn of the loop: wait for at most one event, apply it and any results, redraw.
    public func step(timeoutMilliseconds: Int) {
        startIfNeeded()
        if let event = backend.nextEvent(timeoutMilliseconds: timeoutMilliseconds) { handle(event) }
        for (generation, feed, message) in inbox.drain()
        where generation == state.generation && (feed == nil || feed == feedEpoch) {
            apply(message)
        }
        let problem = service.connectionProblem
        if problem != state.connectionProblem { apply(.connectionChanged(problem)) }
        let now = service.now()
        if now.timeIntervalSince(lastTick) >= 0.25 {
            lastTick = now
            if let demoCitizen, case let citizen = demoCitizen(), citizen != state.demoCitizen {
                apply(.demoCitizenChanged(citizen))
            }
            apply(.ticked(now))
        }
        if !finished { draw() }
    }

    /// Waits (up to `seconds`) until every started command has reported back; for tests.
    /// It sleeps without holding a thread: the commands run on the same cooperative pool, which
    /// has as many threads as cores, so a blocked waiter could starve the very work it waits for.
    /// Answers that start further calls (a sign-in loads the staff list) are waited for too.
    public func settle(seconds: Double = 30) async {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            while inbox.pending > 0 && Date() < deadline { try? await Task.sleep(for: .milliseconds(2)) }
            step(timeoutMilliseconds: 0)
        } while (inbox.pending > 0 || inbox.queued > 0) && Date() < deadline
    }

    /// After the loop: gives calls still running (the sign-out that quitting starts) at most
    /// `seconds` to finish, blocking this thread (not a task's), so quitting never hangs.
    public func finishCalls(within seconds: Double = 1) {
        let deadline = Date().addingTimeInterval(seconds)
        while inbox.pending > 0 && Date() < deadline { usleep(5_000) }
    }

    private func startIfNeeded() {
        guard !started else { return }
        started = true
        for command in ConsoleApp.start(&state) { perform(command) }
    }

    private func handle(_ event: InputEvent) {
        switch event {
        case .key(let key): apply(.keyPressed(key))
        case .mouse(let mouse): apply(.mouse(mouse))
        case .resize(let size):
            apply(.resized(size))
            repaintAll()
        }
    }

    /// The next draw sends every cell, on a terminal told to forget what it shows.
    private func repaintAll() {
        backend.invalidate()
        previous = Buffer(width: 0, height: 0)
        drawnState = nil
    }

    /// Ctrl-Z: the terminal goes back to the shell and the process stops until `fg`. The session
    /// stays signed in meanwhile (nothing runs to keep or end it); back, the size is read again,
    /// the clock ticks before anything is drawn, so a console left stopped past its idle limit
    /// comes back locked without showing the screen first, and everything is repainted.
    private func suspend() {
        backend.suspend()
        if backend.size != state.size { apply(.resized(backend.size)) }
        lastTick = Date.distantPast
        apply(.ticked(service.now()))
        repaintAll()
    }

    func apply(_ msg: ConsoleApp.Msg) {
        for command in ConsoleApp.update(&state, msg) { perform(command) }
    }

    func perform(_ command: ConsoleApp.Command) {
        let service = self.service
        switch command {
        case .quit:
            finished = true
            stopFeed()
        case .startFeed(let cursor):
            startFeed(after: cursor)
        case .stopFeed:
            stopFeed()
        case .redraw:
            repaintAll()
        case .suspend:
            suspend()
        case .checkAccounts:
            call(
                { () async throws(ServiceError) in try await service.needsFirstAdmin() },
                then: { [service] in
                    .accountsChecked(needsFirstAdmin: $0, setupToken: service.firstAdminNeedsSetupToken)
                }, failed: { .accountsCheckFailed($0.message) })
        case .signIn(let name, let password):
            call(
                { () async throws(ServiceError) in try await service.signIn(name: name, password: password) },
                then: { .signedIn($0) }, failed: { .signInScreen(.failed($0.message)) })
        case .createFirstAdmin(let name, let password, let token):
            call(
                { () async throws(ServiceError) in
                    try await service.createFirstAdmin(name: name, password: password, setupToken: token)
                },
                then: { .signedIn($0) },
                failed: { error in
                    if case .conflict(let message) = error { return .firstAdminExists(message) }
                    return .firstAdminScreen(.failed(error.message))
                })
        case .unlock(let name, let password):
            call(
                { () async throws(ServiceError) in try await service.signIn(name: name, password: password) },
                then: { .unlocked($0) }, failed: { .lockScreen(.failed($0.message)) })
        case .signOut(let session):
            call(
                { () async throws(ServiceError) in try await service.signOut(session) }, then: { _ in nil },
                failed: { _ in nil }
            )
        case .authorize(.quit), .monitor(.quit), .staff(.quit), .audit(.quit), .his(.quit), .trace(.quit),
            .dashboard(.quit), .queue(.quit):
            // Never here: ConsoleApp turns a screen's quit into its own `.quit` (which signs out).
            break
        case .authorize(let inner):
            perform(inner)
        case .monitor(let inner):
            perform(inner)
        case .staff(let inner):
            perform(inner)
        case .audit(let inner):
            perform(inner)
        case .his(let inner):
            perform(inner)
        case .trace(let inner):
            perform(inner)
        case .dashboard(let inner):
            perform(inner)
        case .queue(let inner):
            perform(inner)
        }
    }

    /// The desk will not show this code whatever we do (not the operator's, no such code):
    /// asking again is pointless.
    static func isRefusal(_ error: ServiceError) -> Bool {
        switch error {
        case .forbidden, .invalid: return true
        default: return false
        }
    }

    /// Runs `body` with the current session; with none (signed out meanwhile) the console locks
    /// or stays on the sign-in, as the state decides.
    func withSession(_ body: (StaffSession) -> Void) {
        guard let session = state.session else {
            apply(.sessionEnded(tr("console.frame.notSignedIn")))
            return
        }
        body(session)
    }

    /// Starts `work` as a task; its answer comes back as a message through the inbox, tagged with
    /// the sign-in it was made for. With `session`, a `.notSignedIn` answer also reports
    /// ``ConsoleApp/Msg/sessionEnded(_:)`` (first, so the lock is up before the screen reacts).
    func call<T: Sendable>(
        _ work: @escaping @Sendable () async throws(ServiceError) -> T,
        then success: @escaping @Sendable (T) -> ConsoleApp.Msg?,
        failed failure: @escaping @Sendable (ServiceError) -> ConsoleApp.Msg?,
        session: Bool = false
    ) {
        let inbox = self.inbox
        let generation = state.generation
        inbox.started()
        Task.detached {
            var messages: [ConsoleApp.Msg] = []
            do throws(ServiceError) {
                let value = try await work()
                if let message = success(value) { messages.append(message) }
            } catch {
                if session, case .notSignedIn(let text) = error { messages.append(.sessionEnded(text)) }
                if let message = failure(error) { messages.append(message) }
            }
            inbox.deliver(messages, generation: generation)
        }
    }

    /// Writes `clip` to the terminal's clipboard, unless copying is off; on the loop's thread.
    func copy(_ clip: ClipboardCopy) -> CopyResult {
        guard copyEnabled else { return .off }
        switch backend.copyToClipboard(clip.text) {
        case .copied(let cut): return .copied(what: clip.what, cut: cut)
        case .unavailable: return .unavailable
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
