import CivilCalendar
import DeskCore
import DeskCrypto
import DeskStore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The staff use cases over a ``Store``: rules from DeskCore, then one store transaction.
///
/// Used by the console on the embedded store, by the CLI, and (later) by the server's handlers,
/// so every rule lives in one place.
public struct LocalDesk: DeskService {
    public let store: any Store
    public let clock: any Clock
    public let identity: DeskIdentity
    /// How long an authorised code stays usable (Immuni: 150 s).
    public let otpLifetime: Duration

    public init(
        store: any Store, clock: any Clock = SystemClock(), identity: DeskIdentity,
        otpLifetime: Duration = .seconds(150)
    ) {
        self.store = store
        self.clock = clock
        self.identity = identity
        self.otpLifetime = otpLifetime
    }

    public func now() -> Date { clock.now() }

    public func authorize(code: String, symptomsStartedOn: CivilDay) async throws(ServiceError) -> AuthorizeResult {
        let otp: Otp
        do {
            otp = try Otp(operatorInput: code)
        } catch {
            return .invalid(.code(error))
        }
        let now = clock.now()
        do {
            _ = try SymptomOnset.check(symptomsStartedOn, today: now.utcDay)
        } catch {
            return .invalid(.symptomOnset(error))
        }
        do {
            switch try store.authorize(
                otpHash: otp.hash, symptomsStartedOn: symptomsStartedOn, by: identity.user, now: now,
                lifetime: otpLifetime)
            {
            case .authorized(let record): return .authorized(record)
            case .alreadyAuthorized(let record): return .alreadyAuthorized(record)
            }
        } catch {
            throw .unavailable(error.message)
        }
    }

    public func status(of code: String) async throws(ServiceError) -> OtpStatus {
        let otp: Otp
        do {
            otp = try Otp(operatorInput: code)
        } catch {
            throw .invalid(error.message)
        }
        do {
            return OtpStatus(try store.authorization(for: otp.hash), now: clock.now())
        } catch {
            throw .unavailable(error.message)
        }
    }
}
