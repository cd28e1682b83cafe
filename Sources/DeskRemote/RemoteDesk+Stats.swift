import DeskAPI
import DeskContract
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The supervisor's statistics over the staff API: `GET /staff/v1/stats`. A read that changes
/// nothing and is not audited, so it is retried after a lost answer.
extension RemoteDesk {
    public func statistics(_ session: StaffSession, query: StatsQuery) async throws(ServiceError) -> StatsReport {
        // The role first, then the query: the same refusals in the same order as LocalDesk.
        guard session.role.may(.readStatistics) else { throw ServiceChecks.forbidden(session.role, .readStatistics) }
        if let problem = ServiceChecks.statsProblem(query) { throw problem }
        let report = try await send(StaffCodecs.statistics, query, token: session.token)
        // Figures for another range would be drawn under this one's labels.
        // A TraceDesk server that answers for another range runs another version, most likely.
        guard report.query == query else {
            throw .failed(
                "the TraceDesk server at \(transport.location) answered the statistics for another range than asked: it may run another version than this console"
            )
        }
        return report
    }
}
