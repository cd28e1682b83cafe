import CivilCalendar
import DeskContract
import DeskCore
import DeskText
import Foundation
import TerminalKit

/// The console's frame around the current screen: who is signed in, which screen their role
/// gets, the idle lock, title bar, footer, `?` help, the too-small-terminal message, and mouse
/// hit-testing.
///
/// Pure like the screens: ``update(_:_:)`` returns commands, ``render(_:into:)`` draws. The
/// session is part of the state: the program performs every command with it, and a call that
/// finds it ended comes back as ``Msg/sessionEnded(_:)``, which locks the console without
/// touching the screen underneath. Roles are enforced by the desk; the frame only chooses the
/// screens a role can use.
///
/// Operators and supervisors get the activity feed: the frame asks the program for one feed
/// loop (``Command/startFeed(after:)``) while they are signed in and unlocked, keeps its
/// position (``State/feedCursor``) so a restart after the lock neither loses nor repeats an
/// event, and hands every page to both the monitor and the authorise screen's watch.
/// Privacy: the state holds the session token and typed passwords; never log it.
public enum ConsoleApp {
    public static let minimumSize = TerminalSize(width: 80, height: 24)

    /// The screen in front (the lock screen, when set, covers it).
    public enum Page: Hashable, Sendable {
        case signIn, firstAdmin, authorize, monitor, staff, audit, his, trace, dashboard, queue
    }

    /// Events asked for per read of the feed.
    public static let feedPageSize = 500

    public struct State: Hashable, Sendable {
        public var size: TerminalSize
        /// Where the data lives (``DeskService/location``), for the title bar.
        public var location: String
        /// The desk's clock at the last tick.
        public var now: Date
        public var timeZone: TimeZone
        public var page: Page = .signIn
        public var session: StaffSession?
        public var signIn: SignInScreen.State
        public var firstAdmin: FirstAdminScreen.State
        public var authorize: AuthorizeScreen.State
        public var staff: StaffScreen.State
        public var audit: AuditScreen.State
        public var his: HISScreen.State
        public var monitor: MonitorScreen.State
        public var trace: TraceScreen.State
        public var dashboard: DashboardScreen.State
        /// The call queue (tracer and supervisor).
        public var queue: QueueScreen.State
        /// Seconds between the dashboard's refreshes (`--refresh`); 0: off.
        public var refreshSeconds: Int
        /// Symbols and bars in ASCII (a terminal without UTF-8).
        public var ascii: Bool
        /// Where the feed goes on after: the cursor of the last page applied. Kept through the
        /// lock; back to 0 for a new person.
        public var feedCursor: Int64 = 0
        /// Covers the page while set; the page's state stays as it was.
        public var lock: LockScreen.State?
        public var help: HelpOverlayState?
        /// The `:` command palette, over the page (which stays as it was) while open.
        public var palette: CommandPaletteState?
        /// What the desk says is wrong with the connection (title bar); nil when fine.
        public var connectionProblem: String?
        /// Lock after this many seconds without a key or a click (at most the session's idle
        /// limit); nil: the session's limit.
        public var idleLockSeconds: Int?
        /// When the last key or click arrived (the desk's clock).
        public var lastActivity: Date
        /// The name given at start (`--user`), filled in again after a sign-out.
        public var startName: String
        /// Whether the desk answered "are there accounts?" (asked again after a failure).
        public var accountsKnown = false
        /// Changes at every sign-in and sign-out: answers to calls made for an earlier person are
        /// dropped by the program.
        public var generation = 0
        /// `tracedesk demo` only: the simulated citizen the operator is on the phone with, shown
        /// in a strip above the footer of the authorise screen (``DemoCitizenStrip``).
        public var demoCitizen: DemoCitizenStrip?
        /// `tracedesk demo` only: its accounts and patients, for help and F8 (``DemoAccounts``).
        public var demoAccounts: DemoAccounts?
        /// Where exports are suggested (`~/Documents`, `~`), set by the program; kept by every
        /// screen reset.
        public var exportFolder = "~" {
            didSet {
                trace.exportFolder = exportFolder
                dashboard.exportFolder = exportFolder
            }
        }
        /// The dashboard's range: read from the last run by the program (``RememberedRange``),
        /// then the last one chosen; kept by every screen reset.
        public var dashboardRange: StatsRange = .hour {
            didSet { DashboardScreen.choose(dashboardRange, in: &dashboard) }
        }

        public init(
            size: TerminalSize, location: String, now: Date, timeZone: TimeZone = .current, userName: String = "",
            idleLockSeconds: Int? = nil, ascii: Bool = false,
            refreshSeconds: Int = DashboardScreen.defaultRefreshSeconds
        ) {
            self.size = size
            self.location = location
            self.now = now
            self.timeZone = timeZone
            self.idleLockSeconds = idleLockSeconds
            lastActivity = now
            startName = userName
            signIn = SignInScreen.State(name: userName)
            firstAdmin = FirstAdminScreen.State(name: userName)
            authorize = ConsoleApp.freshAuthorize(now: now, timeZone: timeZone)
            staff = StaffScreen.State(timeZone: timeZone)
            audit = AuditScreen.State(now: now, timeZone: timeZone)
            his = HISScreen.State(timeZone: timeZone)
            monitor = MonitorScreen.State(now: now, timeZone: timeZone)
            trace = TraceScreen.State(now: now, timeZone: timeZone, ascii: ascii)
            queue = QueueScreen.State(now: now, timeZone: timeZone, ascii: ascii)
            dashboard = DashboardScreen.State(
                now: now, timeZone: timeZone, refreshSeconds: refreshSeconds, ascii: ascii)
            self.refreshSeconds = refreshSeconds
            self.ascii = ascii
        }

        public var isTooSmall: Bool { size.width < minimumSize.width || size.height < minimumSize.height }
        var body: Rect {
            Rect(x: 0, y: 1, width: size.width, height: max(0, size.height - 2 - (showsDemoStrip ? 1 : 0)))
        }
        /// The demo citizen's strip is drawn: on the authorise screen, signed in, not locked.
        var showsDemoStrip: Bool { demoCitizen != nil && page == .authorize && lock == nil && session != nil }

        /// Seconds without a key before the console locks: the session's idle limit, or less.
        public var idleLimit: Int? {
            guard let session else { return nil }
            return min(idleLockSeconds ?? session.idleSeconds, session.idleSeconds)
        }

        /// Whether keys are being typed into free text (a name, a password): `?` and `q` are
        /// then characters, and help is on F1.
        public var isTypingText: Bool {
            if lock != nil { return true }
            switch page {
            case .signIn, .firstAdmin: return true
            case .staff: return staff.form != nil || staff.filter.editing
            case .audit: return audit.filterForm != nil
            case .his: return his.form != nil || his.filter.editing
            case .monitor: return monitor.filtering
            case .trace: return trace.isTyping
            case .dashboard: return dashboard.isTyping
            case .queue: return queue.isTyping
            case .authorize: return false
            }
        }

        /// Whether a letter would be typed (a field has the focus): then a screen's letter key
        /// is a character and only its F-key switches. The authorise form counts, though `?` and
        /// `:` are no code characters there.
        public var typesLetters: Bool {
            isTypingText || (page == .authorize && authorize.phase == .editing)
        }

        /// Whether `:` and Ctrl-P may open the palette: not while a dialog asks a question (the
        /// answer comes first), on the lock screen (only the password matters there) or on the
        /// too-small screen. Opening it never changes the page below.
        public var offersPalette: Bool {
            if lock != nil || isTooSmall { return false }
            switch page {
            case .authorize: return authorize.phase != .reviewing && authorize.quitConfirm == nil
            case .staff: return staff.confirm == nil
            case .his: return his.confirm == nil && his.shownKey == nil
            case .dashboard: return dashboard.export?.confirm == nil
            case .trace: return trace.export?.confirm == nil
            case .queue: return queue.caseView?.confirm == nil || queue.detail != nil
            default: return true
            }
        }
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        case mouse(MouseEvent)
        case resized(TerminalSize)
        case ticked(Date)
        case connectionChanged(String?)
        /// The demo's simulated citizen changed (``Program/demoCitizen``).
        case demoCitizenChanged(DemoCitizenStrip?)
        /// `setupToken`: the first admin needs the server's setup token (a desk over a server).
        case accountsChecked(needsFirstAdmin: Bool, setupToken: Bool = false)
        case accountsCheckFailed(String)
        /// A sign-in (or the first admin's creation) succeeded.
        case signedIn(StaffSession)
        /// The lock screen's sign-in succeeded: the new session replaces the old.
        case unlocked(StaffSession)
        /// A call found the session over (ended, idle on the desk, 12 h, password reset).
        case sessionEnded(String)
        /// Someone made the first admin meanwhile: sign in instead.
        case firstAdminExists(String)
        case signInScreen(SignInScreen.Msg)
        case firstAdminScreen(FirstAdminScreen.Msg)
        case lockScreen(LockScreen.Msg)
        case authorize(AuthorizeScreen.Msg)
        case monitor(MonitorScreen.Msg)
        case staff(StaffScreen.Msg)
        case audit(AuditScreen.Msg)
        case his(HISScreen.Msg)
        case trace(TraceScreen.Msg)
        case dashboard(DashboardScreen.Msg)
        case queue(QueueScreen.Msg)
        /// A page of the activity feed (possibly empty: the cursor may still move).
        case feed(EventPage)
        /// A read of the feed failed; the program retries from the same cursor.
        case feedFailed(String)
    }

    public enum Command: Hashable, Sendable {
        case checkAccounts
        case signIn(name: String, password: String)
        case createFirstAdmin(name: String, password: String, setupToken: String? = nil)
        case unlock(name: String, password: String)
        /// Ends a session, best effort, in the background (nothing comes back).
        case signOut(StaffSession)
        case authorize(AuthorizeScreen.Command)
        case monitor(MonitorScreen.Command)
        case staff(StaffScreen.Command)
        case audit(AuditScreen.Command)
        case his(HISScreen.Command)
        case trace(TraceScreen.Command)
        case dashboard(DashboardScreen.Command)
        case queue(QueueScreen.Command)
        /// Runs the one feed loop (replacing any) from `after`, with the session then in the state.
        /// Follows the feed after a position; nil: from the newest events (a sign-in shows the
        /// last page of activity, it does not read the whole history).
        case startFeed(after: Int64?)
        /// Ends the feed loop; nothing it read afterwards is delivered.
        case stopFeed
        /// Ctrl-L: forget what the terminal shows and repaint every cell.
        case redraw
        /// Ctrl-Z: back to the shell until `fg`; then the size is read again and all repainted.
        case suspend
        case quit
    }

    public enum GlobalAction: Hashable, Sendable {
        case help, palette, quit, redraw, suspend, signOut, staff, audit, his, authorize, monitor, dashboard, trace,
            queue
    }

    /// Keys the frame takes before the screen.
    public static var globalKeyMap: KeyMap<GlobalAction> {
        KeyMap([
            Binding(
                [.char("?"), .function(1)], .help, help: tr("console.frame.key.help"),
                group: tr("console.frame.group.global"),
                name: "help"),
            Binding(
                [.char(":"), .ctrl("p")], .palette, help: tr("console.frame.key.palette"),
                group: tr("console.frame.group.global"),
                shownInFooter: false, name: "palette"),
            Binding(
                [.ctrl("o"), .function(12)], .signOut, help: tr("console.frame.key.signOut"),
                group: tr("console.frame.group.global"), name: "signout"),
            Binding(
                [.ctrl("c"), .ctrl("q"), .function(10)], .quit, help: tr("console.frame.key.quit"),
                group: tr("console.frame.group.global"), name: "quit"),
            Binding(
                [.ctrl("l")], .redraw, help: tr("console.frame.key.redraw"), group: tr("console.frame.group.global"),
                shownInFooter: false, name: "redraw"),
            Binding(
                [.ctrl("z")], .suspend, help: tr("console.frame.key.suspend"), group: tr("console.frame.group.global"),
                shownInFooter: false, name: "suspend"),
        ])
    }

    /// The admin's screens. Each screen has an F-key and a capital letter that means nothing
    /// else anywhere (the key conventions test checks); Tab never switches screens.
    public static var adminKeyMap: KeyMap<GlobalAction> {
        KeyMap([
            Binding(
                [.function(2), .char("S")], .staff, help: tr("console.frame.screen.staff"),
                group: tr("console.frame.group.screens"), name: "staff"),
            Binding(
                [.function(3), .char("A")], .audit, help: tr("console.frame.screen.audit"),
                group: tr("console.frame.group.screens"), name: "audit"),
            Binding(
                [.function(4), .char("H")], .his, help: tr("console.frame.screen.his"),
                group: tr("console.frame.group.screens"), name: "his"),
        ])
    }

    /// The operator's screens (Tab is the form's: it moves between the code and the date).
    public static var operatorKeyMap: KeyMap<GlobalAction> {
        KeyMap([
            Binding(
                [.function(2), .char("U")], .authorize, help: tr("console.frame.screen.authorize"),
                group: tr("console.frame.group.screens"), name: "authorise"),
            Binding(
                [.function(3), .char("M")], .monitor, help: tr("console.frame.screen.monitor"),
                group: tr("console.frame.group.screens"), name: "monitor"),
        ])
    }

    /// The supervisor's screens.
    public static var supervisorKeyMap: KeyMap<GlobalAction> {
        KeyMap([
            Binding(
                [.function(2), .char("D")], .dashboard, help: tr("console.frame.screen.dashboard"),
                group: tr("console.frame.group.screens"), name: "dashboard"),
            Binding(
                [.function(3), .char("M")], .monitor, help: tr("console.frame.screen.monitor"),
                group: tr("console.frame.group.screens"), name: "monitor"),
            Binding(
                [.function(4), .char("Q")], .queue, help: tr("console.frame.screen.queue"),
                group: tr("console.frame.group.screens"), name: "queue"),
        ])
    }

    /// The tracer's screens: the call queue (home) and the contact trace (opening a case).
    public static var tracerKeyMap: KeyMap<GlobalAction> {
        KeyMap([
            Binding(
                [.function(2), .char("T")], .trace, help: tr("console.frame.screen.trace"),
                group: tr("console.frame.group.screens"), name: "trace"),
            Binding(
                [.function(3), .char("Q")], .queue, help: tr("console.frame.screen.queue"),
                group: tr("console.frame.group.screens"), name: "queue"),
        ])
    }

    static let quitKeys: [Key] = [.ctrl("c"), .ctrl("q"), .function(10)]

    /// What the console does first: ask whether any account exists.
    public static func start(_ state: inout State) -> [Command] {
        state.signIn.checking = true
        return [.checkAccounts]
    }

    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .resized(let size):
            state.size = size
            return []
        case .ticked(let now):
            return tick(&state, now)
        case .connectionChanged(let problem):
            state.connectionProblem = problem
            return []
        case .demoCitizenChanged(let citizen):
            state.demoCitizen = citizen
            return []
        case .accountsChecked(let needsFirstAdmin, let setupToken):
            state.signIn.checking = false
            state.accountsKnown = true
            if needsFirstAdmin, state.session == nil, state.page == .signIn {
                state.firstAdmin = FirstAdminScreen.State(name: state.signIn.name.text, needsToken: setupToken)
                state.page = .firstAdmin
            }
            return []
        case .accountsCheckFailed(let message):
            state.signIn.checking = false
            if state.signIn.notice == nil {
                state.signIn.notice = .error(tr("console.frame.cannotReach", ["message": message]))
            }
            return []
        case .signedIn(let session):
            return signedIn(&state, session)
        case .unlocked(let session):
            return unlocked(&state, session)
        case .sessionEnded(let message):
            return sessionEnded(&state, message)
        case .firstAdminExists(let message):
            state.signIn = SignInScreen.State(name: state.firstAdmin.normalizedName ?? state.firstAdmin.name.text)
            state.signIn.notice = .error(message)
            state.firstAdmin = FirstAdminScreen.State()
            state.page = .signIn
            state.accountsKnown = true
            return []
        case .signInScreen(let inner):
            state.signIn.wait.now = state.now
            let commands = SignInScreen.update(&state.signIn, inner).map(command)
            if case .failed = inner, !state.accountsKnown { return commands + [.checkAccounts] }
            return commands
        case .firstAdminScreen(let inner):
            return FirstAdminScreen.update(&state.firstAdmin, inner).map(command)
        case .lockScreen(let inner):
            guard var lock = state.lock else { return [] }
            lock.wait.now = state.now
            let commands = LockScreen.update(&lock, inner).map(command)
            state.lock = lock
            return commands
        case .authorize(let inner):
            return updateAuthorize(&state, inner)
        case .monitor(let inner):
            return MonitorScreen.update(&state.monitor, inner).flatMap { command($0, &state) }
        case .feed(let page):
            state.feedCursor = max(state.feedCursor, page.cursor)
            var commands = update(
                &state, .monitor(.eventsArrived(page.events, moreWaiting: page.events.count >= feedPageSize)))
            if !page.events.isEmpty { commands += updateAuthorize(&state, .eventsArrived(page.events)) }
            return commands
        case .feedFailed(let message):
            return update(&state, .monitor(.feedFailed(message)))
        case .staff(let inner):
            return StaffScreen.update(&state.staff, inner).flatMap { command($0, &state) }
        case .audit(let inner):
            return AuditScreen.update(&state.audit, inner).flatMap { command($0, &state) }
        case .his(let inner):
            return HISScreen.update(&state.his, inner).flatMap { command($0, &state) }
        case .trace(let inner):
            return TraceScreen.update(&state.trace, inner).flatMap { command($0, &state) }
        case .dashboard(let inner):
            // A refresh asked for while a read ran waits for the dashboard to be in front again
            // (unlocking or coming back asks anyway): the lock and the monitor ask nothing.
            if state.lock != nil || state.page != .dashboard { state.dashboard.refreshPending = false }
            return DashboardScreen.update(&state.dashboard, inner).flatMap { command($0, &state) }
        case .queue(let inner):
            return QueueScreen.update(&state.queue, inner).flatMap { command($0, &state) }
        case .mouse(let event):
            if state.session != nil { state.lastActivity = state.now }
            return mouse(&state, event)
        case .keyPressed(let key):
            if state.session != nil { state.lastActivity = state.now }
            return handleKey(&state, key)
        }
    }

    static func handleKey(_ state: inout State, _ key: Key) -> [Command] {
        if quitKeys.contains(key) { return quit(state) }
        let global = globalKeyMap.action(for: key)
        // Redraw and suspend work everywhere and change nothing the console holds.
        if global == .redraw { return [.redraw] }
        if global == .suspend { return [.suspend] }
        if var palette = state.palette {
            switch palette.handle(key) {
            case .closed:
                state.palette = nil
            case .run(let entry):
                state.palette = nil
                if let key = entry.key { return handleKey(&state, key) }
            case .changed, .unchanged:
                state.palette = palette
            }
            return []
        }
        if var help = state.help {
            if help.handle(key, area: state.body) == .closed { state.help = nil } else { state.help = help }
            return []
        }
        // Too small to show anything: every key waits (q is a code character, Esc would lose
        // nothing but still quit by surprise); only the quit keys above end the console.
        if state.isTooSmall { return [] }
        if global == .signOut, state.session != nil { return signOut(&state) }
        if global == .help, key == .function(1) || !state.isTypingText {
            state.help = HelpOverlayState(
                title: tr("console.frame.helpTitle", ["screen": title(state)]), sections: helpSections(state))
            return []
        }
        if global == .palette, key == .ctrl("p") || !state.isTypingText, state.offersPalette {
            state.palette = CommandPaletteState(entries: paletteEntries(state))
            return []
        }
        if let demo = state.demoAccounts, DemoAccounts.keyMap.action(for: key) == .show {
            state.help = HelpOverlayState(title: tr("console.frame.demo.title"), sections: demo.helpSections)
            return []
        }
        if state.lock != nil { return update(&state, .lockScreen(.keyPressed(key))) }
        // A screen's letter is a character wherever a field takes letters.
        let screenKey = !key.isCharacter || !state.typesLetters
        if screenKey, state.session?.role == .admin, !state.staff.isModal, !state.audit.isModal, !state.his.isModal,
            let action = adminKeyMap.action(for: key)
        {
            switch action {
            case .audit: return show(.audit, &state)
            case .his: return show(.his, &state)
            default: return show(.staff, &state)
            }
        }
        if screenKey, state.session?.role == .operator, state.authorize.phase != .reviewing,
            state.authorize.quitConfirm == nil, let action = operatorKeyMap.action(for: key)
        {
            return show(action == .monitor ? .monitor : .authorize, &state)
        }
        if screenKey, state.session?.role == .supervisor, !state.monitor.isModal, !state.dashboard.isModal,
            !state.queue.isModal, let action = supervisorKeyMap.action(for: key)
        {
            if action == .queue, state.page == .queue, state.queue.showsCase { return leaveCase(&state) }
            return show(action == .monitor ? .monitor : action == .queue ? .queue : .dashboard, &state)
        }
        if screenKey, state.session?.role == .tracer, !state.trace.isModal, !state.queue.isModal,
            let action = tracerKeyMap.action(for: key)
        {
            if action == .queue, state.page == .queue, state.queue.showsCase { return leaveCase(&state) }
            return show(action == .queue ? .queue : .trace, &state)
        }
        switch state.page {
        case .signIn: return update(&state, .signInScreen(.keyPressed(key)))
        case .firstAdmin: return update(&state, .firstAdminScreen(.keyPressed(key)))
        case .authorize: return update(&state, .authorize(.keyPressed(key)))
        case .monitor: return update(&state, .monitor(.keyPressed(key)))
        case .staff: return update(&state, .staff(.keyPressed(key)))
        case .audit: return update(&state, .audit(.keyPressed(key)))
        case .his: return update(&state, .his(.keyPressed(key)))
        case .trace: return update(&state, .trace(.keyPressed(key)))
        case .dashboard: return update(&state, .dashboard(.keyPressed(key)))
        case .queue: return update(&state, .queue(.keyPressed(key)))
        }
    }

    /// The queue's key over a case view: back to the queue's table (the case view closes).
    private static func leaveCase(_ state: inout State) -> [Command] {
        state.queue.caseView = nil
        return []
    }

    /// Switches between a role's screens; a screen loads the first time it is shown (the
    /// monitor asks for the traffic share each time).
    private static func show(_ page: Page, _ state: inout State) -> [Command] {
        guard state.page != page else { return [] }
        state.page = page
        if page == .monitor { return MonitorScreen.opened(&state.monitor).flatMap { command($0, &state) } }
        if page == .dashboard { return DashboardScreen.opened(&state.dashboard).flatMap { command($0, &state) } }
        if page == .queue { return QueueScreen.opened(&state.queue).flatMap { command($0, &state) } }
        if page == .audit, !state.audit.loaded, !state.audit.loading {
            return AuditScreen.reload(&state.audit).map(Command.audit)
        }
        if page == .staff, !state.staff.loaded, !state.staff.loading {
            return StaffScreen.reload(&state.staff).map(Command.staff)
        }
        if page == .his, !state.his.loaded, !state.his.loading {
            return HISScreen.reload(&state.his).map(Command.his)
        }
        return []
    }

    private static func mouse(_ state: inout State, _ event: MouseEvent) -> [Command] {
        guard state.help == nil, state.palette == nil, state.lock == nil, !state.isTooSmall else { return [] }
        let body = state.body
        switch (state.page, event.kind) {
        case (.authorize, .press):
            let regions = AuthorizeScreen.regions(in: body)
            if regions.codeField.contains(x: event.x, y: event.y)
                || (regions.form.contains(x: event.x, y: event.y) && event.y < regions.onsetField.y - 1)
            {
                return update(&state, .authorize(.fieldClicked(.code)))
            }
            if let day = AuthorizeScreen.day(at: event.x, event.y, state.authorize, in: body) {
                return update(&state, .authorize(.daySelected(day)))
            }
            if regions.form.contains(x: event.x, y: event.y) || regions.calendar.contains(x: event.x, y: event.y) {
                return update(&state, .authorize(.fieldClicked(.onset)))
            }
        case (.signIn, .press):
            let regions = SignInScreen.regions(in: body)
            if regions.nameField.y == event.y, regions.panel.contains(x: event.x, y: event.y) {
                return update(&state, .signInScreen(.fieldClicked(.name)))
            }
            if regions.passwordField.y == event.y, regions.panel.contains(x: event.x, y: event.y) {
                return update(&state, .signInScreen(.fieldClicked(.password)))
            }
        case (.firstAdmin, .press):
            let regions = FirstAdminScreen.regions(for: state.firstAdmin, in: body)
            for (field, rect) in regions.fields
            where rect.y == event.y && regions.panel.contains(x: event.x, y: event.y) {
                return update(&state, .firstAdminScreen(.fieldClicked(field)))
            }
        case (.staff, .press):
            if let row = StaffScreen.account(at: event.y, state.staff, in: body) {
                return update(&state, .staff(.rowClicked(row)))
            }
        case (.staff, .wheelUp), (.staff, .wheelDown):
            return update(&state, .staff(.scrolled(event.kind == .wheelUp ? -3 : 3)))
        case (.his, .press):
            if let row = HISScreen.client(at: event.y, state.his, in: body) {
                return update(&state, .his(.rowClicked(row)))
            }
        case (.audit, .press):
            if let row = AuditScreen.entry(at: event.y, state.audit, in: body) {
                return update(&state, .audit(.rowClicked(row)))
            }
        case (.audit, .wheelUp), (.audit, .wheelDown):
            return update(&state, .audit(.scrolled(event.kind == .wheelUp ? -3 : 3)))
        case (.monitor, .press):
            if let position = MonitorScreen.position(at: event.y, state.monitor, in: body) {
                return update(&state, .monitor(.rowClicked(position)))
            }
        case (.monitor, .wheelUp), (.monitor, .wheelDown):
            return update(&state, .monitor(.scrolled(event.kind == .wheelUp ? -3 : 3)))
        case (.trace, .press):
            if let position = TraceScreen.position(at: event.y, state.trace, in: body) {
                return update(&state, .trace(.rowClicked(position)))
            }
        case (.trace, .wheelUp), (.trace, .wheelDown):
            return update(&state, .trace(.scrolled(event.kind == .wheelUp ? -3 : 3)))
        case (.queue, .press):
            if let row = QueueScreen.row(at: event.y, state.queue, in: body) {
                return update(&state, .queue(.rowClicked(row)))
            }
        case (.queue, .wheelUp), (.queue, .wheelDown):
            return update(&state, .queue(.scrolled(event.kind == .wheelUp ? -3 : 3)))
        default:
            break
        }
        return []
    }

    // MARK: Commands from screens

    private static func command(_ inner: SignInScreen.Command) -> Command {
        switch inner {
        case .signIn(let name, let password): return .signIn(name: name, password: password)
        }
    }

    private static func command(_ inner: FirstAdminScreen.Command) -> Command {
        switch inner {
        case .createFirstAdmin(let name, let password, let token):
            return .createFirstAdmin(name: name, password: password, setupToken: token)
        }
    }

    private static func command(_ inner: LockScreen.Command) -> Command {
        switch inner {
        case .unlock(let name, let password): return .unlock(name: name, password: password)
        }
    }

    static func command(_ inner: AuthorizeScreen.Command, _ state: inout State) -> [Command] {
        inner == .quit ? quit(state) : [.authorize(inner)]
    }

    /// Messages to the authorise screen go through here: while the console is locked the screen
    /// holds its asks for the watch (the session is over; the unlock asks again).
    static func updateAuthorize(_ state: inout State, _ msg: AuthorizeScreen.Msg) -> [Command] {
        state.authorize.callsHeld = state.lock != nil || state.session == nil
        return AuthorizeScreen.update(&state.authorize, msg).flatMap { command($0, &state) }
    }

    static func command(_ inner: MonitorScreen.Command, _ state: inout State) -> [Command] {
        inner == .quit ? quit(state) : [.monitor(inner)]
    }

    private static func command(_ inner: StaffScreen.Command, _ state: inout State) -> [Command] {
        inner == .quit ? quit(state) : [.staff(inner)]
    }

    private static func command(_ inner: AuditScreen.Command, _ state: inout State) -> [Command] {
        inner == .quit ? quit(state) : [.audit(inner)]
    }

    private static func command(_ inner: HISScreen.Command, _ state: inout State) -> [Command] {
        inner == .quit ? quit(state) : [.his(inner)]
    }

    private static func command(_ inner: TraceScreen.Command, _ state: inout State) -> [Command] {
        if case .showCase(let caseID) = inner {
            // The case view lives on the queue's page; Esc there comes back here.
            state.page = .queue
            // The queue is read again too: the case just opened put its contacts there.
            let commands =
                QueueScreen.openCase(&state.queue, caseID: caseID, origin: .trace)
                + QueueScreen.opened(&state.queue)
            return commands.flatMap { command($0, &state) }
        }
        return inner == .quit ? quit(state) : [.trace(inner)]
    }

    private static func command(_ inner: QueueScreen.Command, _ state: inout State) -> [Command] {
        if inner == .backToTrace {
            state.page = .trace
            return []
        }
        return inner == .quit ? quit(state) : [.queue(inner)]
    }

    static func command(_ inner: DashboardScreen.Command, _ state: inout State) -> [Command] {
        if case .rememberRange(let range) = inner { state.dashboardRange = range }
        return inner == .quit ? quit(state) : [.dashboard(inner)]
    }
}
