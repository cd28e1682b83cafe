import DeskContract
import DeskCore
import Foundation
import TerminalKit

// What the audit screen's commands do: calls to the desk, answered through the inbox.
extension Program {
    func perform(_ command: AuditScreen.Command) {
        let service = self.service
        if case .copy(let clip) = command {
            apply(.audit(.copied(copy(clip))))
            return
        }
        withSession { session in
            switch command {
            case .copy: break  // above: no call to the desk
            case .quit:
                break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
            case .load(let query):
                self.call(
                    { () async throws(ServiceError) in try await service.audit(session, query: query) },
                    then: { .audit(.loaded($0, for: query)) }, failed: { .audit(.loadFailed($0.message, for: query)) },
                    session: true)
            case .verify:
                self.call(
                    { () async throws(ServiceError) in try await service.verifyAudit(session) },
                    then: { .audit(.verified($0)) }, failed: { .audit(.verifyFailed($0.message)) }, session: true)
            }
        }
    }
}
