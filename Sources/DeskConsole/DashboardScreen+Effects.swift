import DeskContract
import DeskCore
import Foundation
import TerminalKit

// What the dashboard's commands do: the statistics call and the CSV file.
extension Program {
    func perform(_ command: DashboardScreen.Command) {
        let service = self.service
        switch command {
        case .quit:
            break  // taken by ConsoleApp, see perform(_: ConsoleApp.Command)
        case .rememberRange(let range):
            // A few bytes in the user's state folder, written here and now so two quick
            // changes land in order; a failure only means the next run opens on the last hour.
            if let rangeFile { RememberedRange.write(range, to: rangeFile) }
        case .load(let query):
            withSession { session in
                self.call(
                    { () async throws(ServiceError) in try await service.statistics(session, query: query) },
                    then: { .dashboard(.loaded($0, for: query)) },
                    failed: { .dashboard(.failed($0.message, for: query)) }, session: true)
            }
        case .loadIndicators(let query):
            withSession { session in
                self.call(
                    { () async throws(ServiceError) in try await service.followUpIndicators(session, query: query) },
                    then: { .dashboard(.indicatorsLoaded($0, for: query)) },
                    failed: { .dashboard(.indicatorsFailed($0.message, for: query)) }, session: true)
            }
        case .export(let path, let csv, let overwrite):
            // Figures, not personal data: nothing to audit. Checked, then an existing file asked
            // about, then written whole under a temporary name and put in place (mode 0600).
            call(
                { () async throws(ServiceError) -> DashboardScreen.Msg in
                    let file = ExportPath.expanded(path)
                    do throws(AtomicFile.Failure) {
                        try AtomicFile.check(file)
                        if !overwrite, AtomicFile.exists(file) { return .exportExists(path) }
                        try AtomicFile.write(Array(csv.utf8), to: file, overwrite: overwrite)
                    } catch {
                        if case .exists = error { return .exportExists(path) }
                        return .exportFailed(error.message)
                    }
                    return .exported(path: path)
                },
                then: { .dashboard($0) }, failed: { .dashboard(.exportFailed($0.message)) })
        }
    }
}
