import CivilCalendar
import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The admin's audit log: newest first, filtered by who acted, whom it was done to (the
/// subject), action and day (local), paged further back on request, with a detail pane for the
/// selected entry and a key that checks the whole hash chain (``DeskService/verifyAudit(_:)``).
/// `h` hides the routine sign-in/sign-out pairs (``RoutineSignIns``); `y` copies an entry as text.
///
/// The verdict of a check is words first: "chain intact: N entries, head …" or "BROKEN at entry
/// N: reason", so it never depends on colour. Results of a load are matched to the query that
/// asked for them, so a slow answer to an old filter never replaces a newer one.
/// Pure: ``update(_:_:)`` returns commands; the program runs them through the ``DeskService``.
public enum AuditScreen {
    /// What the list is narrowed to; nil fields match everything.
    public struct Filter: Hashable, Sendable {
        /// Who acted.
        public var actor: String?
        /// Whom or what it was done to: the entry's target (an account, `user 7`, an HIS client).
        public var subject: String?
        public var action: AuditAction?
        /// A day in the console's time zone.
        public var day: CivilDay?

        public init(actor: String? = nil, subject: String? = nil, action: AuditAction? = nil, day: CivilDay? = nil) {
            self.actor = actor
            self.subject = subject
            self.action = action
            self.day = day
        }

        public var isEmpty: Bool { actor == nil && subject == nil && action == nil && day == nil }

        /// "by ana · on bob · password reset · day 2026-11-29", or "all entries".
        public var summary: String {
            var parts: [String] = []
            if let actor { parts.append(tr("console.audit.filter.by", ["name": actor])) }
            if let subject { parts.append(tr("console.audit.filter.on", ["name": subject])) }
            if let action { parts.append(AuditDetailText.actionWords(action)) }
            if let day { parts.append(tr("console.audit.filter.day", ["day": day.iso])) }
            return parts.isEmpty ? tr("console.audit.filter.all") : parts.joined(separator: " · ")
        }
    }

    public enum Verification: Hashable, Sendable {
        case running
        case done(AuditVerification)
        case failed(String)
    }

    public struct State: Hashable, Sendable {
        /// Every entry loaded, newest first.
        public var loadedEntries: [AuditEntry] = [] {
            didSet { refreshShown() }
        }
        /// The entries the table shows: ``loadedEntries`` less the routine sign-in/sign-out
        /// pairs while ``hidesRoutine``.
        public private(set) var entries: [AuditEntry] = []
        /// How many loaded entries the toggle hides now.
        public private(set) var hiddenCount = 0
        /// `h`: hide sign-ins followed by their sign-out with nothing in between (``RoutineSignIns``).
        public var hidesRoutine = false {
            didSet { refreshShown() }
        }
        public var selected = 0
        public var filter = Filter()
        public var filterForm: FilterForm?
        /// The query whose answer is awaited; answers to any other are dropped.
        public var pending: AuditQuery?
        public var loaded = false
        /// The last page was full: older entries may exist.
        public var hasMore = false
        public var verification: Verification?
        public var notice: Notice?
        public var timeZone: TimeZone
        /// The desk's clock at the last tick (today for the day filter).
        public var now: Date
        /// Entries per page.
        public var pageSize = 100

        public init(now: Date, timeZone: TimeZone = .current) {
            self.now = now
            self.timeZone = timeZone
        }

        public var selectedEntry: AuditEntry? { entries.indices.contains(selected) ? entries[selected] : nil }

        private mutating func refreshShown() {
            if hidesRoutine {
                let hidden = RoutineSignIns.hidden(in: loadedEntries)
                entries = loadedEntries.filter { !hidden.contains($0.id) }
                hiddenCount = loadedEntries.count - entries.count
            } else {
                entries = loadedEntries
                hiddenCount = 0
            }
        }
        public var isModal: Bool { filterForm != nil }
        public var loading: Bool { pending != nil }

        /// The query for the first page (`before` nil) or the page older than `before`.
        public func query(before: Int64? = nil) -> AuditQuery {
            let from = filter.day.map { ConsoleText.start(of: $0, in: timeZone) }
            let until = filter.day.map { ConsoleText.start(of: $0.adding(days: 1), in: timeZone) }
            return AuditQuery(
                actor: filter.actor, subject: filter.subject, action: filter.action, from: from, until: until,
                beforeID: before, limit: pageSize)
        }
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        case rowClicked(Int)
        case scrolled(Int)
        case loaded([AuditEntry], for: AuditQuery)
        case loadFailed(String, for: AuditQuery)
        case verified(AuditVerification)
        case verifyFailed(String)
        case copied(CopyResult)
    }

    public enum Command: Hashable, Sendable {
        case load(AuditQuery)
        case verify
        /// `y`: the selected entry as text.
        case copy(ClipboardCopy)
        case quit
    }

    public enum Action: Hashable, Sendable {
        case move(TableCursor.Move)
        case older, filter, clearFilter, verify, reload, toggleRoutine, copy, quit
    }

    /// The list's keys, in the current language (help and footer follow it).
    public static var keyMap: KeyMap<Action> {
        KeyMap<Action>([
            Binding([.char("/"), .char("f")], .filter, help: tr("console.frame.hint.filter"), name: "filter"),
            Binding([.char("n")], .older, help: tr("console.audit.key.older"), name: "older"),
            Binding([.char("v")], .verify, help: tr("console.audit.key.verify"), name: "verify"),
            Binding(
                [.char("h")], .toggleRoutine, help: tr("console.audit.key.routine"), shownInFooter: false,
                name: "routine"),
            Binding([.char("y")], .copy, help: tr("console.audit.key.copy"), shownInFooter: false, name: "copy"),
            Binding(
                [.char("x")], .clearFilter, help: tr("console.audit.key.clearFilter"), shownInFooter: false,
                name: "clear-filter"),
            Binding(
                [.char("r"), .function(5)], .reload, help: tr("console.audit.key.reload"), shownInFooter: false,
                name: "reload"),
            Binding([.up, .char("k")], .move(.up), help: tr("console.audit.key.newer"), shownInFooter: false),
            Binding([.down, .char("j")], .move(.down), help: tr("console.audit.key.olderEntry"), shownInFooter: false),
            Binding([.pageUp], .move(.pageUp), help: tr("terminal.pageUp"), shownInFooter: false),
            Binding([.pageDown], .move(.pageDown), help: tr("terminal.pageDown"), shownInFooter: false),
            Binding([.home, .char("g")], .move(.top), help: tr("console.audit.key.newest"), shownInFooter: false),
            Binding([.end, .char("G")], .move(.bottom), help: tr("console.audit.key.oldest"), shownInFooter: false),
            Binding([.char("q")], .quit, help: tr("console.frame.hint.quit"), shownInFooter: false, name: "quit"),
        ])
    }

    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .keyPressed(let key):
            if state.filterForm != nil { return handleFilterKey(&state, key) }
            guard let action = keyMap.action(for: key) else { return [] }
            return perform(&state, action)
        case .rowClicked(let row):
            if !state.isModal, state.entries.indices.contains(row) { state.selected = row }
            return []
        case .scrolled(let rows):
            guard !state.isModal else { return [] }
            return move(&state, by: rows)
        case .loaded(let entries, let query):
            guard query == state.pending else { return [] }
            state.pending = nil
            state.loaded = true
            state.hasMore = entries.count >= query.limit
            if query.beforeID == nil {
                state.loadedEntries = entries
                state.selected = 0
            } else {
                let previousLast = state.loadedEntries.last?.id ?? Int64.max
                state.loadedEntries += entries
                // The first new entry shown (a page of hidden pairs may also hide an old one).
                if !entries.isEmpty, let position = state.entries.firstIndex(where: { $0.id < previousLast }) {
                    state.selected = position
                } else {
                    state.selected = max(0, min(state.selected, state.entries.count - 1))
                }
            }
            if state.notice?.kind == .working || state.notice?.kind == .error { state.notice = nil }
            return []
        case .loadFailed(let message, let query):
            guard query == state.pending else { return [] }
            state.pending = nil
            state.notice = .error(tr("console.audit.loadFailed", ["message": message]))
            return []
        case .verified(let result):
            state.verification = .done(result)
            return []
        case .verifyFailed(let message):
            state.verification = .failed(message)
            return []
        case .copied(let result):
            state.notice = result.notice
            return []
        }
    }

    /// The first page for the current filter (on entering the screen, `r`, a new filter).
    public static func reload(_ state: inout State) -> [Command] {
        let query = state.query()
        state.pending = query
        return [.load(query)]
    }

    private static func older(_ state: inout State) -> [Command] {
        guard state.pending == nil else { return [] }
        guard state.hasMore, let last = state.loadedEntries.last else {
            if state.loaded {
                state.notice = .info(
                    tr(state.filter.isEmpty ? "console.audit.noOlder" : "console.audit.noOlderFiltered"))
            }
            return []
        }
        let query = state.query(before: last.id)
        state.pending = query
        state.notice = .working(tr("console.audit.loadingOlder"))
        return [.load(query)]
    }

    private static func perform(_ state: inout State, _ action: Action) -> [Command] {
        switch action {
        case .move(let step) where step == .top || step == .bottom:
            state.selected = TableCursor.position(state.selected, after: step, count: state.entries.count)
        case .move(let step): return move(&state, by: TableCursor.rows(step))
        case .older: return older(&state)
        case .reload:
            state.notice = nil
            return reload(&state)
        case .verify:
            if state.verification == .running { return [] }
            state.verification = .running
            return [.verify]
        case .filter:
            state.filterForm = FilterForm(
                filter: state.filter, today: ConsoleText.day(of: state.now, in: state.timeZone))
        case .toggleRoutine:
            let keep = state.selectedEntry?.id
            state.hidesRoutine.toggle()
            state.selected = keep.flatMap { id in state.entries.firstIndex { $0.id <= id } } ?? 0
            state.notice = .info(
                state.hidesRoutine
                    ? trCount("console.audit.pairsHidden", state.hiddenCount / 2, ["pairs": pairs(state.hiddenCount)])
                    : tr("console.audit.everyEntry"))
        case .copy:
            guard let entry = state.selectedEntry else {
                state.notice = CopyResult.nothing(tr("console.audit.nothingToCopy")).notice
                return []
            }
            return [
                .copy(
                    .row(
                        cells(entry, state.timeZone).map(\.text),
                        what: tr("console.audit.entryNumber", ["id": String(entry.id)])))
            ]
        case .clearFilter:
            guard !state.filter.isEmpty else { return [] }
            state.filter = Filter()
            return reload(&state)
        case .quit:
            return [.quit]
        }
        return []
    }

    /// "1 routine sign-in pair", "3 routine sign-in pairs": hidden entries come in pairs.
    static func pairs(_ entries: Int) -> String {
        trCount("console.audit.pairs", entries / 2)
    }

    /// Moves the selection; moving down past the last loaded entry loads the next page.
    private static func move(_ state: inout State, by rows: Int) -> [Command] {
        guard !state.entries.isEmpty else { return [] }
        let target = state.selected + rows
        if target > state.entries.count - 1, state.selected == state.entries.count - 1, state.hasMore {
            return older(&state)
        }
        state.selected = TableCursor.position(state.selected, by: rows, count: state.entries.count)
        return []
    }

    private static func handleFilterKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var form = state.filterForm else { return [] }
        switch form.handle(key) {
        case .cancelled:
            state.filterForm = nil
            return []
        case .apply(let filter):
            state.filterForm = nil
            state.filter = filter
            return reload(&state)
        case .edited:
            state.filterForm = form
            return []
        }
    }
}
