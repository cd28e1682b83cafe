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
            case .minutes: return tr("console.trace.sort.minutes")
            case .lastSeen: return tr("console.trace.sort.lastSeen")
            case .days: return tr("console.trace.sort.days")
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

    public struct State: Hashable, Sendable {
        public var phase: Phase = .phone
        public var phone = TraceScreen.phoneField()
        public var purpose = TraceScreen.purposeField()
        /// What is wrong with the phone number (as typed, or as the desk answered).
        public var phoneError: String?
        /// The lookup running is `r` on a shown result: if it fails, that result stays.
        public var refreshing = false
        /// When the lookup running was sent, for the spinner of a long wait.
        public var lookupStarted: Date?
        public var purposeError: String?
        /// The case's index day (symptom onset or test day), under the reference; empty: today,
        /// as the test day. Tab moves between the reference and the day.
        public var indexDay: DateFieldState
        public var indexKind: IndexDayKind = .symptomOnset
        public var indexFocused = false
        /// The case the shown lookup was opened as, and what the desk said about it.
        public var openedCase: CaseOpening?
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
        /// Outcomes recorded by a digit whose save has not been answered yet, by contact:
        /// shown as "saving…", never as saved, until the desk says so.
        public var savingOutcomes: [Int64: ContactOutcome] = [:]
        public var export: ExportPrompt?
        public var notice: Notice?
        /// Symbols and bars in ASCII (a terminal without UTF-8).
        public var ascii = false
        public var now: Date
        /// The folder an export is suggested in, as shown (``ExportPath/defaultFolder(environment:isFolder:)``).
        public var exportFolder = "~"
        public var timeZone: TimeZone

        public init(now: Date, timeZone: TimeZone = .current, ascii: Bool = false) {
            self.now = now
            self.timeZone = timeZone
            self.ascii = ascii
            indexDay = DateFieldState(today: now.utcDay, maximum: now.utcDay)
        }

        /// Keys go into a text field: `?` and `q` are characters then.
        /// An empty phone number is not being typed yet: `?` opens help there (a phone
        /// number has no `?`; once something is typed, `?` is a character and Enter refuses it).
        public var isTyping: Bool {
            switch phase {
            case .phone: return !phone.text.isEmpty
            case .purpose: return true
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
        /// The desk opened the case (or found the patient's open one): the lookup follows.
        case caseOpened(CaseOpening)
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
        /// The desk recorded the copy of a contact's number (audited): now it may be copied.
        case phoneCopyRecorded(ClipboardCopy, patient: Int64)
        case copied(CopyResult)
    }

    public enum Command: Hashable, Sendable {
        /// The phone as typed (the desk normalises it) and the checked purpose.
        case lookup(phone: String, purpose: String)
        /// Opens a case for the patient (the reference checked); its answer brings the lookup.
        case openCase(phone: String, reference: String, indexDay: CivilDay?, kind: IndexDayKind)
        case sightings(patientUserID: Int64, contactUserID: Int64, purpose: String, offset: Int, limit: Int)
        case recordOutcome(
            patientUserID: Int64, contactUserID: Int64, outcome: ContactOutcome, note: String, purpose: String)
        /// Records the export with the desk (audited), then writes `csv` to `path` whole or not
        /// at all; an existing file only with `overwrite`.
        case export(path: String, csv: String, patientUserID: Int64, purpose: String, rows: Int, overwrite: Bool)
        /// `y`: records the copy of a contact's number with the desk (audited), then copies `phone`.
        case copyPhone(patientUserID: Int64, contactUserID: Int64, purpose: String, phone: String)
        /// Copies what the desk allowed (after ``copyPhone(patientUserID:contactUserID:purpose:phone:)``).
        case copy(ClipboardCopy)
        /// `v`: the case view (ConsoleApp shows it on the queue's page).
        case showCase(caseID: Int64)
        case quit
    }

    /// The patient's number as typed (room for spaces, a `+` or `00`).
    static func phoneField(_ text: String = "") -> TextFieldState { TextFieldState(text, maxLength: 32) }
    /// The lookup's purpose or case reference.
    static func purposeField(_ text: String = "") -> TextFieldState {
        TextFieldState(text, maxLength: TraceCase.maximumReferenceLength)
    }
    /// The table's filter.
    static func filterField() -> TextFieldState { TextFieldState(maxLength: 40) }

    /// Sightings asked for per page of the detail view.
    public static let sightingsPage = 500
    static let page = TableCursor.page

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
            state.refreshing = false
            state.lookupPurpose = state.pendingPurpose
            show(&state, lookup)
            return []
        case .caseOpened(let opening):
            guard state.phase == .loading else { return [] }
            state.openedCase = opening
            state.pendingPurpose = opening.trace.reference
            return [.lookup(phone: state.phone.text, purpose: opening.trace.reference)]
        case .lookupFailed(let message):
            guard state.phase == .loading else { return [] }
            if state.refreshing, state.lookup != nil {
                // A failed `r`: the last result stays, with what went wrong (as the dashboard).
                state.refreshing = false
                state.phase = .result
                state.notice = .error(tr("console.trace.lookAgainFailed", ["message": message]))
                return []
            }
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
            let byDigit = state.savingOutcomes.removeValue(forKey: contact) != nil
            guard var lookup = state.lookup, let index = state.indexByUserID[contact] else { return [] }
            lookup.contacts[index].outcome = outcome
            state.lookup = lookup
            // The row keeps its place: the filter's words change, the order does not (it is
            // applied again when the filter or the sort changes, or at the next lookup).
            state.search[index] = searchText(lookup.contacts[index])
            if byDigit {
                let phone = lookup.contacts[index].summary.phone.spaced
                let recorded = tr(
                    "console.trace.outcomeRecordedFor",
                    ["outcome": TracingWords.outcome(outcome.outcome), "phone": phone])
                state.notice = .ok(
                    recorded + (nextToCall(state, after: state.selected) == nil ? " · \(allCalledText(state))" : ""))
            } else {
                state.notice = .ok(
                    tr("console.trace.outcomeRecorded", ["outcome": TracingWords.outcome(outcome.outcome)]))
            }
            return []
        case .outcomeFailed(let message, let patient, let contact):
            guard state.lookup?.patient.userID == patient else { return [] }
            if state.savingOutcomes.removeValue(forKey: contact) != nil {
                let phone = state.contact(userID: contact)?.summary.phone.spaced ?? tr("console.trace.aContact")
                let shown = state.contact(userID: contact).map { TracingWords.outcome($0.currentOutcome) } ?? ""
                state.notice = .error(
                    tr("console.trace.outcomeNotSaved", ["phone": phone, "message": message, "shown": shown]))
                return []
            }
            guard state.outcomeForm?.contactUserID == contact else { return [] }
            state.outcomeForm?.saving = false
            state.outcomeForm?.error = message
            return []
        case .exportExists(let path):
            state.export?.fileExists(path)
            return []
        case .exported(let path, let rows):
            state.export = nil
            state.notice = .ok(trCount("console.trace.exported", rows, ["path": path]))
            return []
        case .exportFailed(let message):
            state.export?.failed(message)
            return []
        case .phoneCopyRecorded(let clip, let patient):
            return phoneCopyRecorded(&state, clip, patient: patient)
        case .copied(let result):
            state.notice = result.notice
            return []
        }
    }

}
