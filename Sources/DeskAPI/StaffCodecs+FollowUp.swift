import DeskContract
import DeskCore

/// The typed endpoints of cases and follow-ups (docs/staff-api.yaml, "Cases and follow-ups"):
/// what the server reads and writes and `RemoteDesk` sends and reads, through one value each.
/// A case's or a follow-up's id travels as the path's `{id}`.
extension StaffCodecs {
    public static let cases = StaffCodec<CaseQuery, [TraceCase]>(
        .cases, status: 200, send: { StaffOutgoing(query: StaffWire.caseQueryItems($0)) },
        receive: { request, _ in StaffRequests.caseQuery(request) }, write: StaffWire.caseList,
        read: StaffWire.readCaseList)
    /// 201 with a new case, 200 with the patient's open one.
    public static let openCase = StaffCodec<StaffRequests.OpenCase, CaseOpening>(
        .openCase, status: 201, send: { StaffOutgoing(body: StaffWire.openCaseRequest($0)) },
        receive: { request, _ in StaffRequests.openCase(request) }, write: StaffWire.caseOpening,
        read: StaffWire.readCaseOpening, statusOf: { $0.existing ? 200 : 201 })
    public static let caseDetail = StaffCodec<Int64, CaseDetail>(
        .caseDetail, status: 200, send: { StaffOutgoing(segment: String($0)) },
        receive: { _, segment in StaffRequests.pathID(segment, what: "case") }, write: StaffWire.caseDetail,
        read: StaffWire.readCaseDetail)
    public static let closeCase = StaffCodec<StaffRequests.CaseClosing, TraceCase>(
        .closeCase, status: 200,
        send: {
            StaffOutgoing(
                segment: String($0.caseID), body: StaffWire.closeCaseRequest(reason: $0.reason, note: $0.note))
        },
        receive: { request, segment in StaffRequests.caseClosing(request, segment: segment) },
        write: StaffWire.traceCase, read: StaffWire.readCase)
    public static let addFollowUp = StaffCodec<StaffRequests.NewFollowUp, FollowUp>(
        .addFollowUp, status: 200,
        send: {
            StaffOutgoing(
                segment: String($0.caseID), body: StaffWire.addFollowUpRequest(phone: $0.phone, reason: $0.reason))
        },
        receive: { request, segment in StaffRequests.newFollowUp(request, segment: segment) },
        write: StaffWire.followUp, read: StaffWire.readFollowUp)
    public static let followUpQueue = StaffCodec<QueueQuery, QueuePage>(
        .followUpQueue, status: 200, send: { StaffOutgoing(body: StaffWire.queueRequest($0)) },
        receive: { request, _ in StaffRequests.queueQuery(request) }, write: StaffWire.queuePage,
        read: StaffWire.readQueuePage)
    public static let followUpIndicators = StaffCodec<StatsQuery, FollowUpIndicators>(
        .followUpIndicators, status: 200, send: { StaffOutgoing(query: StaffWire.statsQueryItems($0)) },
        receive: { request, _ in StaffRequests.indicatorsQuery(request) }, write: StaffWire.followUpIndicators,
        read: StaffWire.readFollowUpIndicators)
    public static let assignFollowUps = StaffCodec<StaffRequests.Assignment, [FollowUp]>(
        .assignFollowUps, status: 200,
        send: { StaffOutgoing(body: StaffWire.assignmentRequest(ids: $0.ids, to: $0.tracer)) },
        receive: { request, _ in StaffRequests.assignment(request) }, write: StaffWire.followUpList,
        read: StaffWire.readFollowUpList)
    public static let followUpDetail = StaffCodec<Int64, FollowUpDetail>(
        .followUpDetail, status: 200, send: { StaffOutgoing(segment: String($0)) },
        receive: { _, segment in StaffRequests.pathID(segment, what: "follow-up") },
        write: StaffWire.followUpDetail, read: StaffWire.readFollowUpDetail)
    public static let followUpAttempt = StaffCodec<StaffRequests.Attempt, FollowUp>(
        .followUpAttempt, status: 200,
        send: {
            StaffOutgoing(
                segment: String($0.followUpID), body: StaffWire.attemptRequest(outcome: $0.outcome, note: $0.note))
        },
        receive: { request, segment in StaffRequests.attempt(request, segment: segment) },
        write: StaffWire.followUp, read: StaffWire.readFollowUp)
    public static let followUpCheck = StaffCodec<StaffRequests.Check, FollowUp>(
        .followUpCheck, status: 200,
        send: {
            StaffOutgoing(
                segment: String($0.followUpID),
                body: StaffWire.checkRequest(symptoms: $0.symptoms, isolating: $0.isolating, note: $0.note))
        },
        receive: { request, segment in StaffRequests.check(request, segment: segment) },
        write: StaffWire.followUp, read: StaffWire.readFollowUp)
    public static let followUpPhoneCopy = StaffCodec<Int64, Void>(
        .followUpPhoneCopy, status: 204, send: { StaffOutgoing(segment: String($0)) },
        receive: { _, segment in StaffRequests.pathID(segment, what: "follow-up") }, write: { nil }, read: { _ in })

    static let followUpCodecs: [(name: StaffEndpoint.Name, status: Int)] = [
        (cases.name, cases.status), (openCase.name, openCase.status), (caseDetail.name, caseDetail.status),
        (closeCase.name, closeCase.status), (addFollowUp.name, addFollowUp.status),
        (followUpQueue.name, followUpQueue.status), (followUpIndicators.name, followUpIndicators.status),
        (assignFollowUps.name, assignFollowUps.status), (followUpDetail.name, followUpDetail.status),
        (followUpAttempt.name, followUpAttempt.status), (followUpCheck.name, followUpCheck.status),
        (followUpPhoneCopy.name, followUpPhoneCopy.status),
    ]
}
