import CivilCalendar
import DeskContract
import DeskCore
import DeskStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Contact follow-up over the store (issue 21): cases, follow-ups, the queue, attempts, checks,
// assignment. Roles (docs/decisions.md): a tracer opens and closes their own cases and works the
// follow-ups assigned to them; a supervisor reads everything, assigns, closes any case. Every
// view and change is audited; a phone number never reaches an error or an audit entry.
extension LocalDesk {
    public func openCase(
        _ session: StaffSession, phone: String, reference: String, indexDay: CivilDay?, indexKind: IndexDayKind,
        assignToMe: Bool
    ) async throws(ServiceError) -> CaseOpening {
        let person = try authenticate(session, for: .manageCases)
        let reference = try Self.checkedReference(reference)
        let number = try normalizedPhone(phone)
        let now = clock.now()
        let today = now.utcDay
        let day = indexDay ?? today
        if day > today {
            throw .invalid(
                "the index day \(day.iso) is after today (\(today.iso)): type the day symptoms started or the test was taken"
            )
        }
        guard let stored = try storeCall({ () throws(StoreError) in try store.tracePatient(phone: number) }) else {
            // Audited too (without the number), as a lookup of a number nobody has.
            try audit(
                person.user, .followUpViewed, target: nil,
                detail: AuditEntry.Detail.FollowUpViewed(view: "case_not_found", reference: reference, persons: 0).json,
                now: now)
            throw .invalid(ServiceChecks.unknownPatient)
        }
        let contacts = try caseContacts(of: stored, today: today)
        let request = CaseOpenRequest(
            patientUserID: stored.userID, reference: reference, indexDay: day, indexKind: indexKind,
            openedBy: person.user, assignToOpener: assignToMe, contacts: contacts)
        let opening = try storeCall { () throws(StoreError) in
            try store.openCase(request, now: now, settings: followUps)
        }
        if opening.existing {
            // Nothing opened: the answer shows the patient's open case, a view of it.
            try audit(
                person.user, .followUpViewed, target: "case \(opening.trace.id)",
                detail: AuditEntry.Detail.FollowUpViewed(
                    view: "case_existing", reference: opening.trace.reference, persons: 1
                ).json, now: now)
        }
        return opening
    }

    public func cases(_ session: StaffSession, query: CaseQuery) async throws(ServiceError) -> [TraceCase] {
        let person = try authenticate(session, for: .readFollowUps)
        guard (1...CaseQuery.maximumLimit).contains(query.limit) else {
            throw .invalid("a case list holds 1 to \(CaseQuery.maximumLimit) cases: ask for fewer")
        }
        // A tracer sees the cases they opened, whatever the filter says.
        let openedBy = person.role == .tracer ? person.user : query.openedBy
        let status = CaseStatusFilter(rawValue: query.status.rawValue) ?? .open
        let found = try storeCall { () throws(StoreError) in
            try store.cases(status: status, openedBy: openedBy, limit: query.limit)
        }
        try audit(
            person.user, .followUpViewed, target: "cases",
            detail: AuditEntry.Detail.FollowUpViewed(view: "cases", persons: found.count).json, now: clock.now())
        return found
    }

    public func caseDetail(_ session: StaffSession, caseID: Int64) async throws(ServiceError) -> CaseDetail {
        let person = try authenticate(session, for: .readFollowUps)
        guard let detail = try storeCall({ () throws(StoreError) in try store.caseDetail(id: caseID) }) else {
            throw Self.noCase(caseID)
        }
        if person.role == .tracer, detail.trace.openedBy != person.user,
            !detail.followUps.contains(where: { $0.assignedTo == person.user })
        {
            throw .forbidden(
                "case \(caseID) was opened by \(detail.trace.openedBy) and none of its follow-ups is yours: ask \(detail.trace.openedBy) or a supervisor"
            )
        }
        try audit(
            person.user, .followUpViewed, target: "case \(caseID)",
            detail: AuditEntry.Detail.FollowUpViewed(
                view: "case", reference: detail.trace.reference, persons: 1 + detail.followUps.count
            ).json, now: clock.now())
        return detail
    }

    public func closeCase(
        _ session: StaffSession, caseID: Int64, reason: CaseCloseReason, note: String
    ) async throws(ServiceError) -> TraceCase {
        // A tracer closes a case they opened, a supervisor any (both read follow-ups; nobody else).
        let person = try authenticate(session, for: .readFollowUps)
        if let problem = ServiceChecks.noteProblem(note) { throw .invalid(problem) }
        if person.role == .tracer {
            guard let trace = try storeCall({ () throws(StoreError) in try store.caseDetail(id: caseID) })?.trace
            else { throw Self.noCase(caseID) }
            if trace.openedBy != person.user {
                throw .forbidden(
                    "case \(caseID) was opened by \(trace.openedBy): only they or a supervisor can close it")
            }
        }
        let closing = try storeCall { () throws(StoreError) in
            try store.closeCase(id: caseID, reason: reason, note: note, by: person.user, now: clock.now())
        }
        switch closing {
        case .closed(let trace, _): return trace
        case .alreadyClosed(let trace):
            throw .invalid("case \(trace.id) (\(trace.reference)) is closed already: nothing to do")
        case .notFound: throw Self.noCase(caseID)
        }
    }

    public func addFollowUp(
        _ session: StaffSession, caseID: Int64, phone: String, reason: String
    ) async throws(ServiceError) -> FollowUp {
        let person = try authenticate(session, for: .manageCases)
        let why = Self.trimmed(reason)
        if why.isEmpty {
            throw .invalid(
                "say why the person is followed (e.g. “household member”): a contact added by hand needs a reason")
        }
        if let problem = ServiceChecks.noteProblem(why) { throw .invalid(problem.replacing("note", with: "reason")) }
        let number = try normalizedPhone(phone)
        guard let trace = try storeCall({ () throws(StoreError) in try store.caseDetail(id: caseID) })?.trace else {
            throw Self.noCase(caseID)
        }
        if trace.openedBy != person.user {
            throw .forbidden("case \(caseID) was opened by \(trace.openedBy): ask them to add the contact")
        }
        guard let contact = try storeCall({ () throws(StoreError) in try store.tracePatient(phone: number) }) else {
            throw .invalid(
                "no APRICOT user has this number: only a registered app user can be followed; check the number with the patient"
            )
        }
        let addition = try storeCall { () throws(StoreError) in
            try store.addFollowUp(
                caseID: caseID, personUserID: contact.userID, reason: why, by: person.user, now: clock.now(),
                settings: followUps)
        }
        switch addition {
        case .added(let followUp, _): return followUp
        case .alreadyFollowed(let followUp):
            // Nothing changed, but the answer shows the person: audited as a view.
            try audit(
                person.user, .followUpViewed, target: "follow-up \(followUp.id)",
                detail: AuditEntry.Detail.FollowUpViewed(view: "follow_up", reference: trace.reference, persons: 1)
                    .json, now: clock.now())
            return followUp
        case .caseNotOpen(let closed):
            throw .invalid("case \(closed.id) (\(closed.reference)) is closed: open a new case to follow more contacts")
        case .isPatient:
            throw .invalid("this number is the case's patient: a patient is not their own contact")
        case .caseNotFound: throw Self.noCase(caseID)
        }
    }

    public func followUpQueue(_ session: StaffSession, query: QueueQuery) async throws(ServiceError) -> QueuePage {
        let person = try authenticate(session, for: .readFollowUps)
        guard (1...QueueQuery.maximumLimit).contains(query.limit) else {
            throw .invalid("a queue page holds 1 to \(QueueQuery.maximumLimit) persons: ask for fewer")
        }
        var resolved = query
        let scopeText: String
        switch query.scope {
        case .mine:
            resolved.scope = .tracer(person.user)
            scopeText = "mine"
        case .tracer(let name):
            if person.role == .tracer && name != person.user {
                throw .forbidden("a tracer sees only their own queue: ask a supervisor for \(name)'s")
            }
            scopeText = "tracer \(name)"
        case .unassigned, .everyone:
            if person.role == .tracer {
                throw .forbidden("a tracer sees only their own queue: ask a supervisor for everyone's")
            }
            scopeText = query.scope == .unassigned ? "unassigned" : "everyone"
        }
        if let search = query.search, search.count > 64 {
            throw .invalid("a queue search has at most 64 characters: shorten it")
        }
        let now = clock.now()
        let page = try storeCall { () throws(StoreError) in
            try store.followUpQueue(resolved, now: now, settings: followUps)
        }
        try audit(
            person.user, .followUpViewed, target: "queue",
            detail: AuditEntry.Detail.FollowUpViewed(view: "queue", persons: page.rows.count, scope: scopeText).json,
            now: now)
        return page
    }

    public func followUpDetail(_ session: StaffSession, followUpID: Int64) async throws(ServiceError)
        -> FollowUpDetail
    {
        let person = try authenticate(session, for: .readFollowUps)
        let detail = try readableFollowUp(followUpID, by: person)
        try audit(
            person.user, .followUpViewed, target: "follow-up \(followUpID)",
            detail: AuditEntry.Detail.FollowUpViewed(
                view: "follow_up", reference: detail.followUp.reasons.first?.caseReference, persons: 1
            ).json, now: clock.now())
        return FollowUpDetail(followUp: detail.followUp, attempts: detail.attempts, checks: detail.checks)
    }

    public func recordAttempt(
        _ session: StaffSession, followUpID: Int64, outcome: CallOutcome, note: String
    ) async throws(ServiceError) -> FollowUp {
        let person = try authenticate(session, for: .workFollowUps)
        if let problem = ServiceChecks.noteProblem(note) { throw .invalid(problem) }
        let change = try storeCall { () throws(StoreError) in
            try store.recordAttempt(
                followUpID: followUpID, outcome: outcome, note: note, by: person.user, onlyAssignedTo: person.user,
                now: clock.now(), settings: followUps)
        }
        return try Self.recorded(change, followUpID)
    }

    public func recordCheck(
        _ session: StaffSession, followUpID: Int64, symptoms: Bool, isolating: Bool, note: String
    ) async throws(ServiceError) -> FollowUp {
        let person = try authenticate(session, for: .workFollowUps)
        if let problem = ServiceChecks.noteProblem(note) { throw .invalid(problem) }
        let change = try storeCall { () throws(StoreError) in
            try store.recordCheck(
                followUpID: followUpID, symptoms: symptoms, isolating: isolating, note: note, by: person.user,
                onlyAssignedTo: person.user, now: clock.now(), settings: followUps)
        }
        return try Self.recorded(change, followUpID)
    }

    public func assignFollowUps(
        _ session: StaffSession, ids: [Int64], to tracer: String
    ) async throws(ServiceError) -> [FollowUp] {
        let person = try authenticate(session, for: .assignFollowUps)
        guard !ids.isEmpty else { throw .invalid("no follow-up to assign: mark one or more first") }
        guard ids.count <= QueueQuery.maximumLimit else {
            throw .invalid("at most \(QueueQuery.maximumLimit) follow-ups are assigned at once: mark fewer")
        }
        guard case .success(let name) = StaffName.normalize(tracer) else {
            throw .invalid("“\(tracer)” is not an account name: type the tracer's name as the staff list shows it")
        }
        let assignment = try storeCall { () throws(StoreError) in
            try store.assignFollowUps(ids: ids, to: name, by: person.user, now: clock.now())
        }
        switch assignment {
        case .assigned(let followUps): return followUps
        case .notATracer:
            throw .invalid("\(name) is not an enabled tracer's account: assign to a tracer from the staff list")
        case .notFound(let missing):
            throw .invalid("no \(Self.followUpList(missing)): check the ids in the queue; nothing was assigned")
        case .ended(let ended):
            throw .invalid(
                "\(Self.followUpList(ended)) ended already: only active follow-ups are assigned; nothing was assigned")
        }
    }

    public func recordFollowUpPhoneCopy(_ session: StaffSession, followUpID: Int64) async throws(ServiceError) {
        let person = try authenticate(session, for: .readFollowUps)
        let detail = try readableFollowUp(followUpID, by: person)
        let first = detail.followUp.reasons.first
        try audit(
            person.user, .phoneCopied, target: "user \(detail.followUp.personUserID)",
            detail: AuditEntry.Detail.PhoneCopied(
                patient: first.map { "case \($0.caseID)" } ?? "follow-up \(followUpID)",
                purpose: first?.caseReference ?? "follow-up \(followUpID)"
            ).json, now: clock.now())
    }

    // MARK: Internals

    /// The close contacts of a patient's kept files, as ``traceLookup(_:phone:purpose:)`` shows
    /// them: last exposure = the newest day of the contact's timeline.
    func caseContacts(of stored: StoredTracePatient, today: CivilDay) throws(ServiceError) -> [CaseContact] {
        let resolved = try resolve(stored, today: today)
        let summaries = ContactAggregation.summarize(resolved.sightings, phones: resolved.phones, settings: apricot)
        return summaries.compactMap { summary in
            guard summary.isCloseContact else { return nil }
            let last = summary.timeline.map(\.day).max() ?? summary.lastSeen?.utcDay ?? today
            return CaseContact(
                userID: summary.userID, lastExposureDay: last, minutes: summary.minutes, days: summary.days,
                mostMinutesOnOneDay: summary.mostMinutesOnOneDay, isCloseContact: true)
        }
    }

    /// A follow-up the person may read: a supervisor any, a tracer one assigned to them or of a
    /// case they opened.
    private func readableFollowUp(
        _ id: Int64, by person: (user: String, role: StaffRole)
    ) throws(ServiceError) -> StoredFollowUpDetail {
        guard
            let detail = try storeCall({ () throws(StoreError) in
                try store.followUpDetail(id: id, now: clock.now(), settings: followUps)
            })
        else { throw .invalid("no follow-up \(id): check the id in the queue") }
        if person.role == .tracer, detail.followUp.assignedTo != person.user,
            !detail.caseOpeners.values.contains(person.user)
        {
            throw .forbidden(
                "follow-up \(id) is \(detail.followUp.assignedTo.map { "assigned to \($0)" } ?? "not assigned to anyone") and of no case you opened: ask a supervisor"
            )
        }
        return detail
    }

    private func normalizedPhone(_ phone: String) throws(ServiceError) -> PhoneNumber {
        do {
            return try PhoneNumber.normalize(phone, defaultCountryCode: apricot.defaultCountryCode)
        } catch {
            throw .invalid(error.message)
        }
    }

    static func checkedReference(_ text: String) throws(ServiceError) -> String {
        switch CaseReference.checked(text) {
        case .success(let reference): return reference
        case .failure(let problem): throw .invalid(problem.message)
        }
    }

    static func recorded(_ change: FollowUpChange, _ id: Int64) throws(ServiceError) -> FollowUp {
        switch change {
        case .recorded(let followUp): return followUp
        case .notFound: throw .invalid("no follow-up \(id): check the id in the queue")
        case .notAssigned(let whose):
            if let whose {
                throw .forbidden(
                    "follow-up \(id) is assigned to \(whose): nothing recorded; ask a supervisor to reassign it to you")
            }
            throw .forbidden(
                "follow-up \(id) is not assigned to anyone yet: nothing recorded; ask a supervisor to assign it to you")
        case .refused(let problem): throw .invalid(problem)
        }
    }

    static func noCase(_ id: Int64) -> ServiceError { .invalid("no case \(id): check the number in the case list") }

    static func followUpList(_ ids: [Int64]) -> String {
        (ids.count == 1 ? "follow-up " : "follow-ups ") + ids.prefix(10).map(String.init).joined(separator: ", ")
            + (ids.count > 10 ? "…" : "")
    }

    static func trimmed(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        var out = ""
        out.unicodeScalars.append(contentsOf: scalars[first...last])
        return out
    }
}
