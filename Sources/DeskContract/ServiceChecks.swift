import DeskCore
import DeskText

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
            return .invalid(tr("errors.monitor.pageSize", ["max": String(maximumPageSize), "limit": String(limit)]))
        }
        guard after >= 0 else { return .invalid(tr("errors.monitor.position")) }
        guard wait >= .zero else { return .invalid(tr("errors.monitor.negativeWait")) }
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
        let allowed = useCase.roles.sorted().map { tr("console.frame.role.\($0.rawValue)") }
            .joined(separator: tr("errors.role.or"))
        return .forbidden(
            tr(
                "errors.role.forbidden",
                [
                    "role": tr("console.frame.role.\(role.rawValue)"),
                    "action": tr("errors.useCase.\(useCase.rawValue)"),
                    "allowed": allowed,
                ]))
    }

    // MARK: Contact tracing and the outbox

    /// The kinds ``DeskService/recordTraceExport(_:patientUserID:purpose:kind:rows:)`` accepts.
    public static let exportKinds: Set<String> = ["contacts_csv", "sightings_csv", "json"]
    /// The most outbox messages one call returns.
    public static let maximumOutboxPage = 1_000

    /// What a tracer is told for a number no APRICOT user registered (the number is not repeated).
    public static var unknownPatient: String { tr("errors.trace.unknownPatient") }

    /// What is wrong with an outcome's note (or, with `isReason`, the reason a contact is added
    /// by hand, which follows the same rules); nil when it is fine.
    public static func noteProblem(_ note: String, isReason: Bool = false) -> String? {
        let what = isReason ? "errors.reason" : "errors.note"
        if note.count > RecordedOutcome.maximumNoteLength {
            return tr(
                "\(what).tooLong", ["count": String(note.count), "max": String(RecordedOutcome.maximumNoteLength)])
        }
        if note.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return tr("\(what).control")
        }
        return nil
    }
}
