import DeskSimulation
import TerminalKit

/// The words `simulate` and `demo` print about a run, in the run's language: the summary of the
/// simulated phones' requests (its table's headings over their columns, milliseconds with the
/// language's decimal mark) and of the demo's tracing day. Endpoint names and error kinds stay as
/// the simulation names them (they are the API's routes and answers), but for the words in
/// brackets that say whose requests they are ("check-otp (demo citizen)"), which are the run's.
enum SimulationText {
    /// The summary as lines: the totals, one line per endpoint, then errors and notes by kind.
    static func lines(_ summary: SimulationSummary) -> [String] {
        var out = [
            tr(
                "cli.out.simulation.totals",
                ["requests": String(summary.requests), "errors": String(summary.errorCount)])
        ]
        let labels = ["endpoint", "requests", "p50", "p95", "p99"].map { tr("cli.out.simulation.column.\($0)") }
        let names = summary.endpoints.map { endpointWords($0.name) }
        let name = max(8, names.map { DisplayWidth.of($0) }.max() ?? 8, DisplayWidth.of(labels[0]))
        let count = max(8, DisplayWidth.of(labels[1]))
        let ms = labels[2...].map { max(10, DisplayWidth.of($0)) }
        func milliseconds(_ value: Double) -> String { Language.current.decimal(String(format: "%.1f", value)) }
        out.append(
            "  " + ChunksCommand.pad(labels[0], name) + "  " + ChunksCommand.pad(labels[1], count, right: true) + " "
                + zip(labels[2...], ms).map { ChunksCommand.pad($0, $1, right: true) }.joined(separator: " "))
        for (endpoint, shown) in zip(summary.endpoints, names) {
            let times = [endpoint.p50, endpoint.p95, endpoint.p99].map(milliseconds)
            out.append(
                "  " + ChunksCommand.pad(shown, name) + "  "
                    + ChunksCommand.pad(String(endpoint.requests), count, right: true) + " "
                    + zip(times, ms).map { ChunksCommand.pad($0, $1, right: true) }.joined(separator: " "))
        }
        if !summary.errors.isEmpty {
            out.append(tr("cli.out.simulation.errorsByKind"))
            let sorted = summary.errors.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            for (kind, count) in sorted { out.append("  \(errorWords(kind)): \(count)") }
        }
        if !summary.notes.isEmpty {
            out.append(tr("cli.out.simulation.notes"))
            for (kind, count) in summary.notes.sorted(by: { $0.key < $1.key }) {
                out.append("  \(noteWords(kind)): \(count)")
            }
        }
        return out
    }

    /// An error kind as the run counts it ("his otp no answer", "upload 503 {1503}") in the
    /// language in force: the endpoint and the status stay as they are.
    static func errorWords(_ kind: String) -> String {
        let kind = endpointWords(kind)
        for (suffix, key) in [(" no answer", "noAnswer"), (" not HTTP", "notHTTP")] where kind.hasSuffix(suffix) {
            return String(kind.dropLast(suffix.count)) + " " + tr("messages.simulation.\(key)")
        }
        return kind
    }

    /// An endpoint's name as the run records it ("check-otp (dummy)", "check-otp (demo citizen)"),
    /// or an error kind that starts with one, with the bracketed words in the language in force;
    /// the route's name before them stays as it is.
    static func endpointWords(_ name: String) -> String {
        for (tag, key) in [(" (dummy)", "dummy"), (" (demo citizen)", "demoCitizen")] {
            if let range = name.firstRange(of: tag) {
                let words = " (" + tr("messages.simulation.endpoint.\(key)") + ")"
                return name[..<range.lowerBound] + words + name[range.upperBound...]
            }
        }
        return name
    }

    /// A note as the run counts it, in the language in force (one it does not know as it is).
    static func noteWords(_ note: String) -> String {
        switch note {
        case "requests cancelled when the run stopped": return tr("messages.simulation.cancelled")
        case "no internal listener given: dummy Immuni traffic only": return tr("messages.simulation.noInternal")
        case "no way to read SMS codes given: no APRICOT phones": return tr("messages.simulation.noSmsCodes")
        case "apricot login without pseudo-ids": return tr("messages.simulation.noPseudoIDs")
        default:
            let prefix = "session skipped: "
            let suffix = " already in flight"
            if note.hasPrefix(prefix), note.hasSuffix(suffix),
                let count = Int(note.dropFirst(prefix.count).dropLast(suffix.count))
            {
                return tr("messages.simulation.skipped", ["count": String(count)])
            }
            return note
        }
    }

    /// What the demo's tracing day did.
    static func tracing(_ status: DemoTracingStatus) -> String {
        if let problem = status.problem, status.casesOpened == 0 {
            return tr("cli.out.demo.tracing.none", ["problem": problem])
        }
        var text = trCount(
            "cli.out.demo.tracing.done", status.followUps,
            [
                "cases": String(status.casesOpened), "followUps": String(status.followUps),
                "attempts": String(status.attempts), "reached": String(status.reached), "checks": String(status.checks),
            ])
        if status.patientsSkipped > 0 {
            text += trCount("cli.out.demo.tracing.skipped", status.patientsSkipped)
        }
        if let problem = status.problem { text += tr("cli.out.demo.tracing.stopped", ["problem": problem]) }
        return text
    }
}
