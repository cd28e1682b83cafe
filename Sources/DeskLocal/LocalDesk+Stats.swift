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
        if let problem = Self.statsProblem(query) { throw problem }
        let now = clock.now()
        return try storeCall { () throws(StoreError) in try store.statistics(query, now: now) }
    }

    /// What is wrong with a query, in the words both desks use (``StatsQuery/last(_:bucket:now:)``
    /// builds one unchecked, e.g. 14 days in 5-minute buckets); nil when it can be counted.
    /// RemoteDesk checks before sending, so a console gets the same message in either mode.
    public static func statsProblem(_ query: StatsQuery) -> ServiceError? {
        switch StatsQuery.make(from: query.from, to: query.to, bucket: query.bucket) {
        case .success: return nil
        case .failure(let problem): return .invalid(problem.message)
        }
    }
}
