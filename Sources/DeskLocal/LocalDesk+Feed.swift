import DeskContract
import DeskCore
import DeskStore

extension LocalDesk {
    /// The store's latest event position, for a server's long polls: one cheap read that says
    /// whether anything new may be there. Needs no session: it tells nothing but a number, and
    /// only the server itself asks (it is no use case and no route).
    public func latestEventPosition() async throws(ServiceError) -> Int64 {
        try storeCall { () throws(StoreError) in try store.latestEventID() }
    }
}
