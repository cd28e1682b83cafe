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

// The contacts table: showing a lookup, the filter's words and the sort's order.
extension TraceScreen {
    /// Shows a lookup. The sort, the filter and the selected contact are kept while they make
    /// sense: for the same patient again (`r`, or `n` with their number) they stay; another
    /// patient starts from the default order (most minutes first), no filter, the first row.
    static func show(_ state: inout State, _ lookup: TraceLookup) {
        let samePatient = state.lookup?.patient.userID == lookup.patient.userID
        let selectedID = samePatient ? state.selectedContact?.summary.userID : nil
        state.phase = .result
        state.lookup = lookup
        state.search = lookup.contacts.map(searchText)
        if !samePatient {
            state.sort = .minutes
            state.filter = filterField()
            state.savingOutcomes = [:]
        }
        state.filtering = false
        state.detail = nil
        state.outcomeForm = nil
        state.export = nil
        state.selected = 0
        state.notice =
            lookup.patient.daysUploaded == 0
            ? .info(tr("console.trace.noUploadsNotice")) : nil
        reorder(&state, keepSelection: false)
        if let selectedID, let index = state.indexByUserID[selectedID], let position = state.order.firstIndex(of: index)
        {
            state.selected = position
        }
    }

    static func searchText(_ contact: TraceContact) -> [String] {
        let summary = contact.summary
        // The outcome's words in the language in force and in English (and `close` or `far`
        // in both), so a filter typed either way finds the same rows.
        let outcome = contact.currentOutcome
        let closeWord = tr(summary.isCloseContact ? "console.trace.filter.close" : "console.trace.filter.far")
        return [String(summary.phone.e164.dropFirst())]
            + words(TracingWords.outcome(outcome) + " " + outcome.label + " " + outcome.rawValue)
            + [summary.isCloseContact ? "close" : "far"] + words(closeWord)
    }

    /// Lowercased words: letters and digits, split at anything else (spaces, commas, `_`).
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// Whether one typed word matches a contact's words: a whole word, or the start of one
    /// when at least three letters are typed (`iso` finds "isolating"; `no` finds "no
    /// answer" but not "not yet called"). `!close` is `far`: the contacts that are not close.
    static func matches(_ typed: String, _ words: ArraySlice<String>) -> Bool {
        let word = typed == "!close" || typed == "!" + tr("console.trace.filter.close") ? "far" : typed
        return words.contains { $0 == word || (word.count >= 3 && $0.hasPrefix(word)) }
    }

    /// What `sort` orders by, most first: its own column, then the next one that tells
    /// contacts apart (minutes, or last seen for minutes); equal keys go by user id.
    static func sortKey(_ summary: ContactSummary, _ sort: Sort) -> (Double, Double) {
        let minutes = Double(summary.minutes)
        let lastSeen = (summary.lastSeen ?? .distantPast).timeIntervalSince1970
        switch sort {
        case .minutes: return (minutes, lastSeen)
        case .lastSeen: return (lastSeen, minutes)
        case .days: return (Double(summary.days), minutes)
        }
    }

    /// Filters and sorts the contacts into ``State/order``, keeping the selected contact
    /// selected when it is still shown.
    static func reorder(_ state: inout State, keepSelection: Bool = true) {
        guard let lookup = state.lookup else {
            state.order = []
            state.selected = 0
            return
        }
        let selectedID = keepSelection ? state.selectedContact?.summary.userID : nil
        let typed = state.filter.text.lowercased().trimmingCharacters(in: .whitespaces)
        var stripped = Substring(typed.filter { !" +-.()".contains($0) })
        // Digits (with the separators people type) search the phone numbers, a leading 00
        // read as the + it stands for (as PhoneNumber.normalize does); words search the
        // outcome, "close" and "far".
        if stripped.hasPrefix("00") { stripped = stripped.dropFirst(2) }
        let digits =
            !typed.isEmpty && stripped.allSatisfy({ ("0"..."9").contains($0) }) && typed.contains(where: \.isNumber)
            ? String(stripped) : nil
        let typedWords = typed.split(separator: " ").map(String.init)
        var order: [Int] = []
        order.reserveCapacity(lookup.contacts.count)
        for index in lookup.contacts.indices {
            let text = state.search[index]
            let matches: Bool
            if typed.isEmpty {
                matches = true
            } else if let digits {
                matches = text[0].contains(digits)
            } else {
                matches = typedWords.allSatisfy { Self.matches($0, text.dropFirst()) }
            }
            if matches { order.append(index) }
        }
        let contacts = lookup.contacts
        let keys = contacts.map { sortKey($0.summary, state.sort) }
        order.sort {
            keys[$0] != keys[$1] ? keys[$0] > keys[$1] : contacts[$0].summary.userID < contacts[$1].summary.userID
        }
        state.order = order
        if let selectedID, let position = order.firstIndex(where: { contacts[$0].summary.userID == selectedID }) {
            state.selected = position
        } else {
            state.selected = min(state.selected, max(0, order.count - 1))
            if !keepSelection { state.selected = 0 }
        }
    }

}
