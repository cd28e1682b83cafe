import DeskCore
import DeskText
import Foundation
import TerminalKit

extension ConsoleApp {
    /// The screen a role starts on.
    public static func home(for role: StaffRole) -> Page {
        switch role {
        case .operator: return .authorize
        case .supervisor: return .dashboard
        case .admin: return .staff
        case .tracer: return .queue
        }
    }

    /// Roles that follow the activity feed (the desk filters what each may see).
    static func followsFeed(_ role: StaffRole) -> Bool { role == .operator || role == .supervisor }

    static func freshAuthorize(now: Date, timeZone: TimeZone) -> AuthorizeScreen.State {
        var state = AuthorizeScreen.State(now: now)
        state.timeZone = timeZone
        return state
    }

    /// Every screen back to empty (a new person, or nobody).
    static func clearScreens(_ state: inout State) {
        state.authorize = freshAuthorize(now: state.now, timeZone: state.timeZone)
        state.staff = StaffScreen.State(timeZone: state.timeZone)
        state.audit = AuditScreen.State(now: state.now, timeZone: state.timeZone)
        state.his = HISScreen.State(timeZone: state.timeZone)
        state.monitor = MonitorScreen.State(now: state.now, timeZone: state.timeZone)
        state.trace = TraceScreen.State(now: state.now, timeZone: state.timeZone, ascii: state.ascii)
        state.queue = QueueScreen.State(now: state.now, timeZone: state.timeZone, ascii: state.ascii)
        state.dashboard = DashboardScreen.State(
            now: state.now, timeZone: state.timeZone, refreshSeconds: state.refreshSeconds, ascii: state.ascii)
        state.trace.exportFolder = state.exportFolder
        state.dashboard.exportFolder = state.exportFolder
        DashboardScreen.choose(state.dashboardRange, in: &state.dashboard)
        state.feedCursor = 0
        state.firstAdmin = FirstAdminScreen.State()
        state.help = nil
        state.palette = nil
        state.lock = nil
    }

    /// A person signed in: their role's first screen, everything else empty; the feed starts
    /// afresh for roles that follow it (a new person reads from the start and keeps the newest).
    static func signedIn(_ state: inout State, _ session: StaffSession) -> [Command] {
        state.session = session
        state.generation += 1
        state.lastActivity = state.now
        state.accountsKnown = true
        clearScreens(&state)
        state.monitor.kinds = MonitorScreen.Kind.visible(to: session.role)
        if let code = session.phoneCountryCode { state.trace.defaultCountryCode = code }
        if session.role == .admin { state.staff.signedInAs = session.user }
        state.queue.supervisor = session.role == .supervisor
        state.queue.scope = session.role == .supervisor ? .everyone : .mine
        state.queue.demo = state.demoAccounts != nil
        state.signIn = SignInScreen.State(name: state.startName)
        state.page = home(for: session.role)
        var commands: [Command] = [followsFeed(session.role) ? .startFeed(after: nil) : .stopFeed]
        switch state.page {
        case .staff: commands += StaffScreen.reload(&state.staff).map(Command.staff)
        case .monitor: commands += MonitorScreen.opened(&state.monitor).map(Command.monitor)
        case .dashboard: commands += DashboardScreen.opened(&state.dashboard).map(Command.dashboard)
        case .queue: commands += QueueScreen.opened(&state.queue).map(Command.queue)
        default: break
        }
        return commands
    }

    /// The lock screen's sign-in worked: the new session replaces the old, the screen comes back
    /// as it was (for the same person and role; anything else starts afresh).
    static func unlocked(_ state: inout State, _ session: StaffSession) -> [Command] {
        guard state.lock != nil, let old = state.session, old.user == session.user, old.role == session.role else {
            return signedIn(&state, session)
        }
        state.session = session
        state.lock = nil
        state.lastActivity = state.now
        guard followsFeed(session.role) else { return [] }
        // The feed goes on where it stopped; held asks go out now.
        // Where the feed stopped; from the newest when it never read anything.
        var commands: [Command] = [.startFeed(after: state.feedCursor > 0 ? state.feedCursor : nil)]
        commands += updateAuthorize(&state, .ticked(state.now))
        if state.page == .monitor { commands += MonitorScreen.opened(&state.monitor).map(Command.monitor) }
        if state.page == .dashboard {
            // Whatever was being asked when the lock came is asked again with the new session.
            state.dashboard.loading = false
            commands += DashboardScreen.opened(&state.dashboard).map(Command.dashboard)
        }
        return commands
    }

    /// A call found the session over: lock, keeping the screen, with the desk's message.
    static func sessionEnded(_ state: inout State, _ message: String) -> [Command] {
        guard let session = state.session else { return [] }
        if var lock = state.lock {
            if !lock.unlocking { lock.reason = message }
            state.lock = lock
            return []
        }
        state.lock = LockScreen.State(user: session.user, role: session.role, reason: message)
        state.help = nil
        state.palette = nil
        return followsFeed(session.role) ? [.stopFeed] : []
    }

    /// Every tick: the clock, countdowns, and the idle lock.
    static func tick(_ state: inout State, _ now: Date) -> [Command] {
        state.now = now
        state.audit.now = now
        state.monitor.now = now
        state.trace.now = now
        state.queue.now = now
        var commands: [Command] = []
        if let session = state.session, state.lock == nil, let limit = state.idleLimit,
            now.timeIntervalSince(state.lastActivity) >= Double(limit)
        {
            state.lock = LockScreen.State(
                user: session.user, role: session.role,
                reason: tr("console.frame.lockedAfter", ["duration": Self.duration(limit)]))
            state.help = nil
            state.palette = nil
            // The session ends now rather than when the desk notices: a locked desk holds no
            // live token (and reads no feed).
            if followsFeed(session.role) { commands.append(.stopFeed) }
            commands.append(.signOut(session))
        }
        if state.page == .signIn, state.session == nil { _ = SignInScreen.update(&state.signIn, .ticked(now)) }
        if var lock = state.lock {
            _ = LockScreen.update(&lock, .ticked(now))
            state.lock = lock
        }
        // Countdowns tick under the lock too; asks wait for the unlock.
        commands += updateAuthorize(&state, .ticked(now))
        if state.page == .monitor, state.lock == nil, state.session != nil {
            commands += update(&state, .monitor(.ticked(now)))
        }
        if state.page == .dashboard, state.lock == nil, state.session != nil {
            commands += update(&state, .dashboard(.ticked(now)))
        } else {
            state.dashboard.now = now
        }
        return commands
    }

    /// The sign-out key: end the session, back to the sign-in with every screen cleared.
    static func signOut(_ state: inout State) -> [Command] {
        guard let session = state.session else { return [] }
        state.session = nil
        state.generation += 1
        clearScreens(&state)
        // Empty, not the name given at start: the next person's password must never be tried
        // against the previous person's name (it would count towards locking that account).
        state.signIn = SignInScreen.State()
        state.signIn.wait.now = state.now
        state.signIn.notice = .info(tr("console.frame.signedOut", ["user": session.user]))
        state.page = .signIn
        return (followsFeed(session.role) ? [.stopFeed] : []) + [.signOut(session)]
    }

    /// Quitting signs out first (the program waits for that at most about a second); the
    /// program ends the feed loop when it quits.
    static func quit(_ state: State) -> [Command] {
        (state.session.map { [Command.signOut($0)] } ?? []) + [.quit]
    }

    /// "10 min", "90 s".
    static func duration(_ seconds: Int) -> String {
        seconds % 60 == 0
            ? tr("console.frame.minutes", ["count": String(seconds / 60)])
            : tr("console.frame.seconds", ["count": String(seconds)])
    }
}
