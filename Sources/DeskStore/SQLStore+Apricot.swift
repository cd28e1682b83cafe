import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// APRICOT, once for both engines. Every write is one transaction that sees what committed before
// each of its statements. On SQLite, `BEGIN IMMEDIATE` holds the file's write lock from its first
// statement, so a registration's capacity check and its pseudo-ids, a code's rate limit and its
// insert, cannot interleave with another process's. On PostgreSQL (READ COMMITTED: a
// registration that waited for the counter row reads the user another server just made),
// pseudo-ids stay unique across servers by their primary key (a suffix another registration
// holds is refused by `ON CONFLICT DO NOTHING`, after waiting for that transaction, and
// replaced); the capacity is reserved by a conditional update of the counter row, whose lock
// orders registrations. A phone's codes are ordered by an advisory lock on the phone; an
// attempt is counted by a conditional update of the code's row.
extension SQLStore {
    public func issueSmsCode(
        phone: PhoneNumber, codeHMAC: String, now: Date, policy: SmsCodePolicy
    ) throws(StoreError) -> SmsCodeIssue {
        try apricotWrite("issue SMS code") { work throws(StoreError) in
            try work.issueSmsCode(phone: phone, codeHMAC: codeHMAC, now: now, policy: policy)
        }
    }

    public func verifySmsCode(
        phone: PhoneNumber, codeHMAC: String, now: Date, policy: SmsCodePolicy
    ) throws(StoreError) -> SmsCodeCheck {
        try apricotWrite("verify SMS code") { work throws(StoreError) in
            try work.verifySmsCode(phone: phone, codeHMAC: codeHMAC, now: now, policy: policy)
        }
    }

    public func login(
        phone: PhoneNumber, appID: String, deviceID: String, tokenHash: String, tokenExpiresAt: Date, now: Date,
        count: Int, nextSuffix: () -> UInt32
    ) throws(StoreError) -> ApricotLogin {
        try apricotWrite("sign in an APRICOT app") { work throws(StoreError) in
            try work.login(
                phone: phone, appID: appID, deviceID: deviceID, tokenHash: tokenHash, tokenExpiresAt: tokenExpiresAt,
                now: now, count: count, nextSuffix: nextSuffix)
        }
    }

    public func apricotUser(tokenHash: String, appID: String, deviceID: String, now: Date) throws(StoreError) -> Int64?
    {
        try read { db throws(StoreError) in
            try apricotWork(on: db).apricotUser(tokenHash: tokenHash, appID: appID, deviceID: deviceID, now: now)
        }
    }

    public func pseudoIDCapacity() throws(StoreError) -> PseudoIDCapacity {
        try read { db throws(StoreError) in try apricotWork(on: db).pseudoIDCapacity() }
    }

    public func storeContactFile(
        userID: Int64, day: CivilDay, records: [ContactRecord], receivedAt: Date, clientClock: Int64,
        skewSeconds: Int64
    ) throws(StoreError) -> ContactFileReceipt {
        try apricotWrite("store contact file") { work throws(StoreError) in
            try work.storeContactFile(
                userID: userID, day: day, records: records, receivedAt: receivedAt, clientClock: clientClock,
                skewSeconds: skewSeconds)
        }
    }

    public func tracePatient(phone: PhoneNumber) throws(StoreError) -> StoredTracePatient? {
        try snapshot("read a patient") { db throws(StoreError) in try apricotWork(on: db).tracePatient(phone: phone) }
    }

    public func tracePatient(userID: Int64) throws(StoreError) -> StoredTracePatient? {
        try snapshot("read a patient") { db throws(StoreError) in try apricotWork(on: db).tracePatient(userID: userID) }
    }

    public func owners(ofSuffixes suffixes: [UInt32]) throws(StoreError) -> [UInt32: (
        userID: Int64, phone: PhoneNumber
    )] {
        try snapshot("resolve pseudo-ids") { db throws(StoreError) in
            try apricotWork(on: db).owners(ofSuffixes: suffixes)
        }
    }

    public func contactOutcomes(patientUserID: Int64) throws(StoreError) -> [Int64: RecordedOutcome] {
        try read { db throws(StoreError) in try apricotWork(on: db).contactOutcomes(patientUserID: patientUserID) }
    }

    public func recordContactOutcome(
        patientUserID: Int64, contactUserID: Int64, outcome: RecordedOutcome, purpose: String
    ) throws(StoreError) {
        try apricotWrite("record a call outcome") { work throws(StoreError) in
            try work.recordContactOutcome(
                patientUserID: patientUserID, contactUserID: contactUserID, outcome: outcome, purpose: purpose)
        }
    }

    public func enqueueSms(
        phone: PhoneNumber, text: String, gateway: String, status: SmsDeliveryStatus, detail: String, now: Date,
        textExpiresAt: Date?
    ) throws(StoreError) -> Int64 {
        try read { db throws(StoreError) in
            try apricotWork(on: db).enqueueSms(
                phone: phone, text: text, gateway: gateway, status: status, detail: detail, now: now,
                textExpiresAt: textExpiresAt)
        }
    }

    public func recordSmsDelivery(id: Int64, status: SmsDeliveryStatus, detail: String, now: Date) throws(StoreError) {
        try read { db throws(StoreError) in
            try apricotWork(on: db).recordSmsDelivery(id: id, status: status, detail: detail, now: now)
        }
    }

    public func smsOutbox(limit: Int) throws(StoreError) -> [SmsMessage] {
        try read { db throws(StoreError) in try apricotWork(on: db).smsOutbox(limit: limit) }
    }

    /// `body` in one write transaction.
    private func apricotWrite<T: Sendable>(
        _ operation: String, _ body: (ApricotWork<DB>) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try write(operation) { db throws(StoreError) in try body(apricotWork(on: db)) }
    }
}
