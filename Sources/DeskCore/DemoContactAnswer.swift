// `tracedesk demo` only: what a simulated contact does when a tracer calls them. The same for
// the same follow-up and attempt, so the console can tell a tracer trying the demo which digit
// to press, and the demo's simulation can answer alike.

/// What a simulated contact of the demo does on a call.
public enum DemoContactAnswer {
    /// The outcome of call `attempt` (1 for the first) to follow-up `followUpID`: most contacts
    /// answer at once; some miss the first call (no answer, or voicemail) and answer the next;
    /// one in ten gave a wrong number and one in ten refuses.
    public static func outcome(followUpID: Int64, attempt: Int) -> CallOutcome {
        let kind = ((followUpID % 10) + 10) % 10
        switch kind {
        case 3, 8: return attempt <= 1 ? .noAnswer : .reached
        case 6: return attempt <= 1 ? .voicemail : .reached
        case 7: return .wrongNumber
        case 9: return .refused
        default: return .reached
        }
    }

    /// The line the queue shows: "answers and agrees to be followed: press 4 (reached)".
    public static func hint(followUpID: Int64, attempt: Int) -> String {
        let outcome = outcome(followUpID: followUpID, attempt: attempt)
        let does: String
        switch outcome {
        case .noAnswer: does = "does not answer this call"
        case .voicemail: does = "lets this call go to voicemail"
        case .wrongNumber: does = "answers, but it is not their number"
        case .reached: does = "answers and agrees to be followed"
        case .refused: does = "answers and refuses to be followed"
        }
        return "\(does): press \(outcome.digit) (\(outcome.label))"
    }
}
