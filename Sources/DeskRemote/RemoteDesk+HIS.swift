import DeskAPI
import DeskContract
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// HIS clients over the staff API. The list is a read (retried after a lost answer); an add is
/// never retried (a lost answer may have made a client whose key nobody saw: revoke it and add
/// another), a revoke may be (revoking twice changes nothing).
extension RemoteDesk {
    public func hisClients(_ session: StaffSession) async throws(ServiceError) -> [HISClient] {
        try await send(StaffCodecs.hisClients, (), token: session.token)
    }

    public func addHISClient(
        _ session: StaffSession, name: String, ratePerMinute: Int?
    ) async throws(ServiceError) -> NewHISClient {
        try await send(StaffCodecs.addHISClient, .init(name: name, ratePerMinute: ratePerMinute), token: session.token)
    }

    public func revokeHISClient(_ session: StaffSession, name: String) async throws(ServiceError) -> HISClient {
        try await send(StaffCodecs.revokeHISClient, name, token: session.token)
    }
}
