import DeskContract
import DeskCore
import DeskText
import TerminalKit

/// The case view (issue 21, points 1 and 5): one case as the desk's ``DeskService/caseDetail(_:caseID:)``
/// answers it (every read is audited there): its reference, patient, index day, status and
/// opener, its contacts (a follow-up per row: number, assignee, state, last outcome, due), its
/// history, and the chain (the follow-up it came from, the contacts who became cases).
///
/// It lives on the queue's page: the trace screen opens it for the case just opened (`v`),
/// the queue's person view for the person's cases (`v`). Enter on a contact opens the queue's
/// person view (Esc comes back to the case); `x` closes the case with a reason, after a
/// confirmation naming what ends. Esc goes back where it was opened from.
extension QueueScreen {
    public struct CaseView: Hashable, Sendable {
        /// Where Esc goes back to.
        public enum Origin: Hashable, Sendable {
            /// The queue's table.
            case queue
            /// The queue's person view of this follow-up.
            case person(Int64)
            /// The trace screen (the case it opened).
            case trace
        }

        public var caseID: Int64
        public var origin: Origin
        public var loaded: CaseDetail?
        public var error: String?
        /// Index into the loaded follow-ups.
        public var selected = 0
        /// `x`: the reason and a note, then ``confirm``.
        public var closeForm: CloseForm?
        /// The confirmation of closing, over the form.
        public var confirm: DialogState?
        /// The close was sent, not answered yet.
        public var closing = false

        public init(caseID: Int64, origin: Origin) {
            self.caseID = caseID
            self.origin = origin
        }

        public var selectedFollowUp: FollowUp? {
            guard let rows = loaded?.followUps, rows.indices.contains(selected) else { return nil }
            return rows[selected]
        }

        /// The form or its confirmation has the keys.
        public var isModal: Bool { closeForm != nil || confirm != nil }
    }

    /// Closing a case: why (one of ``CaseCloseReason``) and an optional note.
    public struct CloseForm: Hashable, Sendable {
        public var reason: CaseCloseReason = .recovered
        public var note = TextFieldState(maxLength: RecordedOutcome.maximumNoteLength)
        public var error: String?

        public init() {}
    }

    public enum CaseAction: Hashable, Sendable {
        case back, person, closeCase, reload, quit
        case move(TableCursor.Move)
    }

    public enum CloseAction: Hashable, Sendable { case previous, next, save, cancel }

    /// The case view's keys (a tracer's and a supervisor's alike: the desk says who may close).
    public static var caseKeyMap: KeyMap<CaseAction> {
        KeyMap<CaseAction>([
            Binding(
                [.enter], .person, help: tr("console.case.key.openTheContactAttemptsChecks"),
                footer: tr("console.case.key.open"), name: "detail"),
            Binding(
                [.char("x")], .closeCase, help: tr("console.case.key.closeTheCaseAsksWhy"),
                footer: tr("console.case.key.closeCase"),
                name: "close-case"),
            Binding(
                [.escape], .back, help: tr("console.case.key.backToWhereTheCase"), footer: tr("console.case.key.back"),
                name: "back"),
            Binding(
                [.char("r"), .function(5)], .reload, help: tr("console.case.key.readTheCaseAgain"),
                shownInFooter: false, name: "reload"),
            Binding([.up, .char("k")], .move(.up), help: tr("console.case.key.previousContact"), shownInFooter: false),
            Binding([.down, .char("j")], .move(.down), help: tr("console.case.key.nextContact"), shownInFooter: false),
            Binding([.pageUp], .move(.pageUp), help: tr("console.case.key.pageUp"), shownInFooter: false),
            Binding([.pageDown], .move(.pageDown), help: tr("console.case.key.pageDown"), shownInFooter: false),
            Binding([.home, .char("g")], .move(.top), help: tr("console.case.key.firstContact"), shownInFooter: false),
            Binding(
                [.end, .char("G")], .move(.bottom), help: tr("console.case.key.lastContact"), shownInFooter: false),
            Binding([.char("q")], .quit, help: tr("console.case.key.quit"), shownInFooter: false, name: "quit"),
        ])
    }

    /// The close form: ↑ ↓ or a digit choose the reason, typed text is the note.
    public static var closeKeyMap: KeyMap<CloseAction> {
        KeyMap<CloseAction>([
            Binding(
                [.enter], .save, help: tr("console.case.key.closeTheCaseAsksTo"), group: "close",
                footer: tr("console.case.key.close"),
                name: "save"),
            Binding(
                [.escape], .cancel, help: tr("console.case.key.cancelTheCaseStaysOpen"), group: "close",
                footer: tr("console.case.key.cancel"),
                name: "back"),
            Binding(
                [.up], .previous, help: tr("console.case.key.previousReason"), group: "close", shownInFooter: false),
            Binding([.down], .next, help: tr("console.case.key.nextReason"), group: "close", shownInFooter: false),
        ])
    }

    /// Opens the case view of `caseID` (its read is audited by the desk).
    public static func openCase(_ state: inout State, caseID: Int64, origin: CaseView.Origin) -> [Command] {
        state.caseView = CaseView(caseID: caseID, origin: origin)
        state.detail = nil
        return [.caseDetail(caseID: caseID)]
    }

    static func caseKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var view = state.caseView else { return [] }
        if view.confirm != nil { return confirmKey(&state, key) }
        if view.closeForm != nil { return closeFormKey(&state, key) }
        guard let action = caseKeyMap.action(for: key) else { return [] }
        switch action {
        case .back:
            state.caseView = nil
            switch view.origin {
            case .queue: return []
            case .trace: return [.backToTrace]
            case .person(let id):
                state.detail = Detail(followUpID: id)
                return [.detail(followUpID: id)]
            }
        case .person:
            guard let followUp = view.selectedFollowUp else {
                state.notice = .info(tr(view.loaded == nil ? "console.case.stillReading" : "console.case.noContacts"))
                return []
            }
            state.detail = Detail(followUpID: followUp.id)
            return [.detail(followUpID: followUp.id)]
        case .closeCase:
            guard let trace = view.loaded?.trace else {
                state.notice = .info(tr("console.case.stillReadingX"))
                return []
            }
            guard trace.status.isOpen else {
                state.notice = .info(tr("console.case.closedAlready", ["reference": trace.reference]))
                return []
            }
            guard !view.closing else { return [] }
            view.closeForm = CloseForm()
            state.caseView = view
            return []
        case .reload:
            view.error = nil
            state.caseView = view
            return [.caseDetail(caseID: view.caseID)]
        case .quit:
            return perform(&state, .quit)
        case .move(let move):
            let count = view.loaded?.followUps.count ?? 0
            view.selected = TableCursor.position(view.selected, after: move, count: count)
            view.selected = min(max(0, view.selected), max(0, count - 1))
            state.caseView = view
            return []
        }
    }

    static func closeFormKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var view = state.caseView, var form = view.closeForm else { return [] }
        let all = CaseCloseReason.allCases
        switch closeKeyMap.action(for: key) {
        case .cancel:
            view.closeForm = nil
        case .previous, .next:
            let index = all.firstIndex(of: form.reason) ?? 0
            let step = closeKeyMap.action(for: key) == .next ? 1 : all.count - 1
            form.reason = all[(index + step) % all.count]
            view.closeForm = form
        case .save:
            guard let trace = view.loaded?.trace else { return [] }
            let ending = (view.loaded?.followUps ?? []).filter { followUp in
                followUp.state.isActive && !followUp.reasons.contains { $0.caseID != trace.id }
            }.count
            view.confirm = DialogState.confirm(
                title: tr("console.case.confirm.title", ["reference": trace.reference]),
                message:
                    tr("console.case.confirm.reason", ["reason": TracingWords.closeReason(form.reason)]) + "\n\n"
                    + (ending == 0
                        ? tr("console.case.confirm.noneEnds")
                        : trCount("console.case.confirm.ending", ending)),
                confirm: tr("console.case.confirm.close"), cancel: tr("console.case.confirm.keep"))
        case nil:
            if case .char(let c) = key, form.note.text.isEmpty, let digit = Int(String(c)),
                (1...all.count).contains(digit)
            {
                // A digit in the empty note picks the reason, as the list shows them.
                form.reason = all[digit - 1]
            } else {
                _ = form.note.handle(key)
            }
            view.closeForm = form
        }
        state.caseView = view
        return []
    }

    static func confirmKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var view = state.caseView, var dialog = view.confirm else { return [] }
        let outcome = dialog.handle(key)
        view.confirm = dialog
        switch outcome {
        case .chosen(0):
            view.confirm = nil
            guard let form = view.closeForm else { break }
            view.closeForm = nil
            view.closing = true
            state.caseView = view
            state.notice = .working(
                tr("console.case.closing", ["reference": view.loaded?.trace.reference ?? "\(view.caseID)"]))
            return [.closeCase(caseID: view.caseID, reason: form.reason, note: form.note.text)]
        case .chosen, .cancelled:
            // Back to the form, as it was: Esc there leaves the case open.
            view.confirm = nil
        case .changed, .unchanged, .notHandled:
            break
        }
        state.caseView = view
        return []
    }

    /// The case's answer, or a later one after a change (the selection stays on its contact).
    static func caseLoaded(_ state: inout State, _ detail: CaseDetail) {
        guard var view = state.caseView, view.caseID == detail.trace.id else { return }
        let keep = view.selectedFollowUp?.id
        view.loaded = detail
        view.error = nil
        view.selected = TableCursor.position(of: keep, in: detail.followUps, id: \.id)
        state.caseView = view
        for followUp in detail.followUps { replace(&state, followUp) }
    }

    /// What a change of a follow-up means for the case shown: read it again.
    static func refreshCase(_ state: State) -> [Command] {
        guard let view = state.caseView, view.loaded != nil else { return [] }
        return [.caseDetail(caseID: view.caseID)]
    }

    /// The cases a person's follow-up names (and the case they became), for `v`.
    static func personCases(_ followUp: FollowUp) -> [(id: Int64, label: String)] {
        var cases = followUp.reasons.map {
            (id: $0.caseID, label: tr("console.case.pick.contactOf", ["reference": $0.caseReference]))
        }
        if let became = followUp.becameCaseID, !cases.contains(where: { $0.id == became }) {
            cases.append((id: became, label: tr("console.case.pick.became", ["id": String(became)])))
        }
        return cases
    }

    /// `v` in the person view: their case, or a list to choose from when there are several.
    static func showPersonCase(_ state: inout State) -> [Command] {
        guard let followUp = state.current, let id = state.detail?.followUpID else { return [] }
        let cases = personCases(followUp)
        guard let first = cases.first else {
            state.notice = .info(tr("console.case.noCase"))
            return []
        }
        if cases.count == 1 { return openCase(&state, caseID: first.id, origin: .person(id)) }
        state.picker = Picker(
            purpose: .openCase(fromFollowUp: id),
            options: cases.map { Picker.Option(label: $0.label, caseID: $0.id) })
        return []
    }
}
