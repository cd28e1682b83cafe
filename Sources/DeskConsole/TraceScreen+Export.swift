import CivilCalendar
import DeskContract
import DeskCore
import TerminalKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The CSV export of the table as shown (audited).
extension TraceScreen {

    /// `~/Documents/trace-<patient user id>-<day>.csv` (``State/exportFolder``), the day in the
    /// tracer's zone.
    public static func defaultExportPath(_ state: State) -> String {
        let day = ConsoleText.day(of: state.now, in: state.timeZone)
        return "\(state.exportFolder)/trace-\(state.lookup?.patient.userID ?? 0)-\(day.iso).csv"
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
        guard var prompt = state.export else { return [] }
        let action = inputKeyMap(state).action(for: key).map { $0 == .submit ? ExportPrompt.Action.submit : .back }
        let step = prompt.handle(key, action)
        state.export = prompt
        switch step {
        case .stay: return []
        case .cancel:
            state.export = nil
            return []
        case .write(let overwrite): return startExport(&state, overwrite: overwrite)
        }
    }

    static func startExport(_ state: inout State, overwrite: Bool) -> [Command] {
        guard var prompt = state.export, let lookup = state.lookup else { return [] }
        let path = prompt.start(defaultPath: defaultExportPath(state), example: "trace.csv")
        state.export = prompt
        guard let path else { return [] }
        let rows = exportRows(state)
        return [
            .export(
                path: path, csv: TraceCSV.contacts(rows), patientUserID: lookup.patient.userID,
                purpose: state.lookupPurpose, rows: rows.count, overwrite: overwrite)
        ]
    }
}
