import DeskContract
import DeskCore
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
    private let backend: TerminalBackend
    private let service: any DeskService
    private let inbox = Inbox()
    private var previous: Buffer
    /// The state the screen shows; nil forces the next draw (start, resize, ^L).
    private var drawnState: ConsoleApp.State?
    private var lastTick = Date.distantPast
    private var started = false
    /// The feed loop, while one runs; posts of any loop but the current one are dropped.
    private var feedTask: Task<Void, Never>?
    private var feedEpoch = 0
    public private(set) var state: ConsoleApp.State
    public private(set) var finished = false
    /// How long one step waits for input before ticking (countdowns refresh at least this often).
    public var pollMilliseconds = 100
    /// `tracedesk demo` only: the simulated citizen to show on the authorise screen, read on
    /// every tick (``DemoCitizenStrip``); nil outside the demo.
    public var demoCitizen: (@Sendable () -> DemoCitizenStrip?)?

    /// - Parameters:
    ///   - userName: fills in the sign-in's name (`--user NAME`).
    ///   - idleLockSeconds: locks sooner than the session's idle limit (tests, busy desks).
    ///   - refreshSeconds: the dashboard's refresh period (`--refresh`); 0: only on `r`.
    public init(
        backend: TerminalBackend, service: any DeskService, userName: String = "", idleLockSeconds: Int? = nil,
        timeZone: TimeZone = .current, ascii: Bool = false,
        refreshSeconds: Int = DashboardScreen.defaultRefreshSeconds
    ) {
        self.backend = backend
        self.service = service
        state = ConsoleApp.State(
            size: backend.size, location: service.location, now: service.now(), timeZone: timeZone,
            userName: userName, idleLockSeconds: idleLockSeconds, ascii: ascii, refreshSeconds: refreshSeconds)
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
        let service = self.service
        switch command {
        case .quit:
            finished = true
            stopFeed()
        case .startFeed(let cursor):
            startFeed(after: cursor)
        case .stopFeed:
            stopFeed()
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
            .dashboard(.quit):
            // Never here: ConsoleApp turns a screen's quit into its own `.quit` (which signs out).
            break
        case .authorize(.authorize(let code, let day)):
            withSession { session in
                self.call(
                    { () async throws(ServiceError) in
                        try await service.authorize(session, code: code, symptomsStartedOn: day)
                    },
                    then: { .authorize(.authorizeFinished($0)) }, failed: { .authorize(.authorizeFailed($0.message)) },
                    session: true)
            }
        case .authorize(.watch(let target)):
            withSession { session in
                self.call(
                    { () async throws(ServiceError) in try await service.watch(session, target) },
                    then: { .authorize(.watchLoaded($0)) },
                    failed: { error in
                        Self.isRefusal(error)
                            ? .authorize(.watchRefused(error.message, for: target))
                            : .authorize(.watchFailed(error.message, for: target))
                    }, session: true)
            }
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
        }
    }

    private func perform(_ command: DashboardScreen.Command) {
        let service = self.service
        switch command {
        case .quit:
            break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
        case .load(let query):
            withSession { session in
                self.call(
                    { () async throws(ServiceError) in try await service.statistics(session, query: query) },
                    then: { .dashboard(.loaded($0, for: query)) },
                    failed: { .dashboard(.failed($0.message, for: query)) }, session: true)
            }
        case .export(let path, let csv, let overwrite):
            // Figures, not personal data: nothing to audit. Checked, then an existing file asked
            // about, then written whole under a temporary name and put in place (mode 0600).
            call(
                { () async throws(ServiceError) -> DashboardScreen.Msg in
                    do throws(AtomicFile.Failure) {
                        try AtomicFile.check(path)
                        if !overwrite, AtomicFile.exists(path) { return .exportExists(path) }
                        try AtomicFile.write(Array(csv.utf8), to: path, overwrite: overwrite)
                    } catch {
                        if case .exists = error { return .exportExists(path) }
                        return .exportFailed(error.message)
                    }
                    return .exported(path: path)
                },
                then: { .dashboard($0) }, failed: { .dashboard(.exportFailed($0.message)) })
        }
    }

    private func perform(_ command: MonitorScreen.Command) {
        let service = self.service
        withSession { session in
            switch command {
            case .quit:
                break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
            case .traffic(let since):
                self.call(
                    { () async throws(ServiceError) in try await service.traffic(session, since: since) },
                    then: { .monitor(.trafficLoaded($0)) }, failed: { .monitor(.trafficFailed($0.message)) },
                    session: true)
            case .watch(let target):
                self.call(
                    { () async throws(ServiceError) in try await service.watch(session, target) },
                    then: { .monitor(.watchLoaded($0, for: target)) },
                    failed: { error in
                        Self.isRefusal(error)
                            ? .monitor(.watchRefused(error.message, for: target))
                            : .monitor(.watchFailed(error.message, for: target))
                    }, session: true)
            }
        }
    }

    /// The desk will not show this code whatever we do (not the operator's, no such code):
    /// asking again is pointless.
    private static func isRefusal(_ error: ServiceError) -> Bool {
        switch error {
        case .forbidden, .invalid: return true
        default: return false
        }
    }

    // MARK: The feed

    /// Pause before the n-th consecutive retry: 0.5 s, 1 s, 2 s, 4 s, then 5 s.
    public static func feedBackoff(failures: Int) -> Duration {
        let milliseconds = 500 * (1 << min(max(0, failures - 1), 4))
        return .milliseconds(min(5_000, milliseconds))
    }

    /// Starts the feed loop from `cursor` with the current session, ending any other.
    private func startFeed(after cursor: Int64?) {
        stopFeed()
        guard let session = state.session else { return }
        let service = self.service
        let inbox = self.inbox
        let generation = state.generation
        let epoch = feedEpoch
        feedTask = Task.detached {
            await Program.readFeed(
                service: service, session: session, from: cursor, inbox: inbox, generation: generation, epoch: epoch)
        }
    }

    /// The feed loop's body: read, post, and on failure wait and read again from the same cursor.
    private static func readFeed(
        service: any DeskService, session: StaffSession, from start: Int64?, inbox: Inbox, generation: Int, epoch: Int
    ) async {
        var cursor = start
        var failures = 0
        while !Task.isCancelled {
            // One page at a time: the next is read once the screen has taken the last, so a
            // slow screen slows the reading instead of piling pages up in memory.
            while inbox.feedQueued > 0 && !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            let result: Result<EventPage, ServiceError>
            do throws(ServiceError) {
                if let after = cursor {
                    result = .success(
                        try await service.events(
                            session, after: after, limit: ConsoleApp.feedPageSize, wait: .seconds(10)))
                } else {
                    // The first read: the newest page, and the latest position to follow from.
                    result = .success(try await service.newestEvents(session, limit: ConsoleApp.feedPageSize))
                }
            } catch {
                result = .failure(error)
            }
            if Task.isCancelled { return }
            switch result {
            case .success(let page):
                let previous = cursor
                // The cursor never goes back, whatever a desk answers: no repeats.
                cursor = max(cursor ?? page.cursor, page.cursor)
                if !page.events.isEmpty || cursor != previous || failures > 0 {
                    inbox.post([.feed(page)], generation: generation, feed: epoch)
                }
                failures = 0
                // An empty answer came after the desk's wait; a short pause keeps a desk that
                // answers at once from being asked in a tight loop.
                if page.events.isEmpty { try? await Task.sleep(for: .milliseconds(250)) }
            case .failure(.notSignedIn(let text)):
                inbox.post([.sessionEnded(text)], generation: generation, feed: epoch)
                return
            case .failure(let error):
                failures += 1
                inbox.post([.feedFailed(error.message)], generation: generation, feed: epoch)
                try? await Task.sleep(for: feedBackoff(failures: failures))
            }
        }
    }

    /// Ends the feed loop; what it still posts is dropped.
    private func stopFeed() {
        feedTask?.cancel()
        feedTask = nil
        feedEpoch += 1
    }

    private func perform(_ command: StaffScreen.Command) {
        let service = self.service
        withSession { session in
            switch command {
            case .quit:
                break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
            case .load:
                self.call(
                    { () async throws(ServiceError) in try await service.staff(session) },
                    then: { .staff(.loaded($0)) }, failed: { .staff(.loadFailed($0.message)) }, session: true)
            case .add(let name, let role, let password):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.addStaff(session, name: name, role: role, password: password)
                    },
                    then: { .staff(.added($0)) }, failed: { .staff(.changeFailed($0.message)) }, session: true)
            case .disable(let name):
                self.call(
                    { () async throws(ServiceError) in try await service.disableStaff(session, name: name) },
                    then: { .staff(.disabled($0)) }, failed: { .staff(.changeFailed($0.message)) }, session: true)
            case .resetPassword(let name, let password):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.resetPassword(session, name: name, password: password)
                    },
                    then: { .staff(.passwordReset($0)) }, failed: { .staff(.changeFailed($0.message)) }, session: true)
            }
        }
    }

    private func perform(_ command: HISScreen.Command) {
        let service = self.service
        withSession { session in
            switch command {
            case .quit:
                break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
            case .load:
                self.call(
                    { () async throws(ServiceError) in try await service.hisClients(session) },
                    then: { .his(.loaded($0)) }, failed: { .his(.loadFailed($0.message)) }, session: true)
            case .add(let name, let rate):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.addHISClient(session, name: name, ratePerMinute: rate)
                    },
                    then: { .his(.added($0)) }, failed: { .his(.changeFailed($0.message)) }, session: true)
            case .revoke(let name):
                self.call(
                    { () async throws(ServiceError) in try await service.revokeHISClient(session, name: name) },
                    then: { .his(.revoked($0)) }, failed: { .his(.changeFailed($0.message)) }, session: true)
            }
        }
    }

    private func perform(_ command: AuditScreen.Command) {
        let service = self.service
        withSession { session in
            switch command {
            case .quit:
                break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
            case .load(let query):
                self.call(
                    { () async throws(ServiceError) in try await service.audit(session, query: query) },
                    then: { .audit(.loaded($0, for: query)) }, failed: { .audit(.loadFailed($0.message, for: query)) },
                    session: true)
            case .verify:
                self.call(
                    { () async throws(ServiceError) in try await service.verifyAudit(session) },
                    then: { .audit(.verified($0)) }, failed: { .audit(.verifyFailed($0.message)) }, session: true)
            }
        }
    }

    private func perform(_ command: TraceScreen.Command) {
        let service = self.service
        withSession { session in
            switch command {
            case .quit:
                break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
            case .lookup(let phone, let purpose):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.traceLookup(session, phone: phone, purpose: purpose)
                    },
                    then: { .trace(.lookupLoaded($0)) }, failed: { .trace(.lookupFailed($0.message)) }, session: true)
            case .sightings(let patient, let contact, let purpose, let offset, let limit):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.traceSightings(
                            session, patientUserID: patient, contactUserID: contact, purpose: purpose, offset: offset,
                            limit: limit)
                    },
                    then: { .trace(.sightingsLoaded($0, patient: patient, contact: contact, offset: offset)) },
                    failed: { .trace(.sightingsFailed($0.message, patient: patient, contact: contact)) }, session: true)
            case .recordOutcome(let patient, let contact, let outcome, let note, let purpose):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.recordOutcome(
                            session, patientUserID: patient, contactUserID: contact, outcome: outcome, note: note,
                            purpose: purpose)
                    },
                    then: { .trace(.outcomeSaved($0, patient: patient, contact: contact)) },
                    failed: { .trace(.outcomeFailed($0.message, patient: patient, contact: contact)) }, session: true)
            case .export(let path, let csv, let patient, let purpose, let rows, let overwrite):
                self.call(
                    { () async throws(ServiceError) -> TraceScreen.Msg in
                        // The path is checked, then an existing file asked about, then the
                        // bytes written and flushed under a temporary name; only then is the
                        // export audited, and only an audited export is put in place. A failed
                        // export leaves no audit entry; a written one always has one.
                        do throws(AtomicFile.Failure) {
                            try AtomicFile.check(path)
                        } catch {
                            return .exportFailed(error.message)
                        }
                        if !overwrite, AtomicFile.exists(path) { return .exportExists(path) }
                        let staged: AtomicFile.Staged
                        do throws(AtomicFile.Failure) {
                            staged = try AtomicFile.stage(Array(csv.utf8), for: path, overwrite: overwrite)
                        } catch {
                            if case .exists = error { return .exportExists(path) }
                            return .exportFailed(error.message)
                        }
                        do throws(ServiceError) {
                            try await service.recordTraceExport(
                                session, patientUserID: patient, purpose: purpose, kind: "contacts_csv", rows: rows)
                        } catch {
                            staged.discard()
                            throw error
                        }
                        do throws(AtomicFile.Failure) {
                            try staged.commit()
                        } catch {
                            if case .exists = error { return .exportExists(path) }
                            return .exportFailed(error.message)
                        }
                        return .exported(path: path, rows: rows)
                    },
                    then: { .trace($0) },
                    failed: {
                        .trace(
                            .exportFailed(
                                "the export could not be recorded in the audit log, so no file was written: \($0.message)"
                            ))
                    }, session: true)
            }
        }
    }

    /// Runs `body` with the current session; with none (signed out meanwhile) the console locks
    /// or stays on the sign-in, as the state decides.
    private func withSession(_ body: (StaffSession) -> Void) {
        guard let session = state.session else {
            apply(.sessionEnded("not signed in: sign in first"))
            return
        }
        body(session)
    }

    /// Starts `work` as a task; its answer comes back as a message through the inbox, tagged with
    /// the sign-in it was made for. With `session`, a `.notSignedIn` answer also reports
    /// ``ConsoleApp/Msg/sessionEnded(_:)`` (first, so the lock is up before the screen reacts).
    private func call<T: Sendable>(
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

/// Results of commands, handed from tasks to the program loop, each with the sign-in
/// generation it belongs to (and, for the feed, the loop that read it).
final class Inbox: @unchecked Sendable {
    private let lock = SimpleLock()
    private var messages: [(Int, Int?, ConsoleApp.Msg)] = []
    private var running = 0

    var pending: Int { lock.withLock { running } }
    /// Answers delivered and not drained yet.
    var queued: Int { lock.withLock { messages.count } }

    func started() { lock.withLock { running += 1 } }

    func deliver(_ batch: [ConsoleApp.Msg], generation: Int) {
        lock.withLock {
            messages += batch.map { (generation, nil, $0) }
            running -= 1
        }
    }

    /// From the feed loop `feed`: not a call, so nothing waits for it.
    func post(_ batch: [ConsoleApp.Msg], generation: Int, feed: Int) {
        lock.withLock {
            messages += batch.map { (generation, feed, $0) }
            feedPosts += batch.count
        }
    }

    /// Messages from the feed loop not drained yet.
    var feedQueued: Int { lock.withLock { feedPosts } }
    private var feedPosts = 0

    func drain() -> [(Int, Int?, ConsoleApp.Msg)] {
        lock.withLock {
            let out = messages
            messages.removeAll()
            feedPosts = 0
            return out
        }
    }
}
