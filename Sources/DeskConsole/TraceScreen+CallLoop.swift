import DeskContract
import DeskCore
import DeskText
import TerminalKit

// The call loop: a digit records the selected contact's outcome at once (the same desk call,
// audited, as the outcome form), and the cursor goes on to the next contact that still needs
// a call.
extension TraceScreen {
    /// The position in ``State/order`` of the next contact that needs a call after `position`
    /// (no outcome, or "not yet called"; an outcome being saved counts as recorded): the rows
    /// below it first, then from the top again; the row itself last. Nil when every row shown
    /// has an outcome.
    static func nextToCall(_ state: State, after position: Int) -> Int? {
        let count = state.order.count
        guard count > 0, let contacts = state.lookup?.contacts else { return nil }
        let saving = state.savingOutcomes
        let order = state.order
        for step in 1...count {
            let candidate = (position + step) % count
            let index = order[candidate]
            // Read in place: no copy of the contact per row (50 000 rows stay one keystroke).
            let outcome =
                saving.isEmpty
                ? contacts[index].outcome?.outcome
                : saving[contacts[index].summary.userID] ?? contacts[index].outcome?.outcome
            if (outcome ?? .notYetCalled) == .notYetCalled { return candidate }
        }
        return nil
    }

    /// What the screen says when no row needs a call.
    static func allCalledText(_ state: State) -> String {
        tr(state.filter.text.isEmpty ? "console.trace.allCalled" : "console.trace.allCalledFiltered")
    }

    /// A digit on the table or in the detail: sends the outcome (keeping the contact's note),
    /// shows it as being saved, and moves on. From the detail, the table comes back, on the next
    /// contact to call (its detail is a new view of a person, so it opens only with Enter).
    static func record(_ state: inout State, _ outcome: ContactOutcome) -> [Command] {
        guard let lookup = state.lookup, let contact = state.detailContact ?? state.selectedContact,
            let index = state.indexByUserID[contact.summary.userID]
        else { return [] }
        let userID = contact.summary.userID
        let phone = contact.summary.phone.spaced
        if state.savingOutcomes[userID] != nil {
            state.notice = .info(tr("console.trace.stillSavingDigit", ["phone": phone]))
            return []
        }
        state.savingOutcomes[userID] = outcome
        state.detail = nil
        let position =
            state.order.indices.contains(state.selected) && state.order[state.selected] == index
            ? state.selected : (state.order.firstIndex(of: index) ?? state.selected)
        state.selected = position
        let saving = tr("console.trace.savingFor", ["outcome": TracingWords.outcome(outcome), "phone": phone])
        if let next = nextToCall(state, after: position) {
            state.selected = next
            state.notice = .working(saving)
        } else {
            state.notice = .working(saving + " · \(allCalledText(state))")
        }
        return [
            .recordOutcome(
                patientUserID: lookup.patient.userID, contactUserID: userID, outcome: outcome,
                note: contact.outcome?.note ?? "", purpose: state.lookupPurpose)
        ]
    }

    /// `q` quits only when nothing would be lost: not while an outcome is on its way.
    static func quitUnlessSaving(_ state: inout State) -> [Command] {
        guard state.savingOutcomes.isEmpty else {
            state.notice = .info(tr("console.trace.quitWhileSaving"))
            return []
        }
        return [.quit]
    }
}
