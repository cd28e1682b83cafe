import CivilCalendar
import DeskContract
import DeskCore
import DeskCrypto
import DeskStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The APRICOT use cases phones reach over `/apricot/v1` (spec/apricot-protocol.md), over a
/// ``Store``: SMS codes, sign-in with pseudo-ids, and contact files. The server's handlers
/// call these after validating a request; the rules live here and in DeskCore.
///
/// Threading rule: synchronous and safe from any thread (server threads call it directly).
/// Privacy rule: codes reach the store only as an HMAC under ``codeSecret``, tokens only as
/// their SHA-256; no log line holds a phone number, a code or a token.
public struct ApricotDesk: Sendable {
    public let store: any Store
    public let clock: any Clock
    public let settings: ApricotSettings
    /// The key of the codes' HMAC (at least 32 bytes, from the server's secret file).
    let codeSecret: [UInt8]
    public let gateway: any SmsGateway
    public let codePolicy: SmsCodePolicy
    /// How long an access token is valid: 30 days.
    public let tokenLifetime: Duration
    /// How full the pseudo-id space is, read from the store at most once a minute.
    public let capacity: CapacityWatch
    let log: @Sendable (String) -> Void

    public init(
        store: any Store, clock: any Clock = SystemClock(), settings: ApricotSettings, codeSecret: [UInt8],
        gateway: any SmsGateway, codePolicy: SmsCodePolicy = SmsCodePolicy(),
        tokenLifetime: Duration = .seconds(30 * 86_400), log: @escaping @Sendable (String) -> Void
    ) {
        precondition(codeSecret.count >= 32, "the code secret must hold at least 32 bytes")
        self.store = store
        self.clock = clock
        self.settings = settings
        self.codeSecret = codeSecret
        self.gateway = gateway
        self.codePolicy = codePolicy
        self.tokenLifetime = tokenLifetime
        self.log = log
        capacity = CapacityWatch(store: store, log: log)
    }

    public func today() -> CivilDay { clock.now().utcDay }

    /// The stored form of a code: HMAC-SHA256 under the server secret of the phone and the code
    /// (a 6-digit code has a million values: a plain hash would be reversed at once).
    public func codeHMAC(phone: PhoneNumber, code: String) -> String {
        HMAC.sha256Hex(key: codeSecret, "\(phone.e164)|\(code)")
    }

    /// The stored form of an access token.
    public static func tokenHash(_ token: String) -> String { SHA256.hex(token) }

    // MARK: Codes

    /// `POST /apricot/v1/otp`: makes a random 6-digit code, keeps its HMAC, and sends it by SMS
    /// through the gateway. Too soon after the phone's last code (30 s), or the sixth in an hour:
    /// `.tooSoon`, nothing stored or sent. `appID` and `deviceID` are checked by the API and not
    /// kept: the token made at login is what is bound to them.
    public func requestCode(phone: PhoneNumber, appID: String, deviceID: String) throws(ServiceError)
        -> SmsCodeIssue
    {
        let code = Self.newCode()
        let issue: SmsCodeIssue
        let now = clock.now()
        do {
            issue = try store.issueSmsCode(
                phone: phone, codeHMAC: codeHMAC(phone: phone, code: code), now: now, policy: codePolicy)
        } catch {
            throw ServiceError(error)
        }
        guard case .issued = issue else { return issue }
        let minutes = Int(codePolicy.lifetime.components.seconds / 60)
        try gateway.send(
            to: phone,
            message: SmsCodeText(
                code: code,
                template:
                    "Your APRICOT code is \(SmsCodeText.placeholder). It expires in \(minutes) minutes. Never tell it to anyone.",
                expiresAt: now.addingTimeInterval(codePolicy.lifetime.seconds)))
        return issue
    }

    /// Six random digits, uniformly drawn from a cryptographic generator.
    static func newCode() -> String {
        let number = SecureRandom.uniform(1_000_000)
        let digits = String(number)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    // MARK: Sign-in

    /// `POST /apricot/v1/login`: checks the code, then signs the app in: a new phone becomes a
    /// user with ``ApricotSettings/pseudoIDsPerUser`` new pseudo-ids, a known phone keeps its user
    /// and pseudo-ids; either way a new token (32 random bytes, base64url), valid 30 days and
    /// bound to (`appID`, `deviceID`). When the pseudo-id space cannot hold a new user, `.full`
    /// (the code is used up: the phone cannot register anyway).
    public func login(otp: String, phone: PhoneNumber, appID: String, deviceID: String) throws(ServiceError)
        -> ApricotLoginResult
    {
        let count = settings.pseudoIDsPerUser
        // Read (at most once a minute) so that the warning past half full is logged; whether a
        // new user fits is the store's decision, since a known phone signs in even when full.
        _ = capacity.known
        let now = clock.now()
        do {
            switch try store.verifySmsCode(
                phone: phone, codeHMAC: codeHMAC(phone: phone, code: otp), now: now, policy: codePolicy)
            {
            case .wrong: return .wrongCode
            case .expired: return .expired
            case .tooManyAttempts: return .tooManyAttempts
            case .verified: break
            }
            let token = Base64.encodeURL(SecureRandom.bytes(32))
            var random = SuffixSource()
            let login = try store.login(
                phone: phone, appID: appID, deviceID: deviceID, tokenHash: Self.tokenHash(token),
                tokenExpiresAt: now.addingTimeInterval(tokenLifetime.seconds), now: now, count: count,
                nextSuffix: { random.next() })
            switch login {
            case .signedIn(let userID, let isNew, let pseudoIDs):
                if isNew { capacity.added(pseudoIDs.count) }
                return .signedIn(
                    ApricotCredentials(
                        userID: userID, accessToken: token, pseudoIDs: pseudoIDs, isNew: isNew,
                        expiresAt: now.addingTimeInterval(tokenLifetime.seconds)))
            case .full(let full):
                capacity.update(full)
                capacity.warnIfFull(full)
                return .full(full)
            }
        } catch {
            throw ServiceError(error)
        }
    }

    // MARK: Contact files

    /// `POST /apricot/v1/contacts/{day}`: the token must be known, unexpired and issued to
    /// (`appID`, `deviceID`); the day within the contact history and not in the future (UTC);
    /// the body 1…43 690 whole records. Skew = `receivedAt` − `clientClock` (whole seconds);
    /// each non-zero record time is stored as app time + skew, zero stays zero. A second file
    /// for the same (user, day) replaces the first.
    public func uploadContacts(
        token: String, appID: String, deviceID: String, day: CivilDay, bytes: [UInt8], clientClock: Int64
    ) throws(ServiceError) -> ApricotUploadResult {
        let receivedAt = clock.now()
        do {
            guard
                let userID = try store.apricotUser(
                    tokenHash: Self.tokenHash(token), appID: appID, deviceID: deviceID, now: receivedAt)
            else { return .notSignedIn }
            if let problem = ContactFile.checkDay(
                day, today: receivedAt.utcDay, historyDays: settings.contactHistoryDays)
            {
                return .refused(problem)
            }
            let records: [ContactRecord]
            do {
                records = try ContactFile.parse(bytes)
            } catch {
                return .refused(error)
            }
            let skew = Int64(receivedAt.timeIntervalSince1970.rounded(.down)) - clientClock
            let adjusted = records.map {
                ContactRecord(beacon: $0.beacon, time: ContactFile.adjusted($0.time, skewSeconds: skew))
            }
            let receipt = try store.storeContactFile(
                userID: userID, day: day, records: adjusted, receivedAt: receivedAt, clientClock: clientClock,
                skewSeconds: skew)
            return .stored(receipt, skewSeconds: skew)
        } catch {
            throw ServiceError(error)
        }
    }
}

/// What a sign-in answers.
public enum ApricotLoginResult: Sendable {
    case signedIn(ApricotCredentials)
    /// Wrong code, or no code for this phone (401).
    case wrongCode
    /// The code's 5 minutes are over (401): ask for a new one.
    case expired
    /// Past the 5 attempts a code allows (429): ask for a new one.
    case tooManyAttempts
    /// The pseudo-id space cannot hold another user: registration is closed.
    case full(PseudoIDCapacity)
}

/// A signed-in app's credentials. The token is given out once and only its hash is kept.
public struct ApricotCredentials: Sendable {
    public var userID: Int64
    public var accessToken: String
    public var pseudoIDs: [PseudoID]
    public var isNew: Bool
    public var expiresAt: Date
}

/// What a contact-file upload answers.
public enum ApricotUploadResult: Sendable {
    case stored(ContactFileReceipt, skewSeconds: Int64)
    /// Unknown or expired token, or a token issued to another app or device (401).
    case notSignedIn
    /// The file or its day breaks a rule; nothing was stored.
    case refused(ContactFileError)
}

/// Random pseudo-id suffixes from OpenSSL's generator, drawn 4 KiB at a time (a registration
/// needs 1 000 of them; one RAND_bytes call each would be a thousand calls).
struct SuffixSource {
    private var buffer: [UInt8] = []
    private var offset = 0

    mutating func next() -> UInt32 {
        if offset + 4 > buffer.count {
            buffer = SecureRandom.bytes(4_096)
            offset = 0
        }
        defer { offset += 4 }
        return UInt32(buffer[offset]) << 24 | UInt32(buffer[offset + 1]) << 16 | UInt32(buffer[offset + 2]) << 8
            | UInt32(buffer[offset + 3])
    }
}

/// How full the pseudo-id space is, without counting 4 billion rows on every sign-in: read from
/// the store at most once a minute, plus the pseudo-ids this server made since. Logs a warning
/// past 50 % (at most once an hour) and when full; never a phone number.
public final class CapacityWatch: @unchecked Sendable {
    let store: any Store
    let log: @Sendable (String) -> Void
    private let lock = SimpleLock()
    private var value: PseudoIDCapacity?
    private var readAt: ContinuousClock.Instant?
    private var warnedAt: [Bool: ContinuousClock.Instant] = [:]
    static let refresh: Duration = .seconds(60)
    static let warnEvery: Duration = .seconds(3_600)

    init(store: any Store, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.log = log
    }

    /// The capacity as last read (and counted since), re-read when older than a minute; nil
    /// when the store could never be read.
    public var known: PseudoIDCapacity? {
        let now = ContinuousClock.now
        let stale = lock.withLock { readAt.map { now - $0 > Self.refresh } ?? true }
        if stale, let read = try? store.pseudoIDCapacity() { update(read) }
        return lock.withLock { value }
    }

    func update(_ read: PseudoIDCapacity) {
        let now = ContinuousClock.now
        lock.withLock {
            value = read
            readAt = now
        }
        warnIfPastHalf(read)
    }

    func added(_ count: Int) {
        let current = lock.withLock { () -> PseudoIDCapacity? in
            value?.used += Int64(count)
            return value
        }
        if let current { warnIfPastHalf(current) }
    }

    private func warnIfPastHalf(_ capacity: PseudoIDCapacity) {
        guard capacity.isWarning, due(full: false) else { return }
        log(
            "WARNING: the APRICOT pseudo-id space is past half full: \(capacity.summary). Each new user takes longer to place, and registration stops when it is full (docs/apricot-api.md, \"Capacity\")"
        )
    }

    func warnIfFull(_ capacity: PseudoIDCapacity) {
        guard due(full: true) else { return }
        log(
            "WARNING: APRICOT registration refused: the pseudo-id space is full (\(capacity.summary)); new phones cannot register (docs/apricot-api.md, \"Capacity\")"
        )
    }

    /// Whether the warning of its kind (half, full) was not logged within the hour.
    private func due(full: Bool) -> Bool {
        let now = ContinuousClock.now
        return lock.withLock {
            if let last = warnedAt[full], now - last < Self.warnEvery { return false }
            warnedAt[full] = now
            return true
        }
    }
}
