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
        let reply = try await call(.hisClients, token: session.token)
        return try read(reply) { bytes throws(FieldProblem) in try StaffWire.readHISClients(bytes) }
    }

    public func addHISClient(
        _ session: StaffSession, name: String, ratePerMinute: Int?
    ) async throws(ServiceError) -> NewHISClient {
        let reply = try await call(
            .addHISClient, body: StaffWire.newHISClientRequest(name: name, ratePerMinute: ratePerMinute),
            token: session.token)
        return try read(reply) { bytes throws(FieldProblem) in try StaffWire.readNewHISClient(bytes) }
    }

    public func revokeHISClient(_ session: StaffSession, name: String) async throws(ServiceError) -> HISClient {
        let reply = try await call(.revokeHISClient, segment: name, token: session.token)
        return try read(reply) { bytes throws(FieldProblem) in try StaffWire.readHISClient(bytes) }
    }
}
