import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import Foundation
import JSONText
import Testing

/// Cases and follow-ups on the wire: every answer reads back equal through the codec the server
/// writes it with and RemoteDesk reads it with; every request the client sends is what the server
/// reads; bad requests name the field (or the path's id) and never repeat what was sent.
@Suite struct FollowUpWireTests {
    static let at = Date(unixMilliseconds: 1_795_946_400_123)
    static let day = CivilDay(iso: "2026-11-27")!

    // MARK: Values

    static func openCase() -> TraceCase {
        TraceCase(
            id: 4, reference: "ASL-2026-0412 \"ü\"", patientUserID: 7, phone: PhoneNumber(e164: "+393331000001")!,
            indexDay: day, indexKind: .symptomOnset, openedBy: "tina", openedAt: at, status: .open, contacts: 12,
            cameFrom: [CaseLink(caseID: 2, reference: "ASL-1", followUpID: 9)],
            ledTo: [
                CaseLink(caseID: 6, reference: "ASL-3", followUpID: 15),
                CaseLink(caseID: 8, reference: "ASL-4", followUpID: 16),
            ])
    }

    static func closedCase() -> TraceCase {
        TraceCase(
            id: 5, reference: "ASL-2", patientUserID: 8, phone: PhoneNumber(e164: "+12025550123")!,
            indexDay: day.adding(days: 1), indexKind: .testDay, openedBy: "tom", openedAt: at,
            status: .closed(reason: .openedInError, by: "sue", at: Date(unixMilliseconds: 1_795_950_000_000)),
            contacts: 0)
    }

    static func fullFollowUp() -> FollowUp {
        FollowUp(
            id: 44, personUserID: 11, phone: PhoneNumber(e164: "+393331000002")!,
            reasons: [
                FollowUpReason(
                    caseID: 4, caseReference: "ASL-2026-0412", lastExposureDay: day, minutes: 63, days: 2,
                    mostMinutesOnOneDay: 40, isCloseContact: true),
                FollowUpReason(
                    caseID: 5, caseReference: "ASL-2", lastExposureDay: day.adding(days: 1), minutes: 0, days: 0,
                    mostMinutesOnOneDay: 0, isCloseContact: false, addedByHand: "same household"),
            ],
            lastExposureDay: day.adding(days: 1), periodEndsOn: day.adding(days: 15), assignedTo: "tina",
            state: .monitoring, createdAt: at, nextDueAt: Date(unixMilliseconds: 1_796_000_000_000), attempts: 3,
            attemptsOnLastDay: 2, lastOutcome: .reached, lastAttemptAt: at, reachedAt: at, checkedDays: 4,
            lastCheckDay: day.adding(days: 2), symptomsFlagged: true, endedAt: nil, becameCaseID: nil)
    }

    static func endedFollowUp() -> FollowUp {
        FollowUp(
            id: 45, personUserID: 12, phone: PhoneNumber(e164: "+393331000003")!, reasons: [],
            lastExposureDay: day, periodEndsOn: day.adding(days: 14), assignedTo: nil, state: .becameCase,
            createdAt: at, nextDueAt: nil, endedAt: at, becameCaseID: 6)
    }

    static func indicators() -> FollowUpIndicators {
        FollowUpIndicators(
            from: Date(unixMilliseconds: 1_794_700_800_000), to: at, cases: 3, contactsPerCaseMean: 100.0 / 3,
            contactsPerCaseMedian: 2.5, reachedWithin24hPercent: 0.1 + 0.2, medianHoursToFirstReach: 1e-5,
            checkedEveryDayPercent: 100,
            unreached: UnreachedAges(oneDay: 1, twoDays: 2, threeDays: 3, moreThanThreeDays: 4),
            lostPercent: nil, knownContactPercent: 0,
            tracers: [
                TracerLoad(tracer: "tina", assigned: 9, due: 2, overdue: 1, doneToday: 5),
                TracerLoad(tracer: "tom", assigned: 0, due: 0, overdue: 0, doneToday: 0),
            ])
    }

    // MARK: Helpers

    /// What the server writes for `answer`, read back by the client.
    static func roundTrip<Request, Answer>(_ codec: StaffCodec<Request, Answer>, _ answer: Answer) throws -> Answer {
        let body = try #require(codec.body(answer))
        return try codec.answer(Array(body.serialized.utf8))
    }

    /// What the client sends for `request`, as the server reads it.
    static func sent<Request, Answer>(_ codec: StaffCodec<Request, Answer>, _ request: Request) -> Result<
        Request, APIError
    > {
        let outgoing = codec.outgoing(request)
        let http = HTTPRequest(
            method: codec.endpoint.method, path: StaffWire.prefix + codec.endpoint.path(segment: outgoing.segment),
            headers: [("Content-Type", "application/json")], query: outgoing.query,
            body: outgoing.body.map { Array($0.serialized.utf8) } ?? [])
        return codec.request(http, segment: outgoing.segment ?? "")
    }

    static func raw(_ body: String, query: [(String, String)] = []) -> HTTPRequest {
        HTTPRequest(
            method: "POST", path: "/", headers: [("Content-Type", "application/json")],
            query: query.map { (name: $0.0, value: $0.1) }, body: Array(body.utf8))
    }

    static func detail<T>(_ result: Result<T, APIError>) -> String? {
        if case .failure(let error) = result {
            #expect(error.code == 2000 && error.status == 400)
            return error.detail
        }
        return nil
    }

    // MARK: Answers

    @Test("cases read back equal: open with links both ways, closed with why, by whom and when")
    func cases() throws {
        for trace in [Self.openCase(), Self.closedCase()] {
            #expect(try Self.roundTrip(StaffCodecs.closeCase, trace) == trace)
        }
        let list = [Self.openCase(), Self.closedCase()]
        #expect(try Self.roundTrip(StaffCodecs.cases, list) == list)
        #expect(try Self.roundTrip(StaffCodecs.cases, []) == [])
        for existing in [false, true] {
            let opening = CaseOpening(
                trace: Self.openCase(), existing: existing, followUpsCreated: 10, followUpsJoined: 2)
            #expect(try Self.roundTrip(StaffCodecs.openCase, opening) == opening)
            #expect(StaffCodecs.openCase.status(of: opening) == (existing ? 200 : 201))
        }
        let detail = CaseDetail(
            trace: Self.openCase(), followUps: [Self.fullFollowUp(), Self.endedFollowUp()],
            history: [
                CaseHistoryEntry(at: Self.at, actor: "tina", text: "opened with 12 contacts"),
                CaseHistoryEntry(at: Self.at, actor: "sue", text: "follow-up 44: reached"),
            ])
        #expect(try Self.roundTrip(StaffCodecs.caseDetail, detail) == detail)
    }

    @Test("follow-ups read back equal: every field set, and every optional one empty")
    func followUps() throws {
        for followUp in [Self.fullFollowUp(), Self.endedFollowUp()] {
            #expect(try Self.roundTrip(StaffCodecs.followUpAttempt, followUp) == followUp)
        }
        let list = [Self.fullFollowUp(), Self.endedFollowUp()]
        #expect(try Self.roundTrip(StaffCodecs.assignFollowUps, list) == list)
        let detail = FollowUpDetail(
            followUp: Self.fullFollowUp(),
            attempts: [
                CallAttempt(id: 1, followUpID: 44, at: Self.at, by: "tina", outcome: .noAnswer, note: ""),
                CallAttempt(id: 2, followUpID: 44, at: Self.at, by: "tina", outcome: .reached, note: "call back \"9\""),
            ],
            checks: [
                DailyCheck(
                    id: 3, followUpID: 44, day: Self.day, at: Self.at, by: "tina", symptoms: true, isolating: false,
                    note: "fever")
            ])
        #expect(try Self.roundTrip(StaffCodecs.followUpDetail, detail) == detail)
        let empty = FollowUpDetail(followUp: Self.endedFollowUp(), attempts: [], checks: [])
        #expect(try Self.roundTrip(StaffCodecs.followUpDetail, empty) == empty)
    }

    @Test("a queue page reads back equal, with and without a next position")
    func queuePage() throws {
        let page = QueuePage(
            rows: [Self.fullFollowUp()], counts: QueueCounts(overdue: 1, due: 2, laterToday: 3, later: 4),
            next: QueueCursor(dueAtMilliseconds: 1_796_000_000_000, followUpID: 44), readAt: Self.at)
        #expect(try Self.roundTrip(StaffCodecs.followUpQueue, page) == page)
        let last = QueuePage(rows: [], counts: QueueCounts(), next: nil, readAt: Self.at)
        #expect(try Self.roundTrip(StaffCodecs.followUpQueue, last) == last)
        #expect(StaffWire.queuePage(page).serialized.contains(#""next":"1796000000000-44""#))
    }

    @Test("indicators read back equal to the last bit; a figure with nothing to count is null")
    func indicators() throws {
        let indicators = Self.indicators()
        #expect(try Self.roundTrip(StaffCodecs.followUpIndicators, indicators) == indicators)
        let text = StaffWire.followUpIndicators(indicators).serialized
        #expect(text.contains(#""lost_percent":null"#))
        #expect(text.contains(#""checked_every_day_percent":100.0"#))
        var none = indicators
        none.contactsPerCaseMean = nil
        none.contactsPerCaseMedian = nil
        none.reachedWithin24hPercent = nil
        none.medianHoursToFirstReach = nil
        none.checkedEveryDayPercent = nil
        none.knownContactPercent = nil
        none.tracers = []
        #expect(try Self.roundTrip(StaffCodecs.followUpIndicators, none) == none)
        // Not a number JSON can carry: null, never "nan".
        none.lostPercent = .nan
        #expect(StaffWire.followUpIndicators(none).serialized.contains(#""lost_percent":null"#))
    }

    @Test("answers of another shape are refused naming the field")
    func badAnswers() {
        func problem(_ body: String, _ read: ([UInt8]) throws(FieldProblem) -> some Any) -> String? {
            do {
                _ = try read(Array(body.utf8))
                return nil
            } catch {
                return error.text
            }
        }
        var trace = StaffWire.traceCase(Self.openCase()).serialized
        trace = trace.replacingOccurrences(of: #""status":"open""#, with: #""status":"paused""#)
        #expect(problem(trace, StaffWire.readCase)?.hasPrefix("status is not a case status") == true)
        var followUp = StaffWire.followUp(Self.fullFollowUp()).serialized
        followUp = followUp.replacingOccurrences(of: #""state":"monitoring""#, with: #""state":"dancing""#)
        #expect(problem(followUp, StaffWire.readFollowUp) == "state is not a follow-up state this version knows")
        let page = StaffWire.queuePage(QueuePage(rows: [], counts: QueueCounts(), next: nil, readAt: Self.at))
            .serialized.replacingOccurrences(of: #""next":null"#, with: #""next":"soon""#)
        #expect(problem(page, StaffWire.readQueuePage)?.hasPrefix("next is not a queue position") == true)
        let figures = StaffWire.followUpIndicators(Self.indicators()).serialized
            .replacingOccurrences(of: #""known_contact_percent":0.0"#, with: #""known_contact_percent":"-""#)
        #expect(
            problem(figures, StaffWire.readFollowUpIndicators)
                == "known_contact_percent must be null or a number from 0")
        #expect(problem("[]", StaffWire.readCaseList) == "the body must be a JSON object, not a list")
    }

    // MARK: Requests

    @Test("every request the client sends is what the server reads")
    func requests() throws {
        for day in [Self.day, nil] {
            for kind in IndexDayKind.allCases {
                let open = StaffRequests.OpenCase(
                    phone: "+39 333 (100) 0001", reference: "ASL \"1\"", indexDay: day, indexKind: kind,
                    assignToMe: day == nil)
                #expect(try Self.sent(StaffCodecs.openCase, open).get() == open)
            }
        }
        for query in [
            CaseQuery(), CaseQuery(status: .closed, openedBy: "tina", limit: 5), CaseQuery(status: .all, limit: 0),
        ] {
            #expect(try Self.sent(StaffCodecs.cases, query).get() == query)
        }
        #expect(try Self.sent(StaffCodecs.caseDetail, 4).get() == 4)
        for reason in CaseCloseReason.allCases {
            let closing = StaffRequests.CaseClosing(caseID: 4, reason: reason, note: "moved\tto Milan")
            #expect(try Self.sent(StaffCodecs.closeCase, closing).get() == closing)
        }
        let added = StaffRequests.NewFollowUp(caseID: 4, phone: "333 100 0002", reason: "same household")
        #expect(try Self.sent(StaffCodecs.addFollowUp, added).get() == added)
        for scope in [QueueScope.mine, .tracer("tina"), .unassigned, .everyone] {
            let query = QueueQuery(
                scope: scope, includeLater: true, search: "333",
                after: QueueCursor(dueAtMilliseconds: 0, followUpID: 9),
                limit: 25)
            #expect(try Self.sent(StaffCodecs.followUpQueue, query).get() == query)
        }
        #expect(try Self.sent(StaffCodecs.followUpQueue, QueueQuery()).get() == QueueQuery())
        let range = StatsQuery.last(.fortnight, now: Self.at)
        #expect(try Self.sent(StaffCodecs.followUpIndicators, range).get() == range)
        let assignment = StaffRequests.Assignment(ids: [44, 45, 46], tracer: "tom")
        #expect(try Self.sent(StaffCodecs.assignFollowUps, assignment).get() == assignment)
        #expect(try Self.sent(StaffCodecs.followUpDetail, 44).get() == 44)
        for outcome in CallOutcome.allCases {
            let attempt = StaffRequests.Attempt(followUpID: 44, outcome: outcome, note: "")
            #expect(try Self.sent(StaffCodecs.followUpAttempt, attempt).get() == attempt)
        }
        let check = StaffRequests.Check(followUpID: 44, symptoms: true, isolating: false, note: "cough")
        #expect(try Self.sent(StaffCodecs.followUpCheck, check).get() == check)
        #expect(try Self.sent(StaffCodecs.followUpPhoneCopy, 44).get() == 44)
    }

    @Test("no phone number goes in a URL: the calls that name one send it in their bodies")
    func phonesInBodies() {
        let open = StaffCodecs.openCase.outgoing(
            .init(phone: "+393331000001", reference: "r", indexDay: nil, indexKind: .testDay, assignToMe: false))
        let added = StaffCodecs.addFollowUp.outgoing(.init(caseID: 4, phone: "+393331000002", reason: "r"))
        let queue = StaffCodecs.followUpQueue.outgoing(QueueQuery(search: "+393331000003"))
        for outgoing in [open, added, queue] {
            #expect(outgoing.query.isEmpty)
            #expect(!(outgoing.segment ?? "").contains("333"))
            #expect(outgoing.body?.serialized.contains("+39333100000") == true)
        }
        #expect(StaffEndpoint[.followUpQueue].method == "POST")
    }

    @Test("left-out fields take their defaults")
    func defaults() throws {
        let open = try StaffRequests.openCase(
            Self.raw(#"{"phone":"+393331000001","reference":"r","index_kind":"test_day"}"#)
        ).get()
        #expect(open.indexDay == nil && !open.assignToMe)
        #expect(try StaffRequests.caseQuery(Self.raw("")).get() == CaseQuery())
        #expect(try StaffRequests.caseQuery(Self.raw("", query: [("status", ""), ("limit", "")])).get() == CaseQuery())
        #expect(try StaffRequests.queueQuery(Self.raw(#"{"scope":"mine"}"#)).get() == QueueQuery())
        let closing = try StaffRequests.caseClosing(Self.raw(#"{"reason":"recovered"}"#), segment: "4").get()
        #expect(closing == StaffRequests.CaseClosing(caseID: 4, reason: .recovered, note: ""))
        let attempt = try StaffRequests.attempt(Self.raw(#"{"outcome":"voicemail"}"#), segment: "44").get()
        #expect(attempt.note == "")
        // The indicators' bucket: hour when left out.
        let query = try StaffRequests.indicatorsQuery(
            Self.raw("", query: [("from", "2026-11-22T10:30:00.000Z"), ("to", "2026-11-29T10:00:00.000Z")])
        ).get()
        #expect(query.bucket == .hour)
        #expect(query.from == StaffWire.parseTime("2026-11-22T10:00:00.000Z"))
    }

    @Test(
        "bad requests are refused naming the field, never repeating what was sent",
        arguments: [
            (#"{"phone":"+393331000001","reference":"r"}"#, "index_kind is required"),
            (
                #"{"phone":"+393331000001","reference":"r","index_kind":"onset"}"#,
                "index_kind must be one of symptom_onset, test_day"
            ),
            (
                #"{"phone":"+393331000001","reference":"r","index_kind":"test_day","index_day":"27/11"}"#,
                "index_day must be a date written YYYY-MM-DD"
            ),
            (
                #"{"phone":"+393331000001","reference":"r","index_kind":"test_day","assign_to_me":"yes"}"#,
                "assign_to_me must be true or false"
            ),
            (
                #"{"phone":393331000001,"reference":"r","index_kind":"test_day"}"#,
                "phone must be a string, not a number"
            ),
            (
                #"{"phone":"+393331000001","reference":"r","index_kind":"test_day","index_day":null}"#,
                "index_day may not be null"
            ),
            (
                #"{"phone":"+393331000001","reference":"r","index_kind":"test_day","patient":"+393331000001"}"#,
                "patient is not a field of this request"
            ),
        ])
    func badOpenCase(body: String, expected: String) {
        let detail = Self.detail(StaffRequests.openCase(Self.raw(body)))
        #expect(detail?.hasPrefix(expected) == true, "\(detail ?? "accepted")")
        #expect(!(detail ?? "").contains("3331000001"))
    }

    @Test(
        "bad queue requests are refused naming the field",
        arguments: [
            (#"{}"#, "scope is required"),
            (#"{"scope":"all"}"#, "scope must be one of mine, tracer, unassigned, everyone"),
            (#"{"scope":"tracer"}"#, "tracer is required with scope tracer"),
            (#"{"scope":"mine","tracer":"tina"}"#, "tracer goes with scope tracer only"),
            (#"{"scope":"mine","after":"+393331000001"}"#, "after must be a queue position"),
            (#"{"scope":"mine","after":"12"}"#, "after must be a queue position"),
            (#"{"scope":"mine","limit":"10"}"#, "limit must be a whole number"),
            (#"{"scope":"mine","later":1}"#, "later must be true or false"),
            (#"{"scope":"mine","q":3331000001}"#, "q must be a string, not a number"),
            (#"{"scope":"mine","phone":"+393331000001"}"#, "phone is not a field of this request"),
        ])
    func badQueue(body: String, expected: String) {
        let detail = Self.detail(StaffRequests.queueQuery(Self.raw(body)))
        #expect(detail?.hasPrefix(expected) == true, "\(detail ?? "accepted")")
        #expect(!(detail ?? "").contains("3331000001"))
    }

    @Test("bad ids in a path, bad bodies of writes and bad queries are refused naming what is wrong")
    func badOthers() {
        for segment in ["", "x", "4x", "1e3", "99999999999999999999", "+393331000001"] {
            let detail = Self.detail(StaffCodecs.caseDetail.request(Self.raw(""), segment: segment))
            #expect(detail == "the case id in the path must be a whole number, such as 12", "\(segment)")
            let copy = Self.detail(StaffCodecs.followUpPhoneCopy.request(Self.raw(""), segment: segment))
            #expect(copy == "the follow-up id in the path must be a whole number, such as 12", "\(segment)")
        }
        // The id is judged before the body.
        #expect(
            Self.detail(StaffRequests.attempt(Self.raw("{"), segment: "x"))
                == "the follow-up id in the path must be a whole number, such as 12")
        #expect(
            Self.detail(StaffRequests.attempt(Self.raw(#"{"outcome":"busy"}"#), segment: "4"))?.hasPrefix(
                "outcome must be one of no_answer, voicemail, wrong_number, reached, refused") == true)
        #expect(
            Self.detail(StaffRequests.check(Self.raw(#"{"symptoms":true}"#), segment: "4")) == "isolating is required")
        #expect(
            Self.detail(StaffRequests.check(Self.raw(#"{"symptoms":"yes","isolating":true}"#), segment: "4"))
                == "symptoms must be true or false")
        #expect(
            Self.detail(StaffRequests.caseClosing(Self.raw(#"{"reason":"cured"}"#), segment: "4"))?.hasPrefix(
                "reason must be one of recovered, transferred, opened_in_error, other") == true)
        #expect(
            Self.detail(StaffRequests.newFollowUp(Self.raw(#"{"phone":"+393331000001"}"#), segment: "4"))
                == "reason is required")
        #expect(
            Self.detail(StaffRequests.assignment(Self.raw(#"{"ids":[1,"2"],"to":"tom"}"#)))?.hasPrefix("ids[1]") == true
        )
        #expect(
            Self.detail(StaffRequests.assignment(Self.raw(#"{"ids":1,"to":"tom"}"#)))
                == "ids must be a list, not a number")
        #expect(Self.detail(StaffRequests.assignment(Self.raw(#"{"ids":[1]}"#))) == "to is required")
        // Queries.
        #expect(
            Self.detail(StaffRequests.caseQuery(Self.raw("", query: [("status", "pending")])))
                == "status must be one of open, closed, all")
        #expect(
            Self.detail(StaffRequests.caseQuery(Self.raw("", query: [("limit", "ten")])))
                == "limit must be a whole number, such as 200")
        #expect(
            Self.detail(StaffRequests.caseQuery(Self.raw("", query: [("limit", "1"), ("limit", "2")])))
                == "limit may be given once")
        #expect(
            Self.detail(StaffRequests.caseQuery(Self.raw("", query: [("phone", "+393331000001")])))?.hasPrefix(
                "phone is not a parameter of this request (allowed: status, opened_by, limit)") == true)
        #expect(
            Self.detail(StaffRequests.indicatorsQuery(Self.raw("", query: [("from", "2026-11-22T10:30:00.000Z")])))
                == "from and to must each be given once, UTC times written 2026-11-29T10:00:00.000Z")
        #expect(
            Self.detail(
                StaffRequests.indicatorsQuery(
                    Self.raw(
                        "",
                        query: [
                            ("from", "2026-11-22T10:30:00.000Z"), ("to", "2026-11-29T10:00:00.000Z"),
                            ("bucket", "week"),
                        ]))) == "bucket may be given once: 5m, hour or day (hour when left out)")
        #expect(
            Self.detail(
                StaffRequests.indicatorsQuery(
                    Self.raw("", query: [("from", "2026-10-01T00:00:00.000Z"), ("to", "2026-11-29T10:00:00.000Z")])))
                == "the range is longer than 31 days: choose a shorter one")
    }
}
