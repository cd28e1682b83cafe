import CivilCalendar
import DeskCore

// TEMPORARY scaffolding while issue 21 lands in parts: each desk replaces these with its own
// implementation, and this file is deleted before the issue is called done. A desk that has not
// built a use case yet answers `.unavailable` saying so, never a crash.
extension DeskService {
    private var notBuilt: ServiceError { .unavailable("case follow-up is not available on this desk yet") }

    public func openCase(
        _ session: StaffSession, phone: String, reference: String, indexDay: CivilDay?, indexKind: IndexDayKind,
        assignToMe: Bool
    ) async throws(ServiceError) -> CaseOpening { throw notBuilt }

    public func cases(_ session: StaffSession, query: CaseQuery) async throws(ServiceError) -> [TraceCase] {
        throw notBuilt
    }

    public func caseDetail(_ session: StaffSession, caseID: Int64) async throws(ServiceError) -> CaseDetail {
        throw notBuilt
    }

    public func closeCase(
        _ session: StaffSession, caseID: Int64, reason: CaseCloseReason, note: String
    ) async throws(ServiceError) -> TraceCase { throw notBuilt }

    public func addFollowUp(
        _ session: StaffSession, caseID: Int64, phone: String, reason: String
    ) async throws(ServiceError) -> FollowUp { throw notBuilt }

    public func followUpQueue(_ session: StaffSession, query: QueueQuery) async throws(ServiceError) -> QueuePage {
        throw notBuilt
    }

    public func followUpDetail(_ session: StaffSession, followUpID: Int64) async throws(ServiceError)
        -> FollowUpDetail
    { throw notBuilt }

    public func recordAttempt(
        _ session: StaffSession, followUpID: Int64, outcome: CallOutcome, note: String
    ) async throws(ServiceError) -> FollowUp { throw notBuilt }

    public func recordCheck(
        _ session: StaffSession, followUpID: Int64, symptoms: Bool, isolating: Bool, note: String
    ) async throws(ServiceError) -> FollowUp { throw notBuilt }

    public func assignFollowUps(
        _ session: StaffSession, ids: [Int64], to tracer: String
    ) async throws(ServiceError) -> [FollowUp] { throw notBuilt }

    public func recordFollowUpPhoneCopy(_ session: StaffSession, followUpID: Int64) async throws(ServiceError) {
        throw notBuilt
    }

    public func followUpIndicators(_ session: StaffSession, query: StatsQuery) async throws(ServiceError)
        -> FollowUpIndicators
    { throw notBuilt }
}
