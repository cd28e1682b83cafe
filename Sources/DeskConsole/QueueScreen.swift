import CivilCalendar
import DeskContract
import DeskCore
import DeskText
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The call queue (issue 21): the tracer's home. The follow-ups due now and overdue first, then
/// those due later today, a page at a time in the desk's order (due time, then id); each row
/// the person's whole number, the case, the attempts, the last outcome and why they are a
/// contact. A digit records the call's outcome at once and goes on to the next person due
/// (as the trace screen's call loop does); `o` records it with a note; `c` records the daily
/// check of a reached person; Enter opens the person (attempts, checks, the evidence per case);
/// `y` copies the number (audited first); `/` filters by case reference or number (the desk
/// searches: ``QueueQuery/search``).
///
/// A supervisor's queue reads everyone's by default and adds: whose queue (`t`: one tracer,
/// nobody's yet, everyone's), marks (Space) and reassigning the marked rows, or the selected one,
/// to a tracer (`a`). Symptom flags show for the supervisor and the tracer alike.
///
/// Recording never moves the rows: a row recorded keeps its place with its new state until the
/// queue is read again (`r`, a filter, a scope), so the cursor never jumps under the tracer.
///
/// Pure: ``update(_:_:)`` returns commands; the program runs them through the ``DeskService``.
/// Privacy: the state holds phone numbers; never log it.
public enum QueueScreen {
    /// One person's detail: attempts, checks and the evidence.
    public struct Detail: Hashable, Sendable {
        public var followUpID: Int64
        public var loaded: FollowUpDetail?
        public var error: String?
        /// The first line shown.
        public var scroll = 0

        public init(followUpID: Int64) { self.followUpID = followUpID }
    }

    /// `o`: a call's outcome with a note.
    public struct AttemptForm: Hashable, Sendable {
        public var followUpID: Int64
        public var choice: CallOutcome = .noAnswer
        public var note = TextFieldState(maxLength: RecordedOutcome.maximumNoteLength)
        public var saving = false
        public var error: String?

        public init(followUpID: Int64) { self.followUpID = followUpID }
    }

    /// `c`: today's check of a reached person: symptoms and isolating answered y or n (neither
    /// is assumed), and a note.
    public struct CheckForm: Hashable, Sendable {
        public enum Field: Hashable, Sendable { case symptoms, isolating, note }
        public var followUpID: Int64
        public var symptoms: Bool?
        public var isolating: Bool?
        public var note = TextFieldState(maxLength: RecordedOutcome.maximumNoteLength)
        public var focus = Field.symptoms
        public var saving = false
        public var error: String?
        static let fields: [Field] = [.symptoms, .isolating, .note]

        public init(followUpID: Int64) { self.followUpID = followUpID }
    }

    /// A list to choose from: whose queue (`t`) or the tracer to assign to (`a`). Typing
    /// narrows it; a name that is in no row can be typed whole (the desk checks it).
    public struct Picker: Hashable, Sendable {
        public enum Purpose: Hashable, Sendable {
            case scope
            /// Assign these follow-ups.
            case assign([Int64])
            /// Open one of the person's cases (`v` in the person view of this follow-up).
            case openCase(fromFollowUp: Int64)
        }
        public struct Option: Hashable, Sendable {
            public var label: String
            public var scope: QueueScope?
            public var tracer: String?
            public var caseID: Int64?
        }
        public var purpose: Purpose
        public var options: [Option]
        public var field = TextFieldState(maxLength: 32)
        public var selected = 0

        /// The options the typed text matches.
        public var shown: [Option] {
            let words = field.text.lowercased().split(separator: " ").map(String.init)
            guard !words.isEmpty else { return options }
            return options.filter { option in words.allSatisfy { option.label.lowercased().contains($0) } }
        }
    }

    public struct State: Hashable, Sendable {
        public var rows: [FollowUp] = []
        public var counts = QueueCounts()
        /// Where the next page starts; nil after the last.
        public var next: QueueCursor?
        public var readAt: Date?
        public var loading = false
        public var loaded = false
        /// Answers to an earlier read (a filter typed on, a scope changed) are dropped.
        public var request = 0
        /// Index into ``rows``.
        public var selected = 0
        public var notice: Notice?
        public var scope: QueueScope = .mine
        /// The signed-in person: a supervisor reads and assigns, a tracer calls.
        public var supervisor = false
        public var includeLater = false
        /// `/`: sent to the desk as ``QueueQuery/search``.
        public var filter = ListFilter()
        /// Outcomes sent by a digit or the form, not answered yet, by follow-up.
        public var saving: [Int64: CallOutcome] = [:]
        /// Checks sent, not answered yet.
        public var savingChecks: Set<Int64> = []
        /// The supervisor's marks (follow-up ids).
        public var marks: Set<Int64> = []
        public var detail: Detail?
        /// The case view (``CaseView``): shown when no person view is over it.
        public var caseView: CaseView?
        public var attemptForm: AttemptForm?
        public var checkForm: CheckForm?
        public var picker: Picker?
        /// Tracers' names for the pickers (the supervisor's indicators name them).
        public var tracers: [String] = []
        /// `tracedesk demo`: a line says what the simulated contact does when called.
        public var demo = false
        public var settings = FollowUpSettings.standard
        public var ascii = false
        public var now: Date
        public var timeZone: TimeZone

        public init(now: Date, timeZone: TimeZone = .current, ascii: Bool = false) {
            self.now = now
            self.timeZone = timeZone
            self.ascii = ascii
        }

        public var selectedRow: FollowUp? { rows.indices.contains(selected) ? rows[selected] : nil }

        /// The person the keys act on: the detail's, else the selected row's.
        public var current: FollowUp? {
            if let id = detail?.followUpID { return rows.first { $0.id == id } ?? detail?.loaded?.followUp }
            return selectedRow
        }

        /// A form, a picker or the filter has the keys.
        public var isModal: Bool {
            attemptForm != nil || checkForm != nil || picker != nil || filter.editing
                || (detail == nil && caseView?.isModal == true)
        }

        /// The case view is in front (no person view over it).
        public var showsCase: Bool { detail == nil && caseView != nil }

        /// Keys go into a text field: `?` and `q` are characters then.
        public var isTyping: Bool {
            if filter.editing || attemptForm != nil || picker != nil { return true }
            if detail == nil, caseView?.closeForm != nil, caseView?.confirm == nil { return true }
            if let form = checkForm { return form.focus == .note }
            return false
        }

        /// The time urgency is measured against: the desk's, as of the last tick.
        var clock: Date { now }

        public func urgency(_ followUp: FollowUp) -> QueueUrgency? {
            followUp.nextDueAt.map { QueueUrgency.of(dueAt: $0, now: clock, settings: settings) }
        }

        /// What the query for the first page is.
        public var query: QueueQuery {
            QueueQuery(
                scope: scope, includeLater: includeLater, search: filter.field.text.isEmpty ? nil : filter.field.text,
                after: nil, limit: QueueScreen.pageSize)
        }
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        case rowClicked(Int)
        case scrolled(Int)
        case ticked(Date)
        /// `append`: a further page (the rows so far stay).
        case loaded(QueuePage, request: Int, append: Bool)
        case loadFailed(String, request: Int)
        case detailLoaded(FollowUpDetail)
        case detailFailed(String, followUp: Int64)
        case attemptSaved(FollowUp, outcome: CallOutcome)
        case attemptFailed(String, followUp: Int64, outcome: CallOutcome)
        case checkSaved(FollowUp, symptoms: Bool)
        case checkFailed(String, followUp: Int64)
        case assigned([FollowUp], to: String)
        case assignFailed(String)
        case tracersLoaded([String])
        /// The desk recorded the copy of a number (audited): now it may be copied.
        case phoneCopyRecorded(ClipboardCopy, followUp: Int64)
        case copied(CopyResult)
        case caseLoaded(CaseDetail)
        case caseFailed(String, caseID: Int64)
        case caseClosed(TraceCase)
        case caseCloseFailed(String, caseID: Int64)
    }

    public enum Command: Hashable, Sendable {
        case load(QueueQuery, request: Int, append: Bool)
        case detail(followUpID: Int64)
        case attempt(followUpID: Int64, outcome: CallOutcome, note: String)
        case check(followUpID: Int64, symptoms: Bool, isolating: Bool, note: String)
        case assign(ids: [Int64], to: String)
        /// The tracers' names (from the indicators: a supervisor reads them).
        case tracers
        /// `y`: records the copy with the desk (audited), then copies `phone`.
        case copyPhone(followUpID: Int64, phone: String)
        case copy(ClipboardCopy)
        /// One case with its follow-ups and history (audited by the desk).
        case caseDetail(caseID: Int64)
        case closeCase(caseID: Int64, reason: CaseCloseReason, note: String)
        /// Esc on a case opened from the trace screen: back there.
        case backToTrace
        case quit
    }

    /// Persons asked for per page.
    public static let pageSize = 100

    /// Entering the screen: the first page (again), and for a supervisor the tracers' names.
    public static func opened(_ state: inout State) -> [Command] {
        if state.loading { return [] }
        var commands = reload(&state)
        if state.supervisor, state.tracers.isEmpty { commands.append(.tracers) }
        return commands
    }

    /// Reads the first page of the queue as the state asks for it.
    public static func reload(_ state: inout State) -> [Command] {
        state.loading = true
        state.request += 1
        return [.load(state.query, request: state.request, append: false)]
    }

    /// The next page, when there is one and none is on its way.
    static func loadMore(_ state: inout State) -> [Command] {
        guard let next = state.next, !state.loading else { return [] }
        state.loading = true
        state.request += 1
        var query = state.query
        query.after = next
        return [.load(query, request: state.request, append: true)]
    }

    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .keyPressed(let key):
            return handleKey(&state, key)
        case .rowClicked(let row):
            if !state.isModal, state.detail == nil, state.caseView == nil, state.rows.indices.contains(row) {
                state.selected = row
            }
            return []
        case .scrolled(let rows):
            guard !state.isModal else { return [] }
            if state.detail != nil {
                let scroll = state.detail?.scroll ?? 0
                state.detail?.scroll = max(0, scroll + rows)
                return []
            }
            if state.caseView != nil { return caseKey(&state, rows < 0 ? .up : .down) }
            return move(&state, to: TableCursor.position(state.selected, by: rows, count: state.rows.count))
        case .ticked(let now):
            state.now = now
            return []
        case .loaded(let page, let request, let append):
            guard request == state.request else { return [] }
            state.loading = false
            state.loaded = true
            state.counts = page.counts
            state.next = page.next
            if state.supervisor {
                // The rows name tracers too (the indicators may not answer on every desk).
                state.tracers = Array(Set(state.tracers + page.rows.compactMap(\.assignedTo))).sorted()
            }
            state.readAt = page.readAt
            if append {
                let known = Set(state.rows.map(\.id))
                state.rows += page.rows.filter { !known.contains($0.id) }
            } else {
                let keep = state.selectedRow?.id
                state.rows = page.rows
                state.selected = TableCursor.position(of: keep, in: page.rows, id: \.id)
                state.marks.formIntersection(page.rows.map(\.id))
            }
            if state.notice?.kind == .working, state.saving.isEmpty, state.savingChecks.isEmpty { state.notice = nil }
            return []
        case .loadFailed(let message, let request):
            guard request == state.request else { return [] }
            state.loading = false
            state.notice = .error(
                tr(state.loaded ? "console.queue.readFailedShown" : "console.queue.readFailed", ["message": message]))
            return []
        case .detailLoaded(let detail):
            guard state.detail?.followUpID == detail.followUp.id else { return [] }
            state.detail?.loaded = detail
            state.detail?.error = nil
            replace(&state, detail.followUp)
            return []
        case .detailFailed(let message, let id):
            guard state.detail?.followUpID == id else { return [] }
            state.detail?.error = message
            return []
        case .attemptSaved(let followUp, let outcome):
            state.saving.removeValue(forKey: followUp.id)
            if state.attemptForm?.followUpID == followUp.id { state.attemptForm = nil }
            replace(&state, followUp)
            let phone = followUp.phone.spaced
            var text = tr(
                "console.queue.recorded",
                ["outcome": TracingWords.call(outcome), "phone": phone, "next": scheduleText(followUp, state)])
            if nextDue(state, after: state.selected, including: true) == nil { text += " · \(allDoneText(state))" }
            state.notice = .ok(text)
            return refreshDetail(state, followUp.id) + refreshCase(state)
        case .attemptFailed(let message, let id, let outcome):
            if var form = state.attemptForm, form.followUpID == id, form.saving {
                form.saving = false
                form.error = message
                state.attemptForm = form
                state.saving.removeValue(forKey: id)
                return []
            }
            guard state.saving.removeValue(forKey: id) != nil else { return [] }
            let phone =
                state.rows.first { $0.id == id }?.phone.spaced ?? tr("console.queue.followUpID", ["id": String(id)])
            state.notice = .error(
                tr(
                    "console.queue.notRecorded",
                    ["outcome": TracingWords.call(outcome), "phone": phone, "message": message]))
            return []
        case .checkSaved(let followUp, let symptoms):
            state.savingChecks.remove(followUp.id)
            if state.checkForm?.followUpID == followUp.id { state.checkForm = nil }
            replace(&state, followUp)
            state.notice = .ok(
                tr("console.queue.checkRecorded", ["phone": followUp.phone.spaced])
                    + (symptoms ? ": " + tr("console.queue.checkFlagged") : "")
                    + " · \(scheduleText(followUp, state))")
            return refreshDetail(state, followUp.id) + refreshCase(state)
        case .checkFailed(let message, let id):
            state.savingChecks.remove(id)
            if var form = state.checkForm, form.followUpID == id {
                form.saving = false
                form.error = message
                state.checkForm = form
            } else {
                state.notice = .error(tr("console.queue.checkNotRecorded", ["message": message]))
            }
            return []
        case .assigned(let followUps, let tracer):
            for followUp in followUps { replace(&state, followUp) }
            state.marks.subtract(followUps.map(\.id))
            if !state.tracers.contains(tracer) { state.tracers = (state.tracers + [tracer]).sorted() }
            state.notice = .ok(trCount("console.queue.assigned", followUps.count, ["tracer": tracer]))
            return reload(&state)
        case .assignFailed(let message):
            state.notice = .error(tr("console.queue.assignFailed", ["message": message]))
            return []
        case .tracersLoaded(let names):
            state.tracers = Array(Set(names + state.tracers)).sorted()
            return []
        case .phoneCopyRecorded(let clip, let id):
            guard state.rows.contains(where: { $0.id == id }) || state.detail?.followUpID == id else { return [] }
            return [.copy(clip)]
        case .copied(let result):
            state.notice = result.notice
            return []
        case .caseLoaded(let detail):
            caseLoaded(&state, detail)
            return []
        case .caseFailed(let message, let id):
            guard state.caseView?.caseID == id else { return [] }
            state.caseView?.error = message
            return []
        case .caseClosed(let trace):
            guard state.caseView?.caseID == trace.id else { return [] }
            state.caseView?.closing = false
            if case .closed(let reason, _, _) = trace.status {
                state.notice = .ok(
                    tr(
                        "console.case.closedNotice",
                        ["reference": trace.reference, "reason": TracingWords.closeReason(reason)]))
            }
            // Its follow-ups ended: the case and the queue are read again.
            return [.caseDetail(caseID: trace.id)] + reload(&state)
        case .caseCloseFailed(let message, let id):
            guard state.caseView?.caseID == id else { return [] }
            state.caseView?.closing = false
            state.notice = .error(tr("console.case.closeFailed", ["message": message]))
            return []
        }
    }

    /// A row as the desk answered it, in place (the order stays until the queue is read again).
    static func replace(_ state: inout State, _ followUp: FollowUp) {
        if let index = state.rows.firstIndex(where: { $0.id == followUp.id }) { state.rows[index] = followUp }
    }

    static func refreshDetail(_ state: State, _ id: Int64) -> [Command] {
        state.detail?.followUpID == id ? [.detail(followUpID: id)] : []
    }

    /// What happens next to a follow-up, in words: "next call due 16:02", "today's check is due",
    /// "ended: wrong number".
    static func scheduleText(_ followUp: FollowUp, _ state: State) -> String {
        guard followUp.state.isActive, let due = followUp.nextDueAt else {
            return tr("console.queue.schedule.ended", ["state": TracingWords.state(followUp.state)])
        }
        let when =
            due <= state.now
            ? tr("console.queue.schedule.now")
            : due.utcDay == state.now.utcDay
                ? String(ConsoleText.dateTime(due, state.timeZone).suffix(5))
                : ConsoleText.dateTime(due, state.timeZone)
        if followUp.state == .monitoring {
            return due <= state.now
                ? tr("console.queue.schedule.checkNow") : tr("console.queue.schedule.nextCheck", ["when": when])
        }
        return tr("console.queue.schedule.nextCall", ["when": when])
    }

    static func allDoneText(_ state: State) -> String {
        tr(state.filter.isActive ? "console.queue.allDoneFiltered" : "console.queue.allDone")
    }

    /// The row after `position` (wrapping; the row itself last when `including`) that is due
    /// now or overdue and not being saved; nil when none.
    static func nextDue(_ state: State, after position: Int, including: Bool = false) -> Int? {
        let count = state.rows.count
        guard count > 0 else { return nil }
        let steps = including ? Array(1...count) : Array(1..<max(1, count))
        for step in steps {
            let candidate = (position + step) % count
            let row = state.rows[candidate]
            guard row.state.isActive, state.saving[row.id] == nil, !state.savingChecks.contains(row.id),
                let urgency = state.urgency(row)
            else { continue }
            if urgency == .overdue || urgency == .due { return candidate }
        }
        return nil
    }

    /// Moves the selection; past the last row the next page is read.
    static func move(_ state: inout State, to position: Int) -> [Command] {
        guard !state.rows.isEmpty else { return [] }
        state.selected = min(max(0, position), state.rows.count - 1)
        return state.selected >= state.rows.count - 1 ? loadMore(&state) : []
    }
}
