import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// APRICOT in the embedded store. Every write is one `BEGIN IMMEDIATE` transaction: it holds the
// file's write lock from its first statement, so a registration's capacity check and its
// pseudo-ids, a code's rate limit and its insert, cannot interleave with another process's.
extension SQLiteStore {
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
        try lock.withLock { () throws(StoreError) -> Int64? in
            try apricotWork.apricotUser(tokenHash: tokenHash, appID: appID, deviceID: deviceID, now: now)
        }
    }

    public func pseudoIDCapacity() throws(StoreError) -> PseudoIDCapacity {
        try lock.withLock { () throws(StoreError) -> PseudoIDCapacity in try apricotWork.pseudoIDCapacity() }
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
        try lock.withLock { () throws(StoreError) -> StoredTracePatient? in
            try connection.transaction(immediate: false, operation: "read a patient") {
                () throws(StoreError) -> StoredTracePatient? in
                try apricotWork.tracePatient(phone: phone)
            }
        }
    }

    public func tracePatient(userID: Int64) throws(StoreError) -> StoredTracePatient? {
        try lock.withLock { () throws(StoreError) -> StoredTracePatient? in
            try connection.transaction(immediate: false, operation: "read a patient") {
                () throws(StoreError) -> StoredTracePatient? in
                try apricotWork.tracePatient(userID: userID)
            }
        }
    }

    public func owners(ofSuffixes suffixes: [UInt32]) throws(StoreError) -> [UInt32: (
        userID: Int64, phone: PhoneNumber
    )] {
        try lock.withLock { () throws(StoreError) -> [UInt32: (userID: Int64, phone: PhoneNumber)] in
            try connection.transaction(immediate: false, operation: "resolve pseudo-ids") {
                () throws(StoreError) -> [UInt32: (userID: Int64, phone: PhoneNumber)] in
                try apricotWork.owners(ofSuffixes: suffixes)
            }
        }
    }

    public func contactOutcomes(patientUserID: Int64) throws(StoreError) -> [Int64: RecordedOutcome] {
        try lock.withLock { () throws(StoreError) -> [Int64: RecordedOutcome] in
            try apricotWork.contactOutcomes(patientUserID: patientUserID)
        }
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
        try lock.withLock { () throws(StoreError) -> Int64 in
            try apricotWork.enqueueSms(
                phone: phone, text: text, gateway: gateway, status: status, detail: detail, now: now,
                textExpiresAt: textExpiresAt)
        }
    }

    public func recordSmsDelivery(id: Int64, status: SmsDeliveryStatus, detail: String, now: Date) throws(StoreError) {
        try lock.withLock { () throws(StoreError) in
            try apricotWork.recordSmsDelivery(id: id, status: status, detail: detail, now: now)
        }
    }

    public func smsOutbox(limit: Int) throws(StoreError) -> [SmsMessage] {
        try lock.withLock { () throws(StoreError) -> [SmsMessage] in try apricotWork.smsOutbox(limit: limit) }
    }

    // MARK: Internals

    /// The shared APRICOT code on this store's connection (call with the lock held).
    var apricotWork: ApricotWork<SQLiteConnection> {
        ApricotWork(db: connection, sql: .sqlite, staff: staffWork(on: connection), capacity: pseudoIDLimit)
    }

    /// `body` in one write transaction, under the lock.
    private func apricotWrite<T: Sendable>(
        _ operation: String, _ body: (ApricotWork<SQLiteConnection>) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try lock.withLock { () throws(StoreError) -> T in
            try connection.transaction(operation: operation) { () throws(StoreError) -> T in try body(apricotWork) }
        }
    }
}
