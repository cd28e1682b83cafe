import DeskContract
import DeskCore
import DeskStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The tracing indicators (issue 21, point 7) over the store: figures only, nothing about a
// person, so not audited, as the statistics are (docs/decisions.md). Supervisor only.
extension LocalDesk {
    public func followUpIndicators(_ session: StaffSession, query: StatsQuery) async throws(ServiceError)
        -> FollowUpIndicators
    {
        _ = try authenticate(session, for: .readStatistics)
        if let problem = ServiceChecks.statsProblem(query) { throw problem }
        let now = clock.now()
        // The follow-up settings a due follow-up turns overdue by (the retry interval). The
        // desk's own settings replace the defaults once LocalDesk carries them.
        let settings = FollowUpSettings.standard
        return try storeCall { () throws(StoreError) in
            try store.followUpIndicators(query, now: now, settings: settings)
        }
    }
}
