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

/// The use cases phones and hospital systems reach over the Immuni API, over a ``Store``.
/// The server's handlers call these after validating a request; the rules live here and in
/// DeskCore, so the console, the CLI and the API agree.
///
/// Threading rule: synchronous and safe from any thread (server threads call it directly).
/// Privacy rule: codes and tokens arrive hashed, or are hashed here before they reach a store.
public struct PhoneDesk: Sendable {
    public let store: any Store
    public let clock: any Clock
    public let otpLifetime: Duration
    public let risk: RiskProfile

    public init(
        store: any Store, clock: any Clock = SystemClock(), otpLifetime: Duration = .seconds(150),
        risk: RiskProfile = .immuni
    ) {
        self.store = store
        self.clock = clock
        self.otpLifetime = otpLifetime
        self.risk = risk
    }

    public func today() -> CivilDay { clock.now().utcDay }

    /// A hospital system authorises a code (`POST /v1/otp`); `actor` names the integration.
    public func authorize(otp: Otp, symptomsStartedOn: CivilDay, actor: String) throws(ServiceError) -> AuthorizeOutcome
    {
        do {
            return try store.authorize(
                otpHash: otp.hash, symptomsStartedOn: symptomsStartedOn, by: actor, now: clock.now(),
                lifetime: otpLifetime)
        } catch {
            throw ServiceError(error)
        }
    }

    /// The HIS client whose API key hashes to `keyHash` (revoked or not), read from the store on
    /// every authorisation so a revocation holds at once on every server.
    public func hisClient(keyHash: String) throws(ServiceError) -> StoredHISClient? {
        do {
            return try store.hisClient(keyHash: keyHash)
        } catch {
            throw ServiceError(error)
        }
    }

    /// The HIS client a verified TLS client certificate names (revoked or not).
    public func hisClient(name: String) throws(ServiceError) -> HISClient? {
        do {
            return try store.hisClient(name: name)
        } catch {
            throw ServiceError(error)
        }
    }

    /// check-otp: whether the code may upload now. Never consumes it.
    public func checkOtp(_ hash: OtpHash) throws(ServiceError) -> Bool {
        do {
            if case .authorized = try store.recordCheck(otpHash: hash, now: clock.now()) { return true }
            return false
        } catch {
            throw ServiceError(error)
        }
    }

    /// Records that a client address filled the guess limit (for the monitor). Best effort: a
    /// store that cannot take it now loses a warning, never an answer.
    public func recordGuessesLimited(route: String, retryAfterSeconds: Int) {
        try? store.recordGuessesLimited(route: route, retryAfterSeconds: retryAfterSeconds, now: clock.now())
    }

    /// upload: consumes the code and stores the keys the rules accept.
    public func upload(
        _ hash: OtpHash, clientClock: Int64, keys: [TemporaryExposureKey], province: Province?, summariesJSON: String,
        summaryCount: Int
    ) throws(ServiceError) -> UploadOutcome {
        let now = clock.now()
        let risk = self.risk
        do {
            return try store.consumeForUpload(otpHash: hash, now: now) { authorization in
                UploadRecord(
                    otpHash: hash, receivedAt: now, symptomsStartedOn: authorization.symptomsStartedOn,
                    province: province, clientClock: clientClock,
                    evaluation: UploadRules.evaluate(
                        keys: keys, serverNow: now, clientClock: clientClock,
                        symptomsStartedOn: authorization.symptomsStartedOn, profile: risk),
                    summariesJSON: summariesJSON, summaryCount: summaryCount)
            }
        } catch {
            throw ServiceError(error)
        }
    }

    /// Counts a dummy request (answered like a real one, never recorded as activity).
    public func countDummy(route: String) {
        // Counting is best effort: a locked store must not change the answer a dummy gets.
        try? store.countDummy(route: route, now: clock.now())
    }

    // MARK: Analytics

    /// The stored form of an analytics token.
    public static func tokenHash(_ token: String) -> String { SHA256.hex(token) }

    /// Whether the token may send operational info this month (201) or must be checked (202).
    public func analyticsTokenAuthorized(_ token: String) throws(ServiceError) -> Bool {
        do {
            return try store.analyticsTokenAuthorized(tokenHash: Self.tokenHash(token), month: today())
        } catch {
            throw ServiceError(error)
        }
    }

    /// After a successful device check: one record with and one without exposure, this month
    /// and next (facts §6.1), kept 62 days.
    public func grantAnalyticsToken(_ token: String) throws(ServiceError) {
        let month = today().firstOfMonth
        let hash = Self.tokenHash(token)
        let allowances = [month, month.adding(months: 1)].flatMap { m in
            [true, false].map { AnalyticsAllowance(tokenHash: hash, month: m, withExposure: $0) }
        }
        do {
            try store.grantAnalyticsAllowances(allowances, expiresAt: clock.now().addingTimeInterval(62 * 86_400))
        } catch {
            throw ServiceError(error)
        }
    }

    /// An iOS record: stored only if the token still has this month's allowance of its kind.
    public func recordAppleOperationalInfo(_ info: OperationalInfo, token: String) throws(ServiceError) -> Bool {
        let allowance = AnalyticsAllowance(
            tokenHash: Self.tokenHash(token), month: today(), withExposure: info.exposureNotification)
        do {
            return try store.recordOperationalInfo(info, allowance: allowance, now: clock.now())
        } catch {
            throw ServiceError(error)
        }
    }

    /// Whether an attestation salt was used within the last 10 minutes (checked before the
    /// costly verification; the claim in ``recordGoogleOperationalInfo`` is what counts).
    public func attestationSaltUsed(_ salt: String) -> Bool {
        (try? store.attestationSaltUsed(salt, now: clock.now())) ?? false
    }

    /// An Android record whose attestation verified: stored with its salt in one transaction, the
    /// salt single-use for 10 minutes. False when the salt was already used.
    public func recordGoogleOperationalInfo(_ info: OperationalInfo, salt: String) throws(ServiceError) -> Bool {
        let now = clock.now()
        do {
            return try store.recordOperationalInfo(
                info, salt: salt, now: now, saltExpiresAt: now.addingTimeInterval(600))
        } catch {
            throw ServiceError(error)
        }
    }

}

extension ServiceError {
    /// A store error as a service error: a lock, a lost database or a write conflict is
    /// temporary (retry), anything else is a fault.
    public init(_ error: StoreError) {
        switch error {
        case .locked, .unavailable, .conflict: self = .unavailable(error.message)
        default: self = .failed(error.message)
        }
    }
}
