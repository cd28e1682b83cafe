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
        try await send(StaffCodecs.traceLookup, .init(phone: phone, purpose: purpose), token: session.token)
    }

    public func traceSightings(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64?, purpose: String, offset: Int, limit: Int
    ) async throws(ServiceError) -> TraceSightingsPage {
        let request = StaffRequests.TraceSightings(
            patientUserID: patientUserID, contactUserID: contactUserID, purpose: purpose, offset: offset, limit: limit)
        return try await send(StaffCodecs.traceSightings, request, token: session.token)
    }

    public func recordOutcome(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64, outcome: ContactOutcome, note: String,
        purpose: String
    ) async throws(ServiceError) -> RecordedOutcome {
        let request = StaffRequests.TraceOutcome(
            patientUserID: patientUserID, contactUserID: contactUserID, outcome: outcome, note: note, purpose: purpose)
        return try await send(StaffCodecs.traceOutcome, request, token: session.token)
    }

    public func recordTraceExport(
        _ session: StaffSession, patientUserID: Int64, purpose: String, kind: String, rows: Int
    ) async throws(ServiceError) {
        let request = StaffRequests.TraceExport(patientUserID: patientUserID, purpose: purpose, kind: kind, rows: rows)
        try await send(StaffCodecs.traceExport, request, token: session.token)
    }

    public func recordPhoneCopy(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64, purpose: String
    ) async throws(ServiceError) {
        let request = StaffRequests.TracePhoneCopy(
            patientUserID: patientUserID, contactUserID: contactUserID, purpose: purpose)
        try await send(StaffCodecs.tracePhoneCopy, request, token: session.token)
    }

    public func smsOutbox(_ session: StaffSession, limit: Int) async throws(ServiceError) -> [SmsMessage] {
        try await send(StaffCodecs.smsOutbox, limit, token: session.token)
    }
}
