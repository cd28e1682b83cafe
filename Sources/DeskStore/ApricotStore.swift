import CivilCalendar
import DeskCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The APRICOT part of the system of record (spec/apricot-protocol.md): SMS codes, users,
/// pseudo-ids, access tokens, contact files, the SMS outbox and call outcomes.
///
/// Same rules as ``Store``: every method is one transaction; safe from any thread; codes and
/// tokens arrive only as HMACs / hashes; errors never carry a phone number or any bound value.
public protocol ApricotStore: Sendable {
    // MARK: Registration

    /// Records a new SMS code for `phone` (only its HMAC), unless the phone asked too recently
    /// (`policy`: one per 30 s, five per hour): then nothing is stored and the answer says when
    /// to ask again. A new code replaces the phone's earlier unused code.
    func issueSmsCode(
        phone: PhoneNumber, codeHMAC: String, now: Date, policy: SmsCodePolicy
    ) throws(StoreError) -> SmsCodeIssue

    /// Checks a code: counts the attempt against the phone's current code (at most
    /// `policy.maxAttempts`), and on a match at `now` before expiry, uses the code up.
    func verifySmsCode(
        phone: PhoneNumber, codeHMAC: String, now: Date, policy: SmsCodePolicy
    ) throws(StoreError) -> SmsCodeCheck

    /// Signs an app in after a verified code: a new phone becomes a user with `count` new
    /// pseudo-ids (unique across all users: suffixes come from `nextSuffix`, retried on a
    /// collision); a known phone keeps its user and pseudo-ids. Stores the token's hash bound
    /// to (`appID`, `deviceID`) until `tokenExpiresAt`, and appends an `apricot_registered` event.
    /// `.full` when the pseudo-id space cannot hold `count` more (nothing stored).
    func login(
        phone: PhoneNumber, appID: String, deviceID: String, tokenHash: String, tokenExpiresAt: Date, now: Date,
        count: Int, nextSuffix: () -> UInt32
    ) throws(StoreError) -> ApricotLogin

    /// The user a token belongs to, if the token is known, unexpired at `now` and was issued to
    /// (`appID`, `deviceID`); nil otherwise.
    func apricotUser(tokenHash: String, appID: String, deviceID: String, now: Date) throws(StoreError) -> Int64?

    /// How many pseudo-ids exist.
    func pseudoIDCapacity() throws(StoreError) -> PseudoIDCapacity

    // MARK: Contact files

    /// Stores a user's contact file for `day` (records already skew-adjusted), replacing an
    /// earlier file of the same (user, day); counts its distinct and unknown beacons (foreign,
    /// or no owner) and appends a `contact_file_received` event.
    func storeContactFile(
        userID: Int64, day: CivilDay, records: [ContactRecord], receivedAt: Date, clientClock: Int64,
        skewSeconds: Int64
    ) throws(StoreError) -> ContactFileReceipt

    // MARK: Tracing

    /// The registered user with this phone, with their kept contact files; nil when the phone
    /// never registered.
    func tracePatient(phone: PhoneNumber) throws(StoreError) -> StoredTracePatient?

    /// The same for a user id (paging sightings, checking an outcome's contact); nil when no
    /// user has it.
    func tracePatient(userID: Int64) throws(StoreError) -> StoredTracePatient?

    /// Owners of pseudo-ids: suffix → (user id, phone). Suffixes nobody owns are absent.
    func owners(ofSuffixes suffixes: [UInt32]) throws(StoreError) -> [UInt32: (userID: Int64, phone: PhoneNumber)]

    /// The latest outcome per contact recorded for `patientUserID`.
    func contactOutcomes(patientUserID: Int64) throws(StoreError) -> [Int64: RecordedOutcome]

    /// Records an outcome for (`patientUserID`, `contactUserID`), replacing the earlier one,
    /// and appends the `contact_outcome` audit entry (actor, purpose) in the same transaction.
    func recordContactOutcome(
        patientUserID: Int64, contactUserID: Int64, outcome: RecordedOutcome, purpose: String
    ) throws(StoreError)

    // MARK: SMS gateway

    /// Puts a message in the outbox (`gateway` "outbox" or "http") with its first status:
    /// `held` (the outbox gateway keeps it, no attempt) or `pending` (a sender will try it).
    /// The text is dropped at `textExpiresAt` (when its code expires), or when the phone's code
    /// is used or replaced, whichever comes first; nil: only then.
    func enqueueSms(
        phone: PhoneNumber, text: String, gateway: String, status: SmsDeliveryStatus, detail: String, now: Date,
        textExpiresAt: Date?
    ) throws(StoreError) -> Int64

    /// Records a delivery attempt's result for message `id`.
    func recordSmsDelivery(id: Int64, status: SmsDeliveryStatus, detail: String, now: Date) throws(StoreError)

    /// The newest `limit` messages, newest first (for `tracedesk sms outbox`).
    func smsOutbox(limit: Int) throws(StoreError) -> [SmsMessage]
}

public enum SmsCodeIssue: Hashable, Sendable {
    case issued
    /// Too soon after the last code, or five in the past hour: ask again after this many seconds.
    case tooSoon(retryAfterSeconds: Int)
}

public enum SmsCodeCheck: Hashable, Sendable {
    case verified
    /// Wrong code (attempts counted), or no code for this phone.
    case wrong
    case expired
    /// Past the attempts a code allows: ask for a new code.
    case tooManyAttempts
}

public enum ApricotLogin: Hashable, Sendable {
    case signedIn(userID: Int64, isNew: Bool, pseudoIDs: [PseudoID])
    /// The pseudo-id space cannot hold another user.
    case full(PseudoIDCapacity)
}

/// What the server answers for an accepted contact file.
public struct ContactFileReceipt: Hashable, Sendable {
    public var records: Int
    public var distinctBeacons: Int
    public var unknownBeacons: Int
    /// Whether an earlier file for the same day was replaced.
    public var replaced: Bool

    public init(records: Int, distinctBeacons: Int, unknownBeacons: Int, replaced: Bool) {
        self.records = records
        self.distinctBeacons = distinctBeacons
        self.unknownBeacons = unknownBeacons
        self.replaced = replaced
    }
}

/// A patient as stored: the user and every kept contact file.
public struct StoredTracePatient: Sendable {
    public struct File: Sendable {
        public var day: CivilDay
        public var receivedAt: Date
        public var skewSeconds: Int64
        /// The file as stored (24-byte records, times already skew-adjusted).
        public var bytes: [UInt8]

        public init(day: CivilDay, receivedAt: Date, skewSeconds: Int64, bytes: [UInt8]) {
            self.day = day
            self.receivedAt = receivedAt
            self.skewSeconds = skewSeconds
            self.bytes = bytes
        }
    }

    public var userID: Int64
    public var phone: PhoneNumber
    public var registeredAt: Date
    /// The patient's own pseudo-id suffixes (their sightings are not contacts).
    public var ownSuffixes: Set<UInt32>
    /// Oldest day first.
    public var files: [File]

    public init(userID: Int64, phone: PhoneNumber, registeredAt: Date, ownSuffixes: Set<UInt32>, files: [File]) {
        self.userID = userID
        self.phone = phone
        self.registeredAt = registeredAt
        self.ownSuffixes = ownSuffixes
        self.files = files
    }
}

extension ApricotStore {
    /// A message whose text is dropped only when the phone's code is used or replaced.
    public func enqueueSms(
        phone: PhoneNumber, text: String, gateway: String, status: SmsDeliveryStatus, detail: String, now: Date
    ) throws(StoreError) -> Int64 {
        try enqueueSms(
            phone: phone, text: text, gateway: gateway, status: status, detail: detail, now: now, textExpiresAt: nil)
    }
}
