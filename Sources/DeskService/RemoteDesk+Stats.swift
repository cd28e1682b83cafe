import DeskAPI
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
        if let problem = LocalDesk.statsProblem(query) { throw problem }
        let reply = try await transport.perform(
            .init(
                method: "GET", path: "/stats", query: StaffWire.statsQueryItems(query), token: session.token,
                what: "statistics", idempotent: true))
        let report = try read(reply) { bytes throws(FieldProblem) in try StaffWire.readStatsReport(bytes) }
        // Figures for another range would be drawn under this one's labels.
        guard report.query == query else { throw transport.notTraceDesk("its statistics are not for the range asked") }
        return report
    }
}
