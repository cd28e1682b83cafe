import DeskContract
import DeskCore
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
                help: "Record “\(outcome.label)”, go to the next person due", shownInFooter: false,
                footer: outcome.label)
        }
    }

    /// The digit legend: "1 no answer  2 voicemail  3 wrong number  4 reached  5 refused".
    public static var outcomeLegend: String {
        CallOutcome.allCases.map { "\($0.digit) \($0.label)" }.joined(separator: "  ")
    }

    /// The tracer's queue. The footer's come first, most useful first.
    public static let keyMap = KeyMap<Action>(
        [
            Binding(
                [.enter], .detail, help: "Open the person: attempts, checks, evidence", footer: "Open", name: "detail"),
            Binding(
                [.char("c")], .check, help: "Record today's check (symptoms, isolating)", footer: "Check", name: "check"
            ),
            Binding(
                [.char("/")], .filter, help: "Filter (case reference, number digits)", footer: "Filter", name: "filter"),
            Binding(
                [.char("o")], .outcome, help: "Record the call's outcome with a note (a form)", footer: "Note",
                name: "outcome"),
            Binding(
                [.char("y")], .copy, help: "Copy the person's phone number (audited)", footer: "Copy", name: "copy"),
        ] + outcomeBindings(Action.record) + [
            Binding(
                [.char("l")], .later, help: "Show later days too / only today", shownInFooter: false, name: "later"),
            Binding(
                [.char("r"), .function(5)], .reload, help: "Read the queue again", shownInFooter: false, name: "reload"),
            Binding([.escape], .clearFilter, help: "Clear the filter", shownInFooter: false, name: "back"),
            Binding([.up, .char("k")], .move(.up), help: "Previous person", shownInFooter: false),
            Binding(
                [.down, .char("j")], .move(.down), help: "Next person (reads the next page at the end)",
                shownInFooter: false),
            Binding([.pageUp], .move(.pageUp), help: "Page up", shownInFooter: false),
            Binding([.pageDown], .move(.pageDown), help: "Page down", shownInFooter: false),
            Binding([.home, .char("g")], .move(.top), help: "First person", shownInFooter: false),
            Binding([.end, .char("G")], .move(.bottom), help: "Last person read", shownInFooter: false),
            Binding(
                [.char("q")], .quit, help: "Quit (not while a call is being recorded)", shownInFooter: false,
                name: "quit"),
        ])

    /// The supervisor's queue: reads, marks and reassigns; records nothing.
    public static let supervisorKeyMap = KeyMap<Action>([
        Binding([.enter], .detail, help: "Open the person: attempts, checks, evidence", footer: "Open", name: "detail"),
        Binding(
            [.char("t")], .scope, help: "Whose queue: a tracer, nobody's yet, everyone's", footer: "Whose",
            name: "whose"),
        Binding(
            [.char(" ")], .mark, help: "Mark / unmark the person (then a reassigns the marked)", footer: "Mark",
            name: "mark"),
        Binding(
            [.char("a")], .assign, help: "Reassign the marked (or the selected) to a tracer", footer: "Reassign",
            name: "assign"),
        Binding(
            [.char("/")], .filter, help: "Filter (case reference, number digits)", footer: "Filter", name: "filter"),
        Binding([.char("x")], .unmarkAll, help: "Clear every mark", shownInFooter: false, name: "unmark-all"),
        Binding(
            [.char("y")], .copy, help: "Copy the person's phone number (audited)", shownInFooter: false, name: "copy"),
        Binding([.char("l")], .later, help: "Show later days too / only today", shownInFooter: false, name: "later"),
        Binding(
            [.char("r"), .function(5)], .reload, help: "Read the queue again", shownInFooter: false, name: "reload"),
        Binding([.escape], .clearFilter, help: "Clear the filter", shownInFooter: false, name: "back"),
        Binding([.up, .char("k")], .move(.up), help: "Previous person", shownInFooter: false),
        Binding(
            [.down, .char("j")], .move(.down), help: "Next person (reads the next page at the end)",
            shownInFooter: false),
        Binding([.pageUp], .move(.pageUp), help: "Page up", shownInFooter: false),
        Binding([.pageDown], .move(.pageDown), help: "Page down", shownInFooter: false),
        Binding([.home, .char("g")], .move(.top), help: "First person", shownInFooter: false),
        Binding([.end, .char("G")], .move(.bottom), help: "Last person read", shownInFooter: false),
        Binding([.char("q")], .quit, help: "Quit", shownInFooter: false, name: "quit"),
    ])

    /// A person's detail (the tracer's; the supervisor's has no digits, `o` or `c`).
    public static let detailKeyMap = KeyMap<DetailAction>(
        [
            Binding([.escape, .enter], .close, help: "Back to the queue", footer: "Back", name: "back"),
            Binding(
                [.char("c")], .check, help: "Record today's check (symptoms, isolating)", footer: "Check", name: "check"
            ),
            Binding(
                [.char("v")], .showCase, help: "The person's case: contacts, history, chain (a list if several)",
                footer: "Case", name: "case"),
            Binding(
                [.char("o")], .outcome, help: "Record the call's outcome with a note (a form)", footer: "Note",
                name: "outcome"),
            Binding(
                [.char("y")], .copy, help: "Copy the person's phone number (audited)", footer: "Copy", name: "copy"),
        ] + outcomeBindings(DetailAction.record) + [
            Binding([.up, .char("k")], .up, help: "Scroll up", shownInFooter: false),
            Binding([.down, .char("j")], .down, help: "Scroll down", shownInFooter: false),
            Binding([.char("r")], .reload, help: "Read the person again", shownInFooter: false, name: "reload"),
            Binding(
                [.char("q")], .quit, help: "Quit (not while a call is being recorded)", shownInFooter: false,
                name: "quit"),
        ])

    public static let supervisorDetailKeyMap = KeyMap<DetailAction>(
        detailKeyMap.bindings.filter { binding in
            switch binding.action {
            case .check, .outcome, .record: return false
            default: return true
            }
        })

    /// The outcome form (typed characters go to the note).
    public static let attemptKeyMap = KeyMap<FormAction>([
        Binding([.enter], .save, help: "Record", group: "outcome", name: "save"),
        Binding([.escape], .cancel, help: "Cancel", group: "outcome", name: "back"),
        Binding([.up], .previous, help: "Previous outcome", group: "outcome"),
        Binding([.down], .next, help: "Next outcome", group: "outcome"),
    ])

    /// The daily check's form: `y`/`n` answer the question in focus (the note takes them as
    /// letters).
    public static let checkKeyMap = KeyMap<CheckAction>([
        Binding(
            [.enter], .save, help: "Next question, then record", group: "check", footer: "Next / record", name: "save"),
        Binding([.escape], .cancel, help: "Cancel", group: "check", name: "back"),
        Binding([.char("y")], .yes, help: "Yes (symptoms, isolating)", group: "check", footer: "Yes"),
        Binding([.char("n")], .no, help: "No (symptoms, isolating)", group: "check", footer: "No"),
        Binding([.char(" "), .left, .right], .toggle, help: "Change the answer", group: "check", shownInFooter: false),
        Binding(
            [.tab, .down], .nextField, help: "Next question", group: "check", shownInFooter: false, name: "next-field"),
        Binding(
            [.backTab, .up], .previousField, help: "Previous question", group: "check", shownInFooter: false,
            name: "previous-field"),
    ])

    /// The pickers (whose queue, the tracer to assign to); typed letters narrow the list.
    public static let pickerKeyMap = KeyMap<PickerAction>([
        Binding([.enter], .choose, help: "Choose (or the name typed)", group: "pick", footer: "Choose", name: "choose"),
        Binding([.escape], .cancel, help: "Cancel", group: "pick", name: "back"),
        Binding([.up], .up, help: "Previous", group: "pick", shownInFooter: false),
        Binding([.down], .down, help: "Next", group: "pick", shownInFooter: false),
    ])

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
        if !state.supervisor { hints.insert((keys: "1-5", help: "Outcome"), at: min(1, hints.count)) }
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
                state.notice = .info("nobody to open: the queue is empty")
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
            if let problem = FollowUpSchedule.checkProblem(row) {
                state.notice = .error(problem)
                return []
            }
            state.checkForm = CheckForm(followUpID: row.id)
            return []
        case .copy:
            guard let row = state.current else {
                state.notice = CopyResult.nothing("nobody selected: nothing copied").notice
                return []
            }
            state.notice = .working("recording the copy in the audit log…")
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
                state.includeLater ? "showing later days too (l: only today)" : "showing today only (l: later days too)"
            )
            return reload(&state)
        case .reload:
            state.notice = nil
            return reload(&state)
        case .quit:
            guard state.saving.isEmpty, state.savingChecks.isEmpty else {
                state.notice = .info(
                    "a call is still being recorded: q quits once it is (Ctrl-C quits now, and it may be lost)")
                return []
            }
            return [.quit]
        case .scope:
            var options = [
                Picker.Option(label: "everyone's", scope: .everyone),
                Picker.Option(label: "nobody's yet (unassigned)", scope: .unassigned),
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
                state.notice = .info("nobody to reassign: the queue is empty")
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
            state.notice = .info("nobody selected: the queue is empty")
            return nil
        }
        if state.saving[row.id] != nil || state.savingChecks.contains(row.id) {
            state.notice = .info("the last call for \(row.phone.spaced) is still being recorded: wait for it")
            return nil
        }
        if let problem = FollowUpSchedule.attemptProblem(row) {
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
        if let next = nextDue(state, after: state.selected) {
            state.selected = next
            state.notice = .working("recording “\(outcome.label)” for \(phone)")
        } else {
            state.notice = .working("recording “\(outcome.label)” for \(phone) · \(allDoneText(state))")
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
                form.error = "any symptoms today? press y or n"
                break
            }
            guard let isolating = form.isolating else {
                form.focus = .isolating
                form.error = "isolating? press y or n"
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
                state.notice = .working("reassigning \(ids.count) to \(tracer)…")
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
