import CivilCalendar
import DeskCore
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The admin's audit log: newest first, filtered by person, action and day (local), paged
/// further back on request, with a detail pane for the selected entry and a key that checks the
/// whole hash chain (``DeskService/verifyAudit(_:)``).
///
/// The verdict of a check is words first: "chain intact: N entries, head …" or "BROKEN at entry
/// N: reason", so it never depends on colour. Results of a load are matched to the query that
/// asked for them, so a slow answer to an old filter never replaces a newer one.
/// Pure: ``update(_:_:)`` returns commands; the program runs them through the ``DeskService``.
public enum AuditScreen {
    /// What the list is narrowed to; nil fields match everything.
    public struct Filter: Hashable, Sendable {
        public var actor: String?
        public var action: AuditAction?
        /// A day in the console's time zone.
        public var day: CivilDay?

        public init(actor: String? = nil, action: AuditAction? = nil, day: CivilDay? = nil) {
            self.actor = actor
            self.action = action
            self.day = day
        }

        public var isEmpty: Bool { actor == nil && action == nil && day == nil }

        /// "person ana · action sign_in · day 2026-11-29", or "all entries".
        public var summary: String {
            var parts: [String] = []
            if let actor { parts.append("person \(actor)") }
            if let action { parts.append("action \(action.rawValue)") }
            if let day { parts.append("day \(day.iso)") }
            return parts.isEmpty ? "all entries" : parts.joined(separator: " · ")
        }
    }

    public enum Verification: Hashable, Sendable {
        case running
        case done(AuditVerification)
        case failed(String)
    }

    public struct State: Hashable, Sendable {
        public var entries: [AuditEntry] = []
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
        public var isModal: Bool { filterForm != nil }
        public var loading: Bool { pending != nil }

        /// The query for the first page (`before` nil) or the page older than `before`.
        public func query(before: Int64? = nil) -> AuditQuery {
            let from = filter.day.map { ConsoleText.start(of: $0, in: timeZone) }
            let until = filter.day.map { ConsoleText.start(of: $0.adding(days: 1), in: timeZone) }
            return AuditQuery(
                actor: filter.actor, action: filter.action, from: from, until: until, beforeID: before, limit: pageSize)
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
    }

    public enum Command: Hashable, Sendable {
        case load(AuditQuery)
        case verify
        case quit
    }

    public enum Action: Hashable, Sendable {
        case move(TableCursor.Move)
        case older, filter, clearFilter, verify, reload, quit
    }

    public static let keyMap = KeyMap<Action>([
        Binding([.char("/"), .char("f")], .filter, help: "Filter", name: "filter"),
        Binding([.char("n")], .older, help: "Older page", name: "older"),
        Binding([.char("v")], .verify, help: "Verify chain", name: "verify"),
        Binding([.char("x")], .clearFilter, help: "Clear filter", shownInFooter: false, name: "clear-filter"),
        Binding(
            [.char("r"), .function(5)], .reload, help: "Reload (newest first)", shownInFooter: false, name: "reload"),
        Binding([.up, .char("k")], .move(.up), help: "Newer entry", shownInFooter: false),
        Binding([.down, .char("j")], .move(.down), help: "Older entry (loads more at the end)", shownInFooter: false),
        Binding([.pageUp], .move(.pageUp), help: "Page up", shownInFooter: false),
        Binding([.pageDown], .move(.pageDown), help: "Page down", shownInFooter: false),
        Binding([.home, .char("g")], .move(.top), help: "Newest entry", shownInFooter: false),
        Binding([.end, .char("G")], .move(.bottom), help: "Oldest entry loaded", shownInFooter: false),
        Binding([.char("q")], .quit, help: "Quit", shownInFooter: false, name: "quit"),
    ])

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
                state.entries = entries
                state.selected = 0
            } else {
                let firstNew = state.entries.count
                state.entries += entries
                if !entries.isEmpty { state.selected = firstNew }
            }
            if state.notice?.kind == .working || state.notice?.kind == .error { state.notice = nil }
            return []
        case .loadFailed(let message, let query):
            guard query == state.pending else { return [] }
            state.pending = nil
            state.notice = .error("could not read the audit log: \(message) (r to try again)")
            return []
        case .verified(let result):
            state.verification = .done(result)
            return []
        case .verifyFailed(let message):
            state.verification = .failed(message)
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
        guard state.hasMore, let last = state.entries.last else {
            if state.loaded {
                state.notice = .info("no older entries" + (state.filter.isEmpty ? "" : " for this filter"))
            }
            return []
        }
        let query = state.query(before: last.id)
        state.pending = query
        state.notice = .working("loading older entries…")
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
        case .clearFilter:
            guard !state.filter.isEmpty else { return [] }
            state.filter = Filter()
            return reload(&state)
        case .quit:
            return [.quit]
        }
        return []
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
