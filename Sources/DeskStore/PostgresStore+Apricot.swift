import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// APRICOT on PostgreSQL: each method one READ COMMITTED transaction on a pooled connection.
// Pseudo-ids stay unique across servers by their primary key (a suffix another registration
// holds is refused by `ON CONFLICT DO NOTHING`, after waiting for that transaction, and
// replaced); the capacity is reserved by a conditional update of the counter row, whose lock
// orders registrations. A phone's codes are ordered by an advisory lock on the phone; an
// attempt is counted by a conditional update of the code's row.
extension PostgresStore {
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
        try pool.withConnection { connection throws(StoreError) in
            try apricotWork(connection).apricotUser(tokenHash: tokenHash, appID: appID, deviceID: deviceID, now: now)
        }
    }

    public func pseudoIDCapacity() throws(StoreError) -> PseudoIDCapacity {
        try pool.withConnection { connection throws(StoreError) in try apricotWork(connection).pseudoIDCapacity() }
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
        try pool.withConnection { connection throws(StoreError) in
            try connection.transaction(begin: Self.snapshot, operation: "read a patient") {
                () throws(StoreError) -> StoredTracePatient? in
                try apricotWork(connection).tracePatient(phone: phone)
            }
        }
    }

    public func tracePatient(userID: Int64) throws(StoreError) -> StoredTracePatient? {
        try pool.withConnection { connection throws(StoreError) in
            try connection.transaction(begin: Self.snapshot, operation: "read a patient") {
                () throws(StoreError) -> StoredTracePatient? in
                try apricotWork(connection).tracePatient(userID: userID)
            }
        }
    }

    public func owners(ofSuffixes suffixes: [UInt32]) throws(StoreError) -> [UInt32: (
        userID: Int64, phone: PhoneNumber
    )] {
        try pool.withConnection { connection throws(StoreError) in
            try connection.transaction(begin: Self.snapshot, operation: "resolve pseudo-ids") {
                () throws(StoreError) -> [UInt32: (userID: Int64, phone: PhoneNumber)] in
                try apricotWork(connection).owners(ofSuffixes: suffixes)
            }
        }
    }

    public func contactOutcomes(patientUserID: Int64) throws(StoreError) -> [Int64: RecordedOutcome] {
        try pool.withConnection { connection throws(StoreError) in
            try apricotWork(connection).contactOutcomes(patientUserID: patientUserID)
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
        try pool.withConnection { connection throws(StoreError) in
            try apricotWork(connection).enqueueSms(
                phone: phone, text: text, gateway: gateway, status: status, detail: detail, now: now,
                textExpiresAt: textExpiresAt)
        }
    }

    public func recordSmsDelivery(id: Int64, status: SmsDeliveryStatus, detail: String, now: Date) throws(StoreError) {
        try pool.withConnection { connection throws(StoreError) in
            try apricotWork(connection).recordSmsDelivery(id: id, status: status, detail: detail, now: now)
        }
    }

    public func smsOutbox(limit: Int) throws(StoreError) -> [SmsMessage] {
        try pool.withConnection { connection throws(StoreError) in try apricotWork(connection).smsOutbox(limit: limit) }
    }

    // MARK: Internals

    /// The shared APRICOT code, on `connection`.
    func apricotWork(_ connection: PGConnection) -> ApricotWork<PGConnection> {
        ApricotWork(db: connection, sql: .postgres, staff: staffWork(on: connection), capacity: pseudoIDLimit)
    }

    /// `body` in one READ COMMITTED transaction on a pooled connection (each statement sees
    /// what committed before it: a registration that waited for the counter row reads the
    /// user another server just made).
    private func apricotWrite<T>(
        _ operation: String, _ body: (ApricotWork<PGConnection>) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        try pool.withConnection { connection throws(StoreError) in
            try connection.transaction(begin: PGSQL.beginReadCommitted, operation: operation) {
                () throws(StoreError) -> T in
                try body(apricotWork(connection))
            }
        }
    }
}
