import DeskAPI
import DeskContract
import DeskCore

/// The contact tracer's routes and the SMS outbox (docs/staff-api.yaml, "Contact tracing").
/// Phone numbers and purposes come only in bodies (POST), so the access log never sees them;
/// the desk's messages hold neither.
extension StaffAPI {
    func traceLookup(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        signedIn(request, on: executor, body: StaffRequests.traceLookup) { desk, session, body throws(ServiceError) in
            ok(
                200,
                StaffWire.traceLookup(try await desk.traceLookup(session, phone: body.phone, purpose: body.purpose)))
        }
    }

    func traceSightings(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        signedIn(request, on: executor, body: StaffRequests.traceSightings) {
            desk, session, body throws(ServiceError) in
            let page = try await desk.traceSightings(
                session, patientUserID: body.patientUserID, contactUserID: body.contactUserID, purpose: body.purpose,
                offset: body.offset, limit: body.limit)
            return ok(
                200, StaffWire.sightingsPage(page.sightings, total: page.total, nextOffset: page.nextOffset))
        }
    }

    func traceOutcome(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        signedIn(request, on: executor, body: StaffRequests.traceOutcome) { desk, session, body throws(ServiceError) in
            ok(
                200,
                StaffWire.recordedOutcome(
                    try await desk.recordOutcome(
                        session, patientUserID: body.patientUserID, contactUserID: body.contactUserID,
                        outcome: body.outcome, note: body.note, purpose: body.purpose)))
        }
    }

    func traceExport(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        signedIn(request, on: executor, body: StaffRequests.traceExport) { desk, session, body throws(ServiceError) in
            try await desk.recordTraceExport(
                session, patientUserID: body.patientUserID, purpose: body.purpose, kind: body.kind, rows: body.rows)
            return HTTPResponse(status: 204, headers: [("Cache-Control", "no-store")])
        }
    }

    func smsOutbox(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        signedIn(request, on: executor, body: StaffRequests.smsOutboxLimit) {
            desk, session, limit throws(ServiceError) in
            ok(200, StaffWire.smsOutbox(try await desk.smsOutbox(session, limit: limit)))
        }
    }
}
