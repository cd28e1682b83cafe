import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The contact tracer's use cases and the SMS outbox over the staff API. Every call that names
/// a phone number is a POST with the number in its body (never in a URL). None of these calls
/// is retried: a lookup, every page of sightings, an outcome, an export and a read of the SMS
/// outbox each write an audit entry, and a retry after a lost answer would record it twice
/// (the endpoint table says so: ``StaffEndpoint/idempotent``). A failure is reported and the
/// tracer asks again (`r`).
extension RemoteDesk {
    public func traceLookup(_ session: StaffSession, phone: String, purpose: String) async throws(ServiceError)
        -> TraceLookup
    {
        let reply = try await call(
            .traceLookup, body: StaffWire.traceLookupRequest(phone: phone, purpose: purpose), token: session.token)
        return try read(reply) { bytes throws(FieldProblem) in try StaffWire.readTraceLookup(bytes) }
    }

    public func traceSightings(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64?, purpose: String, offset: Int, limit: Int
    ) async throws(ServiceError) -> TraceSightingsPage {
        let request = StaffRequests.TraceSightings(
            patientUserID: patientUserID, contactUserID: contactUserID, purpose: purpose, offset: offset, limit: limit)
        let reply = try await call(
            .traceSightings, body: StaffWire.traceSightingsRequest(request), token: session.token)
        return try read(reply) { bytes throws(FieldProblem) in try StaffWire.readSightingsPage(bytes) }
    }

    public func recordOutcome(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64, outcome: ContactOutcome, note: String,
        purpose: String
    ) async throws(ServiceError) -> RecordedOutcome {
        let request = StaffRequests.TraceOutcome(
            patientUserID: patientUserID, contactUserID: contactUserID, outcome: outcome, note: note, purpose: purpose)
        let reply = try await call(.traceOutcome, body: StaffWire.traceOutcomeRequest(request), token: session.token)
        return try read(reply) { bytes throws(FieldProblem) in try StaffWire.readRecordedOutcome(bytes) }
    }

    public func recordTraceExport(
        _ session: StaffSession, patientUserID: Int64, purpose: String, kind: String, rows: Int
    ) async throws(ServiceError) {
        let request = StaffRequests.TraceExport(patientUserID: patientUserID, purpose: purpose, kind: kind, rows: rows)
        _ = try await call(.traceExport, body: StaffWire.traceExportRequest(request), token: session.token)
    }

    public func smsOutbox(_ session: StaffSession, limit: Int) async throws(ServiceError) -> [SmsMessage] {
        let reply = try await call(.smsOutbox, query: [("limit", String(limit))], token: session.token)
        return try read(reply) { bytes throws(FieldProblem) in try StaffWire.readSmsOutbox(bytes) }
    }
}
