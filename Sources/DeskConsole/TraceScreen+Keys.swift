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

// Keys outside the detail view and the forms: the number, the purpose, the table, the filter.
extension TraceScreen {

    static func handleKey(_ state: inout State, _ key: Key) -> [Command] {
        switch state.phase {
        case .phone: return phoneKey(&state, key)
        case .purpose: return purposeKey(&state, key)
        case .loading: return loadingKeyMap.action(for: key) == .quit ? quitUnlessSaving(&state) : []
        case .result:
            if state.export != nil { return exportKey(&state, key) }
            if state.outcomeForm != nil { return outcomeKey(&state, key) }
            if state.filtering { return filterKey(&state, key) }
            if state.detail != nil { return detailKey(&state, key) }
            guard let action = keyMap.action(for: key) else { return [] }
            return perform(&state, action)
        }
    }

    static func phoneKey(_ state: inout State, _ key: Key) -> [Command] {
        switch inputKeyMap(state).action(for: key) {
        case .submit:
            switch state.normalizedPhone {
            case .failure(let error):
                state.phoneError = phoneMessage(error, typed: state.phone.text, countryCode: state.defaultCountryCode)
            case .success:
                state.phoneError = nil
                state.phase = .purpose
            }
            return []
        case .back:
            if let lookup = state.lookup {
                // Back to the shown lookup, with its own number and purpose in the fields (so
                // `r` and the next `n` start from what is on the screen).
                state.phase = .result
                state.phone = phoneField(lookup.patient.phone.spaced)
                state.purpose = purposeField(state.lookupPurpose)
                state.phoneError = nil
                state.purposeError = nil
            } else {
                state.phone = phoneField()
                state.phoneError = nil
            }
            return []
        case .nextField, nil:
            if state.phone.handle(key) == .changed { state.phoneError = nil }
            return []
        }
    }

    /// The refusal of a typed number; when the country code was added to a number typed
    /// without one, the number as understood comes first ("17 digits" for 15 typed would hide
    /// the +39 added). The tracer typed it: it may show on their screen, never in a log.
    static func phoneMessage(_ error: PhoneNumberError, typed: String, countryCode: String) -> String {
        let digits = typed.filter { !" \t-.()/\u{00A0}".contains($0) }
        let added = !digits.hasPrefix("+") && !digits.hasPrefix("00")
        switch error {
        case .tooLong, .tooShort:
            guard added else { return error.message }
            return tr("console.trace.readAs", ["code": countryCode, "digits": digits]) + ": "
                + error.message
        default:
            return error.message
        }
    }

    static func purposeKey(_ state: inout State, _ key: Key) -> [Command] {
        switch inputKeyMap(state).action(for: key) {
        case .submit:
            if state.indexFocused, state.indexDay.isTyping, case .refused(let reason) = state.indexDay.commit() {
                state.purposeError = tr("console.trace.indexDayProblem", ["reason": reason])
                return []
            }
            switch CaseReference.checked(state.purpose.text) {
            case .failure:
                state.purposeError = TracingWords.referenceProblem(state.purpose.text)
                state.indexFocused = false
                return []
            case .success(let reference):
                state.purposeError = nil
                state.phase = .loading
                state.lookupStarted = state.now
                state.refreshing = false
                state.pendingPurpose = reference
                return [
                    .openCase(
                        phone: state.phone.text, reference: reference, indexDay: state.indexDay.value,
                        kind: state.indexDay.value == nil ? .testDay : state.indexKind)
                ]
            }
        case .back:
            state.phase = .phone
            state.purposeError = nil
            state.indexFocused = false
            return []
        case .nextField:
            state.indexFocused.toggle()
            return []
        case nil where state.indexFocused:
            if key == .char(" ") {
                state.indexKind = state.indexKind == .symptomOnset ? .testDay : .symptomOnset
                return []
            }
            if !state.indexDay.isTyping, [.backspace, .delete].contains(key) {
                state.indexDay.value = nil
                return []
            }
            if ConsoleApp.auditDayKeyMap.action(for: key) != nil || key.isCharacter || state.indexDay.isTyping {
                if case .refused(let reason) = state.indexDay.handle(key) {
                    state.purposeError = tr("console.trace.indexDayProblem", ["reason": reason])
                } else {
                    state.purposeError = nil
                }
            }
            return []
        case nil:
            let edit = state.purpose.handle(key)
            if edit == .changed { state.purposeError = nil }
            if let cut = FieldLimit.cut(state.purpose, by: key, edit) { state.purposeError = cut }
            return []
        }
    }

    static func perform(_ state: inout State, _ action: Action) -> [Command] {
        state.notice = nil
        switch action {
        case .move(let step):
            state.selected = TableCursor.position(state.selected, after: step, count: state.order.count)
        case .cycleSort:
            let all = Sort.allCases
            state.sort = all[(all.firstIndex(of: state.sort)! + 1) % all.count]
            reorder(&state)
        case .sort(let sort):
            state.sort = sort
            reorder(&state)
        case .filter:
            state.filtering = true
        case .clear:
            if !state.filter.text.isEmpty {
                state.filter = filterField()
                reorder(&state)
            }
        case .detail:
            return openDetail(&state)
        case .outcome:
            openOutcome(&state)
        case .record(let outcome):
            return record(&state, outcome)
        case .export:
            openExport(&state)
        case .copy:
            return copyPhone(&state)
        case .showCase:
            guard let opening = state.openedCase else {
                state.notice = .info(tr("console.trace.noCase"))
                return []
            }
            return [.showCase(caseID: opening.trace.id)]
        case .newLookup:
            state.phase = .phone
            state.phone = phoneField()
            state.purpose = purposeField()
            state.phoneError = nil
            state.purposeError = nil
        case .again:
            // The shown lookup again: its patient's number and purpose, whatever the fields hold.
            guard let lookup = state.lookup else { return [] }
            state.phase = .loading
            state.lookupStarted = state.now
            state.refreshing = true
            state.pendingPurpose = state.lookupPurpose
            return [.lookup(phone: lookup.patient.phone.e164, purpose: state.lookupPurpose)]
        case .quit:
            return quitUnlessSaving(&state)
        }
        return []
    }

    static func filterKey(_ state: inout State, _ key: Key) -> [Command] {
        if let action = MonitorScreen.filterKeyMap.action(for: key) {
            switch action {
            case .keep: state.filtering = false
            case .clear:
                state.filter = filterField()
                state.filtering = false
                reorder(&state)
            case .up: move(&state, by: -1)
            case .down: move(&state, by: 1)
            case .pageUp: move(&state, by: -page)
            case .pageDown: move(&state, by: page)
            }
            return []
        }
        if state.filter.handle(key) == .changed { reorder(&state) }
        return []
    }

    static func move(_ state: inout State, by offset: Int) {
        state.selected = TableCursor.position(state.selected, by: offset, count: state.order.count)
    }

}
