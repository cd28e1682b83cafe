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

// One contact's detail view (paged sightings) and its call-outcome form.
extension TraceScreen {

    static func openDetail(_ state: inout State) -> [Command] {
        guard let contact = state.selectedContact else { return [] }
        state.detail = Detail(contactUserID: contact.summary.userID)
        return askSightings(&state)
    }

    /// The next page of sightings, when the list is scrolled near the end of what is read.
    static func askSightings(_ state: inout State) -> [Command] {
        guard var detail = state.detail, !detail.loading, let offset = detail.nextOffset,
            detail.scroll + sightingsPage / 5 >= detail.sightings.count, let lookup = state.lookup
        else { return [] }
        detail.loading = true
        state.detail = detail
        return [
            .sightings(
                patientUserID: lookup.patient.userID, contactUserID: detail.contactUserID,
                purpose: state.lookupPurpose, offset: offset, limit: sightingsPage)
        ]
    }

    static func detailKey(_ state: inout State, _ key: Key) -> [Command] {
        guard let action = detailKeyMap.action(for: key) else { return [] }
        state.notice = nil
        switch action {
        case .close: state.detail = nil
        case .up: return scrollDetail(&state, by: -1)
        case .down: return scrollDetail(&state, by: 1)
        case .pageUp: return scrollDetail(&state, by: -page)
        case .pageDown: return scrollDetail(&state, by: page)
        case .top: return scrollDetail(&state, by: Int.min / 2)
        case .bottom: return scrollDetail(&state, by: Int.max / 2)
        case .outcome: openOutcome(&state)
        case .record(let outcome): return record(&state, outcome)
        case .timeline: state.detail?.wholeTimeline.toggle()
        case .retry:
            state.detail?.error = nil
            return askSightings(&state)
        case .quit: return quitUnlessSaving(&state)
        }
        return []
    }

    static func scrollDetail(_ state: inout State, by rows: Int) -> [Command] {
        guard var detail = state.detail else { return [] }
        if detail.wholeTimeline {
            let days = state.detailContact?.summary.timeline.count ?? 0
            detail.firstDay = max(0, min(detail.firstDay + rows, max(0, days - 1)))
            state.detail = detail
            return []
        }
        detail.scroll = max(0, min(detail.scroll + rows, max(0, detail.sightings.count - 1)))
        state.detail = detail
        return askSightings(&state)
    }

    static func openOutcome(_ state: inout State) {
        guard let contact = state.detailContact ?? state.selectedContact else { return }
        if state.savingOutcomes[contact.summary.userID] != nil {
            state.notice = .info(tr("console.trace.stillSavingNote", ["phone": contact.summary.phone.spaced]))
            return
        }
        state.outcomeForm = OutcomeForm(contactUserID: contact.summary.userID, current: contact.outcome)
    }

    static func outcomeKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var form = state.outcomeForm, !form.saving else { return [] }
        defer { state.outcomeForm = state.outcomeForm == nil ? nil : form }
        switch outcomeKeyMap.action(for: key) {
        case .cancel:
            state.outcomeForm = nil
            return []
        case .previous:
            let all = ContactOutcome.allCases
            form.choice = all[max(0, all.firstIndex(of: form.choice)! - 1)]
        case .next:
            let all = ContactOutcome.allCases
            form.choice = all[min(all.count - 1, all.firstIndex(of: form.choice)! + 1)]
        case .save:
            guard let lookup = state.lookup else { return [] }
            if form.note.text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                form.error = tr("console.trace.noteControl")
                return []
            }
            form.saving = true
            form.error = nil
            return [
                .recordOutcome(
                    patientUserID: lookup.patient.userID, contactUserID: form.contactUserID, outcome: form.choice,
                    note: form.note.text, purpose: state.lookupPurpose)
            ]
        case nil:
            if form.note.handle(key) == .changed { form.error = nil }
        }
        return []
    }

}
