import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// PLACEHOLDER (issue 8 in progress): replaced by the real use cases.
extension RemoteDesk {
    public func traceLookup(_ session: StaffSession, phone: String, purpose: String) async throws(ServiceError)
        -> TraceLookup
    {
        throw .unavailable("contact tracing is not built yet")
    }

    public func traceSightings(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64?, purpose: String, offset: Int, limit: Int
    ) async throws(ServiceError) -> TraceSightingsPage {
        throw .unavailable("contact tracing is not built yet")
    }

    public func recordOutcome(
        _ session: StaffSession, patientUserID: Int64, contactUserID: Int64, outcome: ContactOutcome, note: String,
        purpose: String
    ) async throws(ServiceError) -> RecordedOutcome {
        throw .unavailable("contact tracing is not built yet")
    }

    public func recordTraceExport(
        _ session: StaffSession, patientUserID: Int64, purpose: String, kind: String, rows: Int
    ) async throws(ServiceError) {
        throw .unavailable("contact tracing is not built yet")
    }

    public func smsOutbox(_ session: StaffSession, limit: Int) async throws(ServiceError) -> [SmsMessage] {
        throw .unavailable("the SMS outbox is not built yet")
    }
}
