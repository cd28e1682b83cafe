import DeskContract
import DeskCore
import DeskCrypto
import DeskStore
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Hospital systems (HIS clients): admins add, list and revoke them; the store audits each change.
extension LocalDesk {
    public func hisClients(_ session: StaffSession) async throws(ServiceError) -> [HISClient] {
        _ = try authenticate(session, for: .manageHISClients)
        return try storeCall { () throws(StoreError) in try store.hisClients() }
    }

    public func addHISClient(
        _ session: StaffSession, name: String, ratePerMinute: Int?
    ) async throws(ServiceError) -> NewHISClient {
        let person = try authenticate(session, for: .manageHISClients)
        let name = try Self.checkedClientName(name)
        if let rate = ratePerMinute, !HISRate.allowed.contains(rate) {
            throw .invalid(
                tr(
                    "errors.his.rate",
                    ["min": String(HISRate.allowed.lowerBound), "max": String(HISRate.allowed.upperBound)]))
        }
        let key = HISKey.make()
        let added = try storeCall { () throws(StoreError) in
            try store.addHISClient(
                name: name, keyHash: HISKey.hash(key), ratePerMinute: ratePerMinute, by: person.user, now: clock.now())
        }
        guard let client = added else {
            throw .conflict(tr("errors.his.nameTaken", ["name": name]))
        }
        return NewHISClient(client: client, key: key)
    }

    public func revokeHISClient(_ session: StaffSession, name: String) async throws(ServiceError) -> HISClient {
        let person = try authenticate(session, for: .manageHISClients)
        let name = try Self.checkedClientName(name)
        guard
            let client = try storeCall({ () throws(StoreError) in
                try store.revokeHISClient(name: name, by: person.user, now: clock.now())
            })
        else { throw .invalid(tr("errors.his.noClient", ["name": name])) }
        return client
    }

    static func checkedClientName(_ text: String) throws(ServiceError) -> String {
        switch HISClientName.normalize(text) {
        case .success(let name): return name
        case .failure(let problem): throw .invalid(problem.message)
        }
    }
}
