import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The SQL of contact follow-up (migration 11), written once with `?` placeholders; `IN_LIST`
/// reads a list of ids bound as one text value (as in ``ApricotSQL``).
enum FollowUpSQL {
    static let caseColumns = """
        SELECT c.id, c.reference, c.patient_user_id, u.phone, c.index_day, c.index_kind, c.opened_by,
            c.opened_at_ms, c.status, c.close_reason, c.closed_by, c.closed_at_ms,
            (SELECT count(*) FROM follow_up_cases n WHERE n.case_id = c.id), c.source_follow_up_id
        FROM cases c JOIN apricot_users u ON u.id = c.patient_user_id
        """
    static let followUpColumns = """
        SELECT f.id, f.person_user_id, u.phone, f.state, f.assigned_to, f.last_exposure_day, f.period_ends_on,
            f.created_at_ms, f.next_due_ms, f.attempts, f.attempts_on_last_day, f.last_outcome, f.last_attempt_ms,
            f.reached_at_ms, f.checked_days, f.last_check_day, f.symptoms_flagged, f.ended_at_ms, f.became_case_id
        FROM follow_ups f JOIN apricot_users u ON u.id = f.person_user_id
        """
    static let caseByID = caseColumns + " WHERE c.id = ?"
    static let openCaseOfPatient = caseColumns + " WHERE c.patient_user_id = ? AND c.status = 'open'"
    static let openPatientsAmong = "SELECT patient_user_id FROM cases WHERE status = 'open' AND patient_user_id IN_LIST"
    static let insertCase = """
        INSERT INTO cases (reference, patient_user_id, index_day, index_kind, opened_by, opened_at_ms, status,
            source_follow_up_id)
        VALUES (?, ?, ?, ?, ?, ?, 'open', ?) RETURNING id
        """
    static let closeCase = """
        UPDATE cases SET status = 'closed', close_reason = ?, closed_by = ?, closed_at_ms = ? WHERE id = ? AND status = 'open'
        """
    static let followUpByID = followUpColumns + " WHERE f.id = ?"
    static let followUpsByID = followUpColumns + " WHERE f.id IN_LIST"
    static let activeAmong = followUpColumns + " WHERE f.next_due_ms IS NOT NULL AND f.person_user_id IN_LIST"
    static let activeOfPerson = followUpColumns + " WHERE f.next_due_ms IS NOT NULL AND f.person_user_id = ?"
    static let followUpsOfCase =
        followUpColumns + """
             WHERE f.id IN (SELECT follow_up_id FROM follow_up_cases WHERE case_id = ?)
            ORDER BY CASE WHEN f.next_due_ms IS NULL THEN 1 ELSE 0 END, f.id
            """
    static let reasons = """
        SELECT fc.follow_up_id, fc.case_id, c.reference, fc.last_exposure_day, fc.minutes, fc.days,
            fc.most_minutes_one_day, fc.is_close, fc.added_by_hand, c.opened_by
        FROM follow_up_cases fc JOIN cases c ON c.id = fc.case_id
        WHERE fc.follow_up_id IN_LIST ORDER BY fc.follow_up_id, fc.case_id
        """
    static let insertFollowUp = """
        INSERT INTO follow_ups (person_user_id, state, assigned_to, last_exposure_day, period_ends_on, created_at_ms,
            next_due_ms)
        VALUES (?, 'calling', ?, ?, ?, ?, ?) RETURNING id
        """
    /// The head of a multi-row insert of new follow-ups (the rows follow).
    static let insertFollowUps = """
        INSERT INTO follow_ups (person_user_id, state, assigned_to, last_exposure_day, period_ends_on, created_at_ms,
            next_due_ms) VALUES\u{20}
        """
    static let insertReasons = """
        INSERT INTO follow_up_cases (follow_up_id, case_id, last_exposure_day, minutes, days, most_minutes_one_day,
            is_close, added_by_hand, added_at_ms) VALUES\u{20}
        """
    static let insertReason = """
        INSERT INTO follow_up_cases (follow_up_id, case_id, last_exposure_day, minutes, days, most_minutes_one_day,
            is_close, added_by_hand, added_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let updateFollowUp = """
        UPDATE follow_ups SET state = ?, assigned_to = ?, last_exposure_day = ?, period_ends_on = ?, next_due_ms = ?,
            attempts = ?, attempts_on_last_day = ?, last_outcome = ?, last_attempt_ms = ?, reached_at_ms = ?,
            checked_days = ?, last_check_day = ?, symptoms_flagged = ?, ended_at_ms = ?, became_case_id = ?
        WHERE id = ?
        """
    static let updateExposure = "UPDATE follow_ups SET last_exposure_day = ?, period_ends_on = ? WHERE id = ?"
    static let assign = "UPDATE follow_ups SET assigned_to = ? WHERE id IN_LIST"
    /// Enabled tracers with their active follow-ups (follow_ups_queue counts them from the index).
    static let tracerLoads = """
        SELECT s.name, (SELECT count(*) FROM follow_ups f WHERE f.assigned_to = s.name AND f.next_due_ms IS NOT NULL)
        FROM staff s WHERE s.role = 'tracer' AND s.disabled = 0 ORDER BY s.name
        """
    static let isTracer = "SELECT count(*) FROM staff WHERE name = ? AND role = 'tracer' AND disabled = 0"
    /// The active follow-ups of a case that name no other open case.
    static let endingWithCase = """
        SELECT f.id FROM follow_up_cases fc JOIN follow_ups f ON f.id = fc.follow_up_id
        WHERE fc.case_id = ? AND f.next_due_ms IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM follow_up_cases o JOIN cases oc ON oc.id = o.case_id
            WHERE o.follow_up_id = f.id AND o.case_id <> ? AND oc.status = 'open')
        """
    static let endFollowUps = """
        UPDATE follow_ups SET state = 'case_closed', next_due_ms = NULL, ended_at_ms = ? WHERE id IN_LIST
        """
    static let insertHistory = "INSERT INTO case_history (case_id, at_ms, actor, text) VALUES (?, ?, ?, ?)"
    static let history = "SELECT at_ms, actor, text FROM case_history WHERE case_id = ? ORDER BY id"
    static let cameFrom = """
        SELECT fc.case_id, oc.reference, fc.follow_up_id FROM cases c
        JOIN follow_up_cases fc ON fc.follow_up_id = c.source_follow_up_id JOIN cases oc ON oc.id = fc.case_id
        WHERE c.id = ? ORDER BY fc.case_id
        """
    static let ledTo = """
        SELECT f.became_case_id, bc.reference, f.id FROM follow_up_cases fc JOIN follow_ups f ON f.id = fc.follow_up_id
        JOIN cases bc ON bc.id = f.became_case_id WHERE fc.case_id = ? ORDER BY f.became_case_id
        """
    static let insertAttempt = """
        INSERT INTO follow_up_attempts (follow_up_id, at_ms, by_name, outcome, note) VALUES (?, ?, ?, ?, ?)
        """
    static let insertCheck = """
        INSERT INTO follow_up_checks (follow_up_id, day, at_ms, by_name, symptoms, isolating, note)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """
    static let attempts = """
        SELECT id, follow_up_id, at_ms, by_name, outcome, note FROM follow_up_attempts WHERE follow_up_id = ? ORDER BY at_ms, id
        """
    static let checks = """
        SELECT id, follow_up_id, day, at_ms, by_name, symptoms, isolating, note FROM follow_up_checks
        WHERE follow_up_id = ? ORDER BY at_ms, id
        """
    static let oldClosedCases = "SELECT id FROM cases WHERE status = 'closed' AND closed_at_ms < ?"
    static let deleteCases = "DELETE FROM cases WHERE id IN_LIST"
    /// Ended follow-ups naming no case any more (their cases were deleted).
    static let deleteOrphans = """
        DELETE FROM follow_ups WHERE next_due_ms IS NULL
            AND NOT EXISTS (SELECT 1 FROM follow_up_cases fc WHERE fc.follow_up_id = follow_ups.id)
        """
}

/// The fixed statements of ``FollowUpWork`` in one adapter's dialect.
struct FollowUpStatements: Sendable {
    var caseByID, openCaseOfPatient, openPatientsAmong, insertCase, closeCase: String
    var followUpByID, followUpsByID, activeAmong, activeOfPerson, followUpsOfCase, reasons: String
    var insertFollowUp, insertReason, updateFollowUp, updateExposure, assign, tracerLoads, isTracer: String
    var endingWithCase, endFollowUps, insertHistory, history, cameFrom, ledTo: String
    var insertAttempt, insertCheck, attempts, checks, oldClosedCases, deleteCases, deleteOrphans, insertEvent: String
    var listOpen, listClose: String
    let dialect: SQLDialect

    static let sqlite = FollowUpStatements(.sqlite)
    static let postgres = FollowUpStatements(.postgres)

    private init(_ dialect: SQLDialect) {
        self.dialect = dialect
        let onSQLite = dialect == .sqlite
        let t = dialect.text
        let l = dialect.listing
        caseByID = t(FollowUpSQL.caseByID)
        openCaseOfPatient = t(FollowUpSQL.openCaseOfPatient)
        openPatientsAmong = l(FollowUpSQL.openPatientsAmong)
        insertCase = t(FollowUpSQL.insertCase)
        closeCase = t(FollowUpSQL.closeCase)
        followUpByID = t(FollowUpSQL.followUpByID)
        followUpsByID = l(FollowUpSQL.followUpsByID)
        activeAmong = l(FollowUpSQL.activeAmong)
        activeOfPerson = t(FollowUpSQL.activeOfPerson)
        followUpsOfCase = t(FollowUpSQL.followUpsOfCase)
        reasons = l(FollowUpSQL.reasons)
        insertFollowUp = t(FollowUpSQL.insertFollowUp)
        insertReason = t(FollowUpSQL.insertReason)
        updateFollowUp = t(FollowUpSQL.updateFollowUp)
        updateExposure = t(FollowUpSQL.updateExposure)
        assign = l(FollowUpSQL.assign)
        tracerLoads = t(FollowUpSQL.tracerLoads)
        isTracer = t(FollowUpSQL.isTracer)
        endingWithCase = t(FollowUpSQL.endingWithCase)
        endFollowUps = l(FollowUpSQL.endFollowUps)
        insertHistory = t(FollowUpSQL.insertHistory)
        history = t(FollowUpSQL.history)
        cameFrom = t(FollowUpSQL.cameFrom)
        ledTo = t(FollowUpSQL.ledTo)
        insertAttempt = t(FollowUpSQL.insertAttempt)
        insertCheck = t(FollowUpSQL.insertCheck)
        attempts = t(FollowUpSQL.attempts)
        checks = t(FollowUpSQL.checks)
        oldClosedCases = t(FollowUpSQL.oldClosedCases)
        deleteCases = l(FollowUpSQL.deleteCases)
        deleteOrphans = t(FollowUpSQL.deleteOrphans)
        insertEvent = t(SQL.insertEvent)
        listOpen = onSQLite ? "[" : "{"
        listClose = onSQLite ? "]" : "}"
    }

    /// A statement built per call (the queue's and the case list's filters), in this dialect.
    func built(_ sql: String) -> String {
        dialect.listing(sql)
    }
}

/// Cases, follow-ups, attempts, checks and the queue: one implementation for every adapter, run
/// inside the transaction the adapter opened. Every write takes the audit log's lock first
/// (StaffWork's lock order), which also orders the writes of follow-up work across servers on
/// PostgreSQL: a follow-up is read, changed by ``FollowUpSchedule`` in Swift and written back
/// with no other writer in between.
struct FollowUpWork<DB: SQLRunning> {
    let db: DB
    let sql: FollowUpStatements
    let staff: StaffWork<DB>

    /// The history's and events' actor for time's effect.
    static var timeActor: String { "tracedesk" }

    // MARK: Cases

    /// In a write transaction.
    func openCase(_ request: CaseOpenRequest, now: Date, settings: FollowUpSettings) throws(StoreError)
        -> CaseOpening
    {
        let op = "open a case"
        try staff.lockAudit(operation: op)
        let nowMs = now.unixMilliseconds
        if let existing = try readCases(sql.openCaseOfPatient, [.integer(request.patientUserID)], operation: op).first {
            return CaseOpening(trace: existing, existing: true, followUpsCreated: 0, followUpsJoined: 0)
        }
        let source = try readFollowUps(
            sql.activeOfPerson, [.integer(request.patientUserID)], reasons: true, operation: op
        ).first
        guard
            let caseID = try db.query(
                sql.insertCase,
                [
                    .text(request.reference), .integer(request.patientUserID), .text(request.indexDay.iso),
                    .text(request.indexKind.rawValue), .text(request.openedBy), .integer(nowMs),
                    source.map { .integer($0.id) } ?? .null,
                ], operation: op, { $0.integer(0) }
            ).first
        else { throw StoreError.failed(operation: op, reason: "no id came back") }

        // One row per person (the latest exposure), never the patient, never a person who is an
        // open case's patient themselves (they are followed as a case).
        var byPerson: [Int64: CaseContact] = [:]
        for contact in request.contacts where contact.userID != request.patientUserID {
            if let seen = byPerson[contact.userID], seen.lastExposureDay >= contact.lastExposureDay { continue }
            byPerson[contact.userID] = contact
        }
        let persons = byPerson.keys.sorted()
        var isCase = Set<Int64>()
        var active: [Int64: FollowUp] = [:]
        try forEachBatch(persons) { batch throws(StoreError) in
            for id in try db.query(sql.openPatientsAmong, [.text(list(batch))], operation: op, { $0.integer(0) }) {
                isCase.insert(id)
            }
            for followUp in try readFollowUps(sql.activeAmong, [.text(list(batch))], reasons: false, operation: op) {
                active[followUp.personUserID] = followUp
            }
        }
        var loads = request.assignToOpener ? [] : try tracerLoads(operation: op)
        var joined = 0
        // Follow-ups and their evidence are written in batches of multi-row inserts: a case of
        // 1 500 contacts is a few statements, not 3 000 round trips.
        var fresh: [(person: Int64, values: [SQLValue])] = []
        var evidence: [(person: Int64, followUpID: Int64?, contact: CaseContact)] = []
        for person in persons where !isCase.contains(person) {
            guard let contact = byPerson[person] else { continue }
            if let existing = active[person] {
                let merged = FollowUpSchedule.merged(
                    existing, lastExposure: contact.lastExposureDay, settings: settings)
                if merged.lastExposureDay != existing.lastExposureDay {
                    try db.run(
                        sql.updateExposure,
                        [.text(merged.lastExposureDay.iso), .text(merged.periodEndsOn.iso), .integer(existing.id)],
                        operation: op)
                }
                evidence.append((person, existing.id, contact))
                joined += 1
            } else {
                let opened = FollowUpSchedule.opened(
                    lastExposure: contact.lastExposureDay, now: now, settings: settings)
                let assignee = request.assignToOpener ? request.openedBy : Self.nextTracer(&loads)
                fresh.append(
                    (
                        person,
                        [
                            .integer(person), assignee.map { .text($0) } ?? .null, .text(contact.lastExposureDay.iso),
                            .text(opened.periodEndsOn.iso), .integer(nowMs),
                            .integer(opened.nextDueAt.unixMilliseconds),
                        ]
                    ))
                evidence.append((person, nil, contact))
            }
        }
        var made: [Int64: Int64] = [:]
        try forEachBatch(fresh, size: Self.rowsPerInsert) { batch throws(StoreError) in
            let rows = Array(repeating: "(?, 'calling', ?, ?, ?, ?, ?)", count: batch.count).joined(separator: ", ")
            for (id, person) in try db.query(
                sql.built(FollowUpSQL.insertFollowUps + rows + " RETURNING id, person_user_id"),
                batch.flatMap(\.values), operation: op, { ($0.integer(0), $0.integer(1)) })
            {
                made[person] = id
            }
        }
        let created = made.count
        guard created == fresh.count else {
            throw StoreError.failed(operation: op, reason: "not every new follow-up came back")
        }
        try forEachBatch(evidence, size: Self.rowsPerInsert) { batch throws(StoreError) in
            var values: [SQLValue] = []
            values.reserveCapacity(batch.count * 8)
            for row in batch {
                guard let id = row.followUpID ?? made[row.person] else { continue }
                let c = row.contact
                values += [
                    .integer(id), .integer(caseID), .text(c.lastExposureDay.iso), .integer(Int64(c.minutes)),
                    .integer(Int64(c.days)), .integer(Int64(c.mostMinutesOnOneDay)), .integer(c.isCloseContact ? 1 : 0),
                    .integer(nowMs),
                ]
            }
            let rows = Array(repeating: "(?, ?, ?, ?, ?, ?, ?, NULL, ?)", count: values.count / 8)
                .joined(separator: ", ")
            try db.run(sql.built(FollowUpSQL.insertReasons + rows), values, operation: op)
        }
        try addHistory(
            caseID, at: nowMs, actor: request.openedBy,
            CaseHistoryLine.opened(kind: request.indexKind, day: request.indexDay, created: created, joined: joined)
                .stored,
            operation: op)
        if let source {
            var became = source
            became.state = .becameCase
            became.nextDueAt = nil
            became.endedAt = now
            became.becameCaseID = caseID
            try write(became, operation: op)
            try addHistory(
                caseID, at: nowMs, actor: request.openedBy,
                CaseHistoryLine.cameFrom(followUp: source.id, cases: source.reasons.map(\.caseID)).stored,
                operation: op)
            for reason in source.reasons {
                try addHistory(
                    reason.caseID, at: nowMs, actor: request.openedBy,
                    CaseHistoryLine.becameCase(followUp: source.id, caseID: caseID).stored, operation: op)
            }
            try appendEvent(
                .followUpChanged, at: nowMs, actor: request.openedBy,
                .init(
                    caseID: caseID, followUpID: source.id, what: "became_case", state: FollowUpState.becameCase.rawValue
                ))
        }
        try staff.appendAudit(
            actor: request.openedBy, action: .caseOpened, target: "user \(request.patientUserID)",
            detail: AuditEntry.Detail.CaseOpened(
                caseID: caseID, reference: request.reference, followUpsCreated: created, followUpsJoined: joined,
                cameFromFollowUp: source?.id
            ).json, at: nowMs)
        try appendEvent(
            .caseOpened, at: nowMs, actor: request.openedBy,
            .init(caseID: caseID, what: "opened", followUps: created, joined: joined))
        guard let trace = try readCases(sql.caseByID, [.integer(caseID)], operation: op).first else {
            throw StoreError.failed(operation: op, reason: "the case just opened cannot be read")
        }
        return CaseOpening(trace: trace, existing: false, followUpsCreated: created, followUpsJoined: joined)
    }

    func cases(status: CaseStatusFilter, openedBy: String?, limit: Int) throws(StoreError) -> [TraceCase] {
        var conditions: [String] = []
        var parameters: [SQLValue] = []
        switch status {
        case .open: conditions.append("c.status = 'open'")
        case .closed: conditions.append("c.status = 'closed'")
        case .all: break
        }
        if let openedBy {
            conditions.append("c.opened_by = ?")
            parameters.append(.text(openedBy))
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        parameters.append(.integer(Int64(max(0, limit))))
        return try readCases(
            sql.built(FollowUpSQL.caseColumns + whereClause + " ORDER BY c.opened_at_ms DESC, c.id DESC LIMIT ?"),
            parameters, operation: "list cases")
    }

    /// In one read snapshot.
    func caseDetail(id: Int64) throws(StoreError) -> CaseDetail? {
        let op = "read a case"
        guard var trace = try readCases(sql.caseByID, [.integer(id)], operation: op).first else { return nil }
        trace.cameFrom = try links(sql.cameFrom, id, operation: op)
        trace.ledTo = try links(sql.ledTo, id, operation: op)
        let followUps = try readFollowUps(sql.followUpsOfCase, [.integer(id)], reasons: true, operation: op)
        let history = try db.query(sql.history, [.integer(id)], operation: op) {
            CaseHistoryEntry(at: Date(unixMilliseconds: $0.integer(0)), actor: $0.text(1), text: $0.text(2))
        }
        return CaseDetail(trace: trace, followUps: followUps, history: history)
    }

    /// In a write transaction.
    func closeCase(id: Int64, reason: CaseCloseReason, note: String, by actor: String, now: Date) throws(StoreError)
        -> CaseClosing
    {
        let op = "close a case"
        try staff.lockAudit(operation: op)
        guard let before = try readCases(sql.caseByID, [.integer(id)], operation: op).first else { return .notFound }
        guard before.status.isOpen else { return .alreadyClosed(before) }
        let nowMs = now.unixMilliseconds
        try db.run(sql.closeCase, [.text(reason.rawValue), .text(actor), .integer(nowMs), .integer(id)], operation: op)
        let ending = try db.query(sql.endingWithCase, [.integer(id), .integer(id)], operation: op) { $0.integer(0) }
        try forEachBatch(ending) { batch throws(StoreError) in
            try db.run(sql.endFollowUps, [.integer(nowMs), .text(list(batch))], operation: op)
        }
        let trimmed = Self.trimmed(note)
        try addHistory(
            id, at: nowMs, actor: actor,
            CaseHistoryLine.closed(reason: reason, ended: ending.count, note: trimmed).stored,
            operation: op)
        try staff.appendAudit(
            actor: actor, action: .caseClosed, target: "case \(id)",
            detail: AuditEntry.Detail.CaseClosed(
                reference: before.reference, reason: reason, followUpsEnded: ending.count
            )
            .json, at: nowMs)
        try appendEvent(
            .caseClosed, at: nowMs, actor: actor, .init(caseID: id, what: "closed", followUps: ending.count))
        guard let after = try readCases(sql.caseByID, [.integer(id)], operation: op).first else { return .notFound }
        return .closed(after, followUpsEnded: ending.count)
    }

    /// In a write transaction.
    func addFollowUp(
        caseID: Int64, personUserID: Int64, reason: String, by actor: String, now: Date, settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpAddition {
        let op = "add a follow-up"
        try staff.lockAudit(operation: op)
        guard let trace = try readCases(sql.caseByID, [.integer(caseID)], operation: op).first else {
            return .caseNotFound
        }
        guard trace.status.isOpen else { return .caseNotOpen(trace) }
        guard trace.patientUserID != personUserID else { return .isPatient }
        let nowMs = now.unixMilliseconds
        let today = now.utcDay
        let active = try readFollowUps(sql.activeOfPerson, [.integer(personUserID)], reasons: true, operation: op).first
        if let active, active.reasons.contains(where: { $0.caseID == caseID }) { return .alreadyFollowed(active) }
        let followUpID: Int64
        if let active {
            let merged = FollowUpSchedule.merged(active, lastExposure: today, settings: settings)
            if merged.lastExposureDay != active.lastExposureDay {
                try db.run(
                    sql.updateExposure,
                    [.text(merged.lastExposureDay.iso), .text(merged.periodEndsOn.iso), .integer(active.id)],
                    operation: op)
            }
            followUpID = active.id
        } else {
            let opened = FollowUpSchedule.opened(lastExposure: today, now: now, settings: settings)
            var loads = try tracerLoads(operation: op)
            let assignee = Self.nextTracer(&loads)
            guard
                let id = try db.query(
                    sql.insertFollowUp,
                    [
                        .integer(personUserID), assignee.map { .text($0) } ?? .null, .text(today.iso),
                        .text(opened.periodEndsOn.iso), .integer(nowMs), .integer(opened.nextDueAt.unixMilliseconds),
                    ], operation: op, { $0.integer(0) }
                ).first
            else { throw StoreError.failed(operation: op, reason: "no id came back") }
            followUpID = id
        }
        try db.run(
            sql.insertReason,
            [
                .integer(followUpID), .integer(caseID), .text(today.iso), .integer(0), .integer(0), .integer(0),
                .integer(0), .text(reason), .integer(nowMs),
            ], operation: op)
        try addHistory(
            caseID, at: nowMs, actor: actor, CaseHistoryLine.added(followUp: followUpID).stored, operation: op)
        try staff.appendAudit(
            actor: actor, action: .followUpAdded, target: "user \(personUserID)",
            detail: AuditEntry.Detail.FollowUpAdded(
                caseID: caseID, reference: trace.reference, followUpID: followUpID, joined: active != nil
            ).json, at: nowMs)
        try appendEvent(
            .followUpChanged, at: nowMs, actor: actor,
            .init(caseID: caseID, followUpID: followUpID, what: "added", state: FollowUpState.calling.rawValue))
        guard
            let followUp = try readFollowUps(sql.followUpByID, [.integer(followUpID)], reasons: true, operation: op)
                .first
        else { throw StoreError.failed(operation: op, reason: "the follow-up just added cannot be read") }
        return .added(followUp, joined: active != nil)
    }

    // MARK: The queue

    /// In a write transaction: time's effect on the scope first, then the page and the counts.
    func queue(_ query: QueueQuery, now: Date, settings: FollowUpSettings) throws(StoreError) -> QueuePage {
        let op = "read the queue"
        let nowMs = now.unixMilliseconds
        let startOfToday = FollowUpSchedule.start(of: now.utcDay).unixMilliseconds
        let startOfTomorrow = FollowUpSchedule.start(of: now.utcDay.adding(days: 1)).unixMilliseconds
        var scope = ""
        var scopeParameters: [SQLValue] = []
        switch query.scope {
        case .mine, .everyone: break
        case .tracer(let name):
            scope = " AND f.assigned_to = ?"
            scopeParameters = [.text(name)]
        case .unassigned: scope = " AND f.assigned_to IS NULL"
        }
        // Only a follow-up due before today can have run out of time (a check or a retry is
        // scheduled at most to the start of the next day, and an attempt settles its own day).
        // Of those, only a monitored one whose period ended, or one called and never reached
        // since `lostAfterDays` (FollowUpSchedule.settled): the rest are not even read.
        let lostBefore = FollowUpSchedule.start(of: now.utcDay.adding(days: 1 - settings.lostAfterDays))
        let stale = try readFollowUps(
            sql.built(
                FollowUpSQL.followUpColumns + " WHERE f.next_due_ms IS NOT NULL AND f.next_due_ms < ?" + scope
                    + " AND ((f.state = 'monitoring' AND f.period_ends_on < ?) OR (f.state = 'calling'"
                    + " AND f.attempts > 0 AND f.reached_at_ms IS NULL AND f.created_at_ms < ?))"),
            [.integer(startOfToday)] + scopeParameters + [
                .text(now.utcDay.iso), .integer(lostBefore.unixMilliseconds),
            ], reasons: false, operation: op)
        for followUp in stale where FollowUpSchedule.settled(followUp, now: now, settings: settings) != nil {
            _ = try settledFollowUp(followUp.id, now: now, settings: settings, operation: op)
        }

        var search = ""
        var searchParameters: [SQLValue] = []
        if let text = query.search.map(Self.trimmed), !text.isEmpty {
            let escaped = Self.likeEscaped(text.lowercased())
            let digits = String(text.unicodeScalars.filter { ("0"..."9").contains($0) }.map(Character.init))
            var alternatives =
                "EXISTS (SELECT 1 FROM follow_up_cases sf JOIN cases sc ON sc.id = sf.case_id WHERE sf.follow_up_id = f.id AND lower(sc.reference) LIKE ? ESCAPE '\\')"
            searchParameters.append(.text("%" + escaped + "%"))
            if !digits.isEmpty {
                alternatives += " OR u.phone LIKE ?"
                searchParameters.append(.text("%" + digits + "%"))
            }
            search = " AND (" + alternatives + ")"
        }
        var page = " WHERE f.next_due_ms IS NOT NULL" + scope
        var pageParameters = scopeParameters
        if !query.includeLater {
            page += " AND f.next_due_ms < ?"
            pageParameters.append(.integer(startOfTomorrow))
        }
        if let after = query.after {
            // The first bound is the index's range (follow_ups_queue), the rest the tie on id.
            page += " AND f.next_due_ms >= ? AND (f.next_due_ms > ? OR (f.next_due_ms = ? AND f.id > ?))"
            pageParameters += [
                .integer(after.dueAtMilliseconds), .integer(after.dueAtMilliseconds), .integer(after.dueAtMilliseconds),
                .integer(after.followUpID),
            ]
        }
        let limit = max(1, min(query.limit, QueueQuery.maximumLimit))
        var rows = try readFollowUps(
            sql.built(FollowUpSQL.followUpColumns + page + search + " ORDER BY f.next_due_ms, f.id LIMIT ?"),
            pageParameters + searchParameters + [.integer(Int64(limit + 1))], reasons: true, operation: op)
        var next: QueueCursor?
        if rows.count > limit {
            rows.removeLast(rows.count - limit)
            if let last = rows.last, let due = last.nextDueAt {
                next = QueueCursor(dueAtMilliseconds: due.unixMilliseconds, followUpID: last.id)
            }
        }
        let overdueLimit = nowMs - Int64(settings.retrySeconds) * 1000
        let join = search.isEmpty ? "" : " JOIN apricot_users u ON u.id = f.person_user_id"
        let countSQL = """
            SELECT count(CASE WHEN f.next_due_ms <= ? THEN 1 END),
                count(CASE WHEN f.next_due_ms > ? AND f.next_due_ms <= ? THEN 1 END),
                count(CASE WHEN f.next_due_ms > ? AND f.next_due_ms < ? THEN 1 END),
                count(CASE WHEN f.next_due_ms >= ? AND f.next_due_ms > ? THEN 1 END)
            FROM follow_ups f\(join) WHERE f.next_due_ms IS NOT NULL
            """
        let counts =
            try db.query(
                sql.built(countSQL + scope + search),
                [
                    .integer(overdueLimit), .integer(overdueLimit), .integer(nowMs), .integer(nowMs),
                    .integer(startOfTomorrow), .integer(startOfTomorrow), .integer(nowMs),
                ] + scopeParameters + searchParameters, operation: op
            ) {
                QueueCounts(
                    overdue: Int($0.integer(0)), due: Int($0.integer(1)), laterToday: Int($0.integer(2)),
                    later: Int($0.integer(3)))
            }.first ?? QueueCounts()
        return QueuePage(rows: rows, counts: counts, next: next, readAt: Date(unixMilliseconds: nowMs))
    }

    // MARK: One follow-up

    /// In a write transaction (time settles the follow-up first).
    func followUpDetail(id: Int64, now: Date, settings: FollowUpSettings) throws(StoreError) -> StoredFollowUpDetail? {
        let op = "read a follow-up"
        guard var followUp = try settledFollowUp(id, now: now, settings: settings, operation: op) else { return nil }
        followUp.reasons = try reasons(of: [followUp.id], operation: op)[followUp.id] ?? []
        let attempts = try db.query(sql.attempts, [.integer(id)], operation: op) { row -> CallAttempt? in
            guard let outcome = CallOutcome(rawValue: row.text(4)) else { return nil }
            return CallAttempt(
                id: row.integer(0), followUpID: row.integer(1), at: Date(unixMilliseconds: row.integer(2)),
                by: row.text(3), outcome: outcome, note: row.text(5))
        }.compactMap { $0 }
        let checks = try db.query(sql.checks, [.integer(id)], operation: op) { row -> DailyCheck? in
            guard let day = CivilDay(iso: row.text(2)) else { return nil }
            return DailyCheck(
                id: row.integer(0), followUpID: row.integer(1), day: day, at: Date(unixMilliseconds: row.integer(3)),
                by: row.text(4), symptoms: row.integer(5) != 0, isolating: row.integer(6) != 0, note: row.text(7))
        }.compactMap { $0 }
        var openers: [Int64: String] = [:]
        for reason in followUp.reasons {
            if let trace = try readCases(sql.caseByID, [.integer(reason.caseID)], operation: op).first {
                openers[trace.id] = trace.openedBy
            }
        }
        return StoredFollowUpDetail(followUp: followUp, attempts: attempts, checks: checks, caseOpeners: openers)
    }

    /// In a write transaction.
    func recordAttempt(
        followUpID: Int64, outcome: CallOutcome, note: String, by actor: String, onlyAssignedTo: String?, now: Date,
        settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpChange {
        let op = "record a call attempt"
        let followUp: FollowUp
        switch try workable(
            followUpID, onlyAssignedTo: onlyAssignedTo, problem: FollowUpSchedule.attemptProblem, now: now,
            settings: settings, operation: op)
        {
        case .recorded(let found): followUp = found
        case let refusal: return refusal
        }
        let nowMs = now.unixMilliseconds
        var next = FollowUpSchedule.attempted(followUp, outcome: outcome, at: now, settings: settings)
        try write(next, operation: op)
        try db.run(
            sql.insertAttempt,
            [.integer(followUpID), .integer(nowMs), .text(actor), .text(outcome.rawValue), .text(note)], operation: op)
        next.reasons = try reasons(of: [followUpID], operation: op)[followUpID] ?? []
        let line = CaseHistoryLine.attempt(
            followUp: followUpID, outcome: outcome, state: next.state == followUp.state ? nil : next.state
        ).stored
        for reason in next.reasons {
            try addHistory(reason.caseID, at: nowMs, actor: actor, line, operation: op)
        }
        try staff.appendAudit(
            actor: actor, action: .followUpAttempt, target: "follow-up \(followUpID)",
            detail: AuditEntry.Detail.FollowUpAttempt(
                person: "user \(next.personUserID)", outcome: outcome, state: next.state
            ).json, at: nowMs)
        try appendEvent(
            .followUpChanged, at: nowMs, actor: actor,
            .init(followUpID: followUpID, what: "attempt", state: next.state.rawValue))
        return .recorded(next)
    }

    /// In a write transaction.
    func recordCheck(
        followUpID: Int64, symptoms: Bool, isolating: Bool, note: String, by actor: String, onlyAssignedTo: String?,
        now: Date, settings: FollowUpSettings
    ) throws(StoreError) -> FollowUpChange {
        let op = "record a daily check"
        let followUp: FollowUp
        switch try workable(
            followUpID, onlyAssignedTo: onlyAssignedTo, problem: FollowUpSchedule.checkProblem, now: now,
            settings: settings, operation: op)
        {
        case .recorded(let found): followUp = found
        case let refusal: return refusal
        }
        let nowMs = now.unixMilliseconds
        var next = FollowUpSchedule.checked(followUp, symptoms: symptoms, at: now, settings: settings)
        try write(next, operation: op)
        try db.run(
            sql.insertCheck,
            [
                .integer(followUpID), .text(now.utcDay.iso), .integer(nowMs), .text(actor), .integer(symptoms ? 1 : 0),
                .integer(isolating ? 1 : 0), .text(note),
            ], operation: op)
        next.reasons = try reasons(of: [followUpID], operation: op)[followUpID] ?? []
        let words = CaseHistoryLine.check(
            followUp: followUpID, symptoms: symptoms, isolating: isolating,
            state: next.state == followUp.state ? nil : next.state
        ).stored
        for reason in next.reasons {
            try addHistory(reason.caseID, at: nowMs, actor: actor, words, operation: op)
        }
        try staff.appendAudit(
            actor: actor, action: .followUpCheck, target: "follow-up \(followUpID)",
            detail: AuditEntry.Detail.FollowUpCheck(
                person: "user \(next.personUserID)", symptoms: symptoms, isolating: isolating, state: next.state
            ).json, at: nowMs)
        try appendEvent(
            .followUpChanged, at: nowMs, actor: actor,
            .init(followUpID: followUpID, what: "check", state: next.state.rawValue))
        return .recorded(next)
    }

    /// In a write transaction.
    func assign(ids: [Int64], to tracer: String, by actor: String, now: Date) throws(StoreError) -> FollowUpAssignment {
        let op = "assign follow-ups"
        try staff.lockAudit(operation: op)
        guard try db.query(sql.isTracer, [.text(tracer)], operation: op, { $0.integer(0) }).first ?? 0 > 0 else {
            return .notATracer
        }
        let wanted = Array(Set(ids)).sorted()
        var found: [Int64: FollowUp] = [:]
        try forEachBatch(wanted) { batch throws(StoreError) in
            for followUp in try readFollowUps(sql.followUpsByID, [.text(list(batch))], reasons: true, operation: op) {
                found[followUp.id] = followUp
            }
        }
        let missing = wanted.filter { found[$0] == nil }
        if !missing.isEmpty { return .notFound(missing) }
        let ended = wanted.filter { !(found[$0]?.state.isActive ?? false) }
        if !ended.isEmpty { return .ended(ended) }
        let nowMs = now.unixMilliseconds
        try forEachBatch(wanted) { batch throws(StoreError) in
            try db.run(sql.assign, [.text(tracer), .text(list(batch))], operation: op)
        }
        var reassigned = 0
        var result: [FollowUp] = []
        for id in wanted {
            guard var followUp = found[id] else { continue }
            if followUp.assignedTo != nil && followUp.assignedTo != tracer { reassigned += 1 }
            if followUp.assignedTo != tracer {
                for reason in followUp.reasons {
                    try addHistory(
                        reason.caseID, at: nowMs, actor: actor,
                        CaseHistoryLine.assigned(followUp: id, tracer: tracer).stored, operation: op)
                }
            }
            followUp.assignedTo = tracer
            result.append(followUp)
        }
        try staff.appendAudit(
            actor: actor, action: .followUpAssigned, target: tracer,
            detail: AuditEntry.Detail.FollowUpAssigned(followUpIDs: wanted, reassigned: reassigned).json, at: nowMs)
        try appendEvent(
            .followUpChanged, at: nowMs, actor: actor,
            .init(followUpID: wanted.count == 1 ? wanted[0] : nil, what: "assigned", followUps: wanted.count))
        return .assigned(result)
    }

    // MARK: Retention

    /// In a write transaction (the cleanup's, or its own).
    func deleteClosedCases(closedBefore: Date) throws(StoreError) -> Int {
        let op = "delete closed cases"
        let ids = try db.query(sql.oldClosedCases, [.integer(closedBefore.unixMilliseconds)], operation: op) {
            $0.integer(0)
        }
        guard !ids.isEmpty else { return 0 }
        try forEachBatch(ids) { batch throws(StoreError) in
            try db.run(sql.deleteCases, [.text(list(batch))], operation: op)
        }
        try db.run(sql.deleteOrphans, [], operation: op)
        return ids.count
    }

    // MARK: Internals

    /// What an attempt and a check both ask first, under the audit log's lock: the follow-up,
    /// settled by time, assigned to `onlyAssignedTo` (when given) and open to `problem`'s work.
    /// `.recorded` carries the follow-up as it stands; any other case is the answer to give.
    private func workable(
        _ id: Int64, onlyAssignedTo: String?, problem: (FollowUp) -> String?, now: Date, settings: FollowUpSettings,
        operation op: String
    ) throws(StoreError) -> FollowUpChange {
        try staff.lockAudit(operation: op)
        guard let followUp = try settledFollowUp(id, now: now, settings: settings, operation: op) else {
            return .notFound
        }
        if let only = onlyAssignedTo, followUp.assignedTo != only {
            return .notAssigned(assignedTo: followUp.assignedTo)
        }
        if let problem = problem(followUp) { return .refused(problem) }
        return .recorded(followUp)
    }

    private func settledFollowUp(
        _ id: Int64, now: Date, settings: FollowUpSettings, operation op: String
    ) throws(StoreError) -> FollowUp? {
        guard let first = try readFollowUps(sql.followUpByID, [.integer(id)], reasons: false, operation: op).first
        else { return nil }
        guard FollowUpSchedule.settled(first, now: now, settings: settings) != nil else { return first }
        // Read again under the log's lock: no other writer changes the row before it is written.
        try staff.lockAudit(operation: op)
        guard let followUp = try readFollowUps(sql.followUpByID, [.integer(id)], reasons: false, operation: op).first
        else { return nil }
        guard let settled = FollowUpSchedule.settled(followUp, now: now, settings: settings) else { return followUp }
        try settle(settled, at: now.unixMilliseconds, operation: op)
        return settled
    }

    /// Writes time's effect on one follow-up, with a history line per case and an event.
    private func settle(_ followUp: FollowUp, at nowMs: Int64, operation op: String) throws(StoreError) {
        try write(followUp, operation: op)
        for reason in try reasons(of: [followUp.id], operation: op)[followUp.id] ?? [] {
            try addHistory(
                reason.caseID, at: nowMs, actor: Self.timeActor,
                CaseHistoryLine.settled(followUp: followUp.id, state: followUp.state).stored,
                operation: op)
        }
        try appendEvent(
            .followUpChanged, at: nowMs, actor: nil,
            .init(followUpID: followUp.id, what: "settled", state: followUp.state.rawValue))
    }

    private func write(_ f: FollowUp, operation op: String) throws(StoreError) {
        func ms(_ date: Date?) -> SQLValue { date.map { .integer($0.unixMilliseconds) } ?? .null }
        try db.run(
            sql.updateFollowUp,
            [
                .text(f.state.rawValue), f.assignedTo.map { .text($0) } ?? .null, .text(f.lastExposureDay.iso),
                .text(f.periodEndsOn.iso), ms(f.nextDueAt), .integer(Int64(f.attempts)),
                .integer(Int64(f.attemptsOnLastDay)), f.lastOutcome.map { .text($0.rawValue) } ?? .null,
                ms(f.lastAttemptAt), ms(f.reachedAt), .integer(Int64(f.checkedDays)),
                f.lastCheckDay.map { .text($0.iso) } ?? .null, .integer(f.symptomsFlagged ? 1 : 0), ms(f.endedAt),
                f.becameCaseID.map { .integer($0) } ?? .null, .integer(f.id),
            ], operation: op)
    }

    /// Enabled tracers and their active follow-ups, fewest first.
    private func tracerLoads(operation op: String) throws(StoreError) -> [(name: String, load: Int)] {
        try db.query(sql.tracerLoads, operation: op) { (name: $0.text(0), load: Int($0.integer(1))) }
    }

    /// Round-robin: the tracer with the fewest active follow-ups (by name on a tie), counted one more.
    static func nextTracer(_ loads: inout [(name: String, load: Int)]) -> String? {
        guard !loads.isEmpty else { return nil }
        var best = 0
        for index in loads.indices.dropFirst() where loads[index].load < loads[best].load { best = index }
        loads[best].load += 1
        return loads[best].name
    }

    private func addHistory(
        _ caseID: Int64, at ms: Int64, actor: String, _ text: String, operation op: String
    ) throws(StoreError) {
        try db.run(sql.insertHistory, [.integer(caseID), .integer(ms), .text(actor), .text(text)], operation: op)
    }

    private func appendEvent(
        _ kind: DeskEvent.Kind, at ms: Int64, actor: String?, _ detail: DeskEvent.Detail.FollowUpActivity
    ) throws(StoreError) {
        try db.run(
            sql.insertEvent,
            [.integer(ms), .text(kind.rawValue), .null, actor.map { .text($0) } ?? .null, .text(detail.json)],
            operation: "append event")
    }

    private func links(_ statement: String, _ id: Int64, operation op: String) throws(StoreError) -> [CaseLink] {
        try db.query(statement, [.integer(id)], operation: op) {
            CaseLink(caseID: $0.integer(0), reference: $0.text(1), followUpID: $0.integer(2))
        }
    }

    private func readCases(_ statement: String, _ parameters: [SQLValue], operation op: String) throws(StoreError)
        -> [TraceCase]
    {
        try db.query(statement, parameters, operation: op) { row -> TraceCase? in
            guard let phone = PhoneNumber(e164: row.text(3)), let day = CivilDay(iso: row.text(4)),
                let kind = IndexDayKind(rawValue: row.text(5))
            else { return nil }
            var status = CaseStatus.open
            if row.text(8) == "closed" {
                status = .closed(
                    reason: row.optionalText(9).flatMap(CaseCloseReason.init) ?? .other, by: row.optionalText(10) ?? "",
                    at: Date(unixMilliseconds: row.optionalInteger(11) ?? 0))
            }
            return TraceCase(
                id: row.integer(0), reference: row.text(1), patientUserID: row.integer(2), phone: phone, indexDay: day,
                indexKind: kind, openedBy: row.text(6), openedAt: Date(unixMilliseconds: row.integer(7)),
                status: status,
                contacts: Int(row.integer(12)))
        }.compactMap { $0 }
    }

    /// Follow-ups read by `statement` (``FollowUpSQL/followUpColumns``), with their reasons when asked.
    private func readFollowUps(
        _ statement: String, _ parameters: [SQLValue], reasons withReasons: Bool, operation op: String
    ) throws(StoreError) -> [FollowUp] {
        var rows = try db.query(statement, parameters, operation: op) { row -> FollowUp? in
            guard let phone = PhoneNumber(e164: row.text(2)), let state = FollowUpState(rawValue: row.text(3)),
                let exposure = CivilDay(iso: row.text(5)), let ends = CivilDay(iso: row.text(6))
            else { return nil }
            func date(_ column: Int32) -> Date? { row.optionalInteger(column).map(Date.init(unixMilliseconds:)) }
            return FollowUp(
                id: row.integer(0), personUserID: row.integer(1), phone: phone, reasons: [], lastExposureDay: exposure,
                periodEndsOn: ends, assignedTo: row.optionalText(4), state: state,
                createdAt: Date(unixMilliseconds: row.integer(7)), nextDueAt: date(8), attempts: Int(row.integer(9)),
                attemptsOnLastDay: Int(row.integer(10)),
                lastOutcome: row.optionalText(11).flatMap { CallOutcome(rawValue: $0) },
                lastAttemptAt: date(12), reachedAt: date(13), checkedDays: Int(row.integer(14)),
                lastCheckDay: row.optionalText(15).flatMap(CivilDay.init(iso:)), symptomsFlagged: row.integer(16) != 0,
                endedAt: date(17), becameCaseID: row.optionalInteger(18))
        }.compactMap { $0 }
        if withReasons, !rows.isEmpty {
            let all = try reasons(of: rows.map(\.id), operation: op)
            for index in rows.indices { rows[index].reasons = all[rows[index].id] ?? [] }
        }
        return rows
    }

    private func reasons(of ids: [Int64], operation op: String) throws(StoreError) -> [Int64: [FollowUpReason]] {
        var out: [Int64: [FollowUpReason]] = [:]
        try forEachBatch(ids) { batch throws(StoreError) in
            for (id, reason) in try db.query(
                sql.reasons, [.text(list(batch))], operation: op,
                { row -> (Int64, FollowUpReason)? in
                    guard let day = CivilDay(iso: row.text(3)) else { return nil }
                    return (
                        row.integer(0),
                        FollowUpReason(
                            caseID: row.integer(1), caseReference: row.text(2), lastExposureDay: day,
                            minutes: Int(row.integer(4)), days: Int(row.integer(5)),
                            mostMinutesOnOneDay: Int(row.integer(6)), isCloseContact: row.integer(7) != 0,
                            addedByHand: row.optionalText(8))
                    )
                }
            ).compactMap({ $0 }) {
                out[id, default: []].append(reason)
            }
        }
        return out
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

    /// `text` safe inside a LIKE pattern with `ESCAPE '\'`.
    static func likeEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out
    }

    private func list<S: Sequence>(_ numbers: S) -> String where S.Element: BinaryInteger {
        sql.listOpen + numbers.map { String($0) }.joined(separator: ",") + sql.listClose
    }

    /// Rows per multi-row insert (at most 8 values each: well under either engine's limit).
    static var rowsPerInsert: Int { 500 }

    private func forEachBatch<T>(
        _ items: [T], size: Int = 5_000, _ body: (ArraySlice<T>) throws(StoreError) -> Void
    ) throws(StoreError) {
        var start = 0
        while start < items.count {
            try body(items[start..<min(items.count, start + size)])
            start += size
        }
    }
}
