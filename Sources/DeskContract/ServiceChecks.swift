import DeskCore

/// The limits and checks of the staff use cases that every desk applies in the same words:
/// `LocalDesk` decides with them, `RemoteDesk` runs them before sending (so a console gets
/// the same message in either mode, and a request that cannot succeed never reaches the
/// network), and the staff API's readers (StaffRequests) bound their parameters by them.
/// Here, in the contract, so that none of those has to reach into another's module.
public enum ServiceChecks {
    // MARK: The monitor

    /// The most events one page holds.
    public static let maximumPageSize = 1_000
    /// The longest long poll a request may ask for, in whole seconds.
    public static let maximumWaitSeconds: Int64 = 60
    /// The longest a page waits for an event.
    public static let maximumWait: Duration = .seconds(maximumWaitSeconds)

    /// What is wrong with a page request; nil when nothing is.
    public static func pageProblem(after: Int64, limit: Int, wait: Duration) -> ServiceError? {
        guard (1...maximumPageSize).contains(limit) else {
            return .invalid("ask for 1 to \(maximumPageSize) events per page (not \(limit))")
        }
        guard after >= 0 else { return .invalid("an event position is 0 or more: start from 0") }
        guard wait >= .zero else { return .invalid("a wait cannot be negative: give 0 to 60 seconds") }
        return nil
    }

    // MARK: Statistics

    /// What is wrong with a query (``StatsQuery/last(_:bucket:now:)`` builds one unchecked,
    /// e.g. 14 days in 5-minute buckets); nil when it can be counted.
    public static func statsProblem(_ query: StatsQuery) -> ServiceError? {
        switch StatsQuery.make(from: query.from, to: query.to, bucket: query.bucket) {
        case .success: return nil
        case .failure(let problem): return .invalid(problem.message)
        }
    }

    // MARK: Roles

    /// The refusal of a use case the role may not run, naming the roles that may.
    public static func forbidden(_ role: StaffRole, _ useCase: DeskUseCase) -> ServiceError {
        let allowed = useCase.roles.sorted().map(\.rawValue).joined(separator: " or ")
        return .forbidden("your role (\(role.rawValue)) cannot \(useCase.phrase): that needs the \(allowed) role")
    }

    // MARK: Contact tracing and the outbox

    /// The kinds ``DeskService/recordTraceExport(_:patientUserID:purpose:kind:rows:)`` accepts.
    public static let exportKinds: Set<String> = ["contacts_csv", "sightings_csv", "json"]
    /// The most outbox messages one call returns.
    public static let maximumOutboxPage = 1_000

    /// What a tracer is told for a number no APRICOT user registered (the number is not repeated).
    public static let unknownPatient =
        "no APRICOT user has this number: check it with the patient, or ask them to register in the app"

    /// What is wrong with an outcome's note; nil when it is fine.
    public static func noteProblem(_ note: String) -> String? {
        if note.count > RecordedOutcome.maximumNoteLength {
            return
                "the note has \(note.count) characters, at most \(RecordedOutcome.maximumNoteLength): shorten it"
        }
        if note.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "the note may not contain control characters (line breaks, tabs): type it on one line"
        }
        return nil
    }
}
