import DeskContract
import DeskCore
import Foundation
import TerminalKit

// What the monitor's commands do: calls to the desk, answered through the inbox.
extension Program {
    func perform(_ command: MonitorScreen.Command) {
        let service = self.service
        if case .copy(let clip) = command {
            apply(.monitor(.copied(copy(clip))))
            return
        }
        withSession { session in
            switch command {
            case .copy: break  // above: no call to the desk
            case .quit:
                break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
            case .traffic(let since):
                self.call(
                    { () async throws(ServiceError) in try await service.traffic(session, since: since) },
                    then: { .monitor(.trafficLoaded($0)) }, failed: { .monitor(.trafficFailed($0.message)) },
                    session: true)
            case .watch(let target):
                self.call(
                    { () async throws(ServiceError) in try await service.watch(session, target) },
                    then: { .monitor(.watchLoaded($0, for: target)) },
                    failed: { error in
                        Self.isRefusal(error)
                            ? .monitor(.watchRefused(error.message, for: target))
                            : .monitor(.watchFailed(error.message, for: target))
                    }, session: true)
            }
        }
    }
}
