import DeskContract
import DeskCore
import Foundation
import TerminalKit

// What the HIS clients screen's commands do: calls to the desk, answered through the inbox.
extension Program {
    func perform(_ command: HISScreen.Command) {
        let service = self.service
        if case .copy(let clip) = command {
            apply(.his(.copied(copy(clip))))
            return
        }
        withSession { session in
            switch command {
            case .copy: break  // above: no call to the desk
            case .quit:
                break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
            case .load:
                self.call(
                    { () async throws(ServiceError) in try await service.hisClients(session) },
                    then: { .his(.loaded($0)) }, failed: { .his(.loadFailed($0.message)) }, session: true)
            case .add(let name, let rate):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.addHISClient(session, name: name, ratePerMinute: rate)
                    },
                    then: { .his(.added($0)) }, failed: { .his(.changeFailed($0.message)) }, session: true)
            case .revoke(let name):
                self.call(
                    { () async throws(ServiceError) in try await service.revokeHISClient(session, name: name) },
                    then: { .his(.revoked($0)) }, failed: { .his(.changeFailed($0.message)) }, session: true)
            }
        }
    }
}
