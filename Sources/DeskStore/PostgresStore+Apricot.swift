import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// PLACEHOLDER (issue 8 in progress): replaced by the real adapter.
extension PostgresStore {
    private func notYet() -> StoreError { .failed(operation: "apricot", reason: "not built yet") }

    public func issueSmsCode(
        phone: PhoneNumber, codeHMAC: String, now: Date, policy: SmsCodePolicy
    ) throws(StoreError) -> SmsCodeIssue { throw notYet() }

    public func verifySmsCode(
        phone: PhoneNumber, codeHMAC: String, now: Date, policy: SmsCodePolicy
    ) throws(StoreError) -> SmsCodeCheck { throw notYet() }

    public func login(
        phone: PhoneNumber, appID: String, deviceID: String, tokenHash: String, tokenExpiresAt: Date, now: Date,
        count: Int, nextSuffix: () -> UInt32
    ) throws(StoreError) -> ApricotLogin { throw notYet() }

    public func apricotUser(tokenHash: String, appID: String, deviceID: String, now: Date) throws(StoreError) -> Int64?
    {
        throw notYet()
    }

    public func pseudoIDCapacity() throws(StoreError) -> PseudoIDCapacity { throw notYet() }

    public func storeContactFile(
        userID: Int64, day: CivilDay, records: [ContactRecord], receivedAt: Date, clientClock: Int64,
        skewSeconds: Int64
    ) throws(StoreError) -> ContactFileReceipt { throw notYet() }

    public func tracePatient(phone: PhoneNumber) throws(StoreError) -> StoredTracePatient? { throw notYet() }

    public func owners(ofSuffixes suffixes: [UInt32]) throws(StoreError) -> [UInt32: (
        userID: Int64, phone: PhoneNumber
    )] {
        throw notYet()
    }

    public func contactOutcomes(patientUserID: Int64) throws(StoreError) -> [Int64: RecordedOutcome] { throw notYet() }

    public func recordContactOutcome(
        patientUserID: Int64, contactUserID: Int64, outcome: RecordedOutcome, purpose: String
    ) throws(StoreError) { throw notYet() }

    public func enqueueSms(phone: PhoneNumber, text: String, gateway: String, now: Date) throws(StoreError) -> Int64 {
        throw notYet()
    }

    public func recordSmsDelivery(id: Int64, status: SmsDeliveryStatus, detail: String, now: Date) throws(StoreError) {
        throw notYet()
    }

    public func smsOutbox(limit: Int) throws(StoreError) -> [SmsMessage] { throw notYet() }
}
