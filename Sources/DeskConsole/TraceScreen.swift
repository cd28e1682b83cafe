import CivilCalendar
import DeskContract
import DeskCore
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The contact tracer's screen (APRICOT): a patient's phone number and the purpose of the
/// lookup, then the patient's summary and one row per contact person, sortable and filtered as
/// you type, with a detail view (a per-day timeline of minutes by hour, the raw sightings,
/// paged as you scroll) where the call's outcome is recorded, and a CSV export of the table.
///
/// Close contacts are marked by a symbol (`●`, `*` in ASCII) and bold text, never by colour
/// alone; the legend is on the table's title line. The table draws only the rows in view: the
/// order (filtered, sorted) is computed once per change of sort or filter, never per frame,
/// so a lookup of 50 000 contacts stays responsive.
///
/// Pure: ``update(_:_:)`` returns commands; the program runs them through the ``DeskService``
/// (and writes the export's file). Privacy: the state holds phone numbers; never log it.
public enum TraceScreen {
    public enum Phase: Hashable, Sendable {
        /// Typing the patient's phone number.
        case phone
        /// Typing the purpose / case reference.
        case purpose
        /// The lookup is running.
        case loading
        /// The summary and the contacts table.
        case result
    }

    /// The table's order; each sorts the most first.
    public enum Sort: Hashable, Sendable, CaseIterable {
        case minutes, lastSeen, days

        public var word: String {
            switch self {
            case .minutes: return "minutes"
            case .lastSeen: return "last seen"
            case .days: return "days"
            }
        }
    }

    /// One contact's detail view: its timeline (from the lookup) and its raw sightings, read a
    /// page at a time as the list is scrolled.
    public struct Detail: Hashable, Sendable {
        public var contactUserID: Int64
        public var sightings: [Sighting] = []
        /// All of this contact's sightings, once the first page told.
        public var total: Int?
        /// Where the next page starts; nil once everything is read.
        public var nextOffset: Int? = 0
        public var loading = false
        public var error: String?
        /// The first sighting shown.
        public var scroll = 0
        /// The whole timeline fills the pane (the sightings are hidden meanwhile); ↑ ↓ then
        /// scroll its days from ``firstDay``.
        public var wholeTimeline = false
        public var firstDay = 0

        public init(contactUserID: Int64) { self.contactUserID = contactUserID }
    }

    /// Recording a call's outcome for one contact.
    public struct OutcomeForm: Hashable, Sendable {
        public var contactUserID: Int64
        public var choice: ContactOutcome
        public var note: TextFieldState
        public var saving = false
        public var error: String?

        public init(contactUserID: Int64, current: RecordedOutcome?) {
            self.contactUserID = contactUserID
            choice = current?.outcome ?? .notYetCalled
            note = TextFieldState(current?.note ?? "", maxLength: RecordedOutcome.maximumNoteLength)
        }
    }

    /// Exporting the table to a CSV file.
    public struct ExportPrompt: Hashable, Sendable {
        public var path: TextFieldState
        /// Asked when the file exists.
        public var confirm: DialogState?
        public var writing = false
        public var error: String?

        public init(path: String) { self.path = TextFieldState(path, maxLength: 1_024) }
    }

    public struct State: Hashable, Sendable {
        public var phase: Phase = .phone
        public var phone = TraceScreen.phoneField()
        public var purpose = TraceScreen.purposeField()
        /// What is wrong with the phone number (as typed, or as the desk answered).
        public var phoneError: String?
        public var purposeError: String?
        /// Typed numbers without a country code get this one (the desk's own default decides).
        public var defaultCountryCode = ApricotSettings().defaultCountryCode
        public var lookup: TraceLookup? {
            didSet { indexByUserID = Self.indices(lookup) }
        }
        /// Each contact's index in `lookup.contacts` by user id, kept with the lookup: the detail
        /// and the outcome form find their contact without a scan per frame.
        private(set) var indexByUserID: [Int64: Int] = [:]
        /// The purpose the shown lookup was made for (sent again with sightings, outcomes, exports).
        public var lookupPurpose = ""
        /// The purpose of the lookup on its way; it becomes ``lookupPurpose`` when the answer comes.
        var pendingPurpose = ""
        public var sort: Sort = .minutes
        /// Indices into `lookup.contacts`: the filter applied, in the sort's order.
        public var order: [Int] = []
        /// Per contact (made once per lookup): its number's digits (E.164 without the `+`), then
        /// the lowercased words the filter matches (the outcome's, and `close` or `far`).
        var search: [[String]] = []
        public var filter = TraceScreen.filterField()
        public var filtering = false
        /// The selected position in ``order``.
        public var selected = 0
        public var detail: Detail?
        public var outcomeForm: OutcomeForm?
        public var export: ExportPrompt?
        public var notice: Notice?
        /// Symbols and bars in ASCII (a terminal without UTF-8).
        public var ascii = false
        public var now: Date
        public var timeZone: TimeZone

        public init(now: Date, timeZone: TimeZone = .current, ascii: Bool = false) {
            self.now = now
            self.timeZone = timeZone
            self.ascii = ascii
        }

        /// Keys go into a text field: `?` and `q` are characters then.
        public var isTyping: Bool {
            switch phase {
            case .phone, .purpose: return true
            case .loading: return false
            case .result: return filtering || outcomeForm != nil || (export != nil && export?.confirm == nil)
            }
        }

        /// A form or dialog is open over the table.
        public var isModal: Bool { outcomeForm != nil || export != nil || filtering }

        /// The contact at a position of the order.
        public func contact(at position: Int) -> TraceContact? {
            guard let lookup, order.indices.contains(position) else { return nil }
            return lookup.contacts[order[position]]
        }

        public var selectedContact: TraceContact? { contact(at: selected) }

        /// The contact the detail view shows.
        public var detailContact: TraceContact? { contact(userID: detail?.contactUserID) }

        /// A contact of the shown lookup by user id.
        public func contact(userID: Int64?) -> TraceContact? {
            guard let userID, let lookup, let index = indexByUserID[userID] else { return nil }
            return lookup.contacts[index]
        }

        static func indices(_ lookup: TraceLookup?) -> [Int64: Int] {
            guard let lookup else { return [:] }
            var map: [Int64: Int] = [:]
            map.reserveCapacity(lookup.contacts.count)
            for (index, contact) in lookup.contacts.enumerated() where map[contact.summary.userID] == nil {
                map[contact.summary.userID] = index
            }
            return map
        }

        /// The phone as typed, normalised, or why it is not a number.
        public var normalizedPhone: Result<PhoneNumber, PhoneNumberError> {
            do throws(PhoneNumberError) {
                return .success(try PhoneNumber.normalize(phone.text, defaultCountryCode: defaultCountryCode))
            } catch {
                return .failure(error)
            }
        }
    }

    public enum Msg: Hashable, Sendable {
        case keyPressed(Key)
        case rowClicked(Int)
        case scrolled(Int)
        case ticked(Date)
        case lookupLoaded(TraceLookup)
        case lookupFailed(String)
        /// The answers for one contact carry the patient they were asked for: an answer that
        /// arrives after another patient was looked up is dropped.
        case sightingsLoaded(TraceSightingsPage, patient: Int64, contact: Int64, offset: Int)
        case sightingsFailed(String, patient: Int64, contact: Int64)
        case outcomeSaved(RecordedOutcome, patient: Int64, contact: Int64)
        case outcomeFailed(String, patient: Int64, contact: Int64)
        /// The export's file exists: ask before overwriting.
        case exportExists(String)
        case exported(path: String, rows: Int)
        case exportFailed(String)
    }

    public enum Command: Hashable, Sendable {
        /// The phone as typed (the desk normalises it) and the checked purpose.
        case lookup(phone: String, purpose: String)
        case sightings(patientUserID: Int64, contactUserID: Int64, purpose: String, offset: Int, limit: Int)
        case recordOutcome(
            patientUserID: Int64, contactUserID: Int64, outcome: ContactOutcome, note: String, purpose: String)
        /// Records the export with the desk (audited), then writes `csv` to `path` whole or not
        /// at all; an existing file only with `overwrite`.
        case export(path: String, csv: String, patientUserID: Int64, purpose: String, rows: Int, overwrite: Bool)
        case quit
    }

    /// The patient's number as typed (room for spaces, a `+` or `00`).
    static func phoneField(_ text: String = "") -> TextFieldState { TextFieldState(text, maxLength: 32) }
    /// The lookup's purpose or case reference.
    static func purposeField(_ text: String = "") -> TextFieldState {
        TextFieldState(text, maxLength: TracePurpose.maximumLength)
    }
    /// The table's filter.
    static func filterField() -> TextFieldState { TextFieldState(maxLength: 40) }

    /// Sightings asked for per page of the detail view.
    public static let sightingsPage = 500
    static let page = 10

    public static func update(_ state: inout State, _ msg: Msg) -> [Command] {
        switch msg {
        case .keyPressed(let key):
            return handleKey(&state, key)
        case .rowClicked(let position):
            if state.phase == .result, state.detail == nil, !state.isModal, state.order.indices.contains(position) {
                state.selected = position
            }
            return []
        case .scrolled(let rows):
            guard state.phase == .result, !state.isModal || state.filtering else { return [] }
            if state.detail != nil { return scrollDetail(&state, by: rows) }
            move(&state, by: rows)
            return []
        case .ticked(let now):
            state.now = now
            return []
        case .lookupLoaded(let lookup):
            guard state.phase == .loading else { return [] }
            state.lookupPurpose = state.pendingPurpose
            show(&state, lookup)
            return []
        case .lookupFailed(let message):
            guard state.phase == .loading else { return [] }
            state.phase = .phone
            state.phoneError = message
            return []
        case .sightingsLoaded(let page, let patient, let contact, let offset):
            guard state.lookup?.patient.userID == patient, var detail = state.detail, detail.contactUserID == contact,
                detail.loading,
                offset == detail.sightings.count
            else { return [] }
            detail.loading = false
            detail.error = nil
            detail.sightings += page.sightings
            detail.total = page.total
            detail.nextOffset = page.sightings.isEmpty ? nil : page.nextOffset
            state.detail = detail
            return []
        case .sightingsFailed(let message, let patient, let contact):
            guard state.lookup?.patient.userID == patient, state.detail?.contactUserID == contact else { return [] }
            state.detail?.loading = false
            state.detail?.error = message
            return []
        case .outcomeSaved(let outcome, let patient, let contact):
            guard state.lookup?.patient.userID == patient else { return [] }
            if state.outcomeForm?.contactUserID == contact { state.outcomeForm = nil }
            guard var lookup = state.lookup, let index = state.indexByUserID[contact] else { return [] }
            lookup.contacts[index].outcome = outcome
            state.lookup = lookup
            state.search[index] = searchText(lookup.contacts[index])
            state.notice = .ok("outcome recorded: \(outcome.outcome.label)")
            reorder(&state)
            return []
        case .outcomeFailed(let message, let patient, let contact):
            guard state.lookup?.patient.userID == patient, state.outcomeForm?.contactUserID == contact else {
                return []
            }
            state.outcomeForm?.saving = false
            state.outcomeForm?.error = message
            return []
        case .exportExists(let path):
            guard state.export != nil else { return [] }
            state.export?.writing = false
            state.export?.confirm = .confirm(
                title: "Overwrite?", message: "\(path) exists. Replace it with this export?", confirm: "Overwrite",
                cancel: "Keep it")
            return []
        case .exported(let path, let rows):
            state.export = nil
            state.notice = .ok("exported \(rows) contact\(rows == 1 ? "" : "s") to \(path) (the export is audited)")
            return []
        case .exportFailed(let message):
            guard state.export != nil else { return [] }
            state.export?.writing = false
            state.export?.error = message
            return []
        }
    }

    /// Shows a lookup: the table in the default order, the first row selected.
    static func show(_ state: inout State, _ lookup: TraceLookup) {
        state.phase = .result
        state.lookup = lookup
        state.search = lookup.contacts.map(searchText)
        state.filter = filterField()
        state.filtering = false
        state.detail = nil
        state.outcomeForm = nil
        state.export = nil
        state.selected = 0
        state.notice =
            lookup.patient.daysUploaded == 0
            ? .info(
                "This patient has uploaded no contact files yet: ask them to share their contacts in the app, then press r to look again."
            ) : nil
        reorder(&state, keepSelection: false)
    }

    static func searchText(_ contact: TraceContact) -> [String] {
        let summary = contact.summary
        return [String(summary.phone.e164.dropFirst())]
            + words(contact.currentOutcome.label + " " + contact.currentOutcome.rawValue)
            + [summary.isCloseContact ? "close" : "far"]
    }

    /// Lowercased words: letters and digits, split at anything else (spaces, commas, `_`).
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// Whether one typed word matches a contact's words: a whole word, or the start of one
    /// when at least three letters are typed (`iso` finds "isolating"; `no` finds "no
    /// answer" but not "not yet called"). `!close` is `far`: the contacts that are not close.
    static func matches(_ typed: String, _ words: ArraySlice<String>) -> Bool {
        let word = typed == "!close" ? "far" : typed
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

    // MARK: Keys

    private static func handleKey(_ state: inout State, _ key: Key) -> [Command] {
        switch state.phase {
        case .phone: return phoneKey(&state, key)
        case .purpose: return purposeKey(&state, key)
        case .loading: return loadingKeyMap.action(for: key) == .quit ? [.quit] : []
        case .result:
            if state.export != nil { return exportKey(&state, key) }
            if state.outcomeForm != nil { return outcomeKey(&state, key) }
            if state.filtering { return filterKey(&state, key) }
            if state.detail != nil { return detailKey(&state, key) }
            guard let action = keyMap.action(for: key) else { return [] }
            return perform(&state, action)
        }
    }

    private static func phoneKey(_ state: inout State, _ key: Key) -> [Command] {
        switch inputKeyMap(state).action(for: key) {
        case .submit:
            switch state.normalizedPhone {
            case .failure(let error):
                state.phoneError = error.message
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
        case nil:
            if state.phone.handle(key) == .changed { state.phoneError = nil }
            return []
        }
    }

    private static func purposeKey(_ state: inout State, _ key: Key) -> [Command] {
        switch inputKeyMap(state).action(for: key) {
        case .submit:
            switch TracePurpose.check(state.purpose.text) {
            case .failure(let error):
                state.purposeError = error.message
                return []
            case .success(let purpose):
                state.purposeError = nil
                state.phase = .loading
                state.pendingPurpose = purpose
                return [.lookup(phone: state.phone.text, purpose: purpose)]
            }
        case .back:
            state.phase = .phone
            state.purposeError = nil
            return []
        case nil:
            if state.purpose.handle(key) == .changed { state.purposeError = nil }
            return []
        }
    }

    private static func perform(_ state: inout State, _ action: Action) -> [Command] {
        state.notice = nil
        switch action {
        case .up: move(&state, by: -1)
        case .down: move(&state, by: 1)
        case .pageUp: move(&state, by: -page)
        case .pageDown: move(&state, by: page)
        case .top: state.selected = 0
        case .bottom: state.selected = max(0, state.order.count - 1)
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
        case .export:
            openExport(&state)
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
            state.pendingPurpose = state.lookupPurpose
            return [.lookup(phone: lookup.patient.phone.e164, purpose: state.lookupPurpose)]
        case .quit:
            return [.quit]
        }
        return []
    }

    private static func filterKey(_ state: inout State, _ key: Key) -> [Command] {
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

    private static func move(_ state: inout State, by offset: Int) {
        guard !state.order.isEmpty else { return }
        state.selected = min(max(0, state.selected + offset), state.order.count - 1)
    }

    // MARK: Detail

    private static func openDetail(_ state: inout State) -> [Command] {
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

    private static func detailKey(_ state: inout State, _ key: Key) -> [Command] {
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
        case .timeline: state.detail?.wholeTimeline.toggle()
        case .retry:
            state.detail?.error = nil
            return askSightings(&state)
        case .quit: return [.quit]
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

    // MARK: Outcome

    private static func openOutcome(_ state: inout State) {
        guard let contact = state.detailContact ?? state.selectedContact else { return }
        state.outcomeForm = OutcomeForm(contactUserID: contact.summary.userID, current: contact.outcome)
    }

    private static func outcomeKey(_ state: inout State, _ key: Key) -> [Command] {
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
                form.error = "the note may not contain control characters: type it on one line"
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

    // MARK: Export

    /// `./trace-<patient user id>-<day>.csv`, the day in the tracer's zone.
    public static func defaultExportPath(_ state: State) -> String {
        let day = ConsoleText.day(of: state.now, in: state.timeZone)
        return "./trace-\(state.lookup?.patient.userID ?? 0)-\(day.iso).csv"
    }

    private static func openExport(_ state: inout State) {
        guard state.lookup != nil else { return }
        state.export = ExportPrompt(path: defaultExportPath(state))
    }

    /// The table as shown (filter and order), as CSV.
    public static func exportRows(_ state: State) -> [TraceContact] {
        guard let lookup = state.lookup else { return [] }
        return state.order.map { lookup.contacts[$0] }
    }

    private static func exportKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var prompt = state.export, !prompt.writing else { return [] }
        if var dialog = prompt.confirm {
            switch dialog.handle(key) {
            case .chosen(0): return startExport(&state, overwrite: true)
            case .chosen, .cancelled:
                prompt.confirm = nil
                prompt.error = "kept the existing file: type another name, or press Enter again to be asked again"
            case .changed, .unchanged, .notHandled:
                prompt.confirm = dialog
            }
            state.export = prompt
            return []
        }
        switch inputKeyMap(state).action(for: key) {
        case .back:
            state.export = nil
            return []
        case .submit:
            return startExport(&state, overwrite: false)
        case nil:
            if prompt.path.handle(key) == .changed { prompt.error = nil }
            state.export = prompt
            return []
        }
    }

    private static func startExport(_ state: inout State, overwrite: Bool) -> [Command] {
        guard var prompt = state.export, let lookup = state.lookup else { return [] }
        prompt.confirm = nil
        let path: String
        switch ExportPath.checked(prompt.path.text, defaultPath: defaultExportPath(state), example: "trace.csv") {
        case .success(let checked): path = checked
        case .failure(let problem):
            prompt.error = problem.message
            state.export = prompt
            return []
        }
        prompt.writing = true
        prompt.error = nil
        state.export = prompt
        let rows = exportRows(state)
        return [
            .export(
                path: path, csv: TraceCSV.contacts(rows), patientUserID: lookup.patient.userID,
                purpose: state.lookupPurpose, rows: rows.count, overwrite: overwrite)
        ]
    }
}
