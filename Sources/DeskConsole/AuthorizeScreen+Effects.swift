import DeskContract
import DeskCore
import Foundation
import TerminalKit

// What the authorise screen's commands do: calls to the desk, answered through the inbox.
extension Program {
    func perform(_ command: AuthorizeScreen.Command) {
        let service = self.service
        withSession { session in
            switch command {
            case .quit:
                break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
            case .authorize(let code, let day):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.authorize(session, code: code, symptomsStartedOn: day)
                    },
                    then: { .authorize(.authorizeFinished($0)) }, failed: { .authorize(.authorizeFailed($0.message)) },
                    session: true)
            case .watch(let target):
                self.call(
                    { () async throws(ServiceError) in try await service.watch(session, target) },
                    then: { .authorize(.watchLoaded($0)) },
                    failed: { error in
                        Self.isRefusal(error)
                            ? .authorize(.watchRefused(error.message, for: target))
                            : .authorize(.watchFailed(error.message, for: target))
                    }, session: true)
            }
        }
    }
}
