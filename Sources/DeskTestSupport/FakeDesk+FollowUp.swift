import CivilCalendar
import DeskContract
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The fake desk's cases and follow-ups, in memory: what the console's queue and case screens
/// need, scheduled by ``FollowUpSchedule`` as the real desks schedule them. A case's contacts
/// come from the canned lookup of the patient's number (``FakeDesk/Canned/lookups``); a test
/// may also add follow-ups directly (``FakeDesk/seedFollowUp(phone:userID:reference:assignedTo:lastExposure:minutes:)``).
public struct FakeFollowUpBook: Sendable {
    public var settings = FollowUpSettings.standard
    var cases: [Int64: TraceCase] = [:]
    var history: [Int64: [CaseHistoryEntry]] = [:]
    var followUps: [Int64: FollowUp] = [:]
    var attempts: [Int64: [CallAttempt]] = [:]
    var checks: [Int64: [DailyCheck]] = [:]
    var nextCaseID: Int64 = 1
    var nextFollowUpID: Int64 = 1
    var nextRecordID: Int64 = 1

    public init() {}

    /// Periods ended → completed, never reached for too long → lost.
    mutating func settle(now: Date) {
        for (id, followUp) in followUps {
            if let settled = FollowUpSchedule.settled(followUp, now: now, settings: settings) {
                followUps[id] = settled
            }
        }
    }

    func activeFollowUp(person: Int64) -> FollowUp? {
        followUps.values.first { $0.personUserID == person && $0.state.isActive }
    }

    func openCase(patient: Int64) -> TraceCase? {
        cases.values.first { $0.patientUserID == patient && $0.status.isOpen }
    }

    /// A case with its contacts counted and its chain links as of now.
    func filled(_ trace: TraceCase) -> TraceCase {
        var trace = trace
        trace.contacts = followUps.values.filter { $0.reasons.contains { $0.caseID == trace.id } }.count
        trace.ledTo = followUps.values.filter { followUp in
            followUp.becameCaseID != nil && followUp.reasons.contains { $0.caseID == trace.id }
        }.sorted { $0.id < $1.id }.compactMap { followUp in
            guard let became = followUp.becameCaseID, let other = cases[became] else { return nil }
            return CaseLink(caseID: other.id, reference: other.reference, followUpID: followUp.id)
        }
        return trace
    }

    mutating func note(_ caseID: Int64, _ at: Date, _ actor: String, _ text: String) {
        history[caseID, default: []].append(CaseHistoryEntry(at: at, actor: actor, text: text))
    }

    mutating func recordID() -> Int64 {
        defer { nextRecordID += 1 }
        return nextRecordID
    }
}

extension FakeDesk {
    /// The follow-up rules' settings the fake schedules with.
    public func setFollowUpSettings(_ settings: FollowUpSettings) { withBook { $0.settings = settings } }

    /// Adds a follow-up for a contact of a case (made if no open case has `reference`), as if a
    /// case had been opened for it: assigned to `assignedTo`, due now. Returns its id.
    @discardableResult
    public func seedFollowUp(
        phone: String, userID: Int64, reference: String = "ASL-2026-0412", assignedTo: String?,
        lastExposure: CivilDay? = nil, minutes: Int = 42
    ) -> Int64 {
        withBook { book in
            let now = clock
            let caseID: Int64
            if let existing = book.cases.values.first(where: { $0.reference == reference && $0.status.isOpen }) {
                caseID = existing.id
            } else {
                caseID = book.nextCaseID
                book.nextCaseID += 1
                book.cases[caseID] = TraceCase(
                    id: caseID, reference: reference, patientUserID: 9_000 + caseID,
                    phone: PhoneNumber(e164: "+39333000\(String(format: "%04d", Int(caseID)))")!,
                    indexDay: now.utcDay.adding(days: -2), indexKind: .symptomOnset, openedBy: assignedTo ?? "tina",
                    openedAt: now, status: .open, contacts: 0)
                book.note(caseID, now, assignedTo ?? "tina", "opened")
            }
            let exposure = lastExposure ?? now.utcDay.adding(days: -1)
            let id = book.nextFollowUpID
            book.nextFollowUpID += 1
            let opened = FollowUpSchedule.opened(lastExposure: exposure, now: now, settings: book.settings)
            book.followUps[id] = FollowUp(
                id: id, personUserID: userID, phone: PhoneNumber(e164: phone)!,
                reasons: [
                    FollowUpReason(
                        caseID: caseID, caseReference: reference, lastExposureDay: exposure, minutes: minutes, days: 2,
                        mostMinutesOnOneDay: max(15, minutes / 2), isCloseContact: true)
                ], lastExposureDay: exposure, periodEndsOn: opened.periodEndsOn, assignedTo: assignedTo,
                state: .calling, createdAt: now, nextDueAt: opened.nextDueAt)
            return id
        }
    }

    /// A follow-up as the fake holds it now.
    public func followUp(_ id: Int64) -> FollowUp? { withBook { $0.followUps[id] } }

    private func withBook<T>(_ body: (inout FakeFollowUpBook) -> T) -> T { lock.withLock { body(&book) } }

    // MARK: DeskService: cases and follow-ups

    public func openCase(
        _ session: StaffSession, phone: String, reference: String, indexDay: CivilDay?, indexKind: IndexDayKind,
        assignToMe: Bool
    ) async throws(ServiceError) -> CaseOpening {
        try run("openCase") { () throws(ServiceError) in
            let person = try signedIn(session, for: .manageCases)
            let checked: String
            switch CaseReference.checked(reference) {
            case .success(let text): checked = text
            case .failure(let problem): throw .invalid(problem.message)
            }
            guard let lookup = canned.lookups[phone] else { throw .invalid(ServiceChecks.unknownPatient) }
            let patient = lookup.patient.userID
            if let existing = book.openCase(patient: patient) {
                audit(person.user, .caseOpened, target: "user \(patient)")
                return CaseOpening(
                    trace: book.filled(existing), existing: true, followUpsCreated: 0, followUpsJoined: 0)
            }
            let now = clock
            let id = book.nextCaseID
            book.nextCaseID += 1
            var trace = TraceCase(
                id: id, reference: checked, patientUserID: patient, phone: lookup.patient.phone,
                indexDay: indexDay ?? now.utcDay, indexKind: indexDay == nil ? .testDay : indexKind,
                openedBy: person.user, openedAt: now, status: .open, contacts: 0)
            if var was = book.activeFollowUp(person: patient) {
                was = Self.ended(was, as: .becameCase, at: now)
                was.becameCaseID = id
                book.followUps[was.id] = was
                trace.cameFrom = was.reasons.map {
                    CaseLink(caseID: $0.caseID, reference: $0.caseReference, followUpID: was.id)
                }
                for reason in was.reasons {
                    book.note(reason.caseID, now, person.user, "follow-up \(was.id): became case \(id)")
                }
            }
            book.cases[id] = trace
            var created = 0
            var joined = 0
            for contact in lookup.contacts where contact.summary.isCloseContact {
                let summary = contact.summary
                let exposure = summary.lastSeen?.utcDay ?? trace.indexDay
                let reason = FollowUpReason(
                    caseID: id, caseReference: checked, lastExposureDay: exposure, minutes: summary.minutes,
                    days: summary.days, mostMinutesOnOneDay: summary.mostMinutesOnOneDay, isCloseContact: true)
                if var open = book.activeFollowUp(person: summary.userID) {
                    open = FollowUpSchedule.merged(open, lastExposure: exposure, settings: book.settings)
                    open.reasons.append(reason)
                    book.followUps[open.id] = open
                    joined += 1
                    continue
                }
                let followUpID = book.nextFollowUpID
                book.nextFollowUpID += 1
                let opened = FollowUpSchedule.opened(lastExposure: exposure, now: now, settings: book.settings)
                book.followUps[followUpID] = FollowUp(
                    id: followUpID, personUserID: summary.userID, phone: summary.phone, reasons: [reason],
                    lastExposureDay: exposure, periodEndsOn: opened.periodEndsOn,
                    assignedTo: assignToMe ? person.user : leastLoadedTracer(), state: .calling, createdAt: now,
                    nextDueAt: opened.nextDueAt)
                created += 1
            }
            book.note(id, now, person.user, "opened with \(created + joined) contacts")
            audit(person.user, .caseOpened, target: "user \(patient)")
            return CaseOpening(
                trace: book.filled(book.cases[id]!), existing: false, followUpsCreated: created,
                followUpsJoined: joined)
        }
    }

    public func cases(_ session: StaffSession, query: CaseQuery) async throws(ServiceError) -> [TraceCase] {
        try run("cases") { () throws(ServiceError) in
            let person = try signedIn(session, for: .readFollowUps)
            guard (1...CaseQuery.maximumLimit).contains(query.limit) else {
                throw .invalid("a page holds 1 to \(CaseQuery.maximumLimit) cases: ask for fewer")
            }
            let shown = book.cases.values.filter { trace in
                let mine = person.role == .supervisor || trace.openedBy == person.user
                let by = query.openedBy.map { trace.openedBy == $0 } ?? true
                let status: Bool
                switch query.status {
                case .open: status = trace.status.isOpen
                case .closed: status = !trace.status.isOpen
                case .all: status = true
                }
                return mine && by && status
            }.sorted { $0.id > $1.id }.prefix(query.limit).map(book.filled)
            audit(person.user, .followUpViewed, target: "cases")
            return Array(shown)
        }
    }

    public func caseDetail(_ session: StaffSession, caseID: Int64) async throws(ServiceError) -> CaseDetail {
        try run("caseDetail") { () throws(ServiceError) in
            let person = try signedIn(session, for: .readFollowUps)
            guard let trace = book.cases[caseID] else { throw .invalid("no case \(caseID): check the number") }
            let followUps = book.followUps.values.filter { $0.reasons.contains { $0.caseID == caseID } }
            if person.role == .tracer, trace.openedBy != person.user,
                !followUps.contains(where: { $0.assignedTo == person.user })
            {
                throw .forbidden("case \(caseID) is not one of yours: ask its tracer or a supervisor")
            }
            audit(person.user, .followUpViewed, target: "case \(caseID)")
            let ordered = followUps.sorted { ($0.state.isActive ? 0 : 1, $0.id) < ($1.state.isActive ? 0 : 1, $1.id) }
            return CaseDetail(trace: book.filled(trace), followUps: ordered, history: book.history[caseID] ?? [])
        }
    }

    public func closeCase(
        _ session: StaffSession, caseID: Int64, reason: CaseCloseReason, note: String
    ) async throws(ServiceError) -> TraceCase {
        try run("closeCase") { () throws(ServiceError) in
            let person = try signedIn(session, for: .readFollowUps)
            guard var trace = book.cases[caseID] else { throw .invalid("no case \(caseID): check the number") }
            guard trace.status.isOpen else { throw .invalid("case \(caseID) is closed already") }
            if person.role == .tracer, trace.openedBy != person.user {
                throw .forbidden("case \(caseID) was opened by \(trace.openedBy): only they or a supervisor close it")
            }
            trace.status = .closed(reason: reason, by: person.user, at: clock)
            book.cases[caseID] = trace
            for (id, followUp) in book.followUps
            where followUp.state.isActive && followUp.reasons.contains(where: { $0.caseID == caseID }) {
                let others = followUp.reasons.contains {
                    $0.caseID != caseID && (book.cases[$0.caseID]?.status.isOpen ?? false)
                }
                if !others { book.followUps[id] = Self.ended(followUp, as: .caseClosed, at: clock) }
            }
            book.note(caseID, clock, person.user, "closed: \(reason.label)")
            audit(person.user, .caseClosed, target: "case \(caseID)")
            return book.filled(trace)
        }
    }

    public func addFollowUp(
        _ session: StaffSession, caseID: Int64, phone: String, reason: String
    ) async throws(ServiceError) -> FollowUp {
        throw .unavailable("adding a contact by hand is not in the fake desk")
    }

    public func followUpQueue(_ session: StaffSession, query: QueueQuery) async throws(ServiceError) -> QueuePage {
        try run("followUpQueue") { () throws(ServiceError) in
            let person = try signedIn(session, for: .readFollowUps)
            guard (1...QueueQuery.maximumLimit).contains(query.limit) else {
                throw .invalid("a page of the queue holds 1 to \(QueueQuery.maximumLimit) persons: ask for fewer")
            }
            if person.role == .tracer, query.scope != .mine {
                throw .forbidden("a tracer sees only their own queue: ask a supervisor for another tracer's")
            }
            let now = clock
            book.settle(now: now)
            let today = now.utcDay
            let search = (query.search ?? "").lowercased().split(separator: " ").joined(separator: " ")
            let digits = search.filter(\.isNumber)
            let matching = book.followUps.values.filter { followUp in
                guard followUp.state.isActive, followUp.nextDueAt != nil else { return false }
                switch query.scope {
                case .mine: if followUp.assignedTo != person.user { return false }
                case .tracer(let name): if followUp.assignedTo != name { return false }
                case .unassigned: if followUp.assignedTo != nil { return false }
                case .everyone: break
                }
                guard !search.isEmpty else { return true }
                if followUp.reasons.contains(where: { $0.caseReference.lowercased().contains(search) }) { return true }
                return !digits.isEmpty && followUp.phone.e164.contains(digits)
            }
            var counts = QueueCounts()
            for followUp in matching {
                switch QueueUrgency.of(dueAt: followUp.nextDueAt!, now: now, settings: book.settings) {
                case .overdue: counts.overdue += 1
                case .due: counts.due += 1
                case .laterToday: counts.laterToday += 1
                case .later: counts.later += 1
                }
            }
            func cursor(_ followUp: FollowUp) -> QueueCursor {
                QueueCursor(dueAtMilliseconds: followUp.nextDueAt!.unixMilliseconds, followUpID: followUp.id)
            }
            func before(_ a: QueueCursor, _ b: QueueCursor) -> Bool {
                (a.dueAtMilliseconds, a.followUpID) < (b.dueAtMilliseconds, b.followUpID)
            }
            let ordered = matching.filter { query.includeLater || $0.nextDueAt!.utcDay <= today }
                .sorted { before(cursor($0), cursor($1)) }
                .filter { followUp in query.after.map { before($0, cursor(followUp)) } ?? true }
            let rows = Array(ordered.prefix(query.limit))
            let next = ordered.count > rows.count ? rows.last.map(cursor) : nil
            audit(person.user, .followUpViewed, target: "queue")
            return QueuePage(rows: rows, counts: counts, next: next, readAt: now)
        }
    }

    public func followUpDetail(_ session: StaffSession, followUpID: Int64) async throws(ServiceError) -> FollowUpDetail
    {
        try run("followUpDetail") { () throws(ServiceError) in
            let person = try signedIn(session, for: .readFollowUps)
            guard let followUp = book.followUps[followUpID] else {
                throw .invalid("no follow-up \(followUpID): reload the queue (r)")
            }
            if person.role == .tracer, followUp.assignedTo != person.user,
                !followUp.reasons.contains(where: { book.cases[$0.caseID]?.openedBy == person.user })
            {
                throw .forbidden("follow-up \(followUpID) is not yours: ask a supervisor")
            }
            audit(person.user, .followUpViewed, target: "follow-up \(followUpID)")
            return FollowUpDetail(
                followUp: followUp, attempts: book.attempts[followUpID] ?? [], checks: book.checks[followUpID] ?? [])
        }
    }

    public func recordAttempt(
        _ session: StaffSession, followUpID: Int64, outcome: CallOutcome, note: String
    ) async throws(ServiceError) -> FollowUp {
        try run("recordAttempt") { () throws(ServiceError) in
            let person = try signedIn(session, for: .workFollowUps)
            let followUp = try workable(followUpID, by: person.user)
            if let problem = FollowUpSchedule.attemptProblem(followUp) { throw .invalid(problem) }
            if let problem = ServiceChecks.noteProblem(note) { throw .invalid(problem) }
            let next = FollowUpSchedule.attempted(followUp, outcome: outcome, at: clock, settings: book.settings)
            book.followUps[followUpID] = next
            let id = book.recordID()
            book.attempts[followUpID, default: []].append(
                CallAttempt(id: id, followUpID: followUpID, at: clock, by: person.user, outcome: outcome, note: note))
            for reason in next.reasons {
                book.note(reason.caseID, clock, person.user, "follow-up \(followUpID): \(outcome.label)")
            }
            audit(person.user, .followUpAttempt, target: "follow-up \(followUpID)")
            return next
        }
    }

    public func recordCheck(
        _ session: StaffSession, followUpID: Int64, symptoms: Bool, isolating: Bool, note: String
    ) async throws(ServiceError) -> FollowUp {
        try run("recordCheck") { () throws(ServiceError) in
            let person = try signedIn(session, for: .workFollowUps)
            let followUp = try workable(followUpID, by: person.user)
            if let problem = FollowUpSchedule.checkProblem(followUp) { throw .invalid(problem) }
            if let problem = ServiceChecks.noteProblem(note) { throw .invalid(problem) }
            let next = FollowUpSchedule.checked(followUp, symptoms: symptoms, at: clock, settings: book.settings)
            book.followUps[followUpID] = next
            let id = book.recordID()
            book.checks[followUpID, default: []].append(
                DailyCheck(
                    id: id, followUpID: followUpID, day: clock.utcDay, at: clock, by: person.user, symptoms: symptoms,
                    isolating: isolating, note: note))
            audit(person.user, .followUpCheck, target: "follow-up \(followUpID)")
            return next
        }
    }

    public func assignFollowUps(
        _ session: StaffSession, ids: [Int64], to tracer: String
    ) async throws(ServiceError) -> [FollowUp] {
        try run("assignFollowUps") { () throws(ServiceError) in
            let person = try signedIn(session, for: .assignFollowUps)
            guard let account = accounts[tracer]?.account, account.role == .tracer, !account.disabled else {
                throw .invalid("\(tracer) is not an enabled tracer's account: pick a tracer")
            }
            guard !ids.isEmpty else { throw .invalid("no follow-up given: mark some first (Space)") }
            var changed: [FollowUp] = []
            for id in ids {
                guard let followUp = book.followUps[id] else { throw .invalid("no follow-up \(id): reload the queue") }
                guard followUp.state.isActive else {
                    throw .invalid("follow-up \(id) has ended (\(followUp.state.label)): nothing to assign")
                }
            }
            for id in ids {
                book.followUps[id]!.assignedTo = tracer
                changed.append(book.followUps[id]!)
            }
            audit(person.user, .followUpAssigned, target: tracer)
            return changed
        }
    }

    public func recordFollowUpPhoneCopy(_ session: StaffSession, followUpID: Int64) async throws(ServiceError) {
        try run("recordFollowUpPhoneCopy") { () throws(ServiceError) in
            let person = try signedIn(session, for: .readFollowUps)
            guard let followUp = book.followUps[followUpID] else {
                throw .invalid("no follow-up \(followUpID): reload the queue (r)")
            }
            audit(person.user, .phoneCopied, target: "user \(followUp.personUserID)")
        }
    }

    public func followUpIndicators(_ session: StaffSession, query: StatsQuery) async throws(ServiceError)
        -> FollowUpIndicators
    {
        try run("followUpIndicators") { () throws(ServiceError) in
            _ = try signedIn(session, for: .readStatistics)
            if let problem = ServiceChecks.statsProblem(query) { throw problem }
            // The canned figures when a test set them (the dashboard's); none with an empty book
            // (every figure empty, no tracer); else the tracers' load from the book (the queue's
            // pickers name them).
            if let canned = canned.indicators { return canned }
            if book.cases.isEmpty, book.followUps.isEmpty {
                return FollowUpIndicators(
                    from: query.from, to: query.to, cases: 0, contactsPerCaseMean: nil, contactsPerCaseMedian: nil,
                    reachedWithin24hPercent: nil, medianHoursToFirstReach: nil, checkedEveryDayPercent: nil,
                    unreached: UnreachedAges(), lostPercent: nil, knownContactPercent: nil, tracers: [])
            }
            let tracers = accounts.values.map(\.account).filter { $0.role == .tracer && !$0.disabled }
                .map(\.name).sorted()
            let loads = tracers.map { name in
                TracerLoad(
                    tracer: name,
                    assigned: book.followUps.values.filter { $0.assignedTo == name && $0.state.isActive }.count,
                    due: 0, overdue: 0, doneToday: 0)
            }
            return FollowUpIndicators(
                from: query.from, to: query.to, cases: book.cases.count, contactsPerCaseMean: nil,
                contactsPerCaseMedian: nil, reachedWithin24hPercent: nil, medianHoursToFirstReach: nil,
                checkedEveryDayPercent: nil, unreached: UnreachedAges(), lostPercent: nil, knownContactPercent: nil,
                tracers: loads)
        }
    }

    // MARK: Internals (under the lock)

    private static func ended(_ followUp: FollowUp, as state: FollowUpState, at now: Date) -> FollowUp {
        var next = followUp
        next.state = state
        next.nextDueAt = nil
        next.endedAt = now
        return next
    }

    /// A follow-up the tracer may record on: theirs.
    private func workable(_ id: Int64, by user: String) throws(ServiceError) -> FollowUp {
        guard let followUp = book.followUps[id] else { throw .invalid("no follow-up \(id): reload the queue (r)") }
        guard followUp.assignedTo == user else {
            throw .forbidden(
                "follow-up \(id) is assigned to \(followUp.assignedTo ?? "nobody"), not you: reload the queue (r)")
        }
        return followUp
    }

    /// The enabled tracer with the fewest active follow-ups (by name on a tie); nil: none.
    private func leastLoadedTracer() -> String? {
        let tracers = accounts.values.map(\.account).filter { $0.role == .tracer && !$0.disabled }.map(\.name)
        return tracers.min { a, b in
            let load = { (name: String) in
                self.book.followUps.values.filter { $0.assignedTo == name && $0.state.isActive }.count
            }
            return (load(a), a) < (load(b), b)
        }
    }
}
