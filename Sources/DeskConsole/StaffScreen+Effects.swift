import DeskContract
import DeskCore
import Foundation
import TerminalKit

// What the staff screen's commands do: calls to the desk, answered through the inbox.
extension Program {
    func perform(_ command: StaffScreen.Command) {
        let service = self.service
        if case .copy(let clip) = command {
            apply(.staff(.copied(copy(clip))))
            return
        }
        withSession { session in
            switch command {
            case .copy: break  // above: no call to the desk
            case .quit:
                break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
            case .load:
                self.call(
                    { () async throws(ServiceError) in try await service.staff(session) },
                    then: { .staff(.loaded($0)) }, failed: { .staff(.loadFailed($0.message)) }, session: true)
            case .add(let name, let role, let password):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.addStaff(session, name: name, role: role, password: password)
                    },
                    then: { .staff(.added($0)) }, failed: { .staff(.changeFailed($0.message)) }, session: true)
            case .disable(let name):
                self.call(
                    { () async throws(ServiceError) in try await service.disableStaff(session, name: name) },
                    then: { .staff(.disabled($0)) }, failed: { .staff(.changeFailed($0.message)) }, session: true)
            case .resetPassword(let name, let password):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.resetPassword(session, name: name, password: password)
                    },
                    then: { .staff(.passwordReset($0)) }, failed: { .staff(.changeFailed($0.message)) }, session: true)
            }
        }
    }
}
