import CivilCalendar
import DeskContract
import DeskCore
import JSONText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Cases and follow-ups as JSON (docs/staff-api.yaml, "Cases and follow-ups"), written and read
/// here only: the server and `RemoteDesk` use these functions through ``StaffCodecs``.
///
/// Privacy rule: a phone number travels only in bodies (opening a case, adding a person, a
/// queue search, and the answers that show a person's number), never in a URL or a query, so
/// the access log never sees one. Paths name cases and follow-ups by id only. No error detail
/// written here repeats a value that was sent.
extension StaffWire {
    // MARK: Request bodies and queries (written by RemoteDesk, read by StaffRequests)

    /// `POST /staff/v1/cases`: the phone as typed, the reference, the index day (left out:
    /// today, as a test day) and its kind, and whether the opener takes the new follow-ups.
    public static func openCaseRequest(_ request: StaffRequests.OpenCase) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("phone", .string(request.phone)), ("reference", .string(request.reference)),
        ]
        if let day = request.indexDay { members.append(("index_day", .string(day.iso))) }
        members += [("index_kind", .string(request.indexKind.rawValue)), ("assign_to_me", .bool(request.assignToMe))]
        return object(members)
    }

    /// The query of `GET /staff/v1/cases`, in a fixed order; no `opened_by` when there is none.
    public static func caseQueryItems(_ query: CaseQuery) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = [("status", query.status.rawValue)]
        if let openedBy = query.openedBy { items.append(("opened_by", openedBy)) }
        items.append(("limit", String(query.limit)))
        return items
    }

    /// `POST /staff/v1/cases/{id}/close`.
    public static func closeCaseRequest(reason: CaseCloseReason, note: String) -> JSONValue {
        object([("reason", .string(reason.rawValue)), ("note", .string(note))])
    }

    /// `POST /staff/v1/cases/{id}/follow-ups`: the person's phone as typed and why.
    public static func addFollowUpRequest(phone: String, reason: String) -> JSONValue {
        object([("phone", .string(phone)), ("reason", .string(reason))])
    }

    /// `POST /staff/v1/queue`: whose queue, whether later days too, the search, the cursor
    /// (`<ms>-<id>`, ``QueueCursor/text``) and the page size. Absent values are left out.
    public static func queueRequest(_ query: QueueQuery) -> JSONValue {
        var members: [(String, JSONValue)] = []
        switch query.scope {
        case .mine: members.append(("scope", .string("mine")))
        case .tracer(let name): members += [("scope", .string("tracer")), ("tracer", .string(name))]
        case .unassigned: members.append(("scope", .string("unassigned")))
        case .everyone: members.append(("scope", .string("everyone")))
        }
        members.append(("later", .bool(query.includeLater)))
        if let search = query.search { members.append(("q", .string(search))) }
        if let after = query.after { members.append(("after", .string(after.text))) }
        members.append(("limit", number(query.limit)))
        return object(members)
    }

    /// `POST /staff/v1/follow-ups/{id}/attempts`.
    public static func attemptRequest(outcome: CallOutcome, note: String) -> JSONValue {
        object([("outcome", .string(outcome.rawValue)), ("note", .string(note))])
    }

    /// `POST /staff/v1/follow-ups/{id}/checks`.
    public static func checkRequest(symptoms: Bool, isolating: Bool, note: String) -> JSONValue {
        object([("symptoms", .bool(symptoms)), ("isolating", .bool(isolating)), ("note", .string(note))])
    }

    /// `POST /staff/v1/follow-ups/assignments`: the follow-ups' ids and the tracer's name.
    public static func assignmentRequest(ids: [Int64], to tracer: String) -> JSONValue {
        object([("ids", .array(ids.map { number($0) })), ("to", .string(tracer))])
    }

    // MARK: Answers

    static func caseLink(_ link: CaseLink) -> JSONValue {
        object([
            ("case_id", number(link.caseID)), ("reference", .string(link.reference)),
            ("follow_up_id", number(link.followUpID)),
        ])
    }

    /// A case (`Case` in the YAML): `status` is `open` or `closed`; `closed` says why, by whom
    /// and when (null while open).
    public static func traceCase(_ trace: TraceCase) -> JSONValue {
        let status: String
        let closed: JSONValue
        switch trace.status {
        case .open:
            status = "open"
            closed = .null
        case .closed(let reason, let by, let at):
            status = "closed"
            closed = object([("reason", .string(reason.rawValue)), ("by", .string(by)), ("at", .string(time(at)))])
        }
        return object([
            ("id", number(trace.id)), ("reference", .string(trace.reference)),
            ("patient_user_id", number(trace.patientUserID)), ("phone", .string(trace.phone.e164)),
            ("index_day", .string(trace.indexDay.iso)), ("index_kind", .string(trace.indexKind.rawValue)),
            ("opened_by", .string(trace.openedBy)), ("opened_at", .string(time(trace.openedAt))),
            ("status", .string(status)), ("closed", closed), ("contacts", number(trace.contacts)),
            ("came_from", .array(trace.cameFrom.map(caseLink))), ("led_to", .array(trace.ledTo.map(caseLink))),
        ])
    }

    /// The answer of `POST /staff/v1/cases`.
    public static func caseOpening(_ opening: CaseOpening) -> JSONValue {
        object([
            ("case", traceCase(opening.trace)), ("existing", .bool(opening.existing)),
            ("follow_ups_created", number(opening.followUpsCreated)),
            ("follow_ups_joined", number(opening.followUpsJoined)),
        ])
    }

    /// The answer of `GET /staff/v1/cases`.
    public static func caseList(_ cases: [TraceCase]) -> JSONValue {
        object([("cases", .array(cases.map(traceCase)))])
    }

    /// The answer of `GET /staff/v1/cases/{id}`.
    public static func caseDetail(_ detail: CaseDetail) -> JSONValue {
        object([
            ("case", traceCase(detail.trace)), ("follow_ups", .array(detail.followUps.map(followUp))),
            (
                "history",
                .array(
                    detail.history.map {
                        object([("at", .string(time($0.at))), ("actor", .string($0.actor)), ("text", .string($0.text))])
                    })
            ),
        ])
    }

    /// A follow-up (`FollowUp` in the YAML), with one reason per case naming the person.
    public static func followUp(_ followUp: FollowUp) -> JSONValue {
        object([
            ("id", number(followUp.id)), ("person_user_id", number(followUp.personUserID)),
            ("phone", .string(followUp.phone.e164)),
            (
                "reasons",
                .array(
                    followUp.reasons.map { reason in
                        object([
                            ("case_id", number(reason.caseID)), ("case_reference", .string(reason.caseReference)),
                            ("last_exposure_day", .string(reason.lastExposureDay.iso)),
                            ("minutes", number(reason.minutes)), ("days", number(reason.days)),
                            ("most_minutes_on_one_day", number(reason.mostMinutesOnOneDay)),
                            ("close_contact", .bool(reason.isCloseContact)),
                            ("added_by_hand", reason.addedByHand.map { .string($0) } ?? .null),
                        ])
                    })
            ),
            ("last_exposure_day", .string(followUp.lastExposureDay.iso)),
            ("period_ends_on", .string(followUp.periodEndsOn.iso)),
            ("assigned_to", followUp.assignedTo.map { .string($0) } ?? .null),
            ("state", .string(followUp.state.rawValue)), ("created_at", .string(time(followUp.createdAt))),
            ("next_due_at", optionalTime(followUp.nextDueAt)), ("attempts", number(followUp.attempts)),
            ("attempts_on_last_day", number(followUp.attemptsOnLastDay)),
            ("last_outcome", followUp.lastOutcome.map { .string($0.rawValue) } ?? .null),
            ("last_attempt_at", optionalTime(followUp.lastAttemptAt)), ("reached_at", optionalTime(followUp.reachedAt)),
            ("checked_days", number(followUp.checkedDays)),
            ("last_check_day", followUp.lastCheckDay.map { .string($0.iso) } ?? .null),
            ("symptoms_flagged", .bool(followUp.symptomsFlagged)), ("ended_at", optionalTime(followUp.endedAt)),
            ("became_case_id", followUp.becameCaseID.map { number($0) } ?? .null),
        ])
    }

    /// The answer of `POST /staff/v1/follow-ups/assignments`.
    public static func followUpList(_ followUps: [FollowUp]) -> JSONValue {
        object([("follow_ups", .array(followUps.map(followUp)))])
    }

    /// The answer of `GET /staff/v1/follow-ups/{id}`.
    public static func followUpDetail(_ detail: FollowUpDetail) -> JSONValue {
        object([
            ("follow_up", followUp(detail.followUp)),
            (
                "attempts",
                .array(
                    detail.attempts.map {
                        object([
                            ("id", number($0.id)), ("follow_up_id", number($0.followUpID)),
                            ("at", .string(time($0.at))), ("by", .string($0.by)),
                            ("outcome", .string($0.outcome.rawValue)), ("note", .string($0.note)),
                        ])
                    })
            ),
            (
                "checks",
                .array(
                    detail.checks.map {
                        object([
                            ("id", number($0.id)), ("follow_up_id", number($0.followUpID)),
                            ("day", .string($0.day.iso)), ("at", .string(time($0.at))), ("by", .string($0.by)),
                            ("symptoms", .bool($0.symptoms)), ("isolating", .bool($0.isolating)),
                            ("note", .string($0.note)),
                        ])
                    })
            ),
        ])
    }

    /// The answer of `POST /staff/v1/queue`: the rows, the counts over the whole queue asked
    /// for, where the next page starts (null after the last) and the desk's time of reading.
    public static func queuePage(_ page: QueuePage) -> JSONValue {
        object([
            ("rows", .array(page.rows.map(followUp))),
            (
                "counts",
                object([
                    ("overdue", number(page.counts.overdue)), ("due", number(page.counts.due)),
                    ("later_today", number(page.counts.laterToday)), ("later", number(page.counts.later)),
                ])
            ),
            ("next", page.next.map { .string($0.text) } ?? .null), ("read_at", .string(time(page.readAt))),
        ])
    }

    /// A figure that may be missing (nothing to count): null, or its shortest exact decimal.
    static func figure(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .number(String(describing: value))
    }

    /// The answer of `GET /staff/v1/follow-ups/indicators` (also what `tracedesk stats --json`
    /// can print beside the statistics): figures, tracer names and no person.
    public static func followUpIndicators(_ indicators: FollowUpIndicators) -> JSONValue {
        object([
            ("from", .string(time(indicators.from))), ("to", .string(time(indicators.to))),
            ("cases", number(indicators.cases)),
            ("contacts_per_case_mean", figure(indicators.contactsPerCaseMean)),
            ("contacts_per_case_median", figure(indicators.contactsPerCaseMedian)),
            ("reached_within_24h_percent", figure(indicators.reachedWithin24hPercent)),
            ("median_hours_to_first_reach", figure(indicators.medianHoursToFirstReach)),
            ("checked_every_day_percent", figure(indicators.checkedEveryDayPercent)),
            (
                "unreached",
                object([
                    ("one_day", number(indicators.unreached.oneDay)),
                    ("two_days", number(indicators.unreached.twoDays)),
                    ("three_days", number(indicators.unreached.threeDays)),
                    ("more_than_three_days", number(indicators.unreached.moreThanThreeDays)),
                ])
            ),
            ("lost_percent", figure(indicators.lostPercent)),
            ("known_contact_percent", figure(indicators.knownContactPercent)),
            (
                "tracers",
                .array(
                    indicators.tracers.map {
                        object([
                            ("tracer", .string($0.tracer)), ("assigned", number($0.assigned)), ("due", number($0.due)),
                            ("overdue", number($0.overdue)), ("done_today", number($0.doneToday)),
                        ])
                    })
            ),
        ])
    }

    // MARK: Reading answers

    static func items(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> [ObjectReader] {
        var readers: [ObjectReader] = []
        for (i, item) in try reader.array(key)!.enumerated() {
            readers.append(try ObjectReader(item, path: reader.name(key) + "[\(i)]"))
        }
        return readers
    }

    static func optionalString(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> String? {
        try reader.string(key, required: false, allowNull: true)
    }

    static func optionalInt(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> Int64? {
        guard let value = try reader.optional(key, allowNull: true) else { return nil }
        return try Fields.integer(value, name: reader.name(key), in: Int64.min...Int64.max)
    }

    /// A figure: null, or a finite number from 0.
    static func optionalFigure(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> Double? {
        guard let value = try reader.optional(key, allowNull: true) else { return nil }
        guard case .number(let text) = value, let figure = Double(text), figure.isFinite, figure >= 0 else {
            throw FieldProblem("\(reader.name(key)) must be null or a number from 0")
        }
        return figure
    }

    static func enumValue<T: RawRepresentable>(_ reader: ObjectReader, _ key: String, _ what: String)
        throws(FieldProblem) -> T where T.RawValue == String
    {
        guard let value = T(rawValue: try reader.string(key)!) else {
            throw FieldProblem("\(reader.name(key)) is not \(what) this version knows")
        }
        return value
    }

    static func caseLinks(_ reader: ObjectReader, _ key: String) throws(FieldProblem) -> [CaseLink] {
        var links: [CaseLink] = []
        for item in try items(reader, key) {
            links.append(
                CaseLink(
                    caseID: try int(item, "case_id"), reference: try item.string("reference")!,
                    followUpID: try int(item, "follow_up_id")))
        }
        return links
    }

    static func traceCase(_ reader: ObjectReader) throws(FieldProblem) -> TraceCase {
        let status: CaseStatus
        switch try reader.string("status")! {
        case "open":
            guard try reader.optional("closed", allowNull: true) == nil else {
                throw FieldProblem("\(reader.name("closed")) must be null for an open case")
            }
            status = .open
        case "closed":
            let closed = try nested(reader, "closed")
            status = .closed(
                reason: try enumValue(closed, "reason", "a closing reason"), by: try closed.string("by")!,
                at: try requiredTime(closed, "at"))
        default:
            throw FieldProblem("\(reader.name("status")) is not a case status this version knows (open, closed)")
        }
        return TraceCase(
            id: try int(reader, "id"), reference: try reader.string("reference")!,
            patientUserID: try int(reader, "patient_user_id"), phone: try phone(reader, "phone"),
            indexDay: try day(reader, "index_day")!,
            indexKind: try enumValue(reader, "index_kind", "an index day kind"),
            openedBy: try reader.string("opened_by")!, openedAt: try requiredTime(reader, "opened_at"), status: status,
            contacts: try count(reader, "contacts"), cameFrom: try caseLinks(reader, "came_from"),
            ledTo: try caseLinks(reader, "led_to"))
    }

    public static func readCase(_ bytes: [UInt8]) throws(FieldProblem) -> TraceCase {
        try traceCase(try document(bytes))
    }

    public static func readCaseOpening(_ bytes: [UInt8]) throws(FieldProblem) -> CaseOpening {
        let reader = try document(bytes)
        return CaseOpening(
            trace: try traceCase(try nested(reader, "case")), existing: try bool(reader, "existing"),
            followUpsCreated: try count(reader, "follow_ups_created"),
            followUpsJoined: try count(reader, "follow_ups_joined"))
    }

    public static func readCaseList(_ bytes: [UInt8]) throws(FieldProblem) -> [TraceCase] {
        var cases: [TraceCase] = []
        for item in try items(try document(bytes), "cases") { cases.append(try traceCase(item)) }
        return cases
    }

    public static func readCaseDetail(_ bytes: [UInt8]) throws(FieldProblem) -> CaseDetail {
        let reader = try document(bytes)
        var followUps: [FollowUp] = []
        for item in try items(reader, "follow_ups") { followUps.append(try followUp(item)) }
        var history: [CaseHistoryEntry] = []
        for item in try items(reader, "history") {
            history.append(
                CaseHistoryEntry(
                    at: try requiredTime(item, "at"), actor: try item.string("actor")!, text: try item.string("text")!))
        }
        return CaseDetail(trace: try traceCase(try nested(reader, "case")), followUps: followUps, history: history)
    }

    static func followUp(_ reader: ObjectReader) throws(FieldProblem) -> FollowUp {
        var reasons: [FollowUpReason] = []
        for item in try items(reader, "reasons") {
            reasons.append(
                FollowUpReason(
                    caseID: try int(item, "case_id"), caseReference: try item.string("case_reference")!,
                    lastExposureDay: try day(item, "last_exposure_day")!, minutes: try count(item, "minutes"),
                    days: try count(item, "days"), mostMinutesOnOneDay: try count(item, "most_minutes_on_one_day"),
                    isCloseContact: try bool(item, "close_contact"),
                    addedByHand: try optionalString(item, "added_by_hand")))
        }
        var lastOutcome: CallOutcome?
        if try reader.optional("last_outcome", allowNull: true) != nil {
            lastOutcome = try enumValue(reader, "last_outcome", "a call outcome") as CallOutcome
        }
        return FollowUp(
            id: try int(reader, "id"), personUserID: try int(reader, "person_user_id"),
            phone: try phone(reader, "phone"), reasons: reasons, lastExposureDay: try day(reader, "last_exposure_day")!,
            periodEndsOn: try day(reader, "period_ends_on")!, assignedTo: try optionalString(reader, "assigned_to"),
            state: try enumValue(reader, "state", "a follow-up state"),
            createdAt: try requiredTime(reader, "created_at"),
            nextDueAt: try optionalTime(reader, "next_due_at"), attempts: try count(reader, "attempts"),
            attemptsOnLastDay: try count(reader, "attempts_on_last_day"), lastOutcome: lastOutcome,
            lastAttemptAt: try optionalTime(reader, "last_attempt_at"),
            reachedAt: try optionalTime(reader, "reached_at"),
            checkedDays: try count(reader, "checked_days"),
            lastCheckDay: try day(reader, "last_check_day", required: false),
            symptomsFlagged: try bool(reader, "symptoms_flagged"), endedAt: try optionalTime(reader, "ended_at"),
            becameCaseID: try optionalInt(reader, "became_case_id"))
    }

    public static func readFollowUp(_ bytes: [UInt8]) throws(FieldProblem) -> FollowUp {
        try followUp(try document(bytes))
    }

    public static func readFollowUpList(_ bytes: [UInt8]) throws(FieldProblem) -> [FollowUp] {
        var followUps: [FollowUp] = []
        for item in try items(try document(bytes), "follow_ups") { followUps.append(try followUp(item)) }
        return followUps
    }

    public static func readFollowUpDetail(_ bytes: [UInt8]) throws(FieldProblem) -> FollowUpDetail {
        let reader = try document(bytes)
        var attempts: [CallAttempt] = []
        for item in try items(reader, "attempts") {
            attempts.append(
                CallAttempt(
                    id: try int(item, "id"), followUpID: try int(item, "follow_up_id"),
                    at: try requiredTime(item, "at"),
                    by: try item.string("by")!, outcome: try enumValue(item, "outcome", "a call outcome"),
                    note: try item.string("note")!))
        }
        var checks: [DailyCheck] = []
        for item in try items(reader, "checks") {
            checks.append(
                DailyCheck(
                    id: try int(item, "id"), followUpID: try int(item, "follow_up_id"), day: try day(item, "day")!,
                    at: try requiredTime(item, "at"), by: try item.string("by")!, symptoms: try bool(item, "symptoms"),
                    isolating: try bool(item, "isolating"), note: try item.string("note")!))
        }
        return FollowUpDetail(
            followUp: try followUp(try nested(reader, "follow_up")), attempts: attempts, checks: checks)
    }

    public static func readQueuePage(_ bytes: [UInt8]) throws(FieldProblem) -> QueuePage {
        let reader = try document(bytes)
        var rows: [FollowUp] = []
        for item in try items(reader, "rows") { rows.append(try followUp(item)) }
        let c = try nested(reader, "counts")
        let counts = QueueCounts(
            overdue: try count(c, "overdue"), due: try count(c, "due"), laterToday: try count(c, "later_today"),
            later: try count(c, "later"))
        var next: QueueCursor?
        if let text = try optionalString(reader, "next") {
            guard let cursor = QueueCursor(text: text) else {
                throw FieldProblem("next is not a queue position such as 1795946400000-12")
            }
            next = cursor
        }
        return QueuePage(rows: rows, counts: counts, next: next, readAt: try requiredTime(reader, "read_at"))
    }

    public static func readFollowUpIndicators(_ bytes: [UInt8]) throws(FieldProblem) -> FollowUpIndicators {
        let reader = try document(bytes)
        let u = try nested(reader, "unreached")
        let unreached = UnreachedAges(
            oneDay: try count(u, "one_day"), twoDays: try count(u, "two_days"), threeDays: try count(u, "three_days"),
            moreThanThreeDays: try count(u, "more_than_three_days"))
        var tracers: [TracerLoad] = []
        for item in try items(reader, "tracers") {
            tracers.append(
                TracerLoad(
                    tracer: try item.string("tracer")!, assigned: try count(item, "assigned"),
                    due: try count(item, "due"),
                    overdue: try count(item, "overdue"), doneToday: try count(item, "done_today")))
        }
        return FollowUpIndicators(
            from: try requiredTime(reader, "from"), to: try requiredTime(reader, "to"),
            cases: try count(reader, "cases"),
            contactsPerCaseMean: try optionalFigure(reader, "contacts_per_case_mean"),
            contactsPerCaseMedian: try optionalFigure(reader, "contacts_per_case_median"),
            reachedWithin24hPercent: try optionalFigure(reader, "reached_within_24h_percent"),
            medianHoursToFirstReach: try optionalFigure(reader, "median_hours_to_first_reach"),
            checkedEveryDayPercent: try optionalFigure(reader, "checked_every_day_percent"), unreached: unreached,
            lostPercent: try optionalFigure(reader, "lost_percent"),
            knownContactPercent: try optionalFigure(reader, "known_contact_percent"), tracers: tracers)
    }
}

extension StaffRequests {
    /// `POST /staff/v1/cases`.
    public struct OpenCase: Hashable, Sendable {
        public var phone: String
        public var reference: String
        public var indexDay: CivilDay?
        public var indexKind: IndexDayKind
        public var assignToMe: Bool
        public init(phone: String, reference: String, indexDay: CivilDay?, indexKind: IndexDayKind, assignToMe: Bool) {
            self.phone = phone
            self.reference = reference
            self.indexDay = indexDay
            self.indexKind = indexKind
            self.assignToMe = assignToMe
        }
    }

    /// `POST /staff/v1/cases/{id}/close`.
    public struct CaseClosing: Hashable, Sendable {
        public var caseID: Int64
        public var reason: CaseCloseReason
        public var note: String
        public init(caseID: Int64, reason: CaseCloseReason, note: String) {
            self.caseID = caseID
            self.reason = reason
            self.note = note
        }
    }

    /// `POST /staff/v1/cases/{id}/follow-ups`.
    public struct NewFollowUp: Hashable, Sendable {
        public var caseID: Int64
        public var phone: String
        public var reason: String
        public init(caseID: Int64, phone: String, reason: String) {
            self.caseID = caseID
            self.phone = phone
            self.reason = reason
        }
    }

    /// `POST /staff/v1/follow-ups/{id}/attempts`.
    public struct Attempt: Hashable, Sendable {
        public var followUpID: Int64
        public var outcome: CallOutcome
        public var note: String
        public init(followUpID: Int64, outcome: CallOutcome, note: String) {
            self.followUpID = followUpID
            self.outcome = outcome
            self.note = note
        }
    }

    /// `POST /staff/v1/follow-ups/{id}/checks`.
    public struct Check: Hashable, Sendable {
        public var followUpID: Int64
        public var symptoms: Bool
        public var isolating: Bool
        public var note: String
        public init(followUpID: Int64, symptoms: Bool, isolating: Bool, note: String) {
            self.followUpID = followUpID
            self.symptoms = symptoms
            self.isolating = isolating
            self.note = note
        }
    }

    /// `POST /staff/v1/follow-ups/assignments`.
    public struct Assignment: Hashable, Sendable {
        public var ids: [Int64]
        public var tracer: String
        public init(ids: [Int64], tracer: String) {
            self.ids = ids
            self.tracer = tracer
        }
    }

    /// Ids and limits the desk judges are read whole (any 64-bit integer), so a value out of its
    /// range gets the desk's own message, the same locally and remotely.
    static let anyInt64 = Int64.min...Int64.max

    /// The `{id}` of a path: a whole number (the desk says whether such a case or follow-up
    /// exists). The segment is never repeated in the message.
    public static func pathID(_ segment: String, what: String) -> Result<Int64, APIError> {
        guard let id = Fields.parseInteger(segment) else {
            return .failure(.invalidRequest("the \(what) id in the path must be a whole number, such as 12"))
        }
        return .success(id)
    }

    /// `{phone, reference, index_day?, index_kind, assign_to_me?}`.
    public static func openCase(_ request: HTTPRequest) -> Result<OpenCase, APIError> {
        read(request, allowed: ["phone", "reference", "index_day", "index_kind", "assign_to_me"]) {
            fields throws(FieldProblem) in
            guard let kind = IndexDayKind(rawValue: try fields.string("index_kind")!) else {
                throw FieldProblem(
                    "index_kind must be one of \(IndexDayKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            var assign = false
            if try fields.optional("assign_to_me") != nil { assign = try StaffWire.bool(fields, "assign_to_me") }
            return OpenCase(
                phone: try fields.string("phone")!, reference: try fields.string("reference")!,
                indexDay: try fields.date("index_day", required: false), indexKind: kind, assignToMe: assign)
        }
    }

    /// `?status=&opened_by=&limit=` of `GET /staff/v1/cases`, each at most once; an empty value
    /// is the same as leaving it out (status `open`, every opener, limit 200).
    public static func caseQuery(_ request: HTTPRequest) -> Result<CaseQuery, APIError> {
        let allowed = ["status", "opened_by", "limit"]
        var query = CaseQuery()
        do throws(FieldProblem) {
            let values = try queryValues(request, allowed: allowed)
            if let text = values["status"] {
                guard let status = CaseQuery.Status(rawValue: text) else {
                    throw FieldProblem(
                        "status must be one of \(CaseQuery.Status.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                query.status = status
            }
            if let name = values["opened_by"] {
                guard name.count <= 64 else { throw FieldProblem("opened_by has at most 64 characters") }
                query.openedBy = name
            }
            if let text = values["limit"] {
                guard let limit = Fields.parseInteger(text) else {
                    throw FieldProblem("limit must be a whole number, such as 200")
                }
                query.limit = Int(limit)
            }
            return .success(query)
        } catch {
            return .failure(.invalidRequest(error.text))
        }
    }

    /// `{reason, note?}` of `POST /staff/v1/cases/{id}/close`.
    public static func caseClosing(_ request: HTTPRequest, segment: String) -> Result<CaseClosing, APIError> {
        pathID(segment, what: "case").flatMap { id in
            read(request, allowed: ["reason", "note"]) { fields throws(FieldProblem) in
                guard let reason = CaseCloseReason(rawValue: try fields.string("reason")!) else {
                    throw FieldProblem(
                        "reason must be one of \(CaseCloseReason.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return CaseClosing(caseID: id, reason: reason, note: try fields.string("note", required: false) ?? "")
            }
        }
    }

    /// `{phone, reason}` of `POST /staff/v1/cases/{id}/follow-ups`.
    public static func newFollowUp(_ request: HTTPRequest, segment: String) -> Result<NewFollowUp, APIError> {
        pathID(segment, what: "case").flatMap { id in
            read(request, allowed: ["phone", "reason"]) { fields throws(FieldProblem) in
                NewFollowUp(caseID: id, phone: try fields.string("phone")!, reason: try fields.string("reason")!)
            }
        }
    }

    /// `{scope, tracer?, later?, q?, after?, limit?}` of `POST /staff/v1/queue`: `tracer` with
    /// `scope` `tracer` only; `after` a position `<ms>-<id>`; `limit` 100 when left out.
    public static func queueQuery(_ request: HTTPRequest) -> Result<QueueQuery, APIError> {
        read(request, allowed: ["scope", "tracer", "later", "q", "after", "limit"]) { fields throws(FieldProblem) in
            var query = QueueQuery()
            let tracer = try fields.string("tracer", required: false)
            let scope = try fields.string("scope")!
            switch scope {
            case "mine": query.scope = .mine
            case "tracer":
                guard let tracer else { throw FieldProblem("tracer is required with scope tracer: a tracer's name") }
                query.scope = .tracer(tracer)
            case "unassigned": query.scope = .unassigned
            case "everyone": query.scope = .everyone
            default: throw FieldProblem("scope must be one of mine, tracer, unassigned, everyone")
            }
            if tracer != nil, scope != "tracer" {
                throw FieldProblem("tracer goes with scope tracer only: leave it out")
            }
            if try fields.optional("later") != nil { query.includeLater = try StaffWire.bool(fields, "later") }
            query.search = try fields.string("q", required: false)
            if let text = try fields.string("after", required: false) {
                guard let cursor = QueueCursor(text: text) else {
                    throw FieldProblem("after must be a queue position such as 1795946400000-12 (a page's next)")
                }
                query.after = cursor
            }
            if let limit = try fields.integer("limit", in: anyInt64, required: false) { query.limit = Int(limit) }
            return query
        }
    }

    /// `{outcome, note?}` of `POST /staff/v1/follow-ups/{id}/attempts`.
    public static func attempt(_ request: HTTPRequest, segment: String) -> Result<Attempt, APIError> {
        pathID(segment, what: "follow-up").flatMap { id in
            read(request, allowed: ["outcome", "note"]) { fields throws(FieldProblem) in
                guard let outcome = CallOutcome(rawValue: try fields.string("outcome")!) else {
                    throw FieldProblem(
                        "outcome must be one of \(CallOutcome.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return Attempt(followUpID: id, outcome: outcome, note: try fields.string("note", required: false) ?? "")
            }
        }
    }

    /// `{symptoms, isolating, note?}` of `POST /staff/v1/follow-ups/{id}/checks`.
    public static func check(_ request: HTTPRequest, segment: String) -> Result<Check, APIError> {
        pathID(segment, what: "follow-up").flatMap { id in
            read(request, allowed: ["symptoms", "isolating", "note"]) { fields throws(FieldProblem) in
                Check(
                    followUpID: id, symptoms: try StaffWire.bool(fields, "symptoms"),
                    isolating: try StaffWire.bool(fields, "isolating"),
                    note: try fields.string("note", required: false) ?? "")
            }
        }
    }

    /// `{ids, to}` of `POST /staff/v1/follow-ups/assignments` (the desk judges the ids and the name).
    public static func assignment(_ request: HTTPRequest) -> Result<Assignment, APIError> {
        read(request, allowed: ["ids", "to"]) { fields throws(FieldProblem) in
            let items = try fields.array("ids")!
            var ids: [Int64] = []
            ids.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                ids.append(try Fields.integer(item, name: "ids[\(i)]", in: anyInt64))
            }
            return Assignment(ids: ids, tracer: try fields.string("to")!)
        }
    }

    /// `?from=&to=&bucket=` of `GET /staff/v1/follow-ups/indicators`: the range as for
    /// ``statsQuery(_:)``, `bucket` `hour` when left out (only `from` is moved by it, down to
    /// its bucket's start).
    public static func indicatorsQuery(_ request: HTTPRequest) -> Result<StatsQuery, APIError> {
        rangeQuery(request, defaultBucket: .hour)
    }

    /// The query's parameters by name, each at most once and only `allowed` ones; empty values
    /// are left out.
    static func queryValues(_ request: HTTPRequest, allowed: [String]) throws(FieldProblem) -> [String: String] {
        if let extra = request.query.first(where: { !allowed.contains($0.name) }) {
            throw FieldProblem(
                "\(Fields.safeName(extra.name)) is not a parameter of this request (allowed: \(allowed.joined(separator: ", ")))"
            )
        }
        var values: [String: String] = [:]
        for name in allowed {
            let given = request.queryValues(name)
            if given.count > 1 { throw FieldProblem("\(name) may be given once") }
            if let text = given.first, !text.isEmpty { values[name] = text }
        }
        return values
    }
}
