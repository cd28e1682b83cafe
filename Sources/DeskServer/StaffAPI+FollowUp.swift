import DeskAPI
import DeskContract
import DeskCore

/// Cases and follow-ups (docs/staff-api.yaml, "Cases and follow-ups"), each a typed endpoint
/// (``StaffCodecs``) answered by the desk, which checks the session, the role and every rule.
/// Phone numbers come only in bodies (opening a case, adding a person, a queue search); paths
/// carry ids. The desk's messages name persons as `user N` and follow-ups as `follow-up N`,
/// never by number, so neither an error body nor the server log holds one.
extension StaffAPI {
    func followUps(
        _ name: StaffEndpoint.Name, _ request: HTTPRequest, segment: String, on executor: DeskExecutor
    ) -> HandlerResult {
        switch name {
        case .cases:
            return serve(StaffCodecs.cases, request, on: executor) { desk, session, query throws(ServiceError) in
                try await desk.cases(session, query: query)
            }
        case .openCase:
            return serve(StaffCodecs.openCase, request, on: executor) { desk, session, body throws(ServiceError) in
                try await desk.openCase(
                    session, phone: body.phone, reference: body.reference, indexDay: body.indexDay,
                    indexKind: body.indexKind, assignToMe: body.assignToMe)
            }
        case .caseDetail:
            return serve(StaffCodecs.caseDetail, request, name: segment, on: executor) {
                desk, session, id throws(ServiceError) in
                try await desk.caseDetail(session, caseID: id)
            }
        case .closeCase:
            return serve(StaffCodecs.closeCase, request, name: segment, on: executor) {
                desk, session, body throws(ServiceError) in
                try await desk.closeCase(session, caseID: body.caseID, reason: body.reason, note: body.note)
            }
        case .addFollowUp:
            return serve(StaffCodecs.addFollowUp, request, name: segment, on: executor) {
                desk, session, body throws(ServiceError) in
                try await desk.addFollowUp(session, caseID: body.caseID, phone: body.phone, reason: body.reason)
            }
        case .followUpQueue:
            return serve(StaffCodecs.followUpQueue, request, on: executor) {
                desk, session, query throws(ServiceError) in
                try await desk.followUpQueue(session, query: query)
            }
        case .followUpIndicators:
            return serve(StaffCodecs.followUpIndicators, request, on: executor) {
                desk, session, query throws(ServiceError) in
                try await desk.followUpIndicators(session, query: query)
            }
        case .assignFollowUps:
            return serve(StaffCodecs.assignFollowUps, request, on: executor) {
                desk, session, body throws(ServiceError) in
                try await desk.assignFollowUps(session, ids: body.ids, to: body.tracer)
            }
        case .followUpDetail:
            return serve(StaffCodecs.followUpDetail, request, name: segment, on: executor) {
                desk, session, id throws(ServiceError) in
                try await desk.followUpDetail(session, followUpID: id)
            }
        case .followUpAttempt:
            return serve(StaffCodecs.followUpAttempt, request, name: segment, on: executor) {
                desk, session, body throws(ServiceError) in
                try await desk.recordAttempt(
                    session, followUpID: body.followUpID, outcome: body.outcome, note: body.note)
            }
        case .followUpCheck:
            return serve(StaffCodecs.followUpCheck, request, name: segment, on: executor) {
                desk, session, body throws(ServiceError) in
                try await desk.recordCheck(
                    session, followUpID: body.followUpID, symptoms: body.symptoms, isolating: body.isolating,
                    note: body.note)
            }
        case .followUpPhoneCopy:
            return serve(StaffCodecs.followUpPhoneCopy, request, name: segment, on: executor) {
                desk, session, id throws(ServiceError) in
                try await desk.recordFollowUpPhoneCopy(session, followUpID: id)
            }
        default:
            return .now(.error(.notFound("no such path in the staff API: see docs/staff-api.yaml")))
        }
    }
}
