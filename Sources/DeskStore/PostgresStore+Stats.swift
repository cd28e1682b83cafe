import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// PLACEHOLDER (issue 9 in progress): replaced by the real statistics.
extension PostgresStore {
    public func statistics(_ query: StatsQuery, now: Date) throws(StoreError) -> StatsReport {
        StatsReport(query: query, generatedAt: now)
    }

    @discardableResult
    public func rollUpStatistics(now: Date) throws(StoreError) -> Int { 0 }
}
