import CivilCalendar
import DeskContract
import DeskCore
import DeskStore
import DeskText

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
            throw .invalid(tr("errors.case.indexDayFuture", ["day": day.iso, "today": today.iso]))
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
            throw .invalid(tr("errors.case.listSize", ["max": String(CaseQuery.maximumLimit)]))
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
            throw .forbidden(tr("errors.case.notYours", ["id": String(caseID), "opener": detail.trace.openedBy]))
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
                throw .forbidden(tr("errors.case.closeNotYours", ["id": String(caseID), "opener": trace.openedBy]))
            }
        }
        let closing = try storeCall { () throws(StoreError) in
            try store.closeCase(id: caseID, reason: reason, note: note, by: person.user, now: clock.now())
        }
        switch closing {
        case .closed(let trace, _): return trace
        case .alreadyClosed(let trace):
            throw .invalid(tr("errors.case.closedAlready", ["id": String(trace.id), "reference": trace.reference]))
        case .notFound: throw Self.noCase(caseID)
        }
    }

    public func addFollowUp(
        _ session: StaffSession, caseID: Int64, phone: String, reason: String
    ) async throws(ServiceError) -> FollowUp {
        let person = try authenticate(session, for: .manageCases)
        let why = Self.trimmed(reason)
        if why.isEmpty {
            throw .invalid(tr("errors.case.reasonNeeded"))
        }
        if let problem = ServiceChecks.noteProblem(why, isReason: true) { throw .invalid(problem) }
        let number = try normalizedPhone(phone)
        guard let trace = try storeCall({ () throws(StoreError) in try store.caseDetail(id: caseID) })?.trace else {
            throw Self.noCase(caseID)
        }
        if trace.openedBy != person.user {
            throw .forbidden(tr("errors.case.addNotYours", ["id": String(caseID), "opener": trace.openedBy]))
        }
        guard let contact = try storeCall({ () throws(StoreError) in try store.tracePatient(phone: number) }) else {
            throw .invalid(tr("errors.case.unknownContact"))
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
            throw .invalid(tr("errors.case.closedNoMore", ["id": String(closed.id), "reference": closed.reference]))
        case .isPatient:
            throw .invalid(tr("errors.case.isPatient"))
        case .caseNotFound: throw Self.noCase(caseID)
        }
    }

    public func followUpQueue(_ session: StaffSession, query: QueueQuery) async throws(ServiceError) -> QueuePage {
        let person = try authenticate(session, for: .readFollowUps)
        guard (1...QueueQuery.maximumLimit).contains(query.limit) else {
            throw .invalid(tr("errors.queue.pageSize", ["max": String(QueueQuery.maximumLimit)]))
        }
        var resolved = query
        let scopeText: String
        switch query.scope {
        case .mine:
            resolved.scope = .tracer(person.user)
            scopeText = "mine"
        case .tracer(let name):
            if person.role == .tracer && name != person.user {
                throw .forbidden(tr("errors.queue.onlyOwn", ["name": name]))
            }
            scopeText = "tracer \(name)"
        case .unassigned, .everyone:
            if person.role == .tracer {
                throw .forbidden(tr("errors.queue.onlyOwnAll"))
            }
            scopeText = query.scope == .unassigned ? "unassigned" : "everyone"
        }
        if let search = query.search, search.count > 64 {
            throw .invalid(tr("errors.queue.searchLong"))
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
        guard !ids.isEmpty else { throw .invalid(tr("errors.assign.none")) }
        guard ids.count <= QueueQuery.maximumLimit else {
            throw .invalid(tr("errors.assign.tooMany", ["max": String(QueueQuery.maximumLimit)]))
        }
        guard case .success(let name) = StaffName.normalize(tracer) else {
            throw .invalid(tr("errors.assign.badName", ["name": tracer]))
        }
        let assignment = try storeCall { () throws(StoreError) in
            try store.assignFollowUps(ids: ids, to: name, by: person.user, now: clock.now())
        }
        switch assignment {
        case .assigned(let followUps): return followUps
        case .notATracer:
            throw .invalid(tr("errors.assign.notATracer", ["name": name]))
        case .notFound(let missing):
            throw .invalid(tr("errors.assign.notFound", ["list": Self.followUpList(missing)]))
        case .ended(let ended):
            throw .invalid(tr("errors.assign.ended", ["list": Self.followUpList(ended)]))
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
        else { throw .invalid(tr("errors.followUp.noSuch", ["id": String(id)])) }
        if person.role == .tracer, detail.followUp.assignedTo != person.user,
            !detail.caseOpeners.values.contains(person.user)
        {
            if let tracer = detail.followUp.assignedTo {
                throw .forbidden(tr("errors.followUp.notYoursAssigned", ["id": String(id), "tracer": tracer]))
            }
            throw .forbidden(tr("errors.followUp.notYoursUnassigned", ["id": String(id)]))
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
        case .notFound: throw .invalid(tr("errors.followUp.noSuch", ["id": String(id)]))
        case .notAssigned(let whose):
            if let whose {
                throw .forbidden(tr("errors.followUp.assignedOther", ["id": String(id), "tracer": whose]))
            }
            throw .forbidden(tr("errors.followUp.unassigned", ["id": String(id)]))
        case .refused(let problem): throw .invalid(problem)
        }
    }

    static func noCase(_ id: Int64) -> ServiceError { .invalid(tr("errors.case.noSuch", ["id": String(id)])) }

    static func followUpList(_ ids: [Int64]) -> String {
        tr(
            ids.count == 1 ? "errors.followUp.listOne" : "errors.followUp.listMany",
            ["ids": ids.prefix(10).map(String.init).joined(separator: ", ") + (ids.count > 10 ? "…" : "")])
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
