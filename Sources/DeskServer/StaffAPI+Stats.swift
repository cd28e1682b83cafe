import DeskAPI
import DeskContract
import DeskCore

/// The supervisor's statistics (docs/staff-api.yaml, "Statistics"): figures only, on the staff
/// executor like every store read.
extension StaffAPI {
    func statistics(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        serve(StaffCodecs.statistics, request, on: executor) { desk, session, query throws(ServiceError) in
            try await desk.statistics(session, query: query)
        }
    }
}
