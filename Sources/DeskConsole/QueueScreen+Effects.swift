import DeskContract
import DeskCore
import DeskText
import Foundation
import TerminalKit

// What the queue's commands do: calls to the desk, answered through the inbox.
extension Program {
    func perform(_ command: QueueScreen.Command) {
        let service = self.service
        switch command {
        case .copy(let clip):
            apply(.queue(.copied(copy(clip))))
            return
        case .copyPhone where !copyEnabled:
            // Off: nothing is copied, so nothing is audited.
            apply(.queue(.copied(.off)))
            return
        default: break
        }
        let now = service.now()
        withSession { session in
            switch command {
            case .copy, .quit, .backToTrace: break  // above, or taken by ConsoleApp
            case .caseDetail(let id):
                // The desk's use case: every read of a case is audited (`follow_up_viewed`, `case N`).
                self.call(
                    { () async throws(ServiceError) in try await service.caseDetail(session, caseID: id) },
                    then: { .queue(.caseLoaded($0)) }, failed: { .queue(.caseFailed($0.message, caseID: id)) },
                    session: true)
            case .closeCase(let id, let reason, let note):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.closeCase(session, caseID: id, reason: reason, note: note)
                    },
                    then: { .queue(.caseClosed($0)) }, failed: { .queue(.caseCloseFailed($0.message, caseID: id)) },
                    session: true)
            case .copyPhone(let id, let phone):
                let clip = ClipboardCopy(phone, what: tr("console.trace.phoneNumber"))
                self.call(
                    { () async throws(ServiceError) in
                        try await service.recordFollowUpPhoneCopy(session, followUpID: id)
                    },
                    then: { .queue(.phoneCopyRecorded(clip, followUp: id)) },
                    failed: { .queue(.copied(.refused($0.message))) }, session: true)
            case .load(let query, let request, let append):
                self.call(
                    { () async throws(ServiceError) in try await service.followUpQueue(session, query: query) },
                    then: { .queue(.loaded($0, request: request, append: append)) },
                    failed: { .queue(.loadFailed($0.message, request: request)) }, session: true)
            case .detail(let id):
                self.call(
                    { () async throws(ServiceError) in try await service.followUpDetail(session, followUpID: id) },
                    then: { .queue(.detailLoaded($0)) }, failed: { .queue(.detailFailed($0.message, followUp: id)) },
                    session: true)
            case .attempt(let id, let outcome, let note):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.recordAttempt(session, followUpID: id, outcome: outcome, note: note)
                    },
                    then: { .queue(.attemptSaved($0, outcome: outcome)) },
                    failed: { .queue(.attemptFailed($0.message, followUp: id, outcome: outcome)) }, session: true)
            case .check(let id, let symptoms, let isolating, let note):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.recordCheck(
                            session, followUpID: id, symptoms: symptoms, isolating: isolating, note: note)
                    },
                    then: { .queue(.checkSaved($0, symptoms: symptoms)) },
                    failed: { .queue(.checkFailed($0.message, followUp: id)) }, session: true)
            case .assign(let ids, let tracer):
                self.call(
                    { () async throws(ServiceError) in try await service.assignFollowUps(session, ids: ids, to: tracer)
                    },
                    then: { .queue(.assigned($0, to: tracer)) }, failed: { .queue(.assignFailed($0.message)) },
                    session: true)
            case .tracers:
                // The indicators name every active tracer; a failure leaves the picker to typed names.
                guard
                    case .success(let query) = StatsQuery.make(
                        from: now.addingTimeInterval(-86_400), to: now, bucket: .day)
                else { return }
                self.call(
                    { () async throws(ServiceError) in try await service.followUpIndicators(session, query: query) },
                    then: { .queue(.tracersLoaded($0.tracers.map(\.tracer))) }, failed: { _ in nil }, session: true)
            }
        }
    }
}
