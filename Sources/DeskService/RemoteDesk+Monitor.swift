import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// SCAFFOLD(issue 7): replaced by the staff API client before the issue lands.
extension RemoteDesk {
    public func events(
        _ session: StaffSession, after: Int64, limit: Int, wait: Duration
    ) async throws(ServiceError) -> EventPage {
        throw .unavailable("SCAFFOLD: events not built yet")
    }

    public func traffic(_ session: StaffSession, since: Date) async throws(ServiceError) -> TrafficShare {
        throw .unavailable("SCAFFOLD: traffic not built yet")
    }

    public func watch(_ session: StaffSession, _ target: WatchTarget) async throws(ServiceError) -> CodeWatch {
        throw .unavailable("SCAFFOLD: watch not built yet")
    }
}
