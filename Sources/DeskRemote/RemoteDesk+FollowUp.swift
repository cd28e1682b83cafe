import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Cases and follow-ups over the staff API (docs/staff-api.yaml, "Cases and follow-ups"). The
/// server's desk decides everything (session, role, rules) and answers in its own words, so the
/// console reads the same messages as on the store. Only the indicators (figures, not audited)
/// are asked again after a lost answer: every other call writes an audit entry (a view or a
/// change), and a retry would record it twice (``StaffEndpoint/idempotent``); a failure is
/// reported and the tracer asks again. Phone numbers go in bodies, never in a URL.
extension RemoteDesk {
    public func openCase(
        _ session: StaffSession, phone: String, reference: String, indexDay: CivilDay?, indexKind: IndexDayKind,
        assignToMe: Bool
    ) async throws(ServiceError) -> CaseOpening {
        let request = StaffRequests.OpenCase(
            phone: phone, reference: reference, indexDay: indexDay, indexKind: indexKind, assignToMe: assignToMe)
        return try await send(StaffCodecs.openCase, request, token: session.token)
    }

    public func cases(_ session: StaffSession, query: CaseQuery) async throws(ServiceError) -> [TraceCase] {
        try await send(StaffCodecs.cases, query, token: session.token)
    }

    public func caseDetail(_ session: StaffSession, caseID: Int64) async throws(ServiceError) -> CaseDetail {
        try await send(StaffCodecs.caseDetail, caseID, token: session.token)
    }

    public func closeCase(
        _ session: StaffSession, caseID: Int64, reason: CaseCloseReason, note: String
    ) async throws(ServiceError) -> TraceCase {
        try await send(StaffCodecs.closeCase, .init(caseID: caseID, reason: reason, note: note), token: session.token)
    }

    public func addFollowUp(
        _ session: StaffSession, caseID: Int64, phone: String, reason: String
    ) async throws(ServiceError) -> FollowUp {
        try await send(
            StaffCodecs.addFollowUp, .init(caseID: caseID, phone: phone, reason: reason), token: session.token)
    }

    public func followUpQueue(_ session: StaffSession, query: QueueQuery) async throws(ServiceError) -> QueuePage {
        try await send(StaffCodecs.followUpQueue, query, token: session.token)
    }

    public func followUpDetail(_ session: StaffSession, followUpID: Int64) async throws(ServiceError)
        -> FollowUpDetail
    {
        try await send(StaffCodecs.followUpDetail, followUpID, token: session.token)
    }

    public func recordAttempt(
        _ session: StaffSession, followUpID: Int64, outcome: CallOutcome, note: String
    ) async throws(ServiceError) -> FollowUp {
        try await send(
            StaffCodecs.followUpAttempt, .init(followUpID: followUpID, outcome: outcome, note: note),
            token: session.token)
    }

    public func recordCheck(
        _ session: StaffSession, followUpID: Int64, symptoms: Bool, isolating: Bool, note: String
    ) async throws(ServiceError) -> FollowUp {
        try await send(
            StaffCodecs.followUpCheck,
            .init(followUpID: followUpID, symptoms: symptoms, isolating: isolating, note: note), token: session.token)
    }

    public func assignFollowUps(
        _ session: StaffSession, ids: [Int64], to tracer: String
    ) async throws(ServiceError) -> [FollowUp] {
        try await send(StaffCodecs.assignFollowUps, .init(ids: ids, tracer: tracer), token: session.token)
    }

    public func recordFollowUpPhoneCopy(_ session: StaffSession, followUpID: Int64) async throws(ServiceError) {
        try await send(StaffCodecs.followUpPhoneCopy, followUpID, token: session.token)
    }

    public func followUpIndicators(_ session: StaffSession, query: StatsQuery) async throws(ServiceError)
        -> FollowUpIndicators
    {
        try await send(StaffCodecs.followUpIndicators, query, token: session.token)
    }
}
