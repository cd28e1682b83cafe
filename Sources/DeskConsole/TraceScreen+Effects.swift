import DeskContract
import DeskCore
import DeskText
import Foundation
import TerminalKit

// What the tracer's commands do: calls to the desk, and the audited CSV file.
extension Program {
    func perform(_ command: TraceScreen.Command) {
        let service = self.service
        switch command {
        case .copy(let clip):
            apply(.trace(.copied(copy(clip))))
            return
        case .copyPhone where !copyEnabled:
            // Off: nothing is copied, so nothing is audited.
            apply(.trace(.copied(.off)))
            return
        default: break
        }
        withSession { session in
            switch command {
            case .copy: break  // above: no call to the desk
            case .copyPhone(let patient, let contact, let purpose, let phone):
                let clip = ClipboardCopy(phone, what: tr("console.trace.phoneNumber"))
                self.call(
                    { () async throws(ServiceError) in
                        try await service.recordPhoneCopy(
                            session, patientUserID: patient, contactUserID: contact, purpose: purpose)
                    },
                    then: { .trace(.phoneCopyRecorded(clip, patient: patient)) },
                    failed: { .trace(.copied(.refused($0.message))) }, session: true)
            case .quit, .showCase:
                break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
            case .openCase(let phone, let reference, let day, let kind):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.openCase(
                            session, phone: phone, reference: reference, indexDay: day, indexKind: kind,
                            assignToMe: false)
                    },
                    then: { .trace(.caseOpened($0)) }, failed: { .trace(.lookupFailed($0.message)) }, session: true)
            case .lookup(let phone, let purpose):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.traceLookup(session, phone: phone, purpose: purpose)
                    },
                    then: { .trace(.lookupLoaded($0)) }, failed: { .trace(.lookupFailed($0.message)) }, session: true)
            case .sightings(let patient, let contact, let purpose, let offset, let limit):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.traceSightings(
                            session, patientUserID: patient, contactUserID: contact, purpose: purpose, offset: offset,
                            limit: limit)
                    },
                    then: { .trace(.sightingsLoaded($0, patient: patient, contact: contact, offset: offset)) },
                    failed: { .trace(.sightingsFailed($0.message, patient: patient, contact: contact)) }, session: true)
            case .recordOutcome(let patient, let contact, let outcome, let note, let purpose):
                self.call(
                    { () async throws(ServiceError) in
                        try await service.recordOutcome(
                            session, patientUserID: patient, contactUserID: contact, outcome: outcome, note: note,
                            purpose: purpose)
                    },
                    then: { .trace(.outcomeSaved($0, patient: patient, contact: contact)) },
                    failed: { .trace(.outcomeFailed($0.message, patient: patient, contact: contact)) }, session: true)
            case .export(let path, let csv, let patient, let purpose, let rows, let overwrite):
                self.call(
                    { () async throws(ServiceError) -> TraceScreen.Msg in
                        // The path is checked, then an existing file asked about, then the
                        // bytes written and flushed under a temporary name; only then is the
                        // export audited, and only an audited export is put in place. A failed
                        // export leaves no audit entry; a written one always has one.
                        let file = ExportPath.expanded(path)
                        do throws(AtomicFile.Failure) {
                            try AtomicFile.check(file)
                        } catch {
                            return .exportFailed(error.message)
                        }
                        if !overwrite, AtomicFile.exists(file) { return .exportExists(path) }
                        let staged: AtomicFile.Staged
                        do throws(AtomicFile.Failure) {
                            staged = try AtomicFile.stage(Array(csv.utf8), for: file, overwrite: overwrite)
                        } catch {
                            if case .exists = error { return .exportExists(path) }
                            return .exportFailed(error.message)
                        }
                        do throws(ServiceError) {
                            try await service.recordTraceExport(
                                session, patientUserID: patient, purpose: purpose, kind: "contacts_csv", rows: rows)
                        } catch {
                            staged.discard()
                            throw error
                        }
                        do throws(AtomicFile.Failure) {
                            try staged.commit()
                        } catch {
                            if case .exists = error { return .exportExists(path) }
                            return .exportFailed(error.message)
                        }
                        return .exported(path: path, rows: rows)
                    },
                    then: { .trace($0) },
                    failed: {
                        .trace(
                            .exportFailed(tr("console.trace.exportNotAudited", ["message": $0.message])))
                    }, session: true)
            }
        }
    }
}
