import DeskContract
import DeskCore
import DeskStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The supervisor's statistics over the store. Figures only, nothing about a person: not audited
// (docs/decisions.md).
extension LocalDesk {
    public func statistics(_ session: StaffSession, query: StatsQuery) async throws(ServiceError) -> StatsReport {
        _ = try authenticate(session, for: .readStatistics)
        if let problem = ServiceChecks.statsProblem(query) { throw problem }
        let now = clock.now()
        return try storeCall { () throws(StoreError) in try store.statistics(query, now: now) }
    }
}
