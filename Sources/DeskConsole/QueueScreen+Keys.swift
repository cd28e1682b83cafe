import DeskContract
import DeskCore
import DeskText
import TerminalKit

// The queue's keys: the maps help, the palette, the footer and the docs read, and what each
// key does.
extension QueueScreen {
    public enum Action: Hashable, Sendable {
        case move(TableCursor.Move)
        /// A digit: record this outcome for the selected person at once, then go to the next due.
        case record(CallOutcome)
        case detail, outcome, check, copy, filter, clearFilter, later, reload, quit
        /// The supervisor's.
        case scope, mark, assign, unmarkAll
    }

    public enum DetailAction: Hashable, Sendable {
        case close, up, down, outcome, check, copy, reload, quit
        /// `v`: the person's case (a list when several name them).
        case showCase
        case record(CallOutcome)
    }

    public enum FormAction: Hashable, Sendable { case previous, next, save, cancel }

    public enum CheckAction: Hashable, Sendable { case yes, no, toggle, nextField, previousField, save, cancel }

    public enum PickerAction: Hashable, Sendable { case up, down, choose, cancel }

    /// `1`…`5` in ``CallOutcome`` order: help lists them one by one, the footer as one hint.
    static func outcomeBindings<A>(_ action: (CallOutcome) -> A) -> [Binding<A>] {
        CallOutcome.allCases.map { outcome in
            Binding(
                [.char(Character(String(outcome.digit)))], action(outcome),
                help: tr("console.queue.key.recordDigit", ["outcome": TracingWords.call(outcome)]),
                shownInFooter: false,
                footer: TracingWords.call(outcome))
        }
    }

    /// The digit legend: "1 no answer  2 voicemail  3 wrong number  4 reached  5 refused".
    public static var outcomeLegend: String {
        CallOutcome.allCases.map { "\($0.digit) \(TracingWords.call($0))" }.joined(separator: "  ")
    }

    /// The tracer's queue. The footer's come first, most useful first.
    public static var keyMap: KeyMap<Action> {
        KeyMap<Action>(
            [
                Binding(
                    [.enter], .detail, help: tr("console.queue.key.openThePersonAttemptsChecks"),
                    footer: tr("console.queue.key.open"), name: "detail"),
                Binding(
                    [.char("c")], .check, help: tr("console.queue.key.recordTodaySCheckSymptoms"),
                    footer: tr("console.queue.key.check"), name: "check"
                ),
                Binding(
                    [.char("/")], .filter, help: tr("console.queue.key.filterCaseReferenceNumberDigits"),
                    footer: tr("console.queue.key.filter"), name: "filter"),
                Binding(
                    [.char("o")], .outcome, help: tr("console.queue.key.recordTheCallSOutcome"),
                    footer: tr("console.queue.key.note"),
                    name: "outcome"),
                Binding(
                    [.char("y")], .copy, help: tr("console.queue.key.copyThePersonSPhone"),
                    footer: tr("console.queue.key.copy"), name: "copy"),
            ] + outcomeBindings(Action.record) + [] + listBindings + [
                Binding(
                    [.char("q")], .quit, help: tr("console.queue.key.quitNotWhileACall"), shownInFooter: false,
                    name: "quit")
            ])
    }

    /// The keys both queues (the tracer's, the supervisor's) end with: later days, reading again,
    /// clearing the filter, and moving along the rows.
    static var listBindings: [Binding<Action>] {
        [
            Binding(
                [.char("l")], .later, help: tr("console.queue.key.showLaterDaysTooOnly"), shownInFooter: false,
                name: "later"),
            Binding(
                [.char("r"), .function(5)], .reload, help: tr("console.queue.key.readTheQueueAgain"),
                shownInFooter: false, name: "reload"),
            Binding(
                [.escape], .clearFilter, help: tr("console.queue.key.clearTheFilter"), shownInFooter: false,
                name: "back"),
            Binding([.up, .char("k")], .move(.up), help: tr("console.queue.key.previousPerson"), shownInFooter: false),
            Binding(
                [.down, .char("j")], .move(.down), help: tr("console.queue.key.nextPersonReadsTheNext"),
                shownInFooter: false),
            Binding([.pageUp], .move(.pageUp), help: tr("console.queue.key.pageUp"), shownInFooter: false),
            Binding([.pageDown], .move(.pageDown), help: tr("console.queue.key.pageDown"), shownInFooter: false),
            Binding([.home, .char("g")], .move(.top), help: tr("console.queue.key.firstPerson"), shownInFooter: false),
            Binding(
                [.end, .char("G")], .move(.bottom), help: tr("console.queue.key.lastPersonRead"), shownInFooter: false),
        ]
    }

    /// The supervisor's queue: reads, marks and reassigns; records nothing.
    public static var supervisorKeyMap: KeyMap<Action> {
        KeyMap<Action>(
            [
                Binding(
                    [.enter], .detail, help: tr("console.queue.key.openThePersonAttemptsChecks"),
                    footer: tr("console.queue.key.open"), name: "detail"),
                Binding(
                    [.char("t")], .scope, help: tr("console.queue.key.whoseQueueATracerNobody"),
                    footer: tr("console.queue.key.whose"),
                    name: "whose"),
                Binding(
                    [.char(" ")], .mark, help: tr("console.queue.key.markUnmarkThePersonThen"),
                    footer: tr("console.queue.key.mark"),
                    name: "mark"),
                Binding(
                    [.char("a")], .assign, help: tr("console.queue.key.reassignTheMarkedOrThe"),
                    footer: tr("console.queue.key.reassign"),
                    name: "assign"),
                Binding(
                    [.char("/")], .filter, help: tr("console.queue.key.filterCaseReferenceNumberDigits"),
                    footer: tr("console.queue.key.filter"), name: "filter"),
                Binding(
                    [.char("x")], .unmarkAll, help: tr("console.queue.key.clearEveryMark"), shownInFooter: false,
                    name: "unmark-all"),
                Binding(
                    [.char("y")], .copy, help: tr("console.queue.key.copyThePersonSPhone"), shownInFooter: false,
                    name: "copy"),
            ] + listBindings + [
                Binding([.char("q")], .quit, help: tr("console.queue.key.quit"), shownInFooter: false, name: "quit")
            ])
    }

    /// A person's detail (the tracer's; the supervisor's has no digits, `o` or `c`).
    public static var detailKeyMap: KeyMap<DetailAction> {
        KeyMap<DetailAction>(
            [
                Binding(
                    [.escape, .enter], .close, help: tr("console.queue.key.backToTheQueue"),
                    footer: tr("console.queue.key.back"), name: "back"),
                Binding(
                    [.char("c")], .check, help: tr("console.queue.key.recordTodaySCheckSymptoms"),
                    footer: tr("console.queue.key.check"), name: "check"
                ),
                Binding(
                    [.char("v")], .showCase, help: tr("console.queue.key.thePersonSCaseContacts"),
                    footer: tr("console.queue.key.case"), name: "case"),
                Binding(
                    [.char("o")], .outcome, help: tr("console.queue.key.recordTheCallSOutcome"),
                    footer: tr("console.queue.key.note"),
                    name: "outcome"),
                Binding(
                    [.char("y")], .copy, help: tr("console.queue.key.copyThePersonSPhone"),
                    footer: tr("console.queue.key.copy"), name: "copy"),
            ] + outcomeBindings(DetailAction.record) + [
                Binding([.up, .char("k")], .up, help: tr("console.queue.key.scrollUp"), shownInFooter: false),
                Binding([.down, .char("j")], .down, help: tr("console.queue.key.scrollDown"), shownInFooter: false),
                Binding(
                    [.char("r")], .reload, help: tr("console.queue.key.readThePersonAgain"), shownInFooter: false,
                    name: "reload"),
                Binding(
                    [.char("q")], .quit, help: tr("console.queue.key.quitNotWhileACall"), shownInFooter: false,
                    name: "quit"),
            ])
    }

    public static var supervisorDetailKeyMap: KeyMap<DetailAction> {
        KeyMap<DetailAction>(
            detailKeyMap.bindings.filter { binding in
                switch binding.action {
                case .check, .outcome, .record: return false
                default: return true
                }
            })
    }

    /// The outcome form (typed characters go to the note).
    public static var attemptKeyMap: KeyMap<FormAction> {
        KeyMap<FormAction>([
            Binding([.enter], .save, help: tr("console.queue.key.record"), group: "outcome", name: "save"),
            Binding([.escape], .cancel, help: tr("console.queue.key.cancel"), group: "outcome", name: "back"),
            Binding([.up], .previous, help: tr("console.queue.key.previousOutcome"), group: "outcome"),
            Binding([.down], .next, help: tr("console.queue.key.nextOutcome"), group: "outcome"),
        ])
    }

    /// The daily check's form: `y`/`n` answer the question in focus (the note takes them as
    /// letters).
    public static var checkKeyMap: KeyMap<CheckAction> {
        KeyMap<CheckAction>([
            Binding(
                [.enter], .save, help: tr("console.queue.key.nextQuestionThenRecord"), group: "check",
                footer: tr("console.queue.key.nextRecord"), name: "save"),
            Binding([.escape], .cancel, help: tr("console.queue.key.cancel"), group: "check", name: "back"),
            Binding(
                [.char("y")], .yes, help: tr("console.queue.key.yesSymptomsIsolating"), group: "check",
                footer: tr("console.queue.key.yes")),
            Binding(
                [.char("n")], .no, help: tr("console.queue.key.noSymptomsIsolating"), group: "check",
                footer: tr("console.queue.key.no")),
            Binding(
                [.char(" "), .left, .right], .toggle, help: tr("console.queue.key.changeTheAnswer"), group: "check",
                shownInFooter: false),
            Binding(
                [.tab, .down], .nextField, help: tr("console.queue.key.nextQuestion"), group: "check",
                shownInFooter: false, name: "next-field"),
            Binding(
                [.backTab, .up], .previousField, help: tr("console.queue.key.previousQuestion"), group: "check",
                shownInFooter: false,
                name: "previous-field"),
        ])
    }

    /// The pickers (whose queue, the tracer to assign to); typed letters narrow the list.
    public static var pickerKeyMap: KeyMap<PickerAction> {
        KeyMap<PickerAction>([
            Binding(
                [.enter], .choose, help: tr("console.queue.key.chooseOrTheNameTyped"), group: "pick",
                footer: tr("console.queue.key.choose"), name: "choose"),
            Binding([.escape], .cancel, help: tr("console.queue.key.cancel"), group: "pick", name: "back"),
            Binding([.up], .up, help: tr("console.queue.key.previous"), group: "pick", shownInFooter: false),
            Binding([.down], .down, help: tr("console.queue.key.next"), group: "pick", shownInFooter: false),
        ])
    }

    /// The footer's hints: the digits as one "1-5 Outcome" after the first.
    public static func hints(_ state: State) -> [(keys: String, help: String)] {
        if state.picker != nil { return pickerKeyMap.footerHints }
        if state.detail == nil, let view = state.caseView {
            if let dialog = view.confirm { return dialog.keyMap.footerHints }
            if view.closeForm != nil { return closeKeyMap.footerHints }
            return caseKeyMap.footerHints
        }
        if state.checkForm != nil { return checkKeyMap.footerHints }
        if state.attemptForm != nil { return attemptKeyMap.footerHints }
        if state.filter.editing { return MonitorScreen.filterKeyMap.footerHints }
        let map =
            state.detail != nil
            ? (state.supervisor ? supervisorDetailKeyMap : detailKeyMap).map(Action.init)
            : (state.supervisor ? supervisorKeyMap : keyMap)
        var hints = map.bindings.filter(\.shownInFooter).map {
            (keys: $0.keys.first?.description ?? "", help: $0.footerText)
        }
        if !state.supervisor {
            hints.insert((keys: "1-5", help: tr("console.queue.key.outcome")), at: min(1, hints.count))
        }
        return hints
    }

    // MARK: What the keys do

    static func handleKey(_ state: inout State, _ key: Key) -> [Command] {
        if state.picker != nil { return pickerKey(&state, key) }
        if state.checkForm != nil { return checkKey(&state, key) }
        if state.attemptForm != nil { return attemptKey(&state, key) }
        if state.filter.editing {
            let before = state.filter.field.text
            let edit = state.filter.handle(key)
            if edit == .kept { return [] }
            return state.filter.field.text != before || edit == .cleared ? reload(&state) : []
        }
        if state.detail != nil {
            let map = state.supervisor ? supervisorDetailKeyMap : detailKeyMap
            guard let action = map.action(for: key) else { return [] }
            return detailAction(&state, action)
        }
        if state.caseView != nil { return caseKey(&state, key) }
        guard let action = (state.supervisor ? supervisorKeyMap : keyMap).action(for: key) else { return [] }
        return perform(&state, action)
    }

    static func perform(_ state: inout State, _ action: Action) -> [Command] {
        switch action {
        case .move(let move):
            return QueueScreen.move(
                &state, to: TableCursor.position(state.selected, after: move, count: state.rows.count))
        case .record(let outcome):
            return record(&state, outcome)
        case .detail:
            guard let row = state.selectedRow else {
                state.notice = .info(tr("console.queue.nobodyToOpen"))
                return []
            }
            state.detail = Detail(followUpID: row.id)
            return [.detail(followUpID: row.id)]
        case .outcome:
            guard let row = writable(&state) else { return [] }
            state.attemptForm = AttemptForm(followUpID: row.id)
            return []
        case .check:
            guard let row = writable(&state) else { return [] }
            if let problem = TracingWords.checkProblem(row) {
                state.notice = .error(problem)
                return []
            }
            state.checkForm = CheckForm(followUpID: row.id)
            return []
        case .copy:
            guard let row = state.current else {
                state.notice = CopyResult.nothing(tr("console.queue.copyNothing")).notice
                return []
            }
            state.notice = .working(tr("console.queue.copyRecording"))
            return [.copyPhone(followUpID: row.id, phone: row.phone.e164)]
        case .filter:
            state.filter.editing = true
            return []
        case .clearFilter:
            guard state.filter.isActive else { return [] }
            state.filter = ListFilter()
            return reload(&state)
        case .later:
            state.includeLater.toggle()
            state.notice = .info(
                tr(state.includeLater ? "console.queue.showingLater" : "console.queue.showingToday")
            )
            return reload(&state)
        case .reload:
            state.notice = nil
            return reload(&state)
        case .quit:
            guard state.saving.isEmpty, state.savingChecks.isEmpty else {
                state.notice = .info(tr("console.queue.quitWhileSaving"))
                return []
            }
            return [.quit]
        case .scope:
            var options = [
                Picker.Option(label: tr("console.queue.picker.everyone"), scope: .everyone),
                Picker.Option(label: tr("console.queue.picker.unassigned"), scope: .unassigned),
            ]
            options += state.tracers.map { Picker.Option(label: $0, scope: .tracer($0), tracer: $0) }
            state.picker = Picker(purpose: .scope, options: options)
            return []
        case .mark:
            guard let row = state.selectedRow else { return [] }
            if state.marks.remove(row.id) == nil { state.marks.insert(row.id) }
            return move(&state, to: state.selected + 1)
        case .unmarkAll:
            state.marks = []
            return []
        case .assign:
            let ids =
                state.marks.isEmpty
                ? state.selectedRow.map { [$0.id] } ?? [] : state.rows.map(\.id).filter(state.marks.contains)
            guard !ids.isEmpty else {
                state.notice = .info(tr("console.queue.nobodyToReassign"))
                return []
            }
            state.picker = Picker(
                purpose: .assign(ids), options: state.tracers.map { Picker.Option(label: $0, tracer: $0) })
            return []
        }
    }

    static func detailAction(_ state: inout State, _ action: DetailAction) -> [Command] {
        switch action {
        case .close:
            state.detail = nil
            // Back to the case it was opened from, read again (a call may have changed it).
            return refreshCase(state)
        case .showCase:
            return showPersonCase(&state)
        case .up:
            let scroll = state.detail?.scroll ?? 0
            state.detail?.scroll = max(0, scroll - 1)
            return []
        case .down:
            let scroll = state.detail?.scroll ?? 0
            state.detail?.scroll = scroll + 1
            return []
        case .reload:
            guard let id = state.detail?.followUpID else { return [] }
            state.detail?.error = nil
            return [.detail(followUpID: id)]
        case .record(let outcome): return record(&state, outcome)
        case .outcome: return perform(&state, .outcome)
        case .check: return perform(&state, .check)
        case .copy: return perform(&state, .copy)
        case .quit: return perform(&state, .quit)
        }
    }

    /// The person a tracer may record on now, or nil with the notice saying why not.
    static func writable(_ state: inout State) -> FollowUp? {
        guard let row = state.current else {
            state.notice = .info(tr("console.queue.nobodySelected"))
            return nil
        }
        if state.saving[row.id] != nil || state.savingChecks.contains(row.id) {
            state.notice = .info(tr("console.queue.stillRecording", ["phone": row.phone.spaced]))
            return nil
        }
        if let problem = TracingWords.attemptProblem(row) {
            state.notice = .error(problem)
            return nil
        }
        return row
    }

    /// A digit: sends the outcome (no note: `o` writes one), shows it as being recorded, and
    /// moves on to the next person due. From the detail, the queue comes back on that person.
    static func record(_ state: inout State, _ outcome: CallOutcome) -> [Command] {
        guard let row = writable(&state) else { return [] }
        state.saving[row.id] = outcome
        state.detail = nil
        if let index = state.rows.firstIndex(where: { $0.id == row.id }) { state.selected = index }
        let phone = row.phone.spaced
        let recording = tr("console.queue.recordingFor", ["outcome": TracingWords.call(outcome), "phone": phone])
        if let next = nextDue(state, after: state.selected) {
            state.selected = next
            state.notice = .working(recording)
        } else {
            state.notice = .working(recording + " · \(allDoneText(state))")
        }
        return [.attempt(followUpID: row.id, outcome: outcome, note: "")]
    }

    static func attemptKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var form = state.attemptForm, !form.saving else { return [] }
        switch attemptKeyMap.action(for: key) {
        case .cancel:
            state.attemptForm = nil
            return []
        case .previous, .next:
            let all = CallOutcome.allCases
            let index = all.firstIndex(of: form.choice) ?? 0
            let step = attemptKeyMap.action(for: key) == .next ? 1 : all.count - 1
            form.choice = all[(index + step) % all.count]
        case .save:
            form.saving = true
            form.error = nil
            state.attemptForm = form
            state.saving[form.followUpID] = form.choice
            return [.attempt(followUpID: form.followUpID, outcome: form.choice, note: form.note.text)]
        case nil:
            if case .char(let c) = key, form.note.text.isEmpty, let digit = Int(String(c)), (1...5).contains(digit) {
                // A digit in the empty note picks the outcome, as the queue's digits would.
                form.choice = CallOutcome.allCases[digit - 1]
            } else {
                _ = form.note.handle(key)
            }
        }
        state.attemptForm = form
        return []
    }

    static func checkKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var form = state.checkForm, !form.saving else { return [] }
        let action = checkKeyMap.action(for: key)
        // The note takes every character as typed (y and n, Space too).
        if form.focus == .note, key.isCharacter || action == nil {
            _ = form.note.handle(key)
            state.checkForm = form
            return []
        }
        switch action {
        case .cancel:
            state.checkForm = nil
            return []
        case .yes, .no:
            let answer = action == .yes
            if form.focus == .symptoms { form.symptoms = answer } else { form.isolating = answer }
            form.focus = FormFocus.step(form.focus, by: 1, in: CheckForm.fields)
            form.error = nil
        case .toggle:
            if form.focus == .symptoms { form.symptoms = !(form.symptoms ?? false) }
            if form.focus == .isolating { form.isolating = !(form.isolating ?? false) }
        case .nextField: form.focus = FormFocus.step(form.focus, by: 1, in: CheckForm.fields)
        case .previousField: form.focus = FormFocus.step(form.focus, by: -1, in: CheckForm.fields)
        case .save:
            guard let symptoms = form.symptoms else {
                form.focus = .symptoms
                form.error = tr("console.queue.check.askSymptoms")
                break
            }
            guard let isolating = form.isolating else {
                form.focus = .isolating
                form.error = tr("console.queue.check.askIsolating")
                break
            }
            if form.focus != .note {
                form.focus = .note
                break
            }
            form.saving = true
            form.error = nil
            state.checkForm = form
            state.savingChecks.insert(form.followUpID)
            return [.check(followUpID: form.followUpID, symptoms: symptoms, isolating: isolating, note: form.note.text)]
        case nil:
            break
        }
        state.checkForm = form
        return []
    }

    static func pickerKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var picker = state.picker else { return [] }
        switch pickerKeyMap.action(for: key) {
        case .cancel:
            state.picker = nil
            return []
        case .up: picker.selected = max(0, picker.selected - 1)
        case .down: picker.selected = min(max(0, picker.shown.count - 1), picker.selected + 1)
        case .choose:
            let shown = picker.shown
            let typed = picker.field.text.split(separator: " ").joined(separator: " ")
            let option: Picker.Option? =
                shown.indices.contains(picker.selected)
                ? shown[picker.selected]
                : typed.isEmpty ? nil : Picker.Option(label: typed, scope: .tracer(typed), tracer: typed)
            guard let option else {
                state.picker = picker
                return []
            }
            state.picker = nil
            switch picker.purpose {
            case .scope:
                state.scope = option.scope ?? .everyone
                state.marks = []
                state.selected = 0
                return reload(&state)
            case .assign(let ids):
                guard let tracer = option.tracer else { return [] }
                state.notice = .working(
                    tr("console.queue.reassigning", ["count": String(ids.count), "tracer": tracer]))
                return [.assign(ids: ids, to: tracer)]
            case .openCase(let followUpID):
                guard let caseID = option.caseID else {
                    state.picker = picker
                    return []
                }
                return openCase(&state, caseID: caseID, origin: .person(followUpID))
            }
        case nil:
            _ = picker.field.handle(key)
            picker.selected = 0
        }
        state.picker = picker
        return []
    }
}

extension QueueScreen.Action {
    /// A detail key as a queue key, for the footer (the same words).
    init(_ action: QueueScreen.DetailAction) {
        switch action {
        case .close: self = .clearFilter
        case .up: self = .move(.up)
        case .down: self = .move(.down)
        case .outcome: self = .outcome
        case .check: self = .check
        case .copy: self = .copy
        case .reload: self = .reload
        case .quit: self = .quit
        case .showCase: self = .detail
        case .record(let outcome): self = .record(outcome)
        }
    }
}
