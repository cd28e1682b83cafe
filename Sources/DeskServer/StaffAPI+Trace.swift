import DeskAPI
import DeskContract
import DeskCore

/// The contact tracer's routes and the SMS outbox (docs/staff-api.yaml, "Contact tracing"),
/// each a typed endpoint (``StaffCodecs``). Phone numbers and purposes come only in bodies
/// (POST), so the access log never sees them; the desk's messages hold neither.
extension StaffAPI {
    func traceLookup(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        serve(StaffCodecs.traceLookup, request, on: executor) { desk, session, body throws(ServiceError) in
            try await desk.traceLookup(session, phone: body.phone, purpose: body.purpose)
        }
    }

    func traceSightings(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        serve(StaffCodecs.traceSightings, request, on: executor) { desk, session, body throws(ServiceError) in
            try await desk.traceSightings(
                session, patientUserID: body.patientUserID, contactUserID: body.contactUserID, purpose: body.purpose,
                offset: body.offset, limit: body.limit)
        }
    }

    func traceOutcome(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        serve(StaffCodecs.traceOutcome, request, on: executor) { desk, session, body throws(ServiceError) in
            try await desk.recordOutcome(
                session, patientUserID: body.patientUserID, contactUserID: body.contactUserID, outcome: body.outcome,
                note: body.note, purpose: body.purpose)
        }
    }

    func traceExport(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        serve(StaffCodecs.traceExport, request, on: executor) { desk, session, body throws(ServiceError) in
            try await desk.recordTraceExport(
                session, patientUserID: body.patientUserID, purpose: body.purpose, kind: body.kind, rows: body.rows)
        }
    }

    func tracePhoneCopy(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        serve(StaffCodecs.tracePhoneCopy, request, on: executor) { desk, session, body throws(ServiceError) in
            try await desk.recordPhoneCopy(
                session, patientUserID: body.patientUserID, contactUserID: body.contactUserID, purpose: body.purpose)
        }
    }

    func smsOutbox(_ request: HTTPRequest, on executor: DeskExecutor) -> HandlerResult {
        serve(StaffCodecs.smsOutbox, request, on: executor) { desk, session, limit throws(ServiceError) in
            try await desk.smsOutbox(session, limit: limit)
        }
    }
}
