import CivilCalendar
import DeskCore
import DeskService
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The CSV export of the table as shown (audited).
extension TraceScreen {

    /// `./trace-<patient user id>-<day>.csv`, the day in the tracer's zone.
    public static func defaultExportPath(_ state: State) -> String {
        let day = ConsoleText.day(of: state.now, in: state.timeZone)
        return "./trace-\(state.lookup?.patient.userID ?? 0)-\(day.iso).csv"
    }

    static func openExport(_ state: inout State) {
        guard state.lookup != nil else { return }
        state.export = ExportPrompt(path: defaultExportPath(state))
    }

    /// The table as shown (filter and order), as CSV.
    public static func exportRows(_ state: State) -> [TraceContact] {
        guard let lookup = state.lookup else { return [] }
        return state.order.map { lookup.contacts[$0] }
    }

    static func exportKey(_ state: inout State, _ key: Key) -> [Command] {
        guard var prompt = state.export, !prompt.writing else { return [] }
        if var dialog = prompt.confirm {
            switch dialog.handle(key) {
            case .chosen(0): return startExport(&state, overwrite: true)
            case .chosen, .cancelled:
                prompt.confirm = nil
                prompt.error = "kept the existing file: type another name, or press Enter again to be asked again"
            case .changed, .unchanged, .notHandled:
                prompt.confirm = dialog
            }
            state.export = prompt
            return []
        }
        switch inputKeyMap(state).action(for: key) {
        case .back:
            state.export = nil
            return []
        case .submit:
            return startExport(&state, overwrite: false)
        case nil:
            if prompt.path.handle(key) == .changed { prompt.error = nil }
            state.export = prompt
            return []
        }
    }

    static func startExport(_ state: inout State, overwrite: Bool) -> [Command] {
        guard var prompt = state.export, let lookup = state.lookup else { return [] }
        prompt.confirm = nil
        let path: String
        switch ExportPath.checked(prompt.path.text, defaultPath: defaultExportPath(state), example: "trace.csv") {
        case .success(let checked): path = checked
        case .failure(let problem):
            prompt.error = problem.message
            state.export = prompt
            return []
        }
        prompt.writing = true
        prompt.error = nil
        state.export = prompt
        let rows = exportRows(state)
        return [
            .export(
                path: path, csv: TraceCSV.contacts(rows), patientUserID: lookup.patient.userID,
                purpose: state.lookupPurpose, rows: rows.count, overwrite: overwrite)
        ]
    }
}
