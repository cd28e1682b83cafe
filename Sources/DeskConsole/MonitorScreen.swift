import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The live activity feed: authorisations, checks by apps, uploads, refusals, analytics,
/// published chunks and staff actions, newest first, with a detail pane for one event and a
/// watch pane that follows the code an event is about.
///
/// The frame hands it every page the program's one feed loop reads (``Msg/eventsArrived(_:moreWaiting:)``);
/// the screen keeps only the newest ``State/windowSize`` events, so memory stays bounded
/// whatever the rate. Space pauses: the table stops moving and new events are counted until it
/// resumes. `/` filters as you type; 1–9 show or hide each kind. Operators see only their own
/// codes, their own staff actions and everyone's published chunks: the desk filters, and the
/// screen lists, counts and toggles only the kinds the role can get (``kinds(for:)``).
/// Dummy traffic is never a row: the header shows its share from ``TrafficShare``.
///
/// Pure: ``update(_:_:)`` returns commands; the program runs them through the ``DeskService``.
public enum MonitorScreen {
    /// The kinds the screen knows, in the order of their toggle keys (1–9).
    public enum Kind: Int, Hashable, Sendable, CaseIterable {
        case authorised = 1
        case checked, upload, refused, analytics, chunk, staff
        /// APRICOT: an app registered (or signed in again) and got its pseudo-ids.
        case registered
        /// APRICOT: a positive patient's app uploaded a day's contact file.
        case contactFile

        public init?(_ kind: DeskEvent.Kind) {
            switch kind {
            case .otpAuthorized: self = .authorised
            case .otpChecked: self = .checked
            case .uploadAccepted: self = .upload
            case .uploadRefused: self = .refused
            case .analyticsReceived: self = .analytics
            case .chunkPublished: self = .chunk
            case .staffAction: self = .staff
            case .apricotRegistered: self = .registered
            case .contactFileReceived: self = .contactFile
            // A warning that phone requests are being refused: shown (and toggled) with them.
            case .otpGuessesLimited: self = .refused
            // Cases and follow-ups (issue 21) are staff work: shown (and toggled) with it.
            case .caseOpened, .caseClosed, .followUpChanged: self = .staff
            }
        }

        /// The short word the table and the header show.
        public var word: String {
            switch self {
            case .authorised: return tr("console.monitor.kind.authorised")
            case .checked: return tr("console.monitor.kind.checked")
            case .upload: return tr("console.monitor.kind.upload")
            case .refused: return tr("console.monitor.kind.refused")
            case .analytics: return tr("console.monitor.kind.analytics")
            case .chunk: return tr("console.monitor.kind.chunk")
            case .staff: return tr("console.monitor.kind.staff")
            case .registered: return tr("console.monitor.kind.registered")
            case .contactFile: return tr("console.monitor.kind.contactFile")
            }
        }

        /// The kinds `role` is sent by the desk. An operator gets the events of their own codes
        /// (authorised, checked, upload, refused), their own staff actions and every published
        /// chunk (the store's `EventSQL.visibleTo`); analytics, APRICOT traffic and the warning
        /// of too many wrong codes are about no code of theirs. A supervisor gets every kind.
        public static func visible(to role: StaffRole?) -> [Kind] {
            guard role == .operator else { return allCases }
            return [.authorised, .checked, .upload, .refused, .chunk, .staff]
        }

        /// What help says its key shows or hides.
        var plural: String {
            switch self {
            case .authorised: return tr("console.monitor.kinds.authorised")
            case .checked: return tr("console.monitor.kinds.checked")
            case .upload: return tr("console.monitor.kinds.upload")
            case .refused: return tr("console.monitor.kinds.refused")
            case .analytics: return tr("console.monitor.kinds.analytics")
            case .chunk: return tr("console.monitor.kinds.chunk")
            case .staff: return tr("console.monitor.kinds.staff")
            case .registered: return tr("console.monitor.kinds.registered")
            case .contactFile: return tr("console.monitor.kinds.contactFile")
            }
        }
    }

    /// The feed as the screen last heard of it.
    public enum Connection: Hashable, Sendable {
        /// No page yet.
        case starting
        case live
        /// The last read failed; the program retries from the same position.
        case reconnecting(String)
    }

    /// What the pane under the table shows.
    public enum Pane: Hashable, Sendable { case none, detail, watch }

    /// One event, read once when it arrives: the table's words and what the filter searches.
    public struct Row: Hashable, Sendable {
        public var event: MonitorEvent
        /// Nil for a kind this build does not know ("unknown event").
        public var kind: Kind?
        public var who: String
        public var summary: String
        /// Kind, who, tag and summary in lowercase, for the filter, then the stored forms
        /// (``EventDetail/storedForms(_:)``: the kind's code, the detail's fields as stored).
        var search: String

        public init(_ event: MonitorEvent, zone: TimeZone) {
            self.event = event
            kind = event.known.flatMap(Kind.init)
            who = Self.who(event)
            summary = EventDetail.summary(event, zone: zone)
            search = [
                kind?.word ?? tr("console.monitor.unknownEvent"), who, event.codeTag ?? "", summary,
                EventDetail.storedForms(event),
            ]
            .joined(separator: " ").lowercased()
        }

        public var kindWord: String { kind?.word ?? tr("console.monitor.unknownEvent") }

        /// The actor, or who else acts for this kind: apps are "phone", jobs "server".
        static func who(_ event: MonitorEvent) -> String {
            if let actor = event.actor, !actor.isEmpty { return actor }
            switch event.known {
            case .otpChecked, .uploadAccepted, .uploadRefused, .analyticsReceived, .apricotRegistered,
                .contactFileReceived, .otpGuessesLimited:
                return tr("console.monitor.whoPhone")
            case .chunkPublished, .followUpChanged: return tr("console.monitor.whoServer")
            case .otpAuthorized, .staffAction, .caseOpened, .caseClosed, nil: return "–"
            }
        }
    }

    public struct State: Hashable, Sendable {
        /// Newest first; at most ``windowSize``.
        public var rows: [Row] = []
        /// At most this many events are kept; older ones drop off.
        public var windowSize = 2_000
        public var paused = false
        /// Events that arrived while paused, newest first, at most ``windowSize``.
        public var held: [Row] = []
        /// How many arrived while paused (may exceed what ``held`` keeps).
        public var newWhilePaused = 0
        public var filter = TextFieldState(maxLength: 64)
        /// Keys go to the filter field.
        public var filtering = false
        public var hidden: Set<Kind> = []
        /// The kinds the role signed in is sent (``Kind/visible(to:)``): the only ones counted,
        /// listed and toggled.
        public var kinds: [Kind] = Kind.allCases
        /// The selected event; nil: the newest row (which, while live, follows new events).
        public var selectedID: Int64?
        public var pane: Pane = .none
        public var connection: Connection = .starting
        /// The last page was full: older activity is still being read.
        public var catchingUp = false
        public var traffic: TrafficShare?
        public var trafficError: String?
        var trafficAsking = false
        var trafficAskedAt: Date?
        /// The watch pane's code: the event it was opened from, and that event's code tag.
        public var watchTarget: WatchTarget?
        public var watchTag: String?
        public var watch: CodeWatch?
        public var watchError: String?
        public var watchRefresh = WatchRefresh()
        public var notice: Notice?
        /// The desk's clock at the last tick.
        public var now: Date
        public var timeZone: TimeZone

        public init(now: Date, timeZone: TimeZone = .current) {
            self.now = now
            self.timeZone = timeZone
        }

        /// The filter as typed, trimmed and lowercased.
        var query: String { filter.text.trimmingCharacters(in: .whitespaces).lowercased() }

        /// Indices into ``rows`` shown by the table: the kinds not hidden, matching the filter.
        /// Unknown kinds are always shown: there is no key to hide them, and they are worth a look.
        /// (Runs at every draw over the whole window: the query is made once, and rows are read
        /// in place rather than copied.)
        public var visible: [Int] {
            let query = self.query
            let hidden = self.hidden
            return rows.indices.filter { index in
                (rows[index].kind.map { !hidden.contains($0) } ?? true)
                    && (query.isEmpty || rows[index].search.contains(query))
            }
        }

        /// The selected position in ``visible``: the selected event, or the next older one shown
        /// when it is not (filtered out, dropped off the window); nil when nothing is shown.
        public func selectedPosition(in visible: [Int]) -> Int? {
            guard !visible.isEmpty else { return nil }
            guard let id = selectedID else { return 0 }
            return visible.firstIndex { rows[$0].event.id <= id } ?? visible.count - 1
        }

        public var selectedRow: Row? {
            let shown = visible
            return selectedPosition(in: shown).map { rows[shown[$0]] }
        }

        /// Events per kind in the window that match the text filter (hidden kinds included),
        /// and how many are of kinds this build does not know.
        public var counts: (perKind: [Kind: Int], unknown: Int) {
            var perKind: [Kind: Int] = [:]
            var unknown = 0
            let query = self.query
            for index in rows.indices where query.isEmpty || rows[index].search.contains(query) {
                if let kind = rows[index].kind { perKind[kind, default: 0] += 1 } else { unknown += 1 }
            }
            return (perKind, unknown)
        }

        public var isModal: Bool { filtering }

        /// The table's keys for ``kinds``.
        public var keyMap: KeyMap<Action> {
            kinds == Kind.allCases ? MonitorScreen.keyMap : MonitorScreen.keyMap(showing: kinds)
        }
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        /// A click on the table: the position among the rows shown.
        case rowClicked(Int)
        case scrolled(Int)
        case ticked(Date)
        /// A page of the feed, oldest first; `moreWaiting` when the page was full.
        case eventsArrived([MonitorEvent], moreWaiting: Bool)
        case feedFailed(String)
        case trafficLoaded(TrafficShare)
        case trafficFailed(String)
        case watchLoaded(CodeWatch, for: WatchTarget)
        /// The desk could not be reached: asked again later.
        case watchFailed(String, for: WatchTarget)
        /// The desk will not show this code (another operator's, or the event is about none).
        case watchRefused(String, for: WatchTarget)
        /// What became of a copy (`y`, `Y`).
        case copied(CopyResult)
    }

    public enum Command: Hashable, Sendable {
        /// Real and dummy phone requests since the start of the hour `since` falls in.
        case traffic(since: Date)
        case watch(WatchTarget)
        /// `y`: the selected event's code tag (or the row when it has none); `Y`: the row.
        case copy(ClipboardCopy)
        case quit
    }

    public enum Action: Hashable, Sendable {
        case toggle(Kind)
        case pause, filter, detail, watch, close, clearFilter, copy, copyRow
        case up, down, pageUp, pageDown, top, bottom, quit
    }

    /// Seconds between asks for the traffic share while the screen is shown.
    public static let trafficSeconds: Double = 15
    static let page = 10

    /// The screen came into view: ask for the traffic share now.
    public static func opened(_ state: inout State) -> [Command] {
        askTraffic(&state, force: true)
    }

    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .keyPressed(let key):
            if state.filtering { return handleFilterKey(&state, key) }
            guard let action = state.keyMap.action(for: key) else { return [] }
            return perform(&state, action)
        case .rowClicked(let position):
            let shown = state.visible
            if shown.indices.contains(position) { select(&state, position, in: shown) }
            return []
        case .scrolled(let rows):
            move(&state, by: rows)
            return []
        case .ticked(let now):
            state.now = now
            return askTraffic(&state, force: false) + askForWatch(&state)
        case .eventsArrived(let events, let moreWaiting):
            state.connection = .live
            state.catchingUp = moreWaiting
            add(&state, events)
            guard state.pane == .watch,
                WatchRefresh.concerns(events, tag: state.watchTag, watch: state.watch)
            else { return [] }
            state.watchRefresh.wanted = true
            return askForWatch(&state)
        case .feedFailed(let message):
            state.connection = .reconnecting(message)
            return []
        case .trafficLoaded(let share):
            state.traffic = share
            state.trafficError = nil
            state.trafficAsking = false
            return []
        case .trafficFailed(let message):
            state.trafficError = message
            state.trafficAsking = false
            return []
        case .watchLoaded(let watch, let target):
            guard target == state.watchTarget else { return [] }
            state.watch = watch
            state.watchError = nil
            state.watchRefresh.answered()
            return askForWatch(&state)
        case .watchFailed(let message, let target):
            guard target == state.watchTarget else { return [] }
            state.watchError = message
            state.watchRefresh.answered()
            return []
        case .watchRefused(let message, let target):
            guard target == state.watchTarget else { return [] }
            state.watchError = message
            state.watchRefresh.answered()
            state.watchRefresh.stopped = true
            return []
        case .copied(let result):
            state.notice = result.notice
            return []
        }
    }

    /// Adds a page (oldest first) at the top, or to the held events while paused; the oldest
    /// beyond the window drop off. The selection stays on its event, or on the newest row.
    static func add(_ state: inout State, _ events: [MonitorEvent]) {
        guard !events.isEmpty else { return }
        // Only the newest `windowSize` of a page can stay.
        let kept = events.suffix(state.windowSize)
        let newest = kept.reversed().map { Row($0, zone: state.timeZone) }
        if state.paused {
            state.newWhilePaused += events.count
            state.held = Array((newest + state.held).prefix(state.windowSize))
        } else {
            state.rows = Array((newest + state.rows).prefix(state.windowSize))
        }
    }

    private static func perform(_ state: inout State, _ action: Action) -> [Command] {
        state.notice = nil
        switch action {
        case .pause:
            if state.paused { resume(&state) } else { state.paused = true }
        case .filter:
            state.filtering = true
        case .toggle(let kind):
            if state.hidden.contains(kind) { state.hidden.remove(kind) } else { state.hidden.insert(kind) }
        case .detail:
            state.pane = state.pane == .detail ? .none : .detail
        case .watch:
            return openWatch(&state)
        case .copy, .copyRow:
            guard let row = state.selectedRow else {
                state.notice = CopyResult.nothing(tr("console.monitor.nothingToCopy")).notice
                return []
            }
            if action == .copy, let tag = row.event.codeTag, !tag.isEmpty {
                return [.copy(ClipboardCopy(tag, what: tr("console.monitor.codeTag", ["tag": tag])))]
            }
            return [.copy(rowCopy(row, state.timeZone))]
        case .close:
            if state.pane != .none {
                closePane(&state)
            } else if !state.filter.text.isEmpty {
                state.filter = TextFieldState(maxLength: 64)
            }
        case .clearFilter:
            state.filter = TextFieldState(maxLength: 64)
            state.hidden = []
        case .up: move(&state, by: -1)
        case .down: move(&state, by: 1)
        case .pageUp: move(&state, by: -page)
        case .pageDown: move(&state, by: page)
        case .top: state.selectedID = nil
        case .bottom:
            let shown = state.visible
            if !shown.isEmpty { select(&state, shown.count - 1, in: shown) }
        case .quit:
            return [.quit]
        }
        return []
    }

    /// An event's row as text: local date and time, kind, who, code tag, summary.
    static func rowCopy(_ row: Row, _ zone: TimeZone) -> ClipboardCopy {
        .row([
            ConsoleText.dateTime(row.event.at, zone, seconds: true), row.kindWord, row.who, row.event.codeTag ?? "",
            row.summary,
        ])
    }

    /// Shows what arrived while paused, on top; the count starts again.
    static func resume(_ state: inout State) {
        state.paused = false
        state.rows = Array((state.held + state.rows).prefix(state.windowSize))
        state.held = []
        state.newWhilePaused = 0
    }

    private static func handleFilterKey(_ state: inout State, _ key: Key) -> [Command] {
        if let action = filterKeyMap.action(for: key) {
            switch action {
            case .keep: state.filtering = false
            case .clear:
                state.filter = TextFieldState(maxLength: 64)
                state.filtering = false
            case .up: move(&state, by: -1)
            case .down: move(&state, by: 1)
            case .pageUp: move(&state, by: -page)
            case .pageDown: move(&state, by: page)
            }
            return []
        }
        _ = state.filter.handle(key)
        return []
    }

    private static func move(_ state: inout State, by offset: Int) {
        let shown = state.visible
        guard let position = state.selectedPosition(in: shown) else { return }
        select(&state, min(max(0, position + offset), shown.count - 1), in: shown)
    }

    /// Selects a position; the first follows the newest event.
    private static func select(_ state: inout State, _ position: Int, in shown: [Int]) {
        state.selectedID = position == 0 ? nil : state.rows[shown[position]].event.id
    }

    private static func openWatch(_ state: inout State) -> [Command] {
        guard let row = state.selectedRow else { return [] }
        guard let tag = row.event.codeTag else {
            state.notice = .info(tr("console.monitor.noCode"))
            return []
        }
        let target = WatchTarget.event(row.event.id)
        if state.pane == .watch, state.watchTag == tag { return [] }
        state.pane = .watch
        state.watchTarget = target
        state.watchTag = tag
        state.watch = nil
        state.watchError = nil
        state.watchRefresh = WatchRefresh()
        return askForWatch(&state)
    }

    private static func closePane(_ state: inout State) {
        state.pane = .none
        state.watchTarget = nil
        state.watchTag = nil
        state.watch = nil
        state.watchError = nil
        state.watchRefresh = WatchRefresh()
    }

    static func askForWatch(_ state: inout State) -> [Command] {
        guard state.pane == .watch, let target = state.watchTarget else { return [] }
        let finished = WatchPane.isFinished(state.watch, now: state.now)
        guard state.watchRefresh.ask(now: state.now, finished: finished, held: false) else { return [] }
        return [.watch(target)]
    }

    private static func askTraffic(_ state: inout State, force: Bool) -> [Command] {
        guard !state.trafficAsking else { return [] }
        if !force, let last = state.trafficAskedAt, state.now.timeIntervalSince(last) < trafficSeconds { return [] }
        state.trafficAsking = true
        state.trafficAskedAt = state.now
        return [.traffic(since: state.now)]
    }
}
