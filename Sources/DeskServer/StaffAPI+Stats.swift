import DeskAPI
import DeskContract
import DeskCore

/// The supervisor's statistics (docs/staff-api.yaml, "Statistics"): figures only, on the staff
/// executor like every store read.
extension StaffAPI {
    func statistics(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        signedIn(request, on: executor, body: StaffRequests.statsQuery) { desk, session, query throws(ServiceError) in
            ok(200, StaffWire.statsReport(try await desk.statistics(session, query: query)))
        }
    }
}
