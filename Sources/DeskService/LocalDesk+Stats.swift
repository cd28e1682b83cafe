import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// PLACEHOLDER (issue 9 in progress): replaced by the real use case.
extension LocalDesk {
    public func statistics(_ session: StaffSession, query: StatsQuery) async throws(ServiceError) -> StatsReport {
        throw .unavailable("statistics are not built yet")
    }
}
