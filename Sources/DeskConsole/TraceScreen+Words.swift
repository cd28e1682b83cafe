import DeskContract
import DeskCore
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The tracer's screens' words for the core's values (outcomes, follow-up states, index days,
/// close reasons), from the catalogue in the language in force. The core's own `label`s stay
/// English: the command line and the wire read them.
enum TracingWords {
    /// A call's outcome on the trace screen: "not yet called", "da chiamare".
    static func outcome(_ outcome: ContactOutcome) -> String { tr("console.trace.outcome.\(outcome.rawValue)") }

    /// A call's outcome in the queue: "no answer", "non risponde".
    static func call(_ outcome: CallOutcome) -> String { tr("console.queue.outcome.\(outcome.rawValue)") }

    /// A follow-up's state: "to call", "da chiamare".
    static func state(_ state: FollowUpState) -> String { tr("console.queue.state.\(state.rawValue)") }

    /// "symptom onset", "data di inizio sintomi".
    static func indexKind(_ kind: IndexDayKind) -> String { tr("console.case.indexKind.\(kind.rawValue)") }

    /// Why a case was closed.
    static func closeReason(_ reason: CaseCloseReason) -> String { tr("console.case.reason.\(reason.rawValue)") }

    /// "3 days", "1 giorno": `key` names a count message (`key.one`, `key.other`).
    static func count(_ key: String, _ n: Int) -> String { trCount(key, n) }

    /// Why an attempt cannot be recorded on this follow-up (as ``FollowUpSchedule/attemptProblem(_:)``).
    static func attemptProblem(_ followUp: FollowUp) -> String? {
        followUp.state.isActive
            ? nil
            : tr("console.queue.problem.ended", ["id": String(followUp.id), "state": state(followUp.state)])
    }

    /// Why a daily check cannot be recorded (as ``FollowUpSchedule/checkProblem(_:)``).
    static func checkProblem(_ followUp: FollowUp) -> String? {
        switch followUp.state {
        case .monitoring: return nil
        case .calling: return tr("console.queue.problem.notReached", ["id": String(followUp.id)])
        default:
            return tr("console.queue.problem.checkEnded", ["id": String(followUp.id), "state": state(followUp.state)])
        }
    }

    /// Why a typed case reference is refused (as ``CaseReference/checked(_:)`` says in English).
    static func referenceProblem(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return tr("console.trace.reference.required") }
        if trimmed.count > TraceCase.maximumReferenceLength {
            return tr("console.trace.reference.tooLong", ["max": String(TraceCase.maximumReferenceLength)])
        }
        return tr("console.trace.reference.control")
    }

    /// The demo's line: what the simulated contact does on this call, and the digit to press.
    static func demoHint(followUpID: Int64, attempt: Int) -> String {
        let outcome = DemoContactAnswer.outcome(followUpID: followUpID, attempt: attempt)
        return tr(
            "console.queue.demo.\(outcome.rawValue)", ["digit": String(outcome.digit), "outcome": call(outcome)])
    }
}
